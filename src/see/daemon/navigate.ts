/**
 * `navigate` and `wait-for` of the action engine. Navigation follows the tab's main frame through CDP `Page`
 * events: it waits for the `load` lifecycle event of the document that finally commits (server redirects keep
 * the loader; a client redirect — script or meta refresh — commits a new one, which is then awaited), then for a
 * short quiet window in which no further navigation starts, all bounded by the timeout. `wait-for` polls one
 * condition in the page and returns at once when it already holds.
 *
 * @module
 */
import { asKnownEvent, type CdpEvent, CdpTimeout } from "../../browser/mod.ts";
import { NetworkError, UsageError } from "../../errors.ts";
import { type ActPage, assertNoDialog, dialogOpenError } from "./actions.ts";
import { PageError } from "../page_api.ts";
import { NAVIGATE_TIMEOUT_MS, WAIT_TIMEOUT_MS } from "../../timeouts.ts";

/** How long the page must stay on one document after its load before the navigation counts as finished. */
export const REDIRECT_WINDOW_MS = 400;
/** How often `wait-for` re-checks its condition. */
const POLL_MS = 50;

/** Result of {@linkcode navigate}. */
export interface NavigateResult {
  /** The action performed. */
  action: "navigate";
  /** The URL asked for. */
  requested: string;
  /** The URL the tab ended on. */
  url: string;
  /** `server` (HTTP 3xx), `client` (script or meta refresh), or absent when not redirected. */
  redirected?: "server" | "client";
  /** Whether the load event came within the timeout (false: the page is still loading; it was left loading). */
  loaded: boolean;
}

/**
 * Navigates a tab and waits for the page to load and settle. A network failure (`net::ERR_…`) is a
 * {@linkcode NetworkError}; a page that does not finish loading in time is reported with `loaded: false`.
 */
export async function navigate(page: ActPage, url: string, opts: { timeoutMs?: number } = {}): Promise<NavigateResult> {
  if (!URL.canParse(url)) {
    throw new UsageError(`${JSON.stringify(url)} is not an absolute URL`, {
      hint: "include the scheme, e.g. https://example.com/",
    });
  }
  const requested = new URL(url).href;
  assertNoDialog(page);
  await page.events.enable(page.sessionId);
  const timeoutMs = opts.timeoutMs ?? NAVIGATE_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;

  // Assigned once Page.navigate answers; the linter misses that assignment after the `using` below.
  // deno-lint-ignore prefer-const
  let mainFrame: string | undefined;
  let awaited: string | undefined;
  const loaders = new Set<string>();
  let current = requested;
  let loadedAt: number | undefined;
  // After a navigation the browser aborted: whether a main-frame document committed, or another navigation started.
  let moved = false;
  let wake: () => void = () => {};
  const events: CdpEvent[] = [];
  using _sub = page.events.listen((ev) => {
    if (ev.sessionId !== page.sessionId) return;
    events.push(ev);
    wake();
  });
  const apply = (raw: CdpEvent) => {
    const ev = asKnownEvent(raw);
    if (ev.method === "Page.frameNavigated") {
      const f = ev.params.frame;
      if (f.parentId !== undefined || (mainFrame !== undefined && f.id !== mainFrame)) return;
      moved = true;
      current = f.url + (f.urlFragment ?? "");
      if (f.loaderId !== awaited) {
        awaited = f.loaderId;
        loaders.add(f.loaderId);
        loadedAt = undefined;
      }
    } else if (ev.method === "Page.lifecycleEvent" && ev.params.name === "load" && ev.params.loaderId === awaited) {
      if (mainFrame === undefined || ev.params.frameId === mainFrame) loadedAt = Date.now();
    } else if (
      (ev.method === "Page.frameRequestedNavigation" || ev.method === "Page.frameStartedLoading" ||
        ev.method === "Page.frameScheduledNavigation") && ev.params.frameId === mainFrame && loadedAt !== undefined
    ) {
      loadedAt = undefined; // a client redirect is on its way: wait for its document
    } else if (
      ev.method === "Page.frameStartedNavigating" && ev.params.frameId === mainFrame && ev.params.loaderId !== awaited
    ) {
      moved = true; // the page navigates on its own (it may be what cancelled ours): follow it
    } else if (ev.method === "Page.navigatedWithinDocument" && ev.params.frameId === mainFrame) {
      current = String(ev.params.url ?? current);
    }
  };

  // Where the tab is now, asked before leaving: a navigation stuck behind a busy page detaches the page's handler, and
  // the error must still say where the tab stays.
  const before = await whereNow(page);
  let nav;
  try {
    nav = await page.send("Page.navigate", { url: requested }, timeoutMs);
  } catch (err: unknown) {
    // The browser answers Page.navigate once the new document's answer arrives: no answer in time is the server's.
    if (!(err instanceof CdpTimeout)) throw err;
    // The navigation is still pending in the browser: stop it, or the tab would leave later, once the server answers.
    await page.send("Page.stopLoading", {}, 5000).catch(() => {});
    throw new NetworkError(
      `no answer from ${JSON.stringify(requested)} within ${timeoutMs / 1000} s; the tab stays on ${before}`,
      { hint: "check that the site is up, or pass a longer --timeout-ms" },
    );
  }
  if (nav.errorText && nav.errorText !== "net::ERR_ABORTED") {
    throw new NetworkError(`cannot open ${JSON.stringify(requested)}: ${nav.errorText}`, {
      hint: "check the URL and that the site is up",
    });
  }
  mainFrame = nav.frameId;
  if (nav.loaderId === undefined) {
    // Same-document navigation (a fragment): nothing loads.
    for (const ev of events.splice(0)) apply(ev);
    return { action: "navigate", requested, url: current, loaded: true };
  }
  awaited = nav.loaderId;
  loaders.add(nav.loaderId);
  // net::ERR_ABORTED: the browser dropped the document (a download, an empty 204 answer) and the tab stayed where it
  // was, unless the page itself went elsewhere meanwhile. Nothing will load: say so after a short look, instead of
  // waiting out the timeout and printing "navigated to" a page that never opened.
  const abortedBy = nav.errorText === "net::ERR_ABORTED" ? Date.now() + REDIRECT_WINDOW_MS : undefined;
  for (;;) {
    for (const ev of events.splice(0)) apply(ev);
    const d = page.events.dialog(page.sessionId);
    if (d) throw dialogOpenError(d);
    const now = Date.now();
    if (abortedBy !== undefined && !moved && now >= abortedBy) throw await abortedError(page, requested, nav);
    if (loadedAt !== undefined && now - loadedAt >= REDIRECT_WINDOW_MS) break;
    if (now >= deadline) break;
    const waitMs = loadedAt !== undefined
      ? loadedAt + REDIRECT_WINDOW_MS - now
      : abortedBy !== undefined && !moved
      ? abortedBy - now
      : deadline - now;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, Math.max(1, Math.min(waitMs, deadline - now)));
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
    wake = () => {};
  }
  if (!moved) {
    // The browser has the new document but the tab never swapped it in: the page it is on must let go first, and a
    // page whose script never yields cannot. Saying "navigated" here would be a lie.
    throw new PageError(
      "not_committed",
      `${JSON.stringify(requested)} did not replace the page within ${
        timeoutMs / 1000
      } s: the tab stays on ${before}, which is not answering (its script may be busy)`,
      {
        hint: `close the tab ('mapper browser tabs close ${page.tabId.slice(0, 8)}') and open the URL in a new one ` +
          `('mapper browser tabs new URL')`,
      },
    );
  }
  const r: NavigateResult = { action: "navigate", requested, url: current, loaded: loadedAt !== undefined };
  if (sameUrl(current, requested) === false) r.redirected = loaders.size > 1 ? "client" : "server";
  return r;
}

/** The error of a navigation the browser aborted, naming the page the tab stayed on. */
async function abortedError(
  page: ActPage,
  requested: string,
  nav: { errorText?: string; isDownload?: boolean },
): Promise<NetworkError> {
  const here = await whereNow(page);
  const why = nav.isDownload
    ? "the answer is a download, not a page"
    : "the browser showed no page: an empty answer such as 204, or the navigation was cancelled";
  return new NetworkError(`cannot open ${JSON.stringify(requested)}: ${nav.errorText} (${why})`, {
    hint: `the tab stays on ${here}; the request is in 'mapper network list'`,
  });
}

/**
 * The URL of the document the tab shows, from the browser's history (answered by the browser, not the page, so a
 * busy page does not stop it), or generic words.
 */
async function whereNow(page: ActPage): Promise<string> {
  try {
    const h = await page.send("Page.getNavigationHistory", {}, 5000);
    const url = h.entries[h.currentIndex]?.url;
    if (url) return url;
  } catch {
    // keep the generic words
  }
  return "the page it was on";
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

/** One condition of `wait-for`. */
export type WaitCondition =
  | { kind: "url"; text: string }
  | { kind: "selector"; css: string }
  | { kind: "component"; query: string }
  | { kind: "view"; name: string }
  | { kind: "text"; text: string }
  | { kind: "load" };

/** What the engine asks the page about while waiting; supplied by the page plumbing. */
export interface WaitProbe {
  /** Evaluates an expression in the page script's world and returns its JSON value (throws while navigating). */
  evaluate<T>(expression: string): Promise<T>;
  /** How many elements a component query matches now. */
  count(query: string): Promise<number>;
  /** Why a component query matches nothing now, naming what is there (asked once, when the time ran out). */
  whyNoMatch?(query: string): Promise<string>;
  /** The view the tab's URL resolves to now, or `null`. */
  view(): Promise<string | null>;
}

/** Result of {@linkcode waitFor}. */
export interface WaitResult {
  /** The action performed. */
  action: "wait-for";
  /** The condition, written as its flag (`--component "ProductCard"`). */
  condition: string;
  /** Whether it waited for the condition to stop holding. */
  gone: boolean;
  /** How long it waited, ms. */
  waitedMs: number;
  /** Whether the condition already held at the first look (`--load` on a loaded page). */
  atOnce: boolean;
  /** The tab's URL when it returned. */
  url: string;
}

/** The condition written back as the flag that asked for it. */
export function conditionLabel(c: WaitCondition): string {
  switch (c.kind) {
    case "url":
      return `--url ${JSON.stringify(c.text)}`;
    case "selector":
      return `--selector ${JSON.stringify(c.css)}`;
    case "component":
      return `--component ${JSON.stringify(c.query)}`;
    case "view":
      return `--view ${JSON.stringify(c.name)}`;
    case "text":
      return `--text ${JSON.stringify(c.text)}`;
    case "load":
      return "--load";
  }
}

const VISIBLE_MATCH = (css: string) =>
  `(() => { for (const e of document.querySelectorAll(${JSON.stringify(css)})) ` +
  `if (e.checkVisibility({ visibilityProperty: true }) && e.getClientRects().length > 0) return true; return false; })()`;

/** Waits until a condition holds (or, with `gone`, stops holding); returns at once when it already does. */
export async function waitFor(
  page: ActPage,
  probe: WaitProbe,
  condition: WaitCondition,
  opts: { timeoutMs?: number; gone?: boolean; now?: () => number } = {},
): Promise<WaitResult> {
  const now = opts.now ?? Date.now;
  const started = now();
  const timeoutMs = opts.timeoutMs ?? WAIT_TIMEOUT_MS;
  const gone = opts.gone === true;
  if (condition.kind === "selector") {
    // An invalid selector is the user's mistake, not something to wait out.
    const ok = await probe.evaluate<boolean>(
      `(() => { try { document.createDocumentFragment().querySelector(${
        JSON.stringify(condition.css)
      }); return true; } catch { return false; } })()`,
    );
    if (!ok) throw new UsageError(`--selector ${JSON.stringify(condition.css)} is not a valid CSS selector`);
  }
  let lastUrl = "";
  let lastSeen = "";
  const check = async (): Promise<boolean> => {
    lastUrl = await probe.evaluate<string>("location.href");
    switch (condition.kind) {
      case "url":
        return lastUrl.includes(condition.text);
      case "load":
        lastSeen = await probe.evaluate<string>("document.readyState");
        return lastSeen === "complete";
      case "selector":
        return await probe.evaluate<boolean>(VISIBLE_MATCH(condition.css));
      case "text":
        return await probe.evaluate<boolean>(
          `(document.body?.innerText ?? "").includes(${JSON.stringify(condition.text)})`,
        );
      case "component": {
        const n = await probe.count(condition.query);
        lastSeen = `${n} match${n === 1 ? "" : "es"}`;
        return n > 0;
      }
      case "view": {
        const v = await probe.view();
        lastSeen = v === null ? "no view" : `view ${v}`;
        return v === condition.name;
      }
    }
  };
  for (let look = 0;; look++) {
    assertNoDialog(page);
    let holds: boolean | undefined;
    try {
      holds = await check();
    } catch (err: unknown) {
      // Between documents (a navigation in flight) nothing can be asked: not yet. Real errors are typed.
      if (err instanceof UsageError || err instanceof PageError) throw err;
      holds = undefined;
    }
    if (holds !== undefined && holds !== gone) {
      return {
        action: "wait-for",
        condition: conditionLabel(condition),
        gone,
        waitedMs: now() - started,
        atOnce: look === 0,
        url: lastUrl,
      };
    }
    if (now() - started >= timeoutMs) {
      const seen = [lastUrl ? `the tab is at ${lastUrl}` : "", lastSeen].filter(Boolean).join(", ");
      // A component that never showed up: the near matches, as a click by the same query would name them.
      const why = condition.kind === "component" && !gone && holds === false
        ? await probe.whyNoMatch?.(condition.query).catch(() => undefined)
        : undefined;
      throw new PageError(
        "timeout",
        `${conditionLabel(condition)} ${gone ? "still held" : "did not hold"} after ${timeoutMs} ms${
          seen ? ` (${seen})` : ""
        }${why ? `; ${why}` : ""}`,
        { hint: "check the page with 'mapper snapshot', or wait longer with --timeout-ms N" },
      );
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export { NAVIGATE_TIMEOUT_MS, WAIT_TIMEOUT_MS };
