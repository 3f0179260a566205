/** Black-box tests of `mapper skills install`. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ASSETS } from "../src/assets.ts";
import { listFiles, runMapper, tempDir } from "./_helpers.ts";
import config from "../deno.json" with { type: "json" };

const AUTHORING = ASSETS["skills/mapper-authoring/SKILL.md"];
const BROWSER = ASSETS["skills/mapper-browser/SKILL.md"];

Deno.test("skills install - writes both skills into a fresh target and prints one line per skill", async () => {
  await using tmp = await tempDir();
  const target = tmp.join("skills");
  const r = await runMapper(["skills", "install", "--target", target], { env: { HOME: tmp.path } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  const lines = r.stdout.trimEnd().split("\n");
  assert.deepEqual(lines.slice(0, 2), [
    `installed mapper-authoring → ${join(target, "mapper-authoring")}`,
    `installed mapper-browser → ${join(target, "mapper-browser")}`,
  ]);
  assert.match(lines[2]!, /^mapper \d+\.\d+\.\d+.*: 2 skills installed$/);
  assert.deepEqual(await listFiles(target), ["mapper-authoring/SKILL.md", "mapper-browser/SKILL.md"]);
  assert.equal(await Deno.readTextFile(join(target, "mapper-authoring", "SKILL.md")), AUTHORING);
  assert.equal(await Deno.readTextFile(join(target, "mapper-browser", "SKILL.md")), BROWSER);
});

Deno.test("skills install --json - reports the target and every file written with its size; --dry-run writes nothing", async () => {
  await using tmp = await tempDir();
  const target = tmp.join("skills");
  const dry = await runMapper(["skills", "install", "--target", target, "--dry-run", "--json"], {
    env: { HOME: tmp.path },
  });
  assert.deepEqual([dry.code, dry.stderr], [0, ""]);
  const expected = (dryRun: boolean) => ({
    schema: 1,
    version: config.version,
    target,
    dry_run: dryRun,
    skills: [["mapper-authoring", AUTHORING], ["mapper-browser", BROWSER]].map(([name, text]) => ({
      name,
      path: join(target, name!),
      files: [{ path: join(target, name!, "SKILL.md"), bytes: new TextEncoder().encode(text).length }],
    })),
  });
  assert.deepEqual(JSON.parse(dry.stdout), expected(true));
  assert.deepEqual(await listFiles(tmp.path), []);
  const r = await runMapper(["skills", "install", "--target", target, "--json"], { env: { HOME: tmp.path } });
  assert.deepEqual([r.code, r.stderr], [0, ""]);
  assert.deepEqual(JSON.parse(r.stdout), expected(false));
  assert.deepEqual(await listFiles(target), ["mapper-authoring/SKILL.md", "mapper-browser/SKILL.md"]);
});

Deno.test("skills install - defaults to ~/.agents/skills", async () => {
  await using tmp = await tempDir();
  const r = await runMapper(["skills", "install"], { env: { HOME: tmp.path } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    new RegExp(`installed mapper-authoring → ${tmp.join(".agents", "skills", "mapper-authoring")}`),
  );
  assert.deepEqual(await listFiles(tmp.join(".agents", "skills")), [
    "mapper-authoring/SKILL.md",
    "mapper-browser/SKILL.md",
  ]);
});

Deno.test("skills install - replaces existing skill directories (stale files gone) and leaves other entries alone", async () => {
  await using tmp = await tempDir();
  const target = tmp.join("skills");
  await Deno.mkdir(join(target, "mapper-authoring", "old"), { recursive: true });
  await Deno.writeTextFile(join(target, "mapper-authoring", "stale.md"), "stale");
  await Deno.writeTextFile(join(target, "mapper-authoring", "old", "x.md"), "old");
  await Deno.mkdir(join(target, "someone-elses-skill"), { recursive: true });
  await Deno.writeTextFile(join(target, "someone-elses-skill", "SKILL.md"), "keep me");
  await Deno.writeTextFile(join(target, "notes.txt"), "keep me too");
  const r = await runMapper(["skills", "install", "--target", target], { env: { HOME: tmp.path } });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(await listFiles(target), [
    "mapper-authoring/SKILL.md",
    "mapper-browser/SKILL.md",
    "notes.txt",
    "someone-elses-skill/SKILL.md",
  ]);
  assert.equal(await Deno.readTextFile(join(target, "someone-elses-skill", "SKILL.md")), "keep me");
  assert.equal(await Deno.readTextFile(join(target, "mapper-authoring", "SKILL.md")), AUTHORING);
});

Deno.test("skills install - running twice gives the same tree and leaves no staging directories", async () => {
  await using tmp = await tempDir();
  const target = tmp.join("skills");
  for (let i = 0; i < 2; i++) {
    const r = await runMapper(["skills", "install", "--target", target], { env: { HOME: tmp.path } });
    assert.equal(r.code, 0, r.stderr);
  }
  assert.deepEqual(await listFiles(target), ["mapper-authoring/SKILL.md", "mapper-browser/SKILL.md"]);
  const names = [];
  for await (const e of Deno.readDir(target)) names.push(e.name);
  assert.deepEqual(names.sort(), ["mapper-authoring", "mapper-browser"]);
});

Deno.test("skills install - an unwritable target is one clear line naming --target, exit 1, nothing written", async () => {
  await using tmp = await tempDir();
  const blocker = tmp.join("a-file");
  await Deno.writeTextFile(blocker, "not a directory");
  const r = await runMapper(["skills", "install", "--target", join(blocker, "skills")], { env: { HOME: tmp.path } });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(
    lines[0]!,
    /^mapper skills install: cannot create skills directory ".*a-file\/skills": .* — pass --target/,
  );
  assert.deepEqual(await listFiles(tmp.path), ["a-file"]);
});

Deno.test("skills install --dry-run - lists what would be written and writes nothing", async () => {
  await using tmp = await tempDir();
  const target = tmp.join("skills");
  const r = await runMapper(["skills", "install", "--dry-run", "--target", target], { env: { HOME: tmp.path } });
  assert.equal(r.code, 0, r.stderr);
  const bytes = (s: string | undefined) => new TextEncoder().encode(s ?? "").length;
  assert.equal(
    r.stdout,
    `would write ${join(target, "mapper-authoring", "SKILL.md")} (${bytes(AUTHORING)} bytes)\n` +
      `would write ${join(target, "mapper-browser", "SKILL.md")} (${bytes(BROWSER)} bytes)\n`,
  );
  assert.deepEqual(await listFiles(tmp.path), []);
});
