import assert from "node:assert/strict";
import { load } from "./load.ts";
import { compile } from "./compile.ts";
import { tempCorpus } from "./_testing.ts";

const at = (line: number, column: number) => ({ line, column });
const strip = (locations: Record<string, { line: number; column: number }> | undefined) =>
  Object.fromEntries(Object.entries(locations ?? {}).map(([k, v]) => [k, at(v.line, v.column)]));

Deno.test("field locations - every searchable value's place is kept, list items by the index they load at", async () => {
  await using c = await tempCorpus({
    "a.yaml": [
      "version: 1",
      "url: https://shop.test/",
      "memory:",
      "  - one",
      "  -",
      "  - two",
      "views:",
      "  - name: Home",
      "    route: /",
      "    description: 'quoted'",
      "    components:",
      "      - name: Card",
      "        selector: [li.card, li.tile]",
      "        memory: [~, m]",
      "    requests:",
      "      - {name: Api, route: /api, description: d, memory: [r]}",
      "messages:",
      "  - name: Warn",
      "    description: careful",
      "",
    ].join("\n"),
  });
  const { corpus } = await load(c.dir);
  assert.deepEqual(corpus.memory, ["one", "two"]);
  assert.deepEqual(corpus.memoryAt?.map((l) => at(l.line, l.column)), [at(4, 5), at(6, 5)]);
  const view = corpus.views[0]!;
  // The file's url is the view's, at the place it is written.
  assert.deepEqual(strip(view.fieldAt), {
    name: at(8, 11),
    route: at(9, 12),
    description: at(10, 18),
    url: at(2, 6),
  });
  assert.deepEqual(strip(view.components[0]!.fieldAt), {
    name: at(12, 15),
    "selector[0]": at(13, 20),
    "selector[1]": at(13, 29),
    "memory[0]": at(14, 21),
  });
  assert.deepEqual(strip(view.requests[0]!.fieldAt), {
    name: at(16, 16),
    route: at(16, 28),
    description: at(16, 47),
    "memory[0]": at(16, 59),
  });
  assert.deepEqual(strip(corpus.messages[0]!.fieldAt), { name: at(18, 11), description: at(19, 18) });
  // Authoring-only: nothing of it reaches the wire.
  assert.doesNotMatch(JSON.stringify(compile(corpus, { site: "s", version: 1 })), /fieldAt|memoryAt|"line"/);
});
