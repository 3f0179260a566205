/**
 * The corpus YAML readers side by side on every `.yaml`/`.yml` file below a directory: the fast reader
 * (`_yaml_fast.ts`) and the `yaml` library (`_yaml_library.ts`). Prints how many files the fast reader accepted, the
 * time each reader took (one pass, after a warm-up pass), and checks that every accepted file reads identically.
 *
 *   deno run -A bench/yaml_compare.ts [dir=../shared/data/atlas-gallery/entries]
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fastParse } from "../src/corpus/_yaml_fast.ts";
import { libraryParse } from "../src/corpus/_yaml_library.ts";
import { ROOT } from "../tests/_helpers.ts";

const dir = Deno.args[0] ?? join(ROOT, "..", "shared", "data", "atlas-gallery", "entries");
const texts: { path: string; text: string }[] = [];
const walk = (d: string) => {
  for (const e of Deno.readDirSync(d)) {
    const path = join(d, e.name);
    if (e.isDirectory) walk(path);
    else if (e.isFile && /\.ya?ml$/i.test(e.name)) texts.push({ path, text: Deno.readTextFileSync(path) });
  }
};
try {
  walk(dir);
} catch {
  // deno-lint-ignore no-console
  console.log(`(no directory ${dir}: pass one)`);
  Deno.exit(0);
}
const bytes = texts.reduce((n, t) => n + t.text.length, 0);
let accepted = 0;
for (const { path, text } of texts) {
  const fast = fastParse(text);
  if (fast) {
    accepted++;
    assert.deepEqual({ ...fast, lineStarts: Array.from(fast.lineStarts) }, libraryParse(text), path);
  }
}
const time = (fn: (text: string) => unknown) => {
  const t0 = performance.now();
  for (const { text } of texts) fn(text);
  return performance.now() - t0;
};
const fastMs = time(fastParse);
const libraryMs = time(libraryParse);
// deno-lint-ignore no-console
console.log(
  `${texts.length} files, ${
    (bytes / 1e6).toFixed(2)
  } MB: fast reader accepted ${accepted} (identical to the library); ` +
    `fast ${fastMs.toFixed(0)} ms, library ${libraryMs.toFixed(0)} ms (${(libraryMs / fastMs).toFixed(1)}× faster)`,
);
