/**
 * Wiring of the acting commands under `mapper browser` (the form: `mapper browser click …`), next to
 * `start|stop|status`: navigate, click, fill, hover, keypress, scroll, wait-for, eval, screenshot, tabs, dialog.
 * Each takes `--tab ID`, `--json` and `--dir`; the implementations are in `src/see/act_commands.ts`.
 *
 * @module
 */
import type { Command } from "./command.ts";
import { UsageError } from "../errors.ts";
import {
  ALLOW_SCHEME_HELP,
  type CliContext,
  collect,
  coordinateArg,
  intArg,
  SESSION_DIR_HELP,
  signedIntArg,
} from "./context.ts";
import { lazy } from "../lazy.ts";
import { ACTION_TIMEOUT_MS, NAVIGATE_TIMEOUT_MS, WAIT_TIMEOUT_MS } from "../timeouts.ts";

/** The page actions, loaded when one of them runs. */
const actCommands = () =>
  lazy<typeof import("../see/act_commands.ts")>(new URL("../see/act_commands.ts", import.meta.url));

const TAB = "the tab to act on (id or prefix from 'mapper browser tabs list'); needed with several tabs";
const TARGET =
  "a node id from 'mapper snapshot' or a component query, e.g. 'ProductCard[name=\"Basalt Coffee Mug\"] AddToCartButton'";

/** Registers the acting commands on the `browser` command group. */
export function registerBrowserActions(browser: Command, ctx: CliContext): void {
  browser
    .command("navigate")
    .description("open URL in the tab, wait for it to load (and for a client redirect), print the final URL")
    .argument("<url>", "absolute URL")
    .option("--timeout-ms <n>", "longest wait for the load", intArg(1), NAVIGATE_TIMEOUT_MS)
    .option("--allow-scheme <scheme>", ALLOW_SCHEME_HELP, collect)
    .option("--tab <id>", TAB)
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (url, o) => {
      const { runNavigate } = await actCommands();
      ctx.exitCode = await runNavigate(
        { dir: o.dir, tab: o.tab, json: o.json === true, url, timeoutMs: o.timeoutMs, allowSchemes: o.allowScheme },
        ctx.io,
      );
    });

  for (const name of ["click", "hover"] as const) {
    browser
      .command(name)
      .description(
        name === "click"
          ? "click an element by id or component query (refused at once when disabled or covered by what stays), or a point"
          : "move the pointer over an element by id or component query (refused when covered), or a point",
      )
      .argument("[target]", TARGET)
      .option("--x <n>", "viewport x in CSS pixels (with --y, instead of a target)", coordinateArg)
      .option("--y <n>", "viewport y in CSS pixels", coordinateArg)
      .option("--timeout-ms <n>", "longest wait for the element to be visible and stable", intArg(1), ACTION_TIMEOUT_MS)
      .option("--tab <id>", TAB)
      .option("--json", "print as JSON")
      .option("--dir <path>", SESSION_DIR_HELP)
      .action(async (target, o) => {
        const { runClick, runHover } = await actCommands();
        const opts = { dir: o.dir, tab: o.tab, json: o.json === true, target, x: o.x, y: o.y, timeoutMs: o.timeoutMs };
        ctx.exitCode = name === "click" ? await runClick(opts, ctx.io) : await runHover(opts, ctx.io);
      });
  }

  browser
    .command("fill")
    .description("replace a field's value with TEXT by real typing, then verify it holds exactly TEXT")
    .argument("<target>", TARGET)
    .argument("<text>", 'the text (a <select> takes an option\'s label or value; "" empties the field)')
    .option("--clear", "replace the current value (the default; says so in a script)")
    .option("--append", "type after the current value instead of replacing it")
    .option("--timeout-ms <n>", "longest wait for the field to be visible and stable", intArg(1), ACTION_TIMEOUT_MS)
    .option("--tab <id>", TAB)
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (target, text, o) => {
      if (o.clear && o.append) throw new UsageError("--clear and --append contradict each other");
      const { runFill } = await actCommands();
      ctx.exitCode = await runFill(
        {
          dir: o.dir,
          tab: o.tab,
          json: o.json === true,
          target,
          text,
          append: o.append === true,
          timeoutMs: o.timeoutMs,
        },
        ctx.io,
      );
    });

  browser
    .command("keypress")
    .description("press a key or chord (Enter, Escape, Tab, ArrowDown, Control+A, Shift+Tab, …)")
    .argument("<key>", "key name, single character, or Modifier+Key")
    .option("--target <target>", `focus this first: ${TARGET}`)
    .option("--timeout-ms <n>", "longest wait for the target to be visible and stable", intArg(1), ACTION_TIMEOUT_MS)
    .option("--tab <id>", TAB)
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (key, o) => {
      const { runKeypress } = await actCommands();
      ctx.exitCode = await runKeypress(
        { dir: o.dir, tab: o.tab, json: o.json === true, key, target: o.target, timeoutMs: o.timeoutMs },
        ctx.io,
      );
    });

  browser
    .command("scroll")
    .description("bring an element into view (verified), or scroll the page or its container by a delta")
    .option("--target <target>", TARGET)
    .option("--delta-x <n>", "pixels to scroll right (negative: left)", signedIntArg, 0)
    .option("--delta-y <n>", "pixels to scroll down (negative: up)", signedIntArg, 0)
    .option("--timeout-ms <n>", "longest wait for the target to be visible and stable", intArg(1), ACTION_TIMEOUT_MS)
    .option("--tab <id>", TAB)
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (o) => {
      const { runScroll } = await actCommands();
      ctx.exitCode = await runScroll({
        dir: o.dir,
        tab: o.tab,
        json: o.json === true,
        target: o.target,
        deltaX: o.deltaX,
        deltaY: o.deltaY,
        timeoutMs: o.timeoutMs,
      }, ctx.io);
    });

  browser
    .command("wait-for")
    .description("wait until one condition holds (returns at once when it already does)")
    .option("--url <text>", "the tab's URL contains TEXT")
    .option("--selector <css>", "an element matching CSS is visible")
    .option("--component <query>", "a component query matches at least one element")
    .option("--view <name>", "the tab's URL resolves to this view")
    .option("--text <text>", "the page's visible text contains TEXT")
    .option("--load", "the document has finished loading")
    .option("--gone", "wait for the condition to stop holding instead")
    .option("--timeout-ms <n>", "longest wait", intArg(1), WAIT_TIMEOUT_MS)
    .option("--tab <id>", TAB)
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (o) => {
      const { runWaitFor } = await actCommands();
      ctx.exitCode = await runWaitFor({
        dir: o.dir,
        tab: o.tab,
        json: o.json === true,
        url: o.url,
        selector: o.selector,
        component: o.component,
        view: o.view,
        text: o.text,
        load: o.load === true,
        gone: o.gone === true,
        timeoutMs: o.timeoutMs,
      }, ctx.io);
    });

  browser
    .command("eval")
    .description("run JavaScript in the page (expression or body with return; promises awaited); print JSON")
    .argument("<js>", "the script")
    .option("--tab <id>", TAB)
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (js, o) => {
      const { runEval } = await actCommands();
      ctx.exitCode = await runEval({ dir: o.dir, tab: o.tab, json: o.json === true, js }, ctx.io);
    });

  browser
    .command("screenshot")
    .description("save a PNG (or JPEG by extension) of the viewport, the full page, or one element scrolled into view")
    .option("--out <file>", "image path (default screenshot-<time>.png here; .jpg/.jpeg for JPEG)")
    .option("--component <query>", "capture this component's element")
    .option("--selector <css>", "capture the first element matching CSS")
    .option("--expand-pct <n>", "margin around the element, percent of its size on each side", intArg(0, 1000))
    .option("--full-page", "capture the whole scrollable page")
    .option("--timeout-ms <n>", "longest wait for the element to be visible and stable", intArg(1), ACTION_TIMEOUT_MS)
    .option("--tab <id>", TAB)
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (o) => {
      const { runScreenshot } = await actCommands();
      ctx.exitCode = await runScreenshot({
        dir: o.dir,
        tab: o.tab,
        json: o.json === true,
        out: o.out,
        component: o.component,
        selector: o.selector,
        expandPct: o.expandPct,
        fullPage: o.fullPage === true,
        timeoutMs: o.timeoutMs,
      }, ctx.io);
    });

  browser
    .command("tabs")
    .description(
      "list the session's tabs (id, URL, title, view), open one (new [URL]), close one (close ID) or set its window " +
        "size (resize W H, or --reset)",
    )
    .argument("<action>", "list, new, close or resize")
    .argument("[arg]", "new: the URL to open; close: the tab id; resize: the width in CSS pixels (200–8192)")
    .argument("[height]", "resize: the height in CSS pixels (200–8192)")
    .option("--timeout-ms <n>", "new: longest wait for the page to load", intArg(1), NAVIGATE_TIMEOUT_MS)
    .option("--allow-scheme <scheme>", `new: ${ALLOW_SCHEME_HELP}`, collect)
    .option("--dpr <n>", "resize: the device pixel ratio", intArg(1, 8))
    .option("--mobile", "resize: emulate a mobile viewport (meta viewport, overlay scrollbars)")
    .option("--reset", "resize: back to the browser window's own size")
    .option("--tab <id>", "close: the tab id (same as the argument); resize: the tab to size")
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (action, arg, height, o) => {
      const { runTabs } = await actCommands();
      ctx.exitCode = await runTabs(
        {
          dir: o.dir,
          tab: o.tab,
          json: o.json === true,
          op: action,
          arg,
          arg2: height,
          timeoutMs: o.timeoutMs,
          allowSchemes: o.allowScheme,
          dpr: o.dpr,
          mobile: o.mobile === true,
          reset: o.reset === true,
        },
        ctx.io,
      );
    });

  browser
    .command("drag")
    .description("drag one element onto another with real pointer input, verified: FROM moved or the page changed")
    .argument("<from>", "what to drag: " + TARGET)
    .argument("<to>", "where to drop it: a node id or component query")
    .option("--steps <n>", "pointer moves between press and release (default 12)", intArg(1, 200))
    .option("--mode <mode>", "auto (html5 for draggable elements, links, images), pointer or html5")
    .option("--timeout-ms <n>", "longest wait, for both elements together, to be visible and stable", intArg(1), 5000)
    .option("--tab <id>", TAB)
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (from, to, o) => {
      const { runDrag } = await actCommands();
      ctx.exitCode = await runDrag({
        dir: o.dir,
        tab: o.tab,
        json: o.json === true,
        from,
        to,
        steps: o.steps,
        mode: o.mode,
        timeoutMs: o.timeoutMs,
      }, ctx.io);
    });

  browser
    .command("dialog")
    .description("answer the alert/confirm/prompt blocking the tab: accept (with --text for a prompt) or dismiss")
    .argument("<action>", "accept or dismiss")
    .option("--text <text>", "the answer typed into a prompt")
    .option("--tab <id>", TAB)
    .option("--json", "print as JSON")
    .option("--dir <path>", SESSION_DIR_HELP)
    .action(async (action, o) => {
      const { runDialog } = await actCommands();
      ctx.exitCode = await runDialog(
        { dir: o.dir, tab: o.tab, json: o.json === true, op: action, text: o.text },
        ctx.io,
      );
    });
}
