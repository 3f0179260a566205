/** Wiring of the authoring commands `mapper validate`, `lint` and `fmt`. @module */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "./context.ts";

const DIR_HELP = "corpus directory (default: the nearest .mapper/ here or above)";
const FORMAT_HELP = "output: text, json (the --json envelope) or github (workflow annotations)";

/** Registers `mapper validate`, `mapper lint` and `mapper fmt`. */
export function registerAuthoring(program: Command, ctx: CliContext): void {
  program
    .command("validate")
    .description("check a corpus against the spec: every error and warning with file:line:col (exit 1 on errors)")
    .option("--dir <path>", DIR_HELP)
    .option("--json", "print the {ok, diagnostics, result} envelope (same as --format json)")
    .option("--format <format>", FORMAT_HELP)
    .action(async (opts) => {
      const { runValidate } = await import("../authoring/validate.ts");
      ctx.exitCode = await runValidate(opts, ctx.io);
    });
}
