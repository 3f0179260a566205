import assert from "node:assert/strict";
import { join } from "node:path";
import { installSkill } from "./install.ts";
import { listFiles, tempDir } from "../../tests/_helpers.ts";

Deno.test("installSkill() - a failed swap puts the previous copy back and leaves no staging directory", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(tmp.join("mapper-browser"));
  await Deno.writeTextFile(tmp.join("mapper-browser", "SKILL.md"), "previous");
  let calls = 0;
  const failing = {
    rename: async (from: string, to: string) => {
      calls++;
      if (calls === 2) throw new Error("simulated failure: disk full");
      await Deno.rename(from, to);
    },
  };
  await assert.rejects(installSkill(tmp.path, "mapper-browser", failing), /simulated failure/);
  assert.deepEqual(await listFiles(tmp.path), ["mapper-browser/SKILL.md"]);
  assert.equal(await Deno.readTextFile(join(tmp.path, "mapper-browser", "SKILL.md")), "previous");
});

Deno.test("installSkill() - a failure before the swap leaves the previous copy untouched", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(tmp.join("mapper-authoring"));
  await Deno.writeTextFile(tmp.join("mapper-authoring", "SKILL.md"), "previous");
  const failing = { rename: () => Promise.reject(new Error("simulated failure: rename refused")) };
  await assert.rejects(installSkill(tmp.path, "mapper-authoring", failing), /rename refused/);
  assert.deepEqual(await listFiles(tmp.path), ["mapper-authoring/SKILL.md"]);
});
