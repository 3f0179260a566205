/**
 * The CLI side of the acting commands (`mapper browser navigate|click|fill|hover|keypress|scroll|wait-for|eval|
 * screenshot|tabs|dialog`): flags → one daemon call (`POST /devtools/page/<command>`) → one confirmation line or
 * the `--json` object. Thin: everything happens in the daemon's action engine.
 *
 * `--json` shapes (all `{"schema": 1, …}`): the engine's result objects (`action`, `target`, `id`, coordinates,
 * `value`, `url`, …; see `daemon/act_routes.ts`); `screenshot` replaces the image data with `path`; `eval` gives
 * `json` (the text) and `value`, or `undefined: true`.
 *
 * @module
 */
import { resolve } from "../path.ts";
import type { Io } from "../io.ts";
import { FileError, UsageError } from "../errors.ts";
import { escapeControls } from "../terminal.ts";
import { writeUserFile } from "../user_file.ts";
import { lazy } from "../lazy.ts";
// The policy file itself, not the browser area's mod.ts (which brings the CDP client): start-up stays light.
import { assertOpenable, schemesOption } from "../browser/schemes.ts";
import { pageCall } from "./client.ts";
import { connect } from "../devtools/client.ts";
import { writeResult } from "./output.ts";
import type { DragResult, FillResult, KeyResult, PointerResult, ScrollResult } from "./daemon/actions.ts";
import type { NavigateResult, WaitResult } from "./daemon/navigate.ts";
import type { EvalResult } from "./daemon/evaluate.ts";
import type { ScreenshotResult } from "./daemon/screenshot.ts";
import type { DialogResult, TabInfo } from "./daemon/tabs.ts";
import {
  formatDialog,
  formatEval,
  formatFill,
  formatKey,
  formatNavigate,
  formatPointer,
  formatScreenshot,
  formatScroll,
  formatTabs,
  formatWait,
} from "./_act_format.ts";

/** Flags every acting command shares. */
export interface ActCommon {
  /** `--dir`; absent: the session is found walking up from the working directory. */
  dir?: string | undefined;
  tab?: string | undefined;
  json: boolean;
}

/** Room the HTTP call leaves beyond the engine's own bound, so the engine's error (not a socket timeout) speaks. */
const SLACK_MS = 15_000;

function call<T>(opts: ActCommon, io: Io, command: string, body: Record<string, unknown>, boundMs: number): Promise<T> {
  return pageCall<T>(opts.dir, io, command, { tab: opts.tab, ...body }, boundMs + SLACK_MS);
}

async function print(io: Io, opts: ActCommon, text: string, payload: object): Promise<number> {
  await writeResult(io, { json: opts.json }, text, payload as Record<string, unknown>);
  return 0;
}

/** Options of `browser navigate`. */
export interface NavigateOptions extends ActCommon {
  url: string;
  timeoutMs: number;
  /** Schemes besides http(s) the URL may have (`--allow-scheme`); the daemon enforces it. */
  allowSchemes?: readonly string[] | undefined;
}

/** Runs `mapper browser navigate URL`. */
export async function runNavigate(opts: NavigateOptions, io: Io): Promise<number> {
  if (!URL.canParse(opts.url)) {
    throw new UsageError(`${JSON.stringify(escapeControls(opts.url))} is not an absolute URL`, {
      hint: "include the scheme, e.g. https://example.com/",
    });
  }
  const r = await call<NavigateResult & { view: string | null }>(opts, io, "navigate", {
    url: opts.url,
    timeoutMs: opts.timeoutMs,
    allowSchemes: schemesOption(opts.allowSchemes),
  }, opts.timeoutMs);
  const view = r.view ? `  view: ${escapeControls(r.view)}\n` : "";
  return await print(io, opts, formatNavigate(r) + view, r);
}

/** Options of `browser click` / `hover`. */
export interface PointerOptions extends ActCommon {
  target?: string | undefined;
  x?: number | undefined;
  y?: number | undefined;
  timeoutMs: number;
}

function pointerBody(opts: PointerOptions): Record<string, unknown> {
  const point = opts.x !== undefined || opts.y !== undefined;
  if (opts.target !== undefined && point) {
    throw new UsageError("give a target or --x/--y, not both", { hint: "drop the target, or drop --x and --y" });
  }
  if (opts.target === undefined && (opts.x === undefined || opts.y === undefined)) {
    throw new UsageError("nothing to point at", {
      hint: "give an ID or a component query from 'mapper snapshot', or both --x N and --y N",
    });
  }
  return opts.target !== undefined
    ? { target: opts.target, timeoutMs: opts.timeoutMs }
    : { x: opts.x, y: opts.y, timeoutMs: opts.timeoutMs };
}

/** Runs `mapper browser click`. */
export async function runClick(opts: PointerOptions, io: Io): Promise<number> {
  const r = await call<PointerResult>(opts, io, "click", pointerBody(opts), opts.timeoutMs);
  return await print(io, opts, formatPointer(r), r);
}

/** Runs `mapper browser hover`. */
export async function runHover(opts: PointerOptions, io: Io): Promise<number> {
  const r = await call<PointerResult>(opts, io, "hover", pointerBody(opts), opts.timeoutMs);
  return await print(io, opts, formatPointer(r), r);
}

/** Options of `browser drag`. */
export interface DragCliOptions extends ActCommon {
  from: string;
  to: string;
  steps?: number | undefined;
  mode?: string | undefined;
  timeoutMs: number;
}

/** Runs `mapper browser drag FROM TO`. Exit 1 when the drag changed nothing. */
export async function runDrag(opts: DragCliOptions, io: Io): Promise<number> {
  if (opts.mode !== undefined && !["auto", "pointer", "html5"].includes(opts.mode)) {
    throw new UsageError(`--mode must be auto, pointer or html5, not "${escapeControls(opts.mode)}"`);
  }
  const r = await call<DragResult>(opts, io, "drag", {
    from: opts.from,
    to: opts.to,
    steps: opts.steps,
    mode: opts.mode,
    timeoutMs: opts.timeoutMs,
  }, opts.timeoutMs * 2);
  const text = `dragged ${escapeControls(r.from)} onto ${escapeControls(r.to)} (${r.mode}: (${
    r.path[0].join(", ")
  }) → (${r.path[1].join(", ")})): ${r.effects.join(", ")}\n`;
  return await print(io, opts, text, r);
}

/** Options of `browser fill`. */
export interface FillOptions extends ActCommon {
  target: string;
  text: string;
  append: boolean;
  timeoutMs: number;
}

/** Runs `mapper browser fill`. */
export async function runFill(opts: FillOptions, io: Io): Promise<number> {
  const r = await call<FillResult>(opts, io, "fill", {
    target: opts.target,
    text: opts.text,
    append: opts.append,
    timeoutMs: opts.timeoutMs,
  }, opts.timeoutMs);
  return await print(io, opts, formatFill(r), r);
}

/** Options of `browser keypress`. */
export interface KeyOptions extends ActCommon {
  key: string;
  target?: string | undefined;
  timeoutMs: number;
}

/** Runs `mapper browser keypress`. */
export async function runKeypress(opts: KeyOptions, io: Io): Promise<number> {
  // A misspelt key is a usage error before any session is needed. The key tables load only here: every other action
  // (click, type, …) starts without them.
  const { parseChord } = await lazy<typeof import("./input.ts")>(new URL("./input.ts", import.meta.url));
  parseChord(opts.key);
  const r = await call<KeyResult>(opts, io, "keypress", {
    key: opts.key,
    target: opts.target,
    timeoutMs: opts.timeoutMs,
  }, opts.timeoutMs);
  return await print(io, opts, formatKey(r), r);
}

/** Options of `browser scroll`. */
export interface ScrollOptions extends ActCommon {
  target?: string | undefined;
  deltaX: number;
  deltaY: number;
  timeoutMs: number;
}

/** Runs `mapper browser scroll`. */
export async function runScroll(opts: ScrollOptions, io: Io): Promise<number> {
  if (opts.target === undefined && opts.deltaX === 0 && opts.deltaY === 0) {
    throw new UsageError("nothing to scroll", { hint: "give --target ID|QUERY, or --delta-y N (and/or --delta-x N)" });
  }
  const r = await call<ScrollResult>(opts, io, "scroll", {
    target: opts.target,
    deltaX: opts.deltaX,
    deltaY: opts.deltaY,
    timeoutMs: opts.timeoutMs,
  }, opts.timeoutMs);
  return await print(io, opts, formatScroll(r), r);
}

/** Options of `browser wait-for`. */
export interface WaitOptions extends ActCommon {
  url?: string | undefined;
  selector?: string | undefined;
  component?: string | undefined;
  view?: string | undefined;
  text?: string | undefined;
  load: boolean;
  gone: boolean;
  timeoutMs: number;
}

/** Runs `mapper browser wait-for`. */
export async function runWaitFor(opts: WaitOptions, io: Io): Promise<number> {
  const given = [opts.url, opts.selector, opts.component, opts.view, opts.text].filter((v) => v !== undefined).length +
    (opts.load ? 1 : 0);
  if (given !== 1) {
    throw new UsageError(given === 0 ? "nothing to wait for" : "wait for one condition at a time", {
      hint: "give exactly one of --url TEXT, --selector CSS, --component QUERY, --view NAME, --text TEXT, --load",
    });
  }
  const r = await call<WaitResult>(opts, io, "wait-for", {
    url: opts.url,
    selector: opts.selector,
    component: opts.component,
    view: opts.view,
    text: opts.text,
    load: opts.load,
    gone: opts.gone,
    timeoutMs: opts.timeoutMs,
  }, opts.timeoutMs);
  return await print(io, opts, formatWait(r), r);
}

/** Options of `browser eval`. */
export interface EvalOptions extends ActCommon {
  js: string;
}

/** Runs `mapper browser eval`. */
export async function runEval(opts: EvalOptions, io: Io): Promise<number> {
  const r = await call<{ json: string | null; value?: unknown; undefined?: true }>(
    opts,
    io,
    "eval",
    { js: opts.js },
    30_000,
  );
  const result: EvalResult = r.undefined ? { action: "eval", json: undefined, value: undefined } : {
    action: "eval",
    json: r.json ?? "null",
    value: r.value,
  };
  return await print(io, opts, formatEval(result), r);
}

/** Options of `browser screenshot`. */
export interface ScreenshotOptions extends ActCommon {
  out?: string | undefined;
  component?: string | undefined;
  selector?: string | undefined;
  expandPct?: number | undefined;
  fullPage: boolean;
  timeoutMs: number;
}

/** `screenshot-20261123-164501.png` in the working directory. */
function defaultShotName(now: number): string {
  const d = new Date(now).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `screenshot-${d}.png`;
}

/**
 * Writes the image by the one user-file write (beside its target first, then renamed into place): a failed write leaves
 * nothing, a planted symbolic link is replaced rather than written through, and a new file is private (0600).
 */
async function writeImage(path: string, bytes: Uint8Array, shown: string): Promise<void> {
  let st: Deno.FileInfo | undefined;
  try {
    st = await Deno.stat(path);
  } catch {
    // new file
  }
  if (st?.isDirectory) {
    throw new FileError(`--out "${escapeControls(shown)}" is a directory`, {
      hint: "give a file name, e.g. --out shot.png",
    });
  }
  await writeUserFile(path, bytes, shown, { hint: "pass --out with a file path in an existing, writable directory" });
}

/** Runs `mapper browser screenshot`. */
export async function runScreenshot(opts: ScreenshotOptions, io: Io): Promise<number> {
  if (opts.component !== undefined && opts.selector !== undefined) {
    throw new UsageError("give --component or --selector, not both");
  }
  if (opts.fullPage && (opts.component !== undefined || opts.selector !== undefined)) {
    throw new UsageError("--full-page captures the whole page; it does not combine with --component or --selector");
  }
  if (opts.expandPct !== undefined && opts.component === undefined && opts.selector === undefined) {
    throw new UsageError("--expand-pct widens an element's box", { hint: "use it with --component or --selector" });
  }
  const shown = opts.out ?? defaultShotName(io.now());
  const format = /\.jpe?g$/i.test(shown) ? "jpeg" : "png";
  const r = await call<ScreenshotResult>(opts, io, "screenshot", {
    component: opts.component,
    selector: opts.selector,
    expandPct: opts.expandPct,
    fullPage: opts.fullPage,
    format,
    timeoutMs: opts.timeoutMs,
  }, opts.timeoutMs);
  const bytes = Uint8Array.from(atob(r.data), (c) => c.charCodeAt(0));
  await writeImage(resolve(io.cwd, shown), bytes, shown);
  const { data: _image, ...meta } = r;
  const payload = { ...meta, path: shown, bytes: bytes.length };
  const line: { path: string; width: number; height: number; target?: string } = {
    path: shown,
    width: r.width,
    height: r.height,
  };
  if (r.target !== undefined) line.target = r.target;
  return await print(io, opts, formatScreenshot(line), payload);
}

/** Options of `browser tabs`. */
export interface TabsOptions extends ActCommon {
  op: string;
  arg?: string | undefined;
  /** `resize`: the height. */
  arg2?: string | undefined;
  timeoutMs: number;
  /** `new`: schemes besides http(s) the URL may have (`--allow-scheme`); the daemon enforces it. */
  allowSchemes?: readonly string[] | undefined;
  /** `resize --dpr`. */
  dpr?: number | undefined;
  /** `resize --mobile`. */
  mobile?: boolean;
  /** `resize --reset`. */
  reset?: boolean;
}

/** A window side for `tabs resize`: a whole number of CSS pixels from 200 to 8192, else a usage error. */
function side(value: string | undefined, what: string): number {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) < 200 || Number(value) > 8192) {
    throw new UsageError(`the ${what} must be a whole number from 200 to 8192, not ${JSON.stringify(value ?? "")}`, {
      hint: "e.g. 'mapper browser tabs resize 800 600', or --reset",
    });
  }
  return Number(value);
}

/** Runs `mapper browser tabs list|new [URL]|close ID`. */
export async function runTabs(opts: TabsOptions, io: Io): Promise<number> {
  if (opts.op === "list") {
    if (opts.arg !== undefined) throw new UsageError("'tabs list' takes no argument");
    const r = await call<{ tabs: TabInfo[] }>(opts, io, "tab-list", {}, 10_000);
    return await print(io, opts, formatTabs(r.tabs), r);
  }
  if (opts.op === "new") {
    const url = opts.arg ?? "about:blank";
    const allowSchemes = schemesOption(opts.allowSchemes);
    // Refused before a blank tab is opened for it (the daemon refuses it again when asked to navigate).
    assertOpenable(url, allowSchemes);
    if (!URL.canParse(url)) {
      throw new UsageError(`${JSON.stringify(escapeControls(url))} is not an absolute URL`, {
        hint: "include the scheme, e.g. https://example.com/",
      });
    }
    const client = await connect(opts.dir, io);
    const opened = await client.post<{ tab: string }>(`/devtools/tabs?url=about:blank`, {}, 30_000);
    let text = `opened tab ${opened.tab.slice(0, 8)}\n`;
    let payload: Record<string, unknown> = { action: "tab-new", tab: opened.tab };
    if (url !== "about:blank") {
      const nav = await call<NavigateResult & { view: string | null }>(
        { ...opts, tab: opened.tab },
        io,
        "navigate",
        { url, timeoutMs: opts.timeoutMs, allowSchemes },
        opts.timeoutMs,
      );
      text = `opened tab ${opened.tab.slice(0, 8)}; ${formatNavigate(nav)}`;
      payload = { ...payload, url: nav.url, view: nav.view, loaded: nav.loaded };
      if (nav.redirected) payload.redirected = nav.redirected;
    }
    return await print(io, opts, text, payload);
  }
  if (opts.op === "close") {
    const id = opts.arg ?? opts.tab;
    if (id === undefined) throw new UsageError("which tab?", { hint: "give its id: 'mapper browser tabs close ID'" });
    const r = await call<{ closed: string; url: string }>({ ...opts, tab: id }, io, "tab-close", {}, 10_000);
    return await print(io, opts, `closed tab ${r.closed.slice(0, 8)} (${escapeControls(r.url)})\n`, r);
  }
  if (opts.op === "resize") {
    const body: Record<string, unknown> = opts.reset
      ? { reset: true }
      : { width: side(opts.arg, "width"), height: side(opts.arg2, "height"), dpr: opts.dpr, mobile: opts.mobile };
    if (opts.reset && opts.arg !== undefined) throw new UsageError("--reset takes no size", { hint: "drop W H" });
    const r = await call<{ tab: string; width: number; height: number; was: { width: number; height: number } }>(
      opts,
      io,
      "tab-resize",
      body,
      10_000,
    );
    const text = `${opts.reset ? "reset" : "resized"} ${
      r.tab.slice(0, 8)
    } to ${r.width}×${r.height} (was ${r.was.width}×${r.was.height})\n`;
    return await print(io, opts, text, r);
  }
  throw new UsageError(`unknown tabs action "${escapeControls(opts.op)}"`, {
    hint: "use list, new [URL], close ID or resize W H",
  });
}

/** Options of `browser dialog`. */
export interface DialogOptions extends ActCommon {
  op: string;
  text?: string | undefined;
}

/** Runs `mapper browser dialog accept|dismiss`. */
export async function runDialog(opts: DialogOptions, io: Io): Promise<number> {
  if (opts.op !== "accept" && opts.op !== "dismiss") {
    throw new UsageError(`unknown dialog action "${escapeControls(opts.op)}"`, { hint: "use accept or dismiss" });
  }
  if (opts.op === "dismiss" && opts.text !== undefined) {
    throw new UsageError("--text answers a prompt when accepting it", { hint: "use 'dialog accept --text T'" });
  }
  const r = await call<DialogResult>(opts, io, "dialog", { accept: opts.op === "accept", text: opts.text }, 10_000);
  return await print(io, opts, formatDialog(r), r);
}
