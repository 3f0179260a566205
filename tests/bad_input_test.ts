/**
 * Cross-cutting bad-input checks: each command, given input a user can get wrong, fails with exactly one line on
 * stderr naming the fix, the documented exit code, nothing on stdout and nothing left on disk. In-process (`runCli`
 * with `testIo`); no browser is launched.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runCli } from "../src/cli/run.ts";
import { testIo } from "../src/io.ts";
import { baseEnv, listFiles, mapperCommand, runMapper, tempDir } from "./_helpers.ts";

/** Runs the CLI in-process in `cwd` (HOME = `home`, default `cwd/home`). */
async function run(args: string[], cwd: string, home = `${cwd}/home`) {
  const io = testIo({ cwd, home, env: { HOME: home } });
  const code = await runCli(args, io);
  return { code, stdout: io.stdout.text(), stderr: io.stderr.text() };
}

/** One `mapper <cmd>: <message> — <hint>` line. */
function assertOneLine(stderr: string, prefix: string): void {
  const lines = stderr.split("\n").filter(Boolean);
  assert.equal(lines.length, 1, stderr);
  assert.ok(lines[0]!.startsWith(prefix), stderr);
  assert.match(lines[0]!, / — \S/, `no hint in: ${stderr}`);
}

Deno.test("bad input - an empty option value is a usage error, never the current directory", async () => {
  await using dir = await tempDir();
  const cases: Array<[string[], string]> = [
    [["serve-mapper", "--dir", ""], "mapper serve-mapper: --dir is empty"],
    [["atlas", "find", "--index", ""], "mapper atlas find: --index is empty"],
    [["atlas", "build", "--out", ""], "mapper atlas build: --out is empty"],
    [["skills", "install", "--target", ""], "mapper skills install: --target is empty"],
    [["network", "get", "1", "--response-file", ""], "mapper network get: --response-file is empty"],
  ];
  for (const [args, prefix] of cases) {
    const r = await run(args, dir.path);
    assert.equal(r.code, 2, args.join(" "));
    assert.equal(r.stdout, "");
    assertOneLine(r.stderr, `${prefix} — `);
  }
  assert.deepEqual(await listFiles(dir.path), []);
});

Deno.test("bad input - atlas build into an uncreatable --out fails with one line, not a stack trace", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using dir = await tempDir();
  const r = await run(["atlas", "build", "--out", "/proc/mapper-no-such-dir/out"], dir.path);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assertOneLine(r.stderr, 'mapper atlas build: cannot create --out "/proc/mapper-no-such-dir/out": ');
});

Deno.test("bad input - atlas serve on an unresolvable --host fails with one line, not a stack trace", async () => {
  await using dir = await tempDir();
  const r = await run(["atlas", "serve", "--host", "999.1.1.1", "--port", "0"], dir.path);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assertOneLine(r.stderr, "mapper atlas serve: cannot listen on 999.1.1.1:0: ");
});

Deno.test("bad input - atlas find names the fix for a closed loopback port and for a directory as --index", async () => {
  await using dir = await tempDir();
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = probe.addr.port;
  probe.close();
  const closed = await run(["atlas", "find", "--index", `http://127.0.0.1:${port}/index.json`], dir.path);
  assert.equal(closed.code, 1);
  assert.equal(closed.stdout, "");
  assertOneLine(closed.stderr, `mapper atlas find: cannot fetch the catalog http://127.0.0.1:${port}/index.json: `);
  const folder = await run(["atlas", "find", "--index", "."], dir.path);
  assert.equal(folder.code, 1);
  assertOneLine(folder.stderr, 'mapper atlas find: cannot read catalog file ".": it is a directory — ');
  const http = await run(["atlas", "list", "--index", "http://example.com/index.json"], dir.path);
  assert.equal(http.code, 1);
  assertOneLine(http.stderr, 'mapper atlas list: refusing "http://example.com/index.json": only HTTPS is allowed');
});

Deno.test("bad input - atlas verify names the fix for a corrupt atlas-lock.json", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(dir.join("c"));
  await Deno.writeTextFile(dir.join("c", "atlas-lock.json"), "{bad");
  const r = await run(["atlas", "verify", "--target", "c"], dir.path);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assertOneLine(r.stderr, 'mapper atlas verify: "c/atlas-lock.json" is not a valid atlas lock file');
});

Deno.test("bad input - browser status and stop with a file as --dir report no session, and remove nothing", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(dir.join("afile"), "x");
  const status = await run(["browser", "status", "--dir", "afile"], dir.path);
  assert.deepEqual([status.code, status.stderr], [0, ""]);
  const stop = await run(["browser", "stop", "--dir", "afile"], dir.path);
  assert.deepEqual([stop.code, stop.stderr], [0, "no running session\n"]);
  assert.equal(await Deno.readTextFile(dir.join("afile")), "x");
});

Deno.test("bad input - browser start refuses a bad --url, --dir, --profile or log directory before launching", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(dir.join("afile"), "x");
  const browser = ["--browser", "/bin/true", "--headless", "--port", "0"];
  const url = await run(["browser", "start", ...browser, "--url", "not a url"], dir.path);
  assert.equal(url.code, 2);
  assert.match(url.stderr, /^mapper browser start: --url "not a url" is not an absolute URL — include the scheme/);
  const cases: Array<[string[], string, string?]> = [
    [
      ["--dir", "afile"],
      'mapper browser start: --dir "afile" is not a directory — pass --dir <path> naming a directory',
    ],
    [["--profile", "afile/p"], 'mapper browser start: cannot create browser profile "afile/p": '],
    [["--detach"], 'mapper browser start: cannot write the daemon log "', dir.join("afile", "home")],
  ];
  for (const [flags, prefix, home] of cases) {
    const r = await run(["browser", "start", ...browser, ...flags], dir.path, home);
    assert.equal(r.code, 1, flags.join(" "));
    assert.equal(r.stdout, "");
    assertOneLine(r.stderr, prefix);
  }
  assert.deepEqual((await listFiles(dir.path)).filter((f) => !f.startsWith(".mapper")), ["afile"]);
});

Deno.test("bad input - control characters in a typed path are shown, never sent to the terminal", async () => {
  await using dir = await tempDir();
  const r = await run(["serve-mapper", "--dir", "bad\x1b[2Jdir"], dir.path);
  assert.equal(r.code, 1);
  assert.ok(!r.stderr.includes("\x1b"), r.stderr);
  assertOneLine(r.stderr, 'mapper serve-mapper: no corpus directory "bad\\x1b[2Jdir"');
});

Deno.test("bad input - browser start --detach reports the daemon's own one-line reason when it dies at start-up", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(dir.join("afile"), "x");
  const args = ["browser", "start", "--browser", "/bin/true", "--headless", "--port", "0", "--detach"];
  // A subprocess: --detach re-runs the program it is part of, which in-process would be this test file.
  const r = await runMapper([...args, "--profile", "afile/p"], { cwd: dir.path, env: { HOME: dir.join("home") } });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assertOneLine(
    r.stderr,
    "mapper browser start: the session daemon exited with code 1 before it was ready: cannot create browser profile ",
  );
  assert.match(r.stderr, / — read its log ".*-daemon\.log"\n$/);
});

Deno.test({
  name: "bad input - SIGINT while the browser is still starting exits 130 at once and kills the browser",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using dir = await tempDir();
    // A "browser" that never opens its DevTools endpoint: without the signal, start-up would wait 20 s and fail
    // with exit 1. It writes its pid beside itself whole (written, then renamed), so a pid file is never half there.
    const fake = dir.join("slow-browser");
    await Deno.writeTextFile(fake, '#!/bin/sh\necho $$ > "$0.pid.part"\nmv "$0.pid.part" "$0.pid"\nexec sleep 60\n');
    await Deno.chmod(fake, 0o755);
    const child = new Deno.Command(Deno.execPath(), {
      args: mapperCommand(["browser", "start", "--browser", fake, "--headless", "--port", "0"]),
      cwd: dir.path,
      env: baseEnv(dir.join("home")),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = child.output();
    let ended = false;
    output.then(() => (ended = true), () => (ended = true));
    // Wait for the browser to be running, however long a loaded machine takes to get there: the condition, or mapper
    // giving up on its own (then its error is the failure), never a fixed number of polls.
    const pidFile = `${fake}.pid`;
    while (!(await Deno.stat(pidFile).then(() => true, () => false))) {
      if (ended) {
        assert.fail(`mapper exited before the browser started: ${new TextDecoder().decode((await output).stderr)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const browserPid = Number((await Deno.readTextFile(pidFile)).trim());
    assert.ok(browserPid > 1, `the browser's pid: ${browserPid}`);
    child.kill("SIGINT");
    const out = await output;
    // 130 and "interrupted" are the signal's doing: start-up giving up on the browser would exit 1 after 20 s.
    assert.equal(out.code, 130);
    assert.equal(new TextDecoder().decode(out.stdout), "");
    assert.match(new TextDecoder().decode(out.stderr), /\nmapper browser start: interrupted\n$/);
    assert.throws(() => Deno.kill(browserPid, "SIGCONT"), Deno.errors.NotFound);
  },
});

Deno.test("bad input - atlas find refuses a JSON file that is not a catalog instead of calling it empty", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(dir.join("package.json"), '{"name":"x","version":"1.0.0"}');
  const r = await run(["atlas", "find", "x", "--index", "package.json"], dir.path);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assertOneLine(
    r.stderr,
    'mapper atlas find: catalog "package.json" cannot be used: expected a JSON object with "schema_version" and "entries", found neither',
  );
});

Deno.test("bad input - atlas build and atlas add never swap out the directory the user stands in", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(dir.join("here"));
  const cwd = dir.join("here");
  for (const out of [".", "..", cwd]) {
    const r = await run(["atlas", "build", "--out", out], cwd, dir.join("home"));
    assert.equal(r.code, 2, out);
    assert.equal(r.stdout, "");
    assert.ok(r.stderr.startsWith(`mapper atlas build: --out "${out}" is the current directory or contains it — `));
  }
  const index = fileURLToPath(new URL("./fixtures/atlas/search.json", import.meta.url));
  const add = await run(["atlas", "add", "acme-shop", "--index", index, "--target", "."], cwd, dir.join("home"));
  assert.equal(add.code, 2);
  assert.ok(add.stderr.startsWith('mapper atlas add: install target "." is the current directory or contains it — '));
  assert.deepEqual(await listFiles(cwd), []);
  assert.ok((await Deno.stat(cwd)).isDirectory);
});

Deno.test("bad input - a reader that goes away early (| head -1) ends the output quietly, exit 0", async () => {
  await using dir = await tempDir();
  const entries = Array.from({ length: 20_000 }, (_, i) => ({
    slug: `s${i}`,
    name: `Name ${i}`,
    domains: [`d${i}.example.com`],
    category: "x",
    description: "d".repeat(100),
  }));
  await Deno.writeTextFile(dir.join("big.json"), JSON.stringify({ schema_version: 1, entries }));
  const child = new Deno.Command(Deno.execPath(), {
    args: mapperCommand(["atlas", "list", "--index", "big.json", "--limit", "0"]),
    cwd: dir.path,
    env: baseEnv(dir.join("home")),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  await reader.read();
  await reader.cancel();
  const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
  assert.equal(stderr, "");
  assert.equal(status.code, 0);
});

Deno.test("bad input - an endless local catalog (/dev/zero) is refused at the size cap instead of eating memory", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await using dir = await tempDir();
  const validate = await run(["atlas", "validate", "/dev/zero"], dir.path);
  assert.equal(validate.code, 1);
  assertOneLine(validate.stderr, 'mapper atlas validate: "/dev/zero" is larger than the 8388608-byte limit');
  const find = await run(["atlas", "find", "--index", "/dev/zero"], dir.path);
  assert.equal(find.code, 1);
  assertOneLine(find.stderr, 'mapper atlas find: catalog file "/dev/zero" is larger than the 8388608-byte limit');
});

Deno.test("bad input - browser start with a browser that exits at once fails with one line naming the binary", {
  ignore: !(await Deno.stat("/bin/false").then(() => true, () => false)),
}, async () => {
  await using dir = await tempDir();
  const r = await run(["browser", "start", "--browser", "/bin/false", "--headless", "--port", "0"], dir.path);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  const errors = r.stderr.split("\n").filter((l) => l.startsWith("mapper "));
  assert.deepEqual(errors, [
    'mapper browser start: browser "/bin/false" exited with code 1 before answering on its DevTools pipe: it wrote ' +
    "nothing — check the binary, or pass --browser-flag to adjust its flags",
  ]);
  assert.ok(r.stderr.split("\n").every((l) => l === "" || l.startsWith("mapper ") || l.startsWith("[browser] ")));
  await assert.rejects(Deno.stat(dir.join(".mapper", ".session")), Deno.errors.NotFound);
});

Deno.test({
  name:
    "bad input - a browser that dies talking at length is summed up in one line; its output tail goes to a private log",
  ignore: Deno.build.os === "windows",
}, async () => {
  await using dir = await tempDir();
  const fake = dir.join("noisy-browser");
  await Deno.writeTextFile(
    fake,
    '#!/bin/sh\nfor i in $(seq 200); do echo "noise $i: $(printf "%0700d" 0)" >&2; done\necho "FATAL: the real reason" >&2\nexit 3\n',
  );
  await Deno.chmod(fake, 0o755);
  const home = dir.join("home");
  const r = await run(["browser", "start", "--browser", fake, "--headless", "--port", "0"], dir.path, home);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  const errors = r.stderr.split("\n").filter((l) => l.startsWith("mapper "));
  assert.equal(errors.length, 1, r.stderr);
  const m =
    /^mapper browser start: browser ".*noisy-browser" exited with code 3 before answering on its DevTools pipe: it last said "FATAL: the real reason"; its output is in "(.*-chromium\.log)" — /
      .exec(errors[0]!);
  assert.ok(m, errors[0]);
  assert.ok(errors[0]!.length < 600, "no dump of the browser's output");
  const log = await Deno.readTextFile(m[1]!);
  assert.ok(log.endsWith("FATAL: the real reason\n"));
  assert.ok(log.length <= 8192);
  assert.equal(((await Deno.stat(m[1]!)).mode ?? 0) & 0o777, 0o600);
});

Deno.test("bad input - serve-mapper refuses a self-referencing YAML anchor at start-up without a stack trace", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(dir.join(".mapper"));
  await Deno.writeTextFile(
    dir.join(".mapper", "a.yaml"),
    "version: 1\ncomponents:\n  - &a {name: A, selector: a, children: [*a]}\n",
  );
  const r = await runMapper(["serve-mapper", "--port", "0"], { cwd: dir.path, env: { HOME: dir.join("home") } });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.equal(
    r.stderr,
    '.mapper/a.yaml:3:42: alias "*a" refers to a node that contains it (a cycle that never ends)\n' +
      'mapper serve-mapper: cannot compile ".mapper": 1 problem (listed above) — fix the YAML and run again\n',
  );
});

Deno.test({
  name: "bad input - mapper version > /dev/full is one line on stderr and exit 1, no stack trace",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await using home = await tempDir();
    const words = [Deno.execPath(), ...mapperCommand(["version"])].map((w) => `'${w.replaceAll("'", `'\\''`)}'`);
    const out = await new Deno.Command("sh", {
      args: ["-c", `${words.join(" ")} > /dev/full`],
      env: baseEnv(home.path),
      clearEnv: true,
      stderr: "piped",
      stdout: "null",
    }).output();
    assert.equal(out.code, 1);
    assert.equal(
      new TextDecoder().decode(out.stderr),
      "mapper version: cannot write to standard output: No space left on device (os error 28) — free some disk " +
        "space or send the output elsewhere\n",
    );
  },
});
