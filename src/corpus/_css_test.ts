import assert from "node:assert/strict";
import { createParser } from "css-selector-parser";
import { checkSelector, PLAIN_SELECTOR } from "./_css.ts";

Deno.test("css checks - a repeated selector gets the same verdict from memory as the first time", () => {
  for (let round = 0; round < 2; round++) {
    assert.equal(checkSelector("#gh .nav > a[href]"), undefined, `round ${round}`);
    assert.equal(checkSelector("div[[x"), checkSelector("div[[x"));
    assert.equal(checkSelector("div[[x")?.code, "selector-invalid", `round ${round}`);
    assert.equal(checkSelector("a:hover")?.code, "selector-unsupported", `round ${round}`);
    assert.equal(checkSelector("p::before")?.code, "selector-unsupported", `round ${round}`);
    assert.equal(checkSelector("::-webkit-scrollbar")?.code, "selector-unsupported", `round ${round}`);
    assert.equal(checkSelector("li:first-child"), undefined, `round ${round}`);
  }
});

Deno.test("css checks - what the plain-selector shortcut accepts, the parser accepts too (random selectors)", () => {
  const strict = createParser({ syntax: "latest", strict: true });
  const pieces = [
    "a",
    "div",
    "x-y",
    "-z",
    "_u",
    "3",
    "#",
    ".",
    "#id",
    ".cls",
    ".a-b",
    "*",
    " ",
    "  ",
    ">",
    "+",
    "~",
    ",",
    "[",
    "]",
    "=",
    "~=",
    "|=",
    "^=",
    "$=",
    "*=",
    '"',
    "'",
    '"v"',
    "'w x'",
    "[data-x]",
    '[aria-label="L"]',
    "[x=y]",
    ":",
    "::",
    "(",
    ")",
    "\\",
    "é",
    "\n",
    "|",
    "-",
    "--",
    "_",
  ];
  let seed = 15;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  let accepted = 0;
  for (let n = 0; n < 20_000; n++) {
    const selector = Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => pieces[Math.floor(rnd() * pieces.length)])
      .join("");
    if (!PLAIN_SELECTOR.test(selector)) continue;
    accepted++;
    assert.doesNotThrow(() => strict(selector), `the parser refuses ${JSON.stringify(selector)}`);
    assert.ok(!selector.includes(":"), selector);
  }
  assert.ok(accepted > 1000, `only ${accepted} random selectors were plain`);
});

Deno.test("css checks - the plain-selector shortcut answers hostile input (no exponential backtracking)", () => {
  // Each of these would take minutes with a backtracking blow-up; the suite would hang here.
  for (
    const hostile of ["a ".repeat(20_000) + "!", "[x".repeat(5000), ".a".repeat(20_000) + ":", "a > ".repeat(9000)]
  ) {
    assert.equal(PLAIN_SELECTOR.test(hostile), false);
  }
});
