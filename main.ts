/**
 * mapper: a map of a live website for AI agents, and eyes inside a browser.
 *
 * Entry point: build the command table and hand control to the one top-level handler.
 *
 * @module
 */
import { processIo } from "./src/io.ts";
import { runCli } from "./src/cli/run.ts";

if (import.meta.main) {
  const code = await runCli(Deno.args, processIo());
  Deno.exit(code);
}
