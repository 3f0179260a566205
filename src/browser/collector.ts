/**
 * The collector: one browser-level CDP connection that auto-attaches (flattened, paused at start) to every page,
 * popup, cross-origin iframe and worker, enables `Runtime`, `Log` and `Network` on each before it resumes, and
 * records console messages and network requests into two ring buffers.
 *
 * Invariants:
 * - No event is lost: events are handled synchronously as they arrive (no bounded queue).
 * - Indices are per stream, start at 0, are monotonic and never reused; eviction drops the oldest first and adds to
 *   a cumulative `dropped` count.
 * - Response bodies of Document/XHR/Fetch are retained when loading finishes, within {@linkcode BODY_LIMIT} each and
 *   {@linkcode BODY_BUDGET} in total (oldest retained bodies are released first; every drop is counted). A body
 *   known to be over the limit (by the bytes received) is not even fetched.
 * - Memory is bounded whatever a page does: a console message is cut at {@linkcode CONSOLE_TEXT_CAP} (each argument
 *   at {@linkcode CONSOLE_ARG_CAP}), URLs at {@linkcode URL_CAP}, header values at {@linkcode HEADER_VALUE_CAP} and
 *   a header list at {@linkcode HEADERS_CAP}, each cut ending in a visible marker with the original size
 *   (`… [truncated by mapper: N bytes]`); POST data over {@linkcode POST_DATA_KEEP} is not copied (it is fetched
 *   from Chromium on demand); and both rings together stay within {@linkcode RING_BUDGET} bytes (estimated), the
 *   oldest entry of either ring evicted first and counted in its `dropped`.
 *
 * The concepts live in their own private files; this module wires them onto the connection and is the public
 * surface: `_targets.ts` (attaching, sessions, tabs), `_console_capture.ts`, `_network_capture.ts` (with
 * `_network_record.ts`), `_bodies.ts` (retained and live bodies), `_ring.ts` (the rings and their shared budget),
 * `_fields.ts` (defensive reads of event fields).
 *
 * @module
 */
import type { CdpConnection, CdpEvent } from "./cdp.ts";
import { asKnownEvent } from "./cdp.ts";
import type { ConsoleEntry } from "./daemon_api.ts";
import { Ring, RingBudget } from "./_ring.ts";
import { type AttachedTarget, listTabs, type TabInfo, Targets } from "./_targets.ts";
import { ConsoleCapture, consoleSize } from "./_console_capture.ts";
import { NetworkCapture } from "./_network_capture.ts";
import { type NetworkRecord, networkSize } from "./_network_record.ts";
import { Bodies } from "./_bodies.ts";

export { Ring, RING_BUDGET, RING_SIZE, RingBudget } from "./_ring.ts";
export { CONSOLE_ARG_CAP, CONSOLE_TEXT_CAP } from "./_console_capture.ts";
export { URL_CAP } from "./_fields.ts";
export { HEADER_VALUE_CAP, headerList, HEADERS_CAP, type NetworkRecord } from "./_network_record.ts";
export { POST_DATA_KEEP } from "./_network_capture.ts";
export { BODY_BUDGET, BODY_LIMIT, BodyUnavailable } from "./_bodies.ts";

/** Options of {@linkcode Collector}. */
export interface CollectorOptions {
  /** Where to log one-line diagnostics. */
  log?: (line: string) => void;
  /** Wall clock, Unix ms. */
  now?: () => number;
  ringSize?: number;
  /** Estimated bytes both rings may hold together. */
  ringBudget?: number;
  bodyLimit?: number;
  bodyBudget?: number;
}

/** The collector over one browser-level connection. Create, then {@linkcode start}. */
export class Collector {
  readonly console: Ring<ConsoleEntry>;
  readonly network: Ring<NetworkRecord>;
  #targets: Targets;
  #bodies: Bodies;
  #consoleCapture: ConsoleCapture;
  #cdp: CdpConnection;
  #networkCapture: NetworkCapture;

  /** Creates a collector on a connection; nothing is sent until {@linkcode start}. */
  constructor(cdp: CdpConnection, options: CollectorOptions = {}) {
    const now = options.now ?? Date.now;
    this.#cdp = cdp;
    this.#targets = new Targets(cdp, options.log ?? (() => {}));
    this.#bodies = new Bodies(cdp, this.#targets, options.bodyLimit, options.bodyBudget);
    const budget = new RingBudget(options.ringBudget);
    this.console = new Ring<ConsoleEntry>(options.ringSize, budget, consoleSize);
    this.network = new Ring<NetworkRecord>(options.ringSize, budget, networkSize);
    this.#consoleCapture = new ConsoleCapture(this.console, this.#targets, now);
    this.#networkCapture = new NetworkCapture(this.network, this.#bodies, now);
    this.network.onEvict = (r) => {
      this.#networkCapture.evicted(r);
      this.#bodies.release(r);
    };
    cdp.onEvent = (ev) => this.#onEvent(ev);
  }

  /** Starts auto-attaching at browser level; resolves once Chromium accepted it (existing tabs are attached too). */
  start(): Promise<void> {
    return this.#targets.start();
  }

  /** The tabs, in the browser's order (see {@linkcode listTabs}). */
  tabs(): Promise<TabInfo[]> {
    return listTabs(this.#cdp);
  }

  /**
   * Opens `url` in a tab (a new blank one unless `sessionId` names an attached tab) once the collector's domains
   * are enabled on it, so nothing of the page is missed: navigating before `Network.enable` has answered races the
   * renderer that takes the page over (a fetch the page made at once was lost in about 1 start of 8). Creating the
   * tab on the URL itself is no better: its document request starts before the session exists. Resolves with the
   * tab's target id once the navigation has started and the tab list ({@linkcode tabs}) shows the tab on a URL.
   *
   * `Page.navigate` answers once the response has come; from then until the document commits, the browser lists a
   * new tab with the URL `""`. Answered in that window, a page command run at once did not count the tab and acted
   * on the other one (1 open-then-snapshot in 10). `settleMs` bounds that wait; a tab still without a URL then is
   * counted as a page by the commands anyway.
   */
  async openTab(url: string, sessionId?: string, timeoutMs = 15_000, settleMs = 5_000): Promise<string> {
    let s = sessionId === undefined ? undefined : this.#targets.get(sessionId);
    if (s === undefined) {
      const { targetId } = await this.#cdp.send("Target.createTarget", { url: "about:blank" }, undefined, timeoutMs);
      s = await this.#targets.waitForSession((x) => x.targetId === targetId, timeoutMs) as AttachedTarget;
    }
    await this.#targets.ready(s.id);
    if (url === "about:blank") return s.targetId;
    await this.#cdp.send("Page.navigate", { url }, s.id, timeoutMs);
    const deadline = Date.now() + settleMs;
    const id = s.targetId;
    while ((await this.tabs()).some((t) => t.id === id && t.url === "") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return id;
  }

  /** Retained-body statistics. */
  bodyStats(): { retained: number; bytes: number; dropped: number } {
    return this.#bodies.stats();
  }

  /** Attached sessions (pages, iframes, workers) that are still alive. */
  sessions(): Array<{ id: string; targetId: string; type: string; url: string; tab: string }> {
    return this.#targets.sessions();
  }

  /** Resolves once a session's domains are enabled (immediately for unknown or internal sessions). */
  ready(sessionId: string): Promise<void> {
    return this.#targets.ready(sessionId);
  }

  /** Resolves with the first attached session satisfying `pred` (now or later), or rejects after `timeoutMs`. */
  waitForSession(
    pred: (s: { targetId: string; type: string; url: string }) => boolean,
    timeoutMs: number,
  ): Promise<{ id: string; targetId: string; type: string; url: string }> {
    return this.#targets.waitForSession(pred, timeoutMs);
  }

  /**
   * The response body of a buffered record: retained bytes, else a live fetch from the session that saw it. When
   * neither has it, the error says why (and why the collector kept no copy, when it tried).
   */
  responseBody(rec: NetworkRecord): Promise<Uint8Array> {
    return this.#bodies.responseBody(rec);
  }

  /** The request body (POST data) of a buffered record. */
  requestBody(rec: NetworkRecord): Promise<Uint8Array> {
    return this.#bodies.requestBody(rec);
  }

  #onEvent(raw: CdpEvent): void {
    const ev = asKnownEvent(raw);
    // Synchronous and in arrival order, no queue: nothing is dropped however fast the browser talks.
    this.#targets.handleTarget(ev);
    const session = this.#targets.get(ev.sessionId);
    if (!session || session.internal) return;
    this.#targets.handleContext(session, ev);
    this.#consoleCapture.handle(session, ev);
    this.#networkCapture.handle(session, ev);
  }
}
