/**
 * Wiring of the commands that need no browser: `mapper sel-check` and `export` (`src/offline/`), `search`
 * (`src/authoring/`).
 *
 * @module
 */
import type { Command } from "./command.ts";
import { type CliContext, intArg } from "./context.ts";
import { lazy } from "../lazy.ts";

const DIR_HELP = "corpus directory (default: the nearest .mapper/ here or above)";

/** Registers `sel-check`, `search` and `export`. */
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

  program
    .command("search")
    .description(
      "find text in the corpus as written: names (properties too), selectors, descriptions, memory, routes, URLs",
    )
    .argument("<pattern>", "a JavaScript regular expression (case-insensitive unless --case), e.g. 'card|tile'")
    .option("--field <field>", "look only in name, selector, description, memory, route or url (default all)")
    .option("--type <type>", "look only at component, view, request or message declarations (default all)")
    .option("--case", "match upper and lower case exactly")
    .option("--fixed", "the pattern is plain text, not a regular expression")
    .option("--dir <path>", DIR_HELP)
    .option("--json", "print as JSON")
    .addHelpText(
      "after",
      "\nEach hit is one line: file:line:col, the path to the declaration (View › Parent › Component), the field and\n" +
        "its value. Exit 0, also when nothing matched; 2 for a bad pattern.",
    )
    .action(async (pattern, o) => {
      const { runSearch } = await lazy<typeof import("../authoring/search.ts")>(
        new URL("../authoring/search.ts", import.meta.url),
      );
      ctx.exitCode = await runSearch({
        pattern,
        ...(o.field !== undefined ? { field: o.field } : {}),
        ...(o.type !== undefined ? { type: o.type } : {}),
        caseSensitive: o.case === true,
        fixed: o.fixed === true,
        json: o.json === true,
        ...(o.dir !== undefined ? { dir: o.dir } : {}),
      }, ctx.io);
    });

  program
    .command("export")
    .description(
      "the compiled corpus (the /mapper JSON) to stdout, a file, or POSTed to a URL; refuses a corpus with errors",
    )
    .option("-o, --out <file>", "write it to this file (replaced whole; a new file is readable by you only)")
    .option(
      "--url <url>",
      "POST it here (https://, or http:// to the literal 127.0.0.1 or [::1]; no redirect followed)",
    )
    .option("--dir <path>", DIR_HELP)
    .addHelpText(
      "after",
      "\nThe JSON is exactly what 'mapper serve-mapper' serves: every view, component, request and message, no captures,\n" +
        "no session file. Secrets in the URL's query (?token=…) are never printed. Exit 1 when the corpus has errors,\n" +
        "the URL is refused, the server redirects or answers other than 2xx; 2 for -o with --url.",
    )
    .action(async (o) => {
      const { runExport } = await lazy<typeof import("../offline/export.ts")>(
        new URL("../offline/export.ts", import.meta.url),
      );
      ctx.exitCode = await runExport({
        ...(o.out !== undefined ? { out: o.out } : {}),
        ...(o.url !== undefined ? { url: o.url } : {}),
        ...(o.dir !== undefined ? { dir: o.dir } : {}),
      }, ctx.io);
    });
}
