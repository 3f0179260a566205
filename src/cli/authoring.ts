/** Wiring of the authoring commands `mapper validate`, `lint` and `fmt`. @module */
import type { Command } from "./command.ts";
import type { CliContext } from "./context.ts";
import { UsageError } from "../errors.ts";
import { lazy } from "../lazy.ts";

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
      const { runValidate } = await lazy<typeof import("../authoring/validate.ts")>(
        new URL("../authoring/validate.ts", import.meta.url),
      );
      ctx.exitCode = await runValidate(opts, ctx.io);
    });

  program
    .command("lint")
    .description("validate plus style rules (brittle selectors, naming, nesting) as warnings; exit 1 on any finding")
    .option("--dir <path>", DIR_HELP)
    .option("--json", "print the {ok, diagnostics, result} envelope (same as --format json)")
    .option("--format <format>", FORMAT_HELP)
    .option("--warn-only", "exit 0 when there are only warnings (errors still fail)")
    .action(async (opts) => {
      const { runLint } = await lazy<typeof import("../authoring/lint.ts")>(
        new URL("../authoring/lint.ts", import.meta.url),
      );
      ctx.exitCode = await runLint(opts, ctx.io);
    });

  program
    .command("fmt")
    .description("rewrite corpus files in the canonical format (key order, quoting, sorted lists; comments kept)")
    .option("--dir <path>", DIR_HELP)
    .option("--check", "write nothing; exit 1 and name each file that is not canonical")
    .option("--write", "rewrite files in place (the default)")
    .option("--json", "print the {ok, diagnostics, result} envelope (same as --format json)")
    .option("--format <format>", FORMAT_HELP)
    .action(async (opts) => {
      if (opts.check && opts.write) throw new UsageError("--check and --write conflict", { hint: "give one of them" });
      const { runFmt } = await lazy<typeof import("../authoring/fmt.ts")>(
        new URL("../authoring/fmt.ts", import.meta.url),
      );
      ctx.exitCode = await runFmt(opts, ctx.io);
    });
}
