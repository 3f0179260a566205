/** Wiring of `mapper browser start|stop|status`. @module */
import { type Command, Option } from "./command.ts";
import { UsageError } from "../errors.ts";
import { ALLOW_SCHEME_HELP, type CliContext, collect, intArg, SESSION_DIR_HELP } from "./context.ts";
import { registerBrowserActions } from "./browser_act.ts";
import { lazy } from "../lazy.ts";

/** Registers the `mapper browser` command group. */
export function registerBrowser(program: Command, ctx: CliContext): void {
  const browser = program
    .command("browser")
    .description("a managed Chromium session with the corpus server, the extension and a console/network collector");

  browser
    .command("start")
    .description("launch Chromium with the bundled extension, the corpus server and the collector")
    .option(
      "--browser <path>",
      "Chromium or Chrome executable (else $MAPPER_BROWSER, else chromium/google-chrome on PATH)",
    )
    .option("--profile <dir>", "browser profile directory (default under ~/.mapper/profiles/)")
    .option("--headless", "run without a window (automatic when there is no display)")
    .option("--url <url>", "page to open once the session is ready")
    .option("--allow-scheme <scheme>", `with --url: ${ALLOW_SCHEME_HELP}`, collect)
    .option("--browser-flag <flag>", "extra Chromium flag (repeatable)", collect)
    .option(
      "--port <n>",
      "daemon HTTP port: corpus server + devtools API (the next free port when busy; 0 = any free port)",
      intArg(0, 65535),
      7891,
    )
    .option(
      "--dir <path>",
      "corpus directory (default: the nearest .mapper/ at or above the working directory, else ./.mapper)",
    )
    .option("--detach", "return once the session answers; the daemon keeps running in the background")
    .option(
      "--wait <what>",
      "with --detach: return after the first page loaded (load, at most 15 s) or at once (none)",
      "load",
    )
    .addOption(new Option("--log-file <path>", "(internal) the detached daemon's log").hideHelp())
    .addOption(new Option("--start-stdin", "(internal) the detached daemon's start URL, on standard input").hideHelp())
    .action(async (o) => {
      if (o.wait !== "load" && o.wait !== "none") {
        throw new UsageError(`unknown --wait "${o.wait}"`, { hint: "use --wait load or --wait none" });
      }
      const { runBrowserStart } = await lazy<typeof import("../browser/start.ts")>(
        new URL("../browser/start.ts", import.meta.url),
      );
      ctx.exitCode = await runBrowserStart({
        browser: o.browser,
        profile: o.profile,
        headless: o.headless === true,
        url: o.url,
        allowSchemes: o.allowScheme,
        startStdin: o.startStdin === true,
        browserFlags: o.browserFlag ?? [],
        port: o.port,
        dir: o.dir,
        detach: o.detach === true,
        wait: o.wait,
        logFile: o.logFile,
      }, ctx.io);
    });

  browser
    .command("stop")
    .description("stop the running session: exactly the processes it started")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (o) => {
      const { runBrowserStop } = await lazy<typeof import("../browser/stop.ts")>(
        new URL("../browser/stop.ts", import.meta.url),
      );
      ctx.exitCode = await runBrowserStop({ dir: o.dir }, ctx.io);
    });

  browser
    .command("status")
    .description("report whether a session is alive, degraded or absent")
    .option("--dir <path>", SESSION_DIR_HELP)
    .option("--json", "print the status as JSON")
    .action(async (o) => {
      const { runBrowserStatus } = await lazy<typeof import("../browser/status.ts")>(
        new URL("../browser/status.ts", import.meta.url),
      );
      ctx.exitCode = await runBrowserStatus({ dir: o.dir, json: o.json === true }, ctx.io);
    });

  registerBrowserActions(browser, ctx);
}
