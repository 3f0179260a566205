/**
 * Wiring of the commands that keep pages and check the map against them: `mapper capture`, `capture-novelty`,
 * `capture-prune` (`src/kit/capture.ts`), `coverage`, `report`, `multi-coverage` (`src/kit/coverage.ts`).
 *
 * @module
 */
import type { Command } from "./command.ts";
import type { CliContext } from "./context.ts";
import { lazy } from "../lazy.ts";

const DIR_HELP =
  "corpus directory: captures go to its snapshots/ (default: the nearest .mapper/ at or above the working directory)";

const captureCommands = () => lazy<typeof import("../kit/capture.ts")>(new URL("../kit/capture.ts", import.meta.url));

const coverageCommands = () =>
  lazy<typeof import("../kit/coverage.ts")>(new URL("../kit/coverage.ts", import.meta.url));

/** Registers `capture`, `capture-novelty`, `capture-prune`, `coverage`, `report` and `multi-coverage`. */
export function registerCaptures(program: Command, ctx: CliContext): void {
  program
    .command("capture")
    .description("keep the current page (snapshot text and tree) under .mapper/snapshots/<View>/ for offline checks")
    .option("--url <url>", "open this URL first (only when the tab is not already there)")
    .option("--all", "capture every view's url: instead, each in a scratch background tab")
    .option("--force", "keep it even when it adds nothing to the view's captures, or has no interactive node")
    .option("--tab <id>", "the tab to capture (id or prefix from 'mapper browser tabs list'); needed with several tabs")
    .option("--json", "print as JSON")
    .option("--dir <path>", DIR_HELP)
    .addHelpText(
      "after",
      "\nA capture is kept when it is the view's first, or adds a component or an orphan slot (role, hooked ancestor,\n" +
        "leaf shape) the view's captures lack; else 'not saved: adds nothing' (exit 0). Exit 1 when no view matches the\n" +
        "URL, the page has no interactive node (unless --force), or with --all any view failed.",
    )
    .action(async (o) => {
      const { runCapture } = await captureCommands();
      ctx.exitCode = await runCapture({
        dir: o.dir,
        url: o.url,
        tab: o.tab,
        all: o.all === true,
        force: o.force === true,
        json: o.json === true,
      }, ctx.io);
    });

  program
    .command("capture-novelty")
    .description("what a capture adds to the other captures of its view: components and orphan slots (read-only)")
    .argument("<file>", "a .snap.tree.json, e.g. .mapper/snapshots/Catalog/20260607T193000Z.snap.tree.json")
    .option("--json", "print as JSON")
    .option("--dir <path>", DIR_HELP)
    .action(async (file, o) => {
      const { runCaptureNovelty } = await captureCommands();
      ctx.exitCode = await runCaptureNovelty({ dir: o.dir, file, json: o.json === true }, ctx.io);
    });

  program
    .command("capture-prune")
    .description("remove captures the rest of their view's set already covers (oldest first, never the last)")
    .argument("[view]", "the view whose captures to prune")
    .option("--all", "prune every view's captures")
    .option("--dry-run", "say what would be removed, remove nothing")
    .option("--json", "print as JSON")
    .option("--dir <path>", DIR_HELP)
    .action(async (view, o) => {
      const { runCapturePrune } = await captureCommands();
      ctx.exitCode = await runCapturePrune({
        dir: o.dir,
        view,
        all: o.all === true,
        dryRun: o.dryRun === true,
        json: o.json === true,
      }, ctx.io);
    });

  program
    .command("coverage")
    .description("check the map against its captures, offline: tiers per capture, dead components, presence")
    .argument("[files...]", "capture files (default: every .snap.tree.json under .mapper/snapshots/)")
    .option("--include-hidden", "count hidden elements too")
    .option("--trace", "list the orphaned interactive nodes in clusters, with the element of each")
    .option("--json", "print as JSON")
    .option("--dir <path>", DIR_HELP)
    .addHelpText(
      "after",
      "\nEach capture is re-matched at its recorded URL with the current corpus and grouped by the view recorded in\n" +
        "it; one whose URL now resolves to another view is stale (listed, left out). Exit 1 on an orphan (T3), a\n" +
        "capture without an interactive node, or an unreadable capture.",
    )
    .action(async (files, o) => {
      const { runCoverage } = await coverageCommands();
      ctx.exitCode = await runCoverage({
        dir: o.dir,
        files,
        includeHidden: o.includeHidden === true,
        trace: o.trace === true,
        json: o.json === true,
      }, ctx.io);
    });

  program
    .command("report")
    .description("one row per view: captures, their age, T1/T2/T3, dead components, the largest T2 component")
    .option("--json", "print as JSON")
    .option("--dir <path>", DIR_HELP)
    .addHelpText(
      "after",
      "\nThen the properties that had no value in any capture where their component matched (extracted offline as\n" +
        "on the page), and those a capture cannot judge (a selector it cannot answer, inner_text hidden by style).\n" +
        "Exit 1 on orphans (T3), dead components or views with a url: but no capture.",
    )
    .action(async (o) => {
      const { runReport } = await coverageCommands();
      ctx.exitCode = await runReport({ dir: o.dir, json: o.json === true }, ctx.io);
    });

  program
    .command("multi-coverage")
    .description("components × views from the captures, and what to promote to a global, unify or de-duplicate")
    .argument("[files...]", "capture files (default: every .snap.tree.json under .mapper/snapshots/)")
    .option("--json", "print as JSON")
    .option("--dir <path>", DIR_HELP)
    .action(async (files, o) => {
      const { runMultiCoverage } = await coverageCommands();
      ctx.exitCode = await runMultiCoverage({ dir: o.dir, files, json: o.json === true }, ctx.io);
    });

  program
    .command("discover")
    .description("the current page's links folded into URL patterns, each marked mapped, catch-all, surveyed or unseen")
    .option("--all", "fold the links of every capture in too")
    .option("--tab <id>", "the tab to read (id or prefix from 'mapper browser tabs list'); needed with several tabs")
    .option("--json", "print as JSON")
    .option("--dir <path>", DIR_HELP)
    .addHelpText(
      "after",
      "\nSame-origin a[href] and area[href] in every root; ids (digits, UUIDs, hex, slugs with a digit) and three or\n" +
        "more values at one place fold into :id unless a route names them. ✓ a view maps it · ~ only a catch-all\n" +
        "route (warned) · ○ captured but no view · ? unseen. Exit 0.",
    )
    .action(async (o) => {
      const { runDiscover } = await lazy<typeof import("../kit/discover.ts")>(
        new URL("../kit/discover.ts", import.meta.url),
      );
      ctx.exitCode = await runDiscover({ dir: o.dir, tab: o.tab, all: o.all === true, json: o.json === true }, ctx.io);
    });
}
