/** Wiring of `mapper skills install`. @module */
import type { Command } from "./command.ts";
import type { CliContext } from "./context.ts";
import { lazy } from "../lazy.ts";

/** Registers `mapper skills install [--target DIR] [--dry-run] [--json]`. */
export function registerSkills(program: Command, ctx: CliContext): void {
  const skills = program
    .command("skills")
    .description("install the bundled agent skills (mapper-authoring, mapper-browser)");
  skills
    .command("install")
    .description("write each bundled skill into its own subdirectory of the target, replacing that skill's old copy")
    .option("--target <dir>", "directory to install skills into (each skill becomes a subdirectory)", undefined)
    .option("--dry-run", "list what would be written without writing anything")
    .option("--json", "print what was installed (or would be, with --dry-run) as JSON")
    .action(async (opts) => {
      const { runSkillsInstall } = await lazy<typeof import("../skills/install.ts")>(
        new URL("../skills/install.ts", import.meta.url),
      );
      ctx.exitCode = await runSkillsInstall(
        { target: opts.target, dryRun: opts.dryRun === true, json: opts.json === true },
        ctx.io,
      );
    });
}
