/** Wiring of `mapper mcp`. @module */
import type { Command } from "./command.ts";
import { UsageError } from "../errors.ts";
import { escapeControls } from "../terminal.ts";
import { type CliContext, collect, intArg } from "./context.ts";
import { lazy } from "../lazy.ts";

/** Registers the `mapper mcp` command. */
export function registerMcp(program: Command, ctx: CliContext): void {
  program
    .command("mcp")
    .description("serve mapper's tools and the corpus to an MCP client (Claude Code, Cursor, …) over stdio")
    .option("--dir <path>", "corpus directory (its running session is used; atlas_add installs here)", ".mapper")
    .option("--headless", "start the browser without a window (automatic when there is no display)")
    .option(
      "--browser <path>",
      "Chromium or Chrome executable (else $MAPPER_BROWSER, else chromium/google-chrome on PATH)",
    )
    .option("--url <url>", "page to open when the session starts (a new tab when one is already running)")
    .option(
      "--allow-scheme <scheme>",
      "let the navigate and tabs tools (and --url) open URLs of this scheme (file, data, …; repeatable): only " +
        "http, https and about:blank otherwise",
      collect,
    )
    .option(
      "--port <n>",
      "daemon port of a session this server starts (the next free port when busy)",
      intArg(0, 65535),
      7891,
    )
    .addHelpText(
      "after",
      "\nConfigure a client with the command 'mapper mcp' (e.g. 'claude mcp add mapper -- mapper mcp').\n" +
        "The first browser tool call starts the session when none runs. Standard output carries the protocol;\n" +
        "log lines go to standard error.",
    )
    .action(async (o) => {
      if (o.url !== undefined && !URL.canParse(o.url)) {
        throw new UsageError(`--url ${JSON.stringify(escapeControls(o.url))} is not an absolute URL`, {
          hint: "include the scheme, e.g. --url https://example.com/",
        });
      }
      const { runMcp } = await lazy<typeof import("../mcp/server.ts")>(new URL("../mcp/server.ts", import.meta.url));
      ctx.exitCode = await runMcp(
        {
          dir: o.dir,
          headless: o.headless === true,
          browser: o.browser,
          url: o.url,
          port: o.port,
          allowSchemes: o.allowScheme ?? [],
        },
        ctx.io,
      );
    });
}
