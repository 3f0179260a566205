import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { defaultWorkers, parseFiles, type ParseJob, parseShared } from "./_parse_pool.ts";
import { CorpusLoadError, load } from "./mod.ts";
import { tempCorpus } from "./_testing.ts";

const SHOP = fileURLToPath(new URL("../../tests/fixtures/corpus/shop/", import.meta.url));

/** Files with entries, warnings (unknown field, empty item) and fatal problems (syntax, wrong type, bad alias). */
const SAMPLES: Record<string, string> = {
  "good.yaml": "version: 1\nmemory: [a, b]\ncomponents:\n  - name: Nav\n    selector: nav, header nav\n    bogus: 1\n",
  "views.yaml": "views:\n  - name: Home\n    route: /\n    components:\n      - $ref: Nav\n      -\n",
  "syntax.yaml": "components:\n  - name: [unclosed\n",
  "type.yaml": "components:\n  name: not-a-list\n",
  "alias.yaml": "memory: [*nope]\n",
};

/** `copies` copies of the samples and the shop fixture's files under distinct paths (~60 KB per 10 copies). */
async function jobs(copies: number): Promise<ParseJob[]> {
  const shop: ParseJob[] = [];
  for (const name of ["config.yaml", "shared.yaml", "views/home.yaml", "views/product.yaml"]) {
    shop.push({ path: `${SHOP}${name}`, text: await Deno.readTextFile(`${SHOP}${name}`) });
  }
  const out: ParseJob[] = [];
  for (let i = 0; i < copies; i++) {
    for (const [name, text] of Object.entries(SAMPLES)) out.push({ path: `/c${i}/${name}`, text });
    for (const job of shop) out.push({ path: `/c${i}${job.path}`, text: job.text });
  }
  return out;
}

Deno.test("parse pool - workers give exactly the in-process result: entries, fatal problems and warnings with file:line:col", async () => {
  const all = await jobs(6);
  const here = await parseFiles(all, { workers: 0 });
  // Chunks of ~2 KB: dozens of them, handed to two workers in whatever order they finish; then shared with this
  // thread.
  const there = await parseShared(all, { workers: 2, here: false, chunkChars: 2048 });
  const shared = await parseShared(all, { workers: 1, here: true, chunkChars: 2048 });
  assert.deepEqual(shared, here);
  assert.equal(there.length, all.length);
  assert.deepEqual(there, here);
  // The samples really produce each kind of outcome, so the comparison covers them.
  assert.ok(here.some((r) => r.raw && r.warnings.some((w) => w.code === "unknown-field")));
  assert.ok(here.some((r) => !r.raw && r.fatal.some((d) => d.code === "yaml-syntax" && d.location.line === 3)));
  assert.ok(here.some((r) => !r.raw && r.fatal.some((d) => d.code === "type-mismatch")));
});

Deno.test("parse pool - a load in workers returns the same corpus and diagnostics as in-process, errors included", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 3; i++) {
    files[`c${i}/good.yaml`] = SAMPLES["good.yaml"]!;
    files[`c${i}/views.yaml`] = SAMPLES["views.yaml"]!;
    for (const name of ["config.yaml", "shared.yaml", "views/home.yaml", "views/product.yaml"]) {
      files[`c${i}/shop/${name}`] = await Deno.readTextFile(`${SHOP}${name}`);
    }
  }
  await using c = await tempCorpus(files);
  const here = await load(c.dir, { workers: 0 });
  const there = await load(c.dir, { workers: 2 });
  assert.ok(here.corpus.views.length >= 6 && here.diagnostics.length >= 6);
  assert.deepEqual(there, here);
  await c.write("c1/zz-broken.yaml", SAMPLES["syntax.yaml"]!);
  const errors = await Promise.all([0, 2].map((workers) => load(c.dir, { workers }).catch((e: unknown) => e)));
  assert.ok(errors[0] instanceof CorpusLoadError && errors[1] instanceof CorpusLoadError);
  assert.deepEqual(errors[1].problems, errors[0].problems);
  assert.match(errors[0].problems[0]!.location.file, /c1\/zz-broken\.yaml$/);
});

Deno.test("parse pool - workers by default only from 4 CPUs (one per CPU beyond this thread, at most 3)", () => {
  assert.deepEqual([1, 2, 3, 4, 8, 64].map(defaultWorkers), [0, 0, 0, 3, 3, 3]);
});
