import assert from "node:assert/strict";
import { checkSelector } from "./_css.ts";

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
