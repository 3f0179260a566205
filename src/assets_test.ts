import assert from "node:assert/strict";
import { join } from "node:path";
import { ASSETS, assetsUnder, skillNames } from "./assets.ts";
import { listFiles, ROOT } from "../tests/_helpers.ts";

Deno.test("assets - every file under assets/ is reachable through src/assets.ts with the same bytes", async () => {
  const onDisk = await listFiles(join(ROOT, "assets"));
  assert.deepEqual(Object.keys(ASSETS).sort(), onDisk);
  for (const path of onDisk) {
    assert.deepEqual(ASSETS[path], await Deno.readTextFile(join(ROOT, "assets", path)), path);
  }
});

Deno.test("assets - the two bundled skills are mapper-authoring and mapper-browser", () => {
  assert.deepEqual(skillNames(), ["mapper-authoring", "mapper-browser"]);
  for (const name of skillNames()) {
    const files = assetsUnder(`skills/${name}`);
    assert.ok(files.some(([rel]) => rel === "SKILL.md"), `${name} has a SKILL.md`);
  }
});

Deno.test("assets - skills name only commands the CLI registers", async () => {
  const { buildProgram } = await import("./cli/program.ts");
  const { testIo } = await import("./io.ts");
  const program = await buildProgram({ io: testIo(), exitCode: 0 });
  const known = new Set<string>();
  const walk = (cmd: typeof program, prefix: string) => {
    for (const sub of cmd.commands) {
      const path = prefix ? `${prefix} ${sub.name()}` : sub.name();
      known.add(path);
      walk(sub as typeof program, path);
    }
  };
  walk(program, "");
  for (const name of skillNames()) {
    const text = ASSETS[`skills/${name}/SKILL.md`] ?? "";
    // Commands appear at the start of a code line or inside inline code: `mapper atlas find …`.
    for (const m of text.matchAll(/(?:^|`)mapper ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/gm)) {
      const [first, second] = [m[1]!, m[2]];
      const ok1 = known.has(first) && (second === undefined || known.has(`${first} ${second}`) ||
        ![...known].some((k) => k.startsWith(`${first} `)));
      assert.ok(ok1, `${name} mentions 'mapper ${first}${second ? ` ${second}` : ""}', which is not a command`);
    }
  }
});
