/** Black-box tests of the CLI skeleton: help, version, usage errors, unknown commands. */
import assert from "node:assert/strict";
import { assertGolden, runMapper, tempDir } from "./_helpers.ts";
import config from "../deno.json" with { type: "json" };
import { isPlainVersion } from "../main.ts";
import { runCli } from "../src/cli/run.ts";
import { testIo } from "../src/io.ts";

Deno.test("mapper --help - lists every command on stdout, exit 0", async () => {
  await using home = await tempDir();
  const r = await runMapper(["--help"], { env: { HOME: home.path } });
  assert.deepEqual(r.code, 0);
  assert.deepEqual(r.stderr, "");
  for (const cmd of ["serve-mapper", "atlas", "browser", "console", "network", "snapshot", "skills", "version"]) {
    assert.match(r.stdout, new RegExp(`^  ${cmd}\\b`, "m"), `help lists ${cmd}`);
  }
  await assertGolden("help.txt", r.stdout);
});

Deno.test("mapper <group> --help - every subcommand is listed", async () => {
  await using home = await tempDir();
  const groups: Record<string, string[]> = {
    atlas: ["find", "list", "validate", "add", "verify", "serve", "build"],
    browser: ["start", "stop", "status"],
    console: ["list", "get"],
    network: ["list", "get"],
    skills: ["install"],
  };
  for (const [group, subs] of Object.entries(groups)) {
    const r = await runMapper([group, "--help"], { env: { HOME: home.path } });
    assert.deepEqual(r.code, 0, group);
    for (const sub of subs) assert.match(r.stdout, new RegExp(`^  ${sub}\\b`, "m"), `${group} help lists ${sub}`);
    await assertGolden(`help-${group}.txt`, r.stdout);
  }
});

Deno.test("mapper version - prints 'mapper <semver>' from deno.json, exit 0", async () => {
  await using home = await tempDir();
  const r = await runMapper(["version"], { env: { HOME: home.path } });
  assert.deepEqual(r, { code: 0, stdout: `mapper ${config.version}\n`, stderr: "" });
  assert.match(config.version, /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/);
});

Deno.test("mapper version - the fast path in main.ts prints the table's line; anything more goes through the table", async () => {
  await using home = await tempDir();
  for (const args of [["version"], ["--version"], ["-V"]]) {
    assert.ok(isPlainVersion(args), args.join(" "));
    const io = testIo();
    assert.equal(await runCli(args, io), 0);
    const r = await runMapper(args, { env: { HOME: home.path } });
    assert.deepEqual(r, { code: 0, stdout: io.stdout.text(), stderr: "" });
  }
  for (const args of [["version", "--json"], ["version", "extra"], ["version", "--help"], [], ["-V", "-V"]]) {
    assert.ok(!isPlainVersion(args), args.join(" "));
  }
});

Deno.test("mapper version --json - the version record as JSON: schema 1, name, version, Deno runtime, target", async () => {
  await using home = await tempDir();
  const r = await runMapper(["version", "--json"], { env: { HOME: home.path } });
  assert.deepEqual([r.code, r.stderr], [0, ""]);
  assert.deepEqual(JSON.parse(r.stdout), {
    schema: 1,
    name: "mapper",
    version: config.version,
    deno: Deno.version.deno,
    target: Deno.build.target,
  });
});

Deno.test("mapper version - any flag is a usage error naming the help command, exit 2", async () => {
  await using home = await tempDir();
  const r = await runMapper(["version", "--flag"], { env: { HOME: home.path } });
  assert.deepEqual(r.code, 2);
  assert.deepEqual(r.stdout, "");
  assert.deepEqual(r.stderr, "mapper version: unknown option '--flag' — see 'mapper version --help'\n");
});

Deno.test("mapper version - an extra argument is one line naming what it takes and the help, exit 2", async () => {
  await using home = await tempDir();
  const r = await runMapper(["version", "extra"], { env: { HOME: home.path } });
  assert.deepEqual(r, {
    code: 2,
    stdout: "",
    stderr:
      `mapper version: unexpected argument "extra" — 'mapper version' takes no arguments; see 'mapper version --help'\n`,
  });
});

Deno.test("mapper - an unknown command is one line naming 'mapper --help', exit 2", async () => {
  await using home = await tempDir();
  const r = await runMapper(["frobnicate"], { env: { HOME: home.path } });
  assert.deepEqual(r.code, 2);
  assert.deepEqual(r.stdout, "");
  assert.deepEqual(r.stderr, "mapper: unknown command 'frobnicate' — see 'mapper --help'\n");
});

Deno.test("mapper - an unknown subcommand names the group's help, exit 2", async () => {
  await using home = await tempDir();
  const r = await runMapper(["atlas", "frobnicate"], { env: { HOME: home.path } });
  assert.deepEqual(r.code, 2);
  assert.deepEqual(r.stderr, "mapper atlas: unknown command 'frobnicate' — see 'mapper atlas --help'\n");
});

Deno.test("mapper - an unknown flag on a subcommand is one line naming its help, exit 2", async () => {
  await using home = await tempDir();
  const r = await runMapper(["skills", "install", "--nope"], { env: { HOME: home.path } });
  assert.deepEqual(r.code, 2);
  assert.deepEqual(r.stdout, "");
  assert.deepEqual(r.stderr, "mapper skills install: unknown option '--nope' — see 'mapper skills install --help'\n");
});

Deno.test("mapper - a bad flag value is one line naming the flag, what it expects and the help, exit 2", async () => {
  await using home = await tempDir();
  const r = await runMapper(["serve-mapper", "--port", "eighty"], { env: { HOME: home.path } });
  assert.deepEqual(r.code, 2);
  assert.deepEqual(r.stdout, "");
  assert.deepEqual(
    r.stderr,
    `mapper serve-mapper: option '--port <n>' argument 'eighty' is invalid. expected a whole number, got "eighty" — ` +
      "see 'mapper serve-mapper --help'\n",
  );
});

Deno.test("mapper - a group without a subcommand prints its help on stderr, exit 2", async () => {
  await using home = await tempDir();
  const r = await runMapper(["skills"], { env: { HOME: home.path } });
  assert.deepEqual(r.code, 2);
  assert.deepEqual(r.stdout, "");
  assert.match(r.stderr, /Usage: mapper skills/);
});

Deno.test("mapper - flags are accepted before or after positional arguments", async () => {
  await using home = await tempDir();
  // Parsing succeeds either way (whatever the command then does, it is not a usage error).
  const before = await runMapper(["atlas", "validate", "--json", "-"], { env: { HOME: home.path }, stdin: "" });
  const after = await runMapper(["atlas", "validate", "-", "--json"], { env: { HOME: home.path }, stdin: "" });
  assert.ok(before.code !== 2 || !before.stderr.includes("unknown option"), before.stderr);
  assert.deepEqual(after.code, before.code);
});
