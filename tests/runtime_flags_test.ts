/**
 * The V8 flags mapper runs with are given once, in deno.json's `compile` task, and repeated where a run must match
 * the binary: the release build, the from-source tasks, and every test and bench subprocess (`mapperCommand`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { mapperCommand, ROOT, RUNTIME_FLAGS } from "./_helpers.ts";

const v8 = (command: string) => command.split(/\s+/).filter((word) => word.startsWith("--v8-flags="));

Deno.test("runtime flags - the binary, the release build, the tasks and the test runs share one set of V8 flags", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const release = await Deno.readTextFile(join(ROOT, ".github/workflows/release.yml"));
  const compiled = v8(config.tasks.compile.command);
  // A young generation of a few MiB: V8's default on a machine with much memory is several times larger, and was
  // 15-20% slower on the allocation-heavy runs (report over 100 captures, serve-mapper's start).
  assert.deepEqual(compiled, ["--v8-flags=--max-semi-space-size=4"]);
  const built = release.split("\n").filter((l) => /^\s*deno compile /.test(l));
  assert.equal(built.length, 1, "one compile line in the release workflow");
  for (
    const [what, command] of [
      ["release workflow", built[0]!],
      ["mapper task", config.tasks.mapper.command],
      ["start task", config.tasks.start.command],
    ]
  ) {
    assert.deepEqual(v8(command), compiled, `${what}: ${command}`);
  }
  assert.deepEqual(RUNTIME_FLAGS, compiled);
  assert.deepEqual(v8(mapperCommand(["version"]).join(" ")), compiled);
});
