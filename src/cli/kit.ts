/** Wiring of the live authoring kit: `mapper probe`, `gap`, `suggest`, `draft`, `inspect` (`src/kit/`). @module */
import type { Command } from "./command.ts";
import { type CliContext, intArg, SESSION_DIR_HELP } from "./context.ts";
import { lazy } from "../lazy.ts";

const TAB = "the tab to read (id or prefix from 'mapper browser tabs list'); needed with several tabs";

const kitCommands = () => lazy<typeof import("../kit/commands.ts")>(new URL("../kit/commands.ts", import.meta.url));

/** Registers `probe`, `gap`, `suggest`, `draft` and `inspect`. */
export function registerKit(program: Command, ctx: CliContext): void {
  program
    .command("probe")
    .description("count a CSS selector on the live page: each match's id, role, name, visibility and owner")
    .argument(
      "<selector>",
      "a CSS selector, e.g. 'li.card' (quote it for the shell; put -- before one starting with -)",
    )
    .option("--max <n>", "matches listed (default 10)", intArg(0))
    .option("--expect <n>", "exit 1 unless exactly this many elements match live", intArg(0))
    .option("--all", "count it in every view's url: instead, one after another in a scratch background tab")
    .option("--tab <id>", TAB)
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .addHelpText(
      "after",
      "\nCounts in every root (the document, open shadow roots, same-origin frames), as querySelectorAll on each,\n" +
        "and again with the offline engine on the same pass: the two must agree. The selector is sent as data, never\n" +
        "run as page script. Exit 1 when --expect differs; 2 when the browser rejects the selector.",
    )
    .action(async (selector, o) => {
      const { runProbe } = await kitCommands();
      ctx.exitCode = await runProbe({
        dir: o.dir,
        tab: o.tab,
        json: o.json === true,
        selector,
        max: o.max,
        expect: o.expect,
        all: o.all === true,
      }, ctx.io);
    });

  program
    .command("gap")
    .description("the orphaned interactive nodes, in clusters, each with selectors counted live that cover it")
    .option("--scope <component>", "the nodes inside this component that no component claims themselves (T2)")
    .option("--include-hidden", "hidden interactive nodes too")
    .option("--max-clusters <n>", "clusters listed (default 20)", intArg(1))
    .option("--tab <id>", TAB)
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .addHelpText(
      "after",
      "\nA cluster is one role, one nearest hooked ancestor and one element shape. Candidates prefer test ids, data-*\n" +
        "and ARIA hooks, stable ids and classes; generated classes are never used; :nth-child only when nothing else\n" +
        "is exact (said so). Exit 1 when the page has no interactive node or --scope names no component here.",
    )
    .action(async (o) => {
      const { runGap } = await kitCommands();
      ctx.exitCode = await runGap({
        dir: o.dir,
        tab: o.tab,
        json: o.json === true,
        scope: o.scope,
        includeHidden: o.includeHidden === true,
        maxClusters: o.maxClusters,
      }, ctx.io);
    });

  program
    .command("suggest")
    .description("candidate components for the live page: landmarks, hooks, forms, repeated cards/rows and controls")
    .option("--exclude-known", "leave out candidates whose elements are all claimed already")
    .option("--group", "say for each the component it is inside")
    .option("--max <n>", "candidates listed (default 20)", intArg(1))
    .option("--min-count <n>", "only candidates with at least this many elements", intArg(1))
    .option("--kind <kind>", "only hooks, landmarks, repeated or controls")
    .option("--include-hidden", "hidden elements too")
    .option("--yaml", "print them as YAML to paste under a view's components:")
    .option("--tab <id>", TAB)
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (o) => {
      const { runSuggest } = await kitCommands();
      ctx.exitCode = await runSuggest({
        dir: o.dir,
        tab: o.tab,
        json: o.json === true,
        excludeKnown: o.excludeKnown === true,
        group: o.group === true,
        max: o.max,
        minCount: o.minCount,
        kind: o.kind,
        includeHidden: o.includeHidden === true,
        yaml: o.yaml === true,
      }, ctx.io);
    });

  program
    .command("draft")
    .description("a first view for the live page: landmarks, forms, repeated cards/rows, controls, each probed")
    .option("--url <url>", "open this URL in the tab first (only when it shows another page)")
    .option(
      "--out <file>",
      "write the view file there (never over an existing file without --force); a directory with --all",
    )
    .option("--all", "every page the current one links to on its origin (at most 20, one per route): a file per view")
    .option("--force", "replace --out, and write it even when a hard check fails")
    .option("--view <name>", "the view's name (default: from the page's h1 or title)")
    .option("--route <route>", "the view's route (default: the URL's path, ids and slugs as :id)")
    .option("--tab <id>", TAB)
    .option("--json", 'print as JSON (the YAML in "yaml")')
    .option("--dir <path>", SESSION_DIR_HELP)
    .addHelpText(
      "after",
      "\nBuilt from what suggest and gap find, each selector ranked as they rank them and counted live: exactly the\n" +
        "elements it is meant for. Components the corpus already has are left to it. Prints the YAML (the report on\n" +
        "stderr) or writes it with --out; says the coverage before and after and every interactive node it gave up\n" +
        "on. Exit 1 when a selector does not match exactly what it names (nothing written unless --force).\n" +
        "A page a view serves already gets the components that view lacks: printed to paste under it, or added with\n" +
        "--out naming the file that declares it (and --force).\n" +
        "--all --out DIR: the current page and each page it links to on its origin (never a logout-like, download or\n" +
        "non-GET link), at most 20 pages; pages of one route pattern are one view when their structure matches, else\n" +
        "a view each. One file per view in DIR.",
    )
    .action(async (o) => {
      const { runDraft } = await kitCommands();
      ctx.exitCode = await runDraft({
        dir: o.dir,
        tab: o.tab,
        json: o.json === true,
        url: o.url,
        out: o.out,
        force: o.force === true,
        view: o.view,
        route: o.route,
        all: o.all === true,
      }, ctx.io);
    });

  program
    .command("inspect")
    .description("the raw DOM tree of the live page for writing selectors: ids, hooks, roles, owners, shadow roots")
    .option("--selector <css>", "only the subtrees of the elements this selector matches")
    .option("--id <n>", "only the subtree of this snapshot id", intArg(1))
    .option("--depth <n>", "levels shown below each root", intArg(0))
    .option("--interactive", "only interactive elements and what contains them")
    .option("--attributes", "every attribute, not only the hooks")
    .option("--include-hidden", "hidden elements too")
    .option("--tab <id>", TAB)
    .option("--json", "print the captured tree (the format of 'snapshot --tree-out')")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (o) => {
      const { runInspect } = await kitCommands();
      ctx.exitCode = await runInspect({
        dir: o.dir,
        tab: o.tab,
        json: o.json === true,
        selector: o.selector,
        id: o.id,
        depth: o.depth,
        interactive: o.interactive === true,
        attributes: o.attributes === true,
        includeHidden: o.includeHidden === true,
      }, ctx.io);
    });
}
