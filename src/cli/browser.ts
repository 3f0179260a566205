/** Wiring of `mapper browser start|stop|status`. @module */
import type { Command } from "@commander-js/extra-typings";
import { type CliContext, collect, intArg, notImplemented } from "./context.ts";

/** Registers the `mapper browser` command group. */
export function registerBrowser(program: Command, ctx: CliContext): void {
  void ctx;
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
    .option("--browser-flag <flag>", "extra Chromium flag (repeatable)", collect)
    .option("--port <n>", "daemon HTTP port: corpus server + devtools API (0 = any free port)", intArg(0, 65535), 7891)
    .option("--dir <path>", "corpus directory", ".mapper")
    .option("--detach", "return once the session answers; the daemon keeps running in the background")
    .action(notImplemented("browser start"));

  browser
    .command("stop")
    .description("stop the running session: exactly the processes it started")
    .option("--dir <path>", "corpus directory holding the session file", ".mapper")
    .action(notImplemented("browser stop"));

  browser
    .command("status")
    .description("report whether a session is alive, degraded or absent")
    .option("--dir <path>", "corpus directory holding the session file", ".mapper")
    .option("--json", "print the status as JSON")
    .action(notImplemented("browser status"));
}
