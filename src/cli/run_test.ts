import assert from "node:assert/strict";
import { runCli } from "./run.ts";
import { fileSink, testIo } from "../io.ts";
import { NotFoundError } from "../errors.ts";

Deno.test("runCli() - writes through the injected io and returns the exit code without exiting", async () => {
  const io = testIo();
  const code = await runCli(["version"], io);
  assert.equal(code, 0);
  assert.match(io.stdout.text(), /^mapper \d+\.\d+\.\d+/);
});

Deno.test("runCli() - help goes to stdout with exit 0", async () => {
  const io = testIo();
  assert.equal(await runCli(["--help"], io), 0);
  assert.match(io.stdout.text(), /^Usage: mapper/);
  assert.equal(io.stderr.text(), "");
});

Deno.test("runCli() - 'mapper help <command>' is asked-for help: stdout, exit 0; a bare group is a usage error", async () => {
  for (const args of [["help"], ["help", "atlas"], ["atlas", "help", "find"]]) {
    const io = testIo();
    assert.equal(await runCli(args, io), 0, args.join(" "));
    assert.match(io.stdout.text(), /^Usage: mapper/);
    assert.equal(io.stderr.text(), "");
  }
  const bare = testIo();
  assert.equal(await runCli(["atlas"], bare), 2);
  assert.equal(bare.stdout.text(), "");
});

Deno.test("runCli() - a typed error prints 'mapper <command>: <message> — <hint>' and its exit code", async () => {
  const io = testIo();
  // Drive the handler through a real command whose run throws a typed error: skills install into a file path.
  const file = await Deno.makeTempFile();
  try {
    const code = await runCli(["skills", "install", "--target", `${file}/x`], io);
    assert.equal(code, 1);
    assert.match(io.stderr.text(), /^mapper skills install: cannot create skills directory ".*": .* — pass --target/);
    assert.equal(io.stderr.text().split("\n").length, 2);
  } finally {
    await Deno.remove(file);
  }
  assert.equal(new NotFoundError("x").exitCode, 1);
});

Deno.test("runCli() - echoed arguments in parse errors are terminal-escaped", async () => {
  const io = testIo();
  assert.equal(await runCli(["version", "--x\u001b[31m"], io), 2);
  assert.equal(io.stderr.text(), "mapper version: unknown option '--x\\x1b[31m' — see 'mapper version --help'\n");
});

Deno.test("runCli() - a negative number for a count flag says what is allowed", async () => {
  const io = testIo();
  assert.equal(await runCli(["atlas", "list", "--limit=-1"], io), 2);
  assert.match(
    io.stderr.text(),
    /^mapper atlas list: option '--limit <n>' argument '-1' is invalid\. must be 0 or greater — see 'mapper atlas list --help'\n$/,
  );
});

Deno.test("runCli() - 'mapper --version' prints the same line as 'mapper version'", async () => {
  const io = testIo();
  assert.equal(await runCli(["--version"], io), 0);
  assert.match(io.stdout.text(), /^mapper \d+\.\d+\.\d+\S*\n$/);
});

Deno.test("runCli() - 'mapper help <unknown>' is one line naming 'mapper --help', exit 2", async () => {
  const io = testIo();
  assert.equal(await runCli(["help", "nosuch"], io), 2);
  assert.equal(io.stderr.text(), "mapper help: unknown command 'nosuch' — see 'mapper --help'\n");
  assert.equal(io.stdout.text(), "");
});

Deno.test("runCli() - stdout that cannot be written (full disk) is one line on stderr and exit 1; EPIPE stays quiet", async () => {
  const full = {
    writeSync: (): number => {
      throw new Error("No space left on device (os error 28)");
    },
  };
  const gone = {
    writeSync: (): number => {
      throw new Deno.errors.BrokenPipe("Broken pipe (os error 32)");
    },
  };
  for (const [file, expected] of [[full, 1], [gone, 0]] as const) {
    const base = testIo();
    const io = { ...base, stdout: fileSink(file) };
    const code = await runCli(["version"], io);
    assert.equal(code, expected);
    assert.equal(
      base.stderr.text(),
      expected === 1
        ? "mapper version: cannot write to standard output: No space left on device (os error 28) — free some disk " +
          "space or send the output elsewhere\n"
        : "",
    );
  }
});
