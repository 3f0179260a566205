/** Wiring of `mapper version`. @module */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "./context.ts";
import { VERSION } from "../version.ts";

/** Registers `mapper version`: prints `mapper <semver>`; takes no flags or arguments. */
export function registerVersion(program: Command, ctx: CliContext): void {
  program
    .command("version")
    .description("print mapper's version and exit")
    .action(() => {
      ctx.io.stdout.write(`mapper ${VERSION}\n`);
    });
}
