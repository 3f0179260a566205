/** Wiring of `mapper serve-mapper`. @module */
import type { Command } from "@commander-js/extra-typings";
import { type CliContext, intArg, notImplemented } from "./context.ts";

/** Registers `mapper serve-mapper`: compile `.mapper/` and serve `/mapper` + `/mapper/version`, live. */
export function registerServeMapper(program: Command, ctx: CliContext): void {
  void ctx;
  program
    .command("serve-mapper")
    .description("compile the .mapper/ corpus and serve it as JSON on /mapper, recompiling when YAML changes")
    .option("--port <n>", "TCP port to listen on (0 = any free port)", intArg(0, 65535), 7891)
    .option("--host <addr>", "address to bind", "127.0.0.1")
    .option("--dir <path>", "corpus directory", ".mapper")
    .option("--json-log", "log one JSON object per line instead of text")
    .action(notImplemented("serve-mapper"));
}
