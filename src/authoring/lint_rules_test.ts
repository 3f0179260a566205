import assert from "node:assert/strict";
import { join } from "node:path";
import { load } from "../corpus/mod.ts";
import { tempDir } from "../../tests/_helpers.ts";
import { lintCorpus } from "./lint_rules.ts";

async function positional(selectors: string[]): Promise<string[]> {
  await using tmp = await tempDir();
  const components = selectors.map((s, i) => `      - name: C${i}\n        selector: '${s}'\n`).join("");
  await Deno.writeTextFile(
    join(tmp.path, "a.yaml"),
    `version: 1\nviews:\n  - name: V\n    route: /\n    components:\n${components}`,
  );
  const { corpus } = await load(tmp.path);
  return lintCorpus(corpus).filter((d) => d.code === "positional-selector").map((d) => d.message);
}

Deno.test("lint positional-selector - what a browser's Copy selector writes, with the hook to start from", async () => {
  const [nth, chain, hooked] = await positional([
    "body > div:nth-child(5) > ul > li:nth-child(2)",
    "html > body > main > span",
    "#app > div > [data-testid=cart] > li:nth-of-type(3)",
  ]);
  assert.match(nth!, /picks elements by their position among siblings/);
  assert.doesNotMatch(nth!, /the hook it already has/);
  assert.match(chain!, /a chain of child steps from the document root/);
  assert.match(hooked!, /start from "\[data-testid=cart\]", the hook it already has$/);
});

Deno.test("lint positional-selector - structural selectors that do not depend on position are left alone", async () => {
  assert.deepEqual(await positional(["ul.menu > li", "li:first-child", "main section a", "body.dark .card"]), []);
});
