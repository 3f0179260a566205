/** Wiring of `mapper atlas …`: the atlas client (find, list, validate, add, verify) and the catalog API (serve, build). @module */
import type { Command } from "./command.ts";
import { type CliContext, intArg } from "./context.ts";
import { registerCatalog } from "./catalog.ts";
import { UsageError } from "../errors.ts";
import { escapeControls, quote } from "../terminal.ts";
import { lazy } from "../lazy.ts";

/** `atlas find` and `atlas list`, loaded when one of them runs. */
const atlasFind = () => lazy<typeof import("../atlas/find.ts")>(new URL("../atlas/find.ts", import.meta.url));

/** Registers the `mapper atlas` command group. */
export function registerAtlas(program: Command, ctx: CliContext): void {
  const atlas = program
    .command("atlas")
    .description("find, list, validate and install community corpora; serve or export the catalog API");

  atlas
    .command("find")
    .description("search the atlas catalog; each hit prints the command that installs it")
    .argument("[query...]", "text to look for in domains, slugs, names, categories and descriptions")
    .option("--json", "print hits as JSON (all fields, plus matched_on and install)")
    .option("--category <name>", "only entries in this category")
    .option("--limit <n>", "show at most N hits (0 = all)", intArg(0), 10)
    .option("--index <url|file>", "catalog location: an HTTPS URL or a local index.json")
    .option("--refresh", "ignore the 24 h cache and fetch the catalog again")
    .action(async (query, opts) => {
      const { runFind } = await atlasFind();
      ctx.exitCode = await runFind({ query, ...opts }, ctx.io);
    });

  atlas
    .command("list")
    .description("list the atlas catalog (find with an empty query)")
    .option("--json", "print entries as JSON")
    .option("--category <name>", "only entries in this category")
    .option("--limit <n>", "show at most N entries (0 = all)", intArg(0), 10)
    .option("--index <url|file>", "catalog location: an HTTPS URL or a local index.json")
    .option("--refresh", "ignore the 24 h cache and fetch the catalog again")
    .allowExcessArguments(true)
    .action(async (opts, cmd) => {
      const extra = cmd.args[0];
      if (extra !== undefined) {
        throw new UsageError(`unexpected argument ${quote(extra)}`, {
          hint: `use 'mapper atlas find ${escapeControls(extra)}' to search`,
        });
      }
      const { runFind } = await atlasFind();
      ctx.exitCode = await runFind({ query: [], ...opts }, ctx.io);
    });

  atlas
    .command("validate")
    .description("check a catalog index.json for every problem an install would hit (exit 1 when any)")
    .argument("[file]", "index.json to check; '-' or nothing reads standard input")
    .option("--json", "print the report as JSON")
    .option("--format <format>", "text, json (same as --json) or github (workflow annotations at file:line)")
    .action(async (file, opts) => {
      if (opts.format !== undefined && !["text", "json", "github"].includes(opts.format)) {
        throw new UsageError(`unknown --format "${opts.format}"`, { hint: "use one of text, json, github" });
      }
      const { runValidate } = await lazy<typeof import("../atlas/validate.ts")>(
        new URL("../atlas/validate.ts", import.meta.url),
      );
      ctx.exitCode = await runValidate({ file, ...opts, json: opts.json || opts.format === "json" }, ctx.io);
    });

  atlas
    .command("add")
    .description("install one published corpus into the target directory (HTTPS, size caps, path rules, YAML check)")
    .argument("<slug>", "the catalog entry to install (see 'mapper atlas find')")
    .option("--target <dir>", "directory to install into; must be empty or missing", ".mapper")
    .option("--source <template>", "archive URL template; {slug} is replaced by the slug")
    .option("--index <url|file>", "catalog location; archives are fetched beside it unless --source is given")
    .option("--expect-sha256 <hex>", "refuse the archive unless its SHA-256 is this value")
    .option("--json", "print the installed files, the archive sha256 and the next steps as JSON")
    .action(async (slug, opts) => {
      const { runAdd } = await lazy<typeof import("../atlas/install.ts")>(
        new URL("../atlas/install.ts", import.meta.url),
      );
      ctx.exitCode = await runAdd({ slug, ...opts }, ctx.io);
    });

  atlas
    .command("verify")
    .description("compare an installed corpus with its atlas-lock.json (exit 1 on drift)")
    .option("--target <dir>", "installed corpus directory", ".mapper")
    .option("--json", "print the report as JSON")
    .action(async (opts) => {
      const { runVerify } = await lazy<typeof import("../atlas/verify.ts")>(
        new URL("../atlas/verify.ts", import.meta.url),
      );
      ctx.exitCode = await runVerify(opts, ctx.io);
    });

  registerCatalog(atlas, ctx);
}
