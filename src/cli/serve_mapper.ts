/** Wiring of `mapper serve-mapper`. @module */
import type { Command } from "./command.ts";
import { type CliContext, intArg } from "./context.ts";
import { lazy } from "../lazy.ts";

/** Registers `mapper serve-mapper`: compile `.mapper/` and serve `/mapper` + `/mapper/version`, live. */
export function registerServeMapper(program: Command, ctx: CliContext): void {
  program
    .command("serve-mapper")
    .description(
      "compile the .mapper/ corpus and serve it as JSON on /mapper (its validate report on /mapper/diagnostics), " +
        "recompiling when YAML changes",
    )
    .option("--port <n>", "TCP port to listen on (0 = any free port)", intArg(0, 65535), 7891)
    .option("--host <addr>", "address to bind", "127.0.0.1")
    .option("--dir <path>", "corpus directory", ".mapper")
    .option("--json-log", "log one JSON object per line instead of text")
    .option(
      "--no-cache",
      "decode every file at start and keep no start cache (default: reuse ~/.mapper/cache/corpus/ when no file changed)",
    )
    .action(async (opts) => {
      const { runServeMapper } = await lazy<typeof import("../corpus/serve_cmd.ts")>(
        new URL("../corpus/serve_cmd.ts", import.meta.url),
      );
      ctx.exitCode = await runServeMapper(
        {
          port: opts.port,
          host: opts.host,
          dir: opts.dir,
          jsonLog: opts.jsonLog === true,
          cache: opts.noCache !== true,
        },
        ctx.io,
      );
    });
}
