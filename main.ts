/**
 * mapper: a map of a live website for AI agents, and eyes inside a browser.
 *
 * Entry point: build the command table and hand control to the one top-level handler.
 *
 * @module
 */
import { fileSink, processIo } from "./src/io.ts";
import { lazy } from "./src/lazy.ts";
import { versionLine } from "./src/version.ts";

/**
 * True for exactly `mapper version`, `mapper --version` or `mapper -V`: the command agents run to check that mapper
 * is installed. It is answered before the command table loads (the table and a group are ~10 modules, a few ms of
 * start-up); the line is the same {@linkcode versionLine} the `version` command prints, and any other argument
 * (`--json`, `--help`, an extra word) goes through the table as usual.
 */
export function isPlainVersion(args: readonly string[]): boolean {
  return args.length === 1 && (args[0] === "version" || args[0] === "--version" || args[0] === "-V");
}

if (import.meta.main) {
  if (isPlainVersion(Deno.args)) {
    const out = fileSink(Deno.stdout);
    out.write(versionLine());
    // A failed write (a full disk) goes through the table, which reports it the one way every command does.
    if (out.failure?.() === undefined) Deno.exit(0);
  }
  const { runCli } = await lazy<typeof import("./src/cli/run.ts")>(new URL("./src/cli/run.ts", import.meta.url));
  Deno.exit(await runCli(Deno.args, processIo()));
}
