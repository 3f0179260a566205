/** Wiring of `mapper snapshot` (the page commands that see; `src/see/`). @module */
import type { Command } from "./command.ts";
import { ALLOW_SCHEME_HELP, type CliContext, collect, intArg, SESSION_DIR_HELP } from "./context.ts";
import { lazy } from "../lazy.ts";

/** Registers `mapper snapshot`. */
export function registerSee(program: Command, ctx: CliContext): void {
  program
    .command("snapshot")
    .description("print the page of the running browser session as an annotated tree: view, components, coverage")
    .option("--url <url>", "open this URL first (only when the tab is not already there)")
    .option("--allow-scheme <scheme>", `with --url: ${ALLOW_SCHEME_HELP}`, collect)
    .option("--tab <id>", "the tab to read (id or prefix from 'mapper browser status'); needed with several tabs")
    .option("--interactive", "only interactive nodes and the components around them")
    .option("--coverage", "only view, blocking overlay, warnings and coverage, with selectors for orphans")
    .option("--depth <n>", "cut the tree below this depth (0 = top level only)", intArg(0))
    .option("--include-hidden", "also show hidden nodes (display: none, aria-hidden, inert)")
    .option("--json", "print as JSON")
    .option("--out <file>", "write the snapshot to this file instead of stdout")
    .option("--tree-out <file>", "also write the page's captured tree (JSON, for the offline commands) to this file")
    .option("--dir <path>", SESSION_DIR_HELP)
    .addHelpText(
      "after",
      "\nPrints, in order: [View: NAME] (route, memory notes) or [No view matched], [Blocked] when an overlay covers the\n" +
        "page, [Guide] (a name every line of a component shares, said once; counts the cut tree leaves out), the tree\n" +
        '(ID [Component prop="value" … "name" states] or ID role "name"; a name the properties say is not repeated),\n' +
        "[Warnings], [Conflicts], [Coverage]. Ids stay valid while their element lives; component queries\n" +
        '(ProductCard[name="Lamp"] AddToCartButton) name targets for the acting commands. Exit 1 when the page has no\n' +
        "interactive node (blank or still loading).",
    )
    .action(async (o) => {
      const { runSnapshot } = await lazy<typeof import("../see/commands.ts")>(
        new URL("../see/commands.ts", import.meta.url),
      );
      ctx.exitCode = await runSnapshot({
        dir: o.dir,
        url: o.url,
        allowSchemes: o.allowScheme,
        tab: o.tab,
        interactive: o.interactive === true,
        coverage: o.coverage === true,
        depth: o.depth,
        includeHidden: o.includeHidden === true,
        json: o.json === true,
        out: o.out,
        treeOut: o.treeOut,
      }, ctx.io);
    });
}
