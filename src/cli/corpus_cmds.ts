/** Wiring of the resolver's authoring commands: `mapper stats`, `match`, `explain`, `init`. @module */
import type { Command } from "./command.ts";
import { type CliContext, intArg } from "./context.ts";
import { UsageError } from "../errors.ts";
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
      const { runStats } = await lazy<typeof import("../authoring/stats.ts")>(
        new URL("../authoring/stats.ts", import.meta.url),
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
    .description(
      "what the corpus says about a name (component, view, request, message); with --id, --grep or --selector: " +
        "nodes of the live page with their owner and selectors counted live",
    )
    .argument("[name]", "the name to look up, e.g. SiteHeader (exact, case-sensitive)")
    .option("--id <n>", "live page: the node with this snapshot id", intArg(1))
    .option("--grep <text>", "live page: nodes whose name, role, text or attribute values contain this text")
    .option("--selector <css>", "live page: the nodes this CSS selector matches")
    .option("--max <n>", "live page: nodes explained (default 10)", intArg(1))
    .option("--tab <id>", "live page: the tab to read; needed with several tabs")
    .option("--dir <path>", DIR_HELP)
    .option("--json", JSON_HELP)
    .option("--format <format>", FORMAT_HELP)
    .action(async (name, opts) => {
      const picks = [opts.id, opts.grep, opts.selector].filter((v) => v !== undefined).length;
      if (picks > 0 || name === undefined) {
        if (name !== undefined) {
          throw new UsageError("a name and --id/--grep/--selector do not go together", {
            hint: "'mapper explain NAME' looks the name up in the corpus; drop NAME to explain live nodes",
          });
        }
        if (picks !== 1) {
          throw new UsageError(
            picks === 0
              ? "explain needs a NAME or one of --id, --grep, --selector"
              : "pass only one of --id, --grep, --selector",
            {
              hint: "e.g. 'mapper explain SiteHeader' or 'mapper explain --grep \"add to cart\"'",
            },
          );
        }
        const { runExplainNode } = await lazy<typeof import("../kit/commands.ts")>(
          new URL("../kit/commands.ts", import.meta.url),
        );
        const pick = opts.id !== undefined
          ? { id: opts.id as number }
          : opts.grep !== undefined
          ? { grep: opts.grep as string }
          : { selector: opts.selector as string };
        ctx.exitCode = await runExplainNode(
          { dir: opts.dir, tab: opts.tab, json: opts.json === true, pick, max: opts.max },
          ctx.io,
        );
        return;
      }
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
