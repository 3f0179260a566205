/**
 * `mapper <args>` through the CLI's one top-level handler (`runCli`) in this process, answered as `runMapper`
 * (`_helpers.ts`) answers it. For the many cases of a command that also runs as a subprocess (a Deno start per case
 * was most of those files' time): the subprocess run shows the program as a user starts it, these the many inputs.
 * Environment and home as `runMapper` gives them (no MAPPER_* from the caller).
 *
 * @module
 */
import { runCli } from "../src/cli/run.ts";
import { testIo } from "../src/io.ts";
import { baseEnv, type CliResult, ROOT, runMapper, type RunOptions } from "./_helpers.ts";

/** Runs `mapper <args>` in this process with `cwd` and `env` as `runMapper` (`_helpers.ts`) would. */
export async function runInProcess(
  args: readonly string[],
  options: Pick<RunOptions, "cwd" | "env"> = {},
): Promise<CliResult> {
  const env = { ...baseEnv(options.env?.HOME ?? "/nonexistent-home"), ...options.env };
  const io = testIo({ env, cwd: options.cwd ?? ROOT, home: env.HOME! });
  const code = await runCli(args, io);
  return { code, stdout: io.stdout.text(), stderr: io.stderr.text() };
}

/**
 * A runner for one command's cases: the first call of the file runs as a subprocess (`runMapper`), every later one
 * in this process.
 */
export function firstAsSubprocess(): (
  args: readonly string[],
  options?: Pick<RunOptions, "cwd" | "env">,
) => Promise<CliResult> {
  let spawned = false;
  return (args, options = {}) => {
    if (spawned) return runInProcess(args, options);
    spawned = true;
    return runMapper(args, options);
  };
}

/**
 * A runner for a session's many cases: each command's first call (`browser <action>` counts as its own command) runs
 * through `spawn` as a subprocess, as a user starts it; its later calls run in this process with `options`.
 */
export function firstOfEachAsSubprocess(
  spawn: (args: string[]) => Promise<CliResult>,
  options: Pick<RunOptions, "cwd" | "env">,
): (args: string[]) => Promise<CliResult> {
  const run = firstOfEachCommand((args) => spawn([...args]));
  return (args) => run(args, options);
}

/**
 * A runner for a file's cases in several folders: each command's first call (`browser <action>` counts as its own
 * command) runs through `spawn` (default `runMapper`) as a subprocess, its later calls in this process, each with the
 * options it is given.
 */
export function firstOfEachCommand(
  spawn: (args: readonly string[], options: Pick<RunOptions, "cwd" | "env">) => Promise<CliResult> = runMapper,
): (args: readonly string[], options?: Pick<RunOptions, "cwd" | "env">) => Promise<CliResult> {
  const spawned = new Set<string>();
  return (args, options = {}) => {
    const command = args[0] === "browser" ? args.slice(0, 2).join(" ") : args[0] ?? "";
    if (spawned.has(command)) return runInProcess(args, options);
    spawned.add(command);
    return spawn(args, options);
  };
}

/**
 * A copy of a test session whose `run` is {@linkcode firstOfEachAsSubprocess} over the session's own: for helpers
 * that take the session. The original still owns the session (dispose that one, not the copy).
 */
export function inProcessAfterFirst<
  S extends { run(args: string[]): Promise<CliResult>; cwd: string; env: Record<string, string> },
>(
  s: S,
): S {
  return { ...s, run: firstOfEachAsSubprocess((args) => s.run(args), { cwd: s.cwd, env: s.env }) };
}
