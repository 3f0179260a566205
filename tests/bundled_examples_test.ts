// What mapper ships as an example must pass the checks it teaches: the example gallery's corpora and the YAML
// examples of the bundled skills are canonical (`fmt --check`) and clean under `validate` and `lint`.
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, runMapper, tempDir } from "./_helpers.ts";

const GALLERY = join(ROOT, "assets", "gallery", "entries");
const SKILLS = join(ROOT, "assets", "skills");

async function assertClean(dir: string, what: string): Promise<void> {
  for (const command of [["validate"], ["lint"], ["fmt", "--check"]]) {
    const r = await runMapper([...command, "--dir", dir, "--json"]);
    const envelope = JSON.parse(r.stdout);
    assert.deepEqual(
      envelope.diagnostics.map((d: Record<string, unknown>) => `${d.file}:${d.line} ${d.code}: ${d.message}`),
      [],
      `${what}: mapper ${command.join(" ")}`,
    );
    assert.equal(r.code, 0, `${what}: mapper ${command.join(" ")}`);
  }
}

Deno.test("bundled examples - every corpus of the example gallery is canonical and clean under validate and lint", async () => {
  const entries = (await Array.fromAsync(Deno.readDir(GALLERY))).map((e) => e.name).sort();
  assert.ok(entries.length >= 2);
  for (const slug of entries) await assertClean(join(GALLERY, slug, ".mapper"), `entry ${slug}`);
});

Deno.test("bundled examples - the skills' YAML examples are canonical and clean under validate and lint", async () => {
  let found = 0;
  for (const skill of await Array.fromAsync(Deno.readDir(SKILLS))) {
    const text = await Deno.readTextFile(join(SKILLS, skill.name, "SKILL.md"));
    for (const [i, m] of [...text.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].entries()) {
      found++;
      await using tmp = await tempDir();
      await Deno.writeTextFile(tmp.join("example.yaml"), m[1]!);
      await assertClean(tmp.path, `${skill.name}/SKILL.md, YAML example ${i + 1}`);
    }
  }
  assert.ok(found >= 1, "the authoring skill shows the file format");
});
