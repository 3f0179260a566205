/** Wiring of the offline commands: `mapper sel-check` (`src/offline/`). @module */
import type { Command } from "./command.ts";
import { type CliContext, intArg } from "./context.ts";
import { lazy } from "../lazy.ts";

/** Registers `sel-check`. */
export function registerOffline(program: Command, ctx: CliContext): void {
  program
    .command("sel-check")
    .description("what a CSS selector matches in captured trees, without a browser (exit 1 when nothing matches)")
    .argument("<selector>", "the whole selector (or list), as the corpus would write it, e.g. 'li.card'")
    .argument("<file...>", "captured trees: .snap.tree.json from 'mapper capture', or the other implementation's")
    .option("--limit <n>", "list at most this many matches per file (all are counted)", intArg(1), 20)
    .option("--include-hidden", "also list hidden matches (they are always counted)")
    .option("--json", "print as JSON")
    .addHelpText(
      "after",
      "\nThe selector is answered per root, as querySelectorAll would on the page: the document, each open shadow\n" +
        "root, each same-origin frame; it never crosses into one. What a capture cannot answer (:hover, a cut attribute\n" +
        "value, a state the file does not record) is reported as such, never as 0 matches. Exit 0 when something\n" +
        "matched, 1 when nothing did or a file could not answer, 2 for invalid CSS.",
    )
    .action(async (selector, files, o) => {
      const { runSelCheck } = await lazy<typeof import("../offline/sel_check.ts")>(
        new URL("../offline/sel_check.ts", import.meta.url),
      );
      ctx.exitCode = await runSelCheck({
        selector,
        files,
        limit: o.limit,
        includeHidden: o.includeHidden === true,
        json: o.json === true,
      }, ctx.io);
    });
}
