/** Wiring of `mapper version`. @module */
import type { Command } from "./command.ts";
import type { CliContext } from "./context.ts";
import { VERSION, versionLine } from "../version.ts";
import { toJson } from "../terminal.ts";

/** Registers `mapper version [--json]`: prints `mapper <semver>` (or the version record as JSON); no arguments. */
export function registerVersion(program: Command, ctx: CliContext): void {
  program
    .command("version")
    .description("print mapper's version and exit")
    .option("--json", "print the version as JSON (schema, name, version, deno, target)")
    .action((opts) => {
      // Loaded with the command table, not lazily: the whole command is these two lines.
      if (opts.json) {
        ctx.io.stdout.write(
          toJson({ schema: 1, name: "mapper", version: VERSION, deno: Deno.version.deno, target: Deno.build.target }),
        );
      } else {
        ctx.io.stdout.write(versionLine());
      }
    });
}
