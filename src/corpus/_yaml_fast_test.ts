import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { fastParse } from "./_yaml_fast.ts";
import { libraryParse } from "./_yaml_library.ts";
import type { ParsedYaml } from "./_yaml_nodes.ts";
import { mulberry32 } from "../../tests/_random.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The contract: whatever the fast reader accepts, it reads exactly as the library does (same nodes, values, sources,
 * offsets, line table), and the library finds nothing wrong with it. Returns whether it was accepted.
 */
function checkSame(text: string): boolean {
  const fast = fastParse(text);
  if (fast === undefined) return false;
  const lib: ParsedYaml = libraryParse(text);
  const why = `text: ${JSON.stringify(text)}`;
  assert.deepEqual(lib.errors, [], `the library found errors in text the fast reader accepted; ${why}`);
  assert.deepEqual(lib.warnings, [], why);
  assert.deepEqual(lib.ignored, [], why);
  assert.equal(lib.cyclic, undefined, why);
  // The fast reader's line table is a typed array (a view of its own); the same offsets.
  assert.deepEqual({ ...fast, lineStarts: Array.from(fast.lineStarts) }, lib, why);
  return true;
}

Deno.test("fast yaml - reads the block subset exactly as the library does", () => {
  const accepted = [
    "",
    "# only a comment\n\n",
    "version: 1\n",
    'a:\nb: 1\nc: x\n  y\n\n  z\nd:\n  - p\n  -\n  - q: 1\n    r: "s"\ne: ~ # c\n',
    "a:   # c\nb: 1\n",
    "a:   \nb:\n",
    "k:\n- a\n- b\nj: 2\n",
    '- x\n  `y` z\n  - w\n  "q" [r]\n',
    "  - a b\n   c\n",
    "a: 'it''s' # c\nb: ''\nc: \"\"\n",
    "url: https://example.com/a#b?c=d:e\n",
    "a: b#c\nd: e :f\n",
    "flags: [true, True, TRUE, false, null, Null, NULL, ~]\n".replace(
      /\[.*\]/,
      "\n  - true\n  - True\n  - FALSE\n  - null\n  - ~\n  - NULL",
    ),
    "n: 007\np: +3\nq: 12345678901234567890\n",
    "a: 1\n - b\n",
    "s: .foo\nt: 1a\nu: 0x\nv: '0x1F'\n",
    "memory:\n  - first line\n    second line\n\n    after a blank\n  - next # a comment\n",
    "components:\n  - name: A\n    selector: '#a'\n    children:\n      - name: B\n        selector: \".b\"\n",
    "-   name: x\n    selector: y\n-  z\n",
    "a:\n    - deep\n    -   deeper: 1\n        more: 2\nb: \u00a0nbsp\u00a0 \n",
    'emoji: 🦀 crab\nquote: he said "hi"\n',
    "a: 1", // no final newline
    "a:\n  b:\n    c:\n      d: e\n",
  ];
  for (const text of accepted) assert.ok(checkSame(text), `declined: ${JSON.stringify(text)}`);
});

Deno.test("fast yaml - leaves everything else to the library", () => {
  const declined = [
    "a: [1, 2]\n",
    "a: {b: 1}\n",
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "a: |\n  text\n",
    "a: >\n  text\n",
    "---\na: 1\n",
    "a: 1\n---\nb: 2\n",
    "...\n",
    "---",
    "... # end\n",
    "%YAML 1.2\n---\na: 1\n",
    "a: 1\na: 2\n",
    'a: "x\\n"\n',
    'a: "x\n  y"\n',
    "a: 'x\n  y'\n",
    "a:\tb\n",
    "a: b\r\n",
    "a: b: c\n",
    "a: x #c\n  y\n",
    'a: "x" y\n',
    "a: 1.5\n",
    "a: 0x1F\n",
    "a: .inf\n",
    "1: a\n",
    "true: a\n",
    "<<: {a: 1}\n",
    "? a\n: b\n",
    "a\n",
    "m: -12\n",
    "a: 1\n- b\n",
    "- a\n  b: c\n",
    "a:\n  text\n",
    "  a: 1\nb: 2\n",
    "a: b\n  # c\n  d\n",
    "\ufeffa: 1\n",
    `${"k".repeat(1100)}: v\n`,
    `${"- ".repeat(150)}x\n`,
  ];
  for (const text of declined) assert.equal(fastParse(text), undefined, `accepted: ${JSON.stringify(text)}`);
});

/** Every YAML file of this repository (fixtures, bundled corpora), whatever is in it. */
async function repoYaml(): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      if (e.name === ".git" || e.name === "node_modules") continue;
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (e.isFile && /\.ya?ml$/i.test(e.name)) out.push({ path, text: await Deno.readTextFile(path) });
    }
  };
  await walk(`${ROOT}assets`);
  await walk(`${ROOT}tests`);
  await walk(`${ROOT}src`);
  return out;
}

Deno.test("fast yaml - the repository's YAML files: identical when accepted; the bundled corpora all accepted", async () => {
  const files = await repoYaml();
  assert.ok(files.length > 50, `only ${files.length} YAML files found`);
  let accepted = 0;
  for (const { path, text } of files) {
    const source = text.replace(/^\uFEFF/, "");
    if (checkSame(source)) accepted++;
    else if (path.includes("/assets/gallery/")) assert.fail(`a bundled corpus file was declined: ${path}`);
  }
  assert.ok(accepted > files.length / 2, `only ${accepted} of ${files.length} accepted`);
});

const PIECES = [
  "a",
  "name",
  "$ref",
  "b c",
  "x",
  "-",
  "- ",
  ":",
  ": ",
  "#",
  " #",
  "'",
  "''",
  '"',
  "~",
  "null",
  "true",
  "False",
  "1",
  "007",
  "-3",
  "1.5",
  "0x1F",
  ".a",
  "[",
  "]",
  "{",
  "}",
  ",",
  "&a",
  "*a",
  "!t",
  "|",
  ">",
  "?",
  "%",
  "@",
  "`",
  " ",
  "  ",
  "\u00a0",
  "é",
  "🦀",
  "\\",
  "\t",
  "<<",
];

Deno.test("fast yaml - random documents: declined, or read exactly as the library reads them", () => {
  const rnd = mulberry32(15 + Number(Deno.env.get("MAPPER_FUZZ_SEED") ?? 0));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const word = () => Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(PIECES)).join("");
  let accepted = 0;
  const runs = 6000 * Number(Deno.env.get("MAPPER_FUZZ") ?? 1);
  for (let n = 0; n < runs; n++) {
    const lines: string[] = [];
    const count = 1 + Math.floor(rnd() * 8);
    for (let l = 0; l < count; l++) {
      const indent = " ".repeat(pick([0, 0, 2, 2, 4, 1, 3, 6]));
      const shape = pick(["key", "key", "keyval", "keyval", "dash", "dashkv", "text", "blank", "comment"]);
      const key = pick(["a", "b", "name", "selector", "memory", word()]);
      const val = rnd() < 0.6 ? pick(["x", "y z", "'q'", '"d"', "1", "~", "true", "a b  ", "u: v", "w #c"]) : word();
      lines.push(
        shape === "key"
          ? `${indent}${key}:`
          : shape === "keyval"
          ? `${indent}${key}: ${val}`
          : shape === "dash"
          ? `${indent}- ${val}`
          : shape === "dashkv"
          ? `${indent}- ${key}: ${val}`
          : shape === "text"
          ? `${indent}${val}`
          : shape === "blank"
          ? indent
          : `${indent}# ${word()}`,
      );
    }
    if (checkSame(lines.join("\n") + (rnd() < 0.8 ? "\n" : ""))) accepted++;
  }
  // The generator must reach the accepted side often, or this test proves nothing.
  assert.ok(accepted > runs / 10, `only ${accepted} of ${runs} random documents were accepted`);
});

Deno.test("fast yaml - mutated repository files: declined, or read exactly as the library reads them", async () => {
  const files = (await repoYaml()).filter((f) => f.path.includes("/assets/gallery/"));
  assert.ok(files.length > 0);
  const rnd = mulberry32(16 + Number(Deno.env.get("MAPPER_FUZZ_SEED") ?? 0));
  const edits = ["", " ", "  ", ":", ": ", "-", "- ", "#", " #", "'", '"', "\n", "\n  ", "x", "~"];
  let accepted = 0;
  let runs = 0;
  for (const { text } of files) {
    for (let n = 0; n < 60 * Number(Deno.env.get("MAPPER_FUZZ") ?? 1); n++) {
      runs++;
      let t = text;
      for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) {
        const at = Math.floor(rnd() * t.length);
        const cut = Math.floor(rnd() * 3);
        t = t.slice(0, at) + edits[Math.floor(rnd() * edits.length)] + t.slice(at + cut);
      }
      if (checkSame(t)) accepted++;
    }
  }
  assert.ok(accepted > runs / 10, `only ${accepted} of ${runs} mutated files were accepted`);
});
