/** Wiring of `mapper console list|get` and `mapper network list|get`. @module */
import type { Command } from "./command.ts";
import { type CliContext, intArg, SESSION_DIR_HELP } from "./context.ts";
import { lazy } from "../lazy.ts";

/** The console and network commands, loaded when one of them runs. */
const commands = () =>
  lazy<typeof import("../devtools/commands.ts")>(new URL("../devtools/commands.ts", import.meta.url));

/** Registers the `mapper console` and `mapper network` command groups. */
export function registerDevtools(program: Command, ctx: CliContext): void {
  const consoleCmd = program
    .command("console")
    .description("read console messages captured by the running browser session");
  consoleCmd
    .command("list")
    .description("list captured console messages, oldest to newest")
    .option("--level <levels>", "only these levels (comma list of log, debug, info, warn, error, exception)")
    .option("--tab <id>", "only this tab")
    .option("--limit <n>", "only the most recent N messages", intArg(1))
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (o) => {
      const { runConsoleList } = await commands();
      ctx.exitCode = await runConsoleList(
        { dir: o.dir, level: o.level, tab: o.tab, limit: o.limit, json: o.json === true },
        ctx.io,
      );
    });
  consoleCmd
    .command("get")
    .description("print one console message: a header line, then its text")
    .argument("<index>", "message index from 'mapper console list'")
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (index, o) => {
      const { runConsoleGet } = await commands();
      ctx.exitCode = await runConsoleGet({ dir: o.dir, index, json: o.json === true }, ctx.io);
    });

  const network = program
    .command("network")
    .description("read network requests captured by the running browser session");
  network
    .command("list")
    .description("list captured requests, oldest to newest")
    .option(
      "--type <type>",
      "only this resource type (Document, XHR, Fetch, Stylesheet, Image, Script, Font, …; case-insensitive)",
    )
    .option("--url <text>", "only URLs containing this text (case-insensitive)")
    .option("--tab <id>", "only this tab")
    .option("--limit <n>", "only the most recent N requests", intArg(1))
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (o) => {
      const { runNetworkList } = await commands();
      ctx.exitCode = await runNetworkList(
        { dir: o.dir, type: o.type, url: o.url, tab: o.tab, limit: o.limit, json: o.json === true },
        ctx.io,
      );
    });
  network
    .command("get")
    .description("print one request's metadata, then a preview of its response body")
    .argument("<index>", "request index from 'mapper network list'")
    .option("--response-file <path>", "write the full response body to this file instead of previewing it")
    .option("--request-file <path>", "write the request body (POST data) to this file")
    .option(
      "--show-secrets",
      "show Authorization, Proxy-Authorization, Cookie and Set-Cookie values instead of redacting them",
    )
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (index, o) => {
      const { runNetworkGet } = await commands();
      ctx.exitCode = await runNetworkGet({
        dir: o.dir,
        index,
        json: o.json === true,
        responseFile: o.responseFile,
        requestFile: o.requestFile,
        showSecrets: o.showSecrets === true,
      }, ctx.io);
    });
}
