/** Wiring of the resolver's authoring commands: `mapper stats`, `match`, `explain`, `init`. @module */
import type { Command } from "./command.ts";
import type { CliContext } from "./context.ts";
import { lazy } from "../lazy.ts";

const DIR_HELP = "corpus directory (default: the nearest .mapper/ here or above)";
const JSON_HELP = "print the {ok, diagnostics, result} envelope (same as --format json)";
const FORMAT_HELP = "output: text, json (the --json envelope) or github (workflow annotations of the findings)";

/** Registers `stats`, `match`, `explain` and `init`. */
export function registerCorpusCommands(program: Command, ctx: CliContext): void {
  program
    .command("stats")
    .description("corpus totals and the per-view table (the numbers the catalog publishes)")
    .option("--dir <path>", DIR_HELP)
    .option("--json", JSON_HELP)
    .option("--format <format>", FORMAT_HELP)
    .action(async (opts) => {
      const { runStats } = await lazy<typeof import("../authoring/stats_cmd.ts")>(
        new URL("../authoring/stats_cmd.ts", import.meta.url),
      );
      ctx.exitCode = await runStats(common(opts), ctx.io);
    });

  program
    .command("match")
    .description("the one view a URL resolves to, its parameters, active components and requests")
    .argument("<url>", "a page URL or path, e.g. https://shop.example/items/42 or /items/42")
    .option("--method <method>", "list only the requests that accept this HTTP method")
    .option("--dir <path>", DIR_HELP)
    .option("--json", JSON_HELP)
    .option("--format <format>", FORMAT_HELP)
    .addHelpText(
      "after",
      "\nThe most specific route wins (per segment: literal 3, :param 2, * 1, ** 0); ties go to the first declared.",
    )
    .action(async (url, opts) => {
      const { runMatch } = await lazy<typeof import("../authoring/match.ts")>(
        new URL("../authoring/match.ts", import.meta.url),
      );
      ctx.exitCode = await runMatch(
        { url, ...common(opts), ...(opts.method !== undefined ? { method: opts.method } : {}) },
        ctx.io,
      );
    });

  program
    .command("explain")
    .description("what the corpus says about one component, view, request or message (exact, case-sensitive name)")
    .argument("<name>", "the name to look up, e.g. SiteHeader")
    .option("--dir <path>", DIR_HELP)
    .option("--json", JSON_HELP)
    .option("--format <format>", FORMAT_HELP)
    .action(async (name, opts) => {
      const { runExplain } = await lazy<typeof import("../authoring/explain.ts")>(
        new URL("../authoring/explain.ts", import.meta.url),
      );
      ctx.exitCode = await runExplain({ name, ...common(opts) }, ctx.io);
    });

  program
    .command("init")
    .description("create a small starter corpus (never overwrites; refuses a directory that already has one)")
    .option("--dir <path>", "corpus directory to create", ".mapper")
    .option("--json", JSON_HELP)
    .action(async (opts) => {
      const { runInit } = await lazy<typeof import("../authoring/init.ts")>(
        new URL("../authoring/init.ts", import.meta.url),
      );
      ctx.exitCode = await runInit({ dir: opts.dir, json: opts.json === true }, ctx.io);
    });
}

/** The flags every read-only corpus command shares, without the ones not given. */
function common(
  opts: { dir?: string | undefined; json?: true | undefined; format?: string | undefined },
): { dir?: string; json: boolean; format?: string } {
  return {
    ...(opts.dir !== undefined ? { dir: opts.dir } : {}),
    json: opts.json === true,
    ...(opts.format !== undefined ? { format: opts.format } : {}),
  };
}
