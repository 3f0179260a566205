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
 * @module
 */
import type { CdpConnection, CdpEvent, CdpEventName, CdpEventParams, Protocol } from "./cdp.ts";
import { asKnownEvent, CdpError } from "./cdp.ts";
import type { ConsoleEntry, Frame, Header, Level, NetworkEntry } from "./api.ts";
import { type RemoteObject, renderArgs, renderObject } from "./_render.ts";
import { capText } from "./_pipe.ts";
// Reason phrases for responses that arrive without one (HTTP/2 and HTTP/3 have none). The collector runs in the
// daemon only, which already loads Node compatibility, so this costs no command its start-up.
import { STATUS_CODES } from "node:http";

/** Ring buffer capacity of each stream. */
export const RING_SIZE = 1000;
/** Estimated bytes both rings may hold together. */
export const RING_BUDGET = 32 * 1024 * 1024;
/** Longest console message text kept (UTF-16 code units). */
export const CONSOLE_TEXT_CAP = 32 * 1024;
/** Longest rendering of one console argument kept. */
export const CONSOLE_ARG_CAP = 16 * 1024;
/** Longest URL kept (a `data:` URL can be megabytes). */
export const URL_CAP = 16 * 1024;
/** Longest header value kept. */
export const HEADER_VALUE_CAP = 8 * 1024;
/** Most bytes of one header list kept; the rest is replaced by one `x-mapper-truncated` header. */
export const HEADERS_CAP = 32 * 1024;
/** POST data up to this size is copied when the request is sent; larger bodies are fetched on demand. */
export const POST_DATA_KEEP = 32 * 1024;
/** Largest response body retained per request. */
export const BODY_LIMIT = 1024 * 1024;
/** Total bytes of retained response bodies. */
export const BODY_BUDGET = 50 * 1024 * 1024;

const RETAINED_TYPES = new Set(["Document", "XHR", "Fetch"]);

/** Targets the collector captures; Chromium's own UI (`browser_ui`, `tab`, `browser`) is left alone. */
const CONTENT_TYPES = new Set(["page", "iframe", "worker", "shared_worker", "service_worker", "other"]);

/** Attach to everything content-like, paused until its domains are enabled. */
const AUTO_ATTACH = {
  autoAttach: true,
  flatten: true,
  waitForDebuggerOnStart: true,
  filter: [
    { type: "browser", exclude: true },
    { type: "tab", exclude: true },
    { type: "browser_ui", exclude: true },
    {},
  ],
};

/** URLs of Chromium's own pages and extensions: their targets, requests and console output are not recorded. */
function internalUrl(url: string): boolean {
  return /^(chrome|chrome-extension|chrome-untrusted|devtools|chrome-search):/.test(url);
}

/**
 * A byte budget shared by several rings: when the estimated total is over it, the oldest entry of any ring is
 * evicted (and counted as dropped by its ring).
 */
export class RingBudget {
  /** Estimated bytes held now. */
  used = 0;
  #seq = 0;
  readonly rings: Array<Ring<{ index: number }>> = [];
  /** Creates a budget of `limit` bytes. */
  constructor(readonly limit: number = RING_BUDGET) {}
  /** The next insertion number (orders entries across rings). */
  nextSeq(): number {
    return this.#seq++;
  }
  /** Evicts the oldest entries across the rings until the total fits. */
  enforce(): void {
    while (this.used > this.limit) {
      let oldest: Ring<{ index: number }> | undefined;
      for (const r of this.rings) {
        const seq = r.headSeq();
        if (seq !== undefined && (oldest === undefined || seq < oldest.headSeq()!)) oldest = r;
      }
      if (!oldest) return;
      oldest.evictOldest();
    }
  }
}

/** A fixed-capacity buffer of indexed entries, optionally within a shared {@linkcode RingBudget}. */
export class Ring<T extends { index: number }> {
  #items: T[] = [];
  #sizes: number[] = [];
  #seqs: number[] = [];
  #next = 0;
  #dropped = 0;
  #budget: RingBudget;
  #sizeOf: (item: T) => number;
  /** Called with each evicted entry. */
  onEvict: (item: T) => void = () => {};
  /**
   * Creates a ring holding at most `capacity` entries; with `budget`, its entries' estimated sizes (`sizeOf`) count
   * against that shared budget.
   */
  constructor(
    readonly capacity: number = RING_SIZE,
    budget?: RingBudget,
    sizeOf: (item: T) => number = () => 0,
  ) {
    this.#budget = budget ?? new RingBudget(Infinity);
    this.#sizeOf = sizeOf;
    this.#budget.rings.push(this as unknown as Ring<{ index: number }>);
  }
  /** The index the next entry gets. */
  nextIndex(): number {
    return this.#next;
  }
  /** Appends an entry whose `index` was taken from {@linkcode nextIndex}. */
  push(item: T): void {
    this.#next = item.index + 1;
    const size = this.#sizeOf(item);
    this.#items.push(item);
    this.#sizes.push(size);
    this.#seqs.push(this.#budget.nextSeq());
    this.#budget.used += size;
    while (this.#items.length > this.capacity) this.evictOldest();
    this.#budget.enforce();
  }
  /** Re-estimates a buffered entry that grew (headers arrived); may evict to stay within the budget. */
  update(item: T): void {
    const at = this.#items.indexOf(item, Math.max(0, item.index - this.first));
    if (at < 0) return;
    const size = this.#sizeOf(item);
    this.#budget.used += size - this.#sizes[at]!;
    this.#sizes[at] = size;
    this.#budget.enforce();
  }
  /** Insertion number of the oldest entry (`undefined` when empty). */
  headSeq(): number | undefined {
    return this.#seqs[0];
  }
  /** Evicts the oldest entry, counting it as dropped. */
  evictOldest(): void {
    const gone = this.#items.shift();
    if (gone === undefined) return;
    this.#budget.used -= this.#sizes.shift()!;
    this.#seqs.shift();
    this.#dropped++;
    this.onEvict(gone);
  }
  /** The entry with this index, if still buffered. */
  get(index: number): T | undefined {
    const first = this.#items[0]?.index ?? this.#next;
    return this.#items[index - first];
  }
  /** Buffered entries, oldest first (do not mutate). */
  all(): readonly T[] {
    return this.#items;
  }
  /** Cumulative evictions. */
  get dropped(): number {
    return this.#dropped;
  }
  /** First buffered index (equals `next` when empty). */
  get first(): number {
    return this.#items[0]?.index ?? this.#next;
  }
  /** Last buffered index (`first - 1` when empty). */
  get last(): number {
    return this.#next - 1;
  }
}

/** Estimated bytes of a console entry (strings as UTF-16). */
function consoleSize(e: ConsoleEntry): number {
  return 128 + 2 * (e.text.length + (e.origin?.length ?? 0) + (e.frame?.url.length ?? 0) + e.tab.length);
}

/** Estimated bytes of a network record, without its retained body (bodies have their own budget). */
function networkSize(r: NetworkRecord): number {
  let n = r.url.length + r.method.length + r.statusText.length + (r.postData?.length ?? 0) +
    (r.failure?.length ?? 0) + (r.mimeType?.length ?? 0);
  for (const h of r.requestHeaders) n += h.name.length + h.value.length + 16;
  for (const h of r.responseHeaders) n += h.name.length + h.value.length + 16;
  return 256 + 2 * n;
}

/** Where a session sits: its target, type, and the tab (top-level page) it belongs to. */
interface AttachedTarget {
  id: string;
  targetId: string;
  type: string;
  url: string;
  tab: string;
  detached: boolean;
  /** Chromium UI or an extension: attached so it resumes, never recorded. */
  internal: boolean;
}

/** A network record plus what only the daemon needs. */
export interface NetworkRecord extends NetworkEntry {
  requestHeaders: Header[];
  responseHeaders: Header[];
  sessionId: string;
  /** The session the response arrived on (where its body lives). */
  bodySessionId: string;
  requestId: string;
  /** Monotonic CDP timestamp of the start (seconds). */
  t0: number;
  postData?: string;
  body?: Uint8Array;
  /** Why the retained body is missing, when retention was attempted and failed. */
  bodyNote?: string;
  /** Decoded response bytes received so far (`Network.dataReceived`). */
  received?: number;
}

/** Why a body cannot be served. */
export class BodyUnavailable extends Error {}

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

/** A header object as recorded: values cut at {@linkcode HEADER_VALUE_CAP}, the list at {@linkcode HEADERS_CAP}. */
export function headerList(h: unknown): Header[] {
  if (!h || typeof h !== "object") return [];
  const out: Header[] = [];
  let bytes = 0;
  let left = 0;
  let leftBytes = 0;
  for (const [rawName, value] of Object.entries(h as Record<string, unknown>)) {
    const name = capText(rawName, 256);
    // Chromium joins repeated headers with "\n".
    for (const v of String(value).split("\n")) {
      const kept = capText(v, HEADER_VALUE_CAP);
      if (bytes + name.length + kept.length > HEADERS_CAP) {
        left++;
        leftBytes += rawName.length + v.length;
        continue;
      }
      bytes += name.length + kept.length;
      out.push({ name, value: kept });
    }
  }
  out.sort((
    a,
    b,
  ) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0));
  if (left > 0) {
    out.push({ name: "x-mapper-truncated", value: `${left} more headers (${leftBytes} bytes) not recorded` });
  }
  return out;
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

function topFrame(stack: unknown): Frame | undefined {
  const frames = (stack as { callFrames?: Array<Record<string, unknown>> } | undefined)?.callFrames;
  const f = frames?.[0];
  if (!f) return undefined;
  return {
    function: str(f.functionName),
    url: str(f.url),
    line: (num(f.lineNumber) ?? 0) + 1,
    column: (num(f.columnNumber) ?? 0) + 1,
  };
}

function levelOf(type: string): Level {
  switch (type) {
    case "error":
    case "assert":
      return "error";
    case "warning":
      return "warn";
    case "debug":
      return "debug";
    case "log":
      return "log";
    default:
      return "info";
  }
}

function logLevel(level: string): Level {
  switch (level) {
    case "verbose":
      return "debug";
    case "warning":
      return "warn";
    case "error":
      return "error";
    default:
      return "info";
  }
}

function decodeBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Decodes a `Network.getResponseBody`/`getRequestPostData` answer to bytes. */
function bodyBytes(body: string, base64: boolean): Uint8Array {
  return base64 ? decodeBase64(body) : new TextEncoder().encode(body);
}

/** The parameters of an event the collector handles. */
type Params<E extends CdpEventName> = CdpEventParams<E>;

/** The collector over one browser-level connection. Create, then {@linkcode start}. */
export class Collector {
  readonly console: Ring<ConsoleEntry>;
  readonly network: Ring<NetworkRecord>;
  #cdp: CdpConnection;
  #sessions = new Map<string, AttachedTarget>();
  #byRequest = new Map<string, NetworkRecord>();
  #byId = new Map<string, NetworkRecord>();
  #extraRequest = new Map<string, Header[]>();
  #extraResponse = new Map<string, { headers: Header[]; status?: number }>();
  #retained: NetworkRecord[] = [];
  #retainedBytes = 0;
  #bodiesDropped = 0;
  #log: (line: string) => void;
  #now: () => number;
  #bodyLimit: number;
  #bodyBudget: number;
  #attachWaiters: Array<(s: AttachedTarget) => void> = [];
  #ready = new Map<string, Promise<void>>();
  /** Execution contexts of extensions' content scripts and Chromium's own pages (`<session>|<contextId>`): their
   * console output and exceptions are not the page's. */
  #extensionContexts = new Set<string>();

  /** Creates a collector on a connection; nothing is sent until {@linkcode start}. */
  constructor(cdp: CdpConnection, options: CollectorOptions = {}) {
    this.#cdp = cdp;
    this.#log = options.log ?? (() => {});
    this.#now = options.now ?? Date.now;
    this.#bodyLimit = options.bodyLimit ?? BODY_LIMIT;
    this.#bodyBudget = options.bodyBudget ?? BODY_BUDGET;
    const budget = new RingBudget(options.ringBudget ?? RING_BUDGET);
    this.console = new Ring<ConsoleEntry>(options.ringSize ?? RING_SIZE, budget, consoleSize);
    this.network = new Ring<NetworkRecord>(options.ringSize ?? RING_SIZE, budget, networkSize);
    this.network.onEvict = (r) => {
      const key = `${r.sessionId}|${r.requestId}`;
      if (this.#byRequest.get(key) === r) this.#byRequest.delete(key);
      if (this.#byId.get(r.requestId) === r) this.#byId.delete(r.requestId);
      this.#release(r);
    };
    cdp.onEvent = (ev) => this.#onEvent(ev);
  }

  /** Starts auto-attaching at browser level; resolves once Chromium accepted it (existing tabs are attached too). */
  async start(): Promise<void> {
    await this.#cdp.send("Target.setDiscoverTargets", { discover: true });
    await this.#cdp.send("Target.setAutoAttach", AUTO_ATTACH);
  }

  /** Retained-body statistics. */
  bodyStats(): { retained: number; bytes: number; dropped: number } {
    return { retained: this.#retained.length, bytes: this.#retainedBytes, dropped: this.#bodiesDropped };
  }

  /** Attached sessions (pages, iframes, workers) that are still alive. */
  sessions(): Array<{ id: string; targetId: string; type: string; url: string; tab: string }> {
    return [...this.#sessions.values()].filter((s) => !s.detached);
  }

  /** Resolves once a session's domains are enabled (immediately for unknown or internal sessions). */
  ready(sessionId: string): Promise<void> {
    return this.#ready.get(sessionId) ?? Promise.resolve();
  }

  /** Resolves with the first attached session satisfying `pred` (now or later), or rejects after `timeoutMs`. */
  waitForSession(
    pred: (s: { targetId: string; type: string; url: string }) => boolean,
    timeoutMs: number,
  ): Promise<{ id: string; targetId: string; type: string; url: string }> {
    const found = this.sessions().find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter = (s: AttachedTarget) => {
        if (!pred(s)) return;
        clearTimeout(timer);
        this.#attachWaiters = this.#attachWaiters.filter((w) => w !== waiter);
        resolve(s);
      };
      const timer = setTimeout(() => {
        this.#attachWaiters = this.#attachWaiters.filter((w) => w !== waiter);
        reject(new Error(`no matching target attached within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#attachWaiters.push(waiter);
    });
  }

  #onEvent(raw: CdpEvent): void {
    const ev = asKnownEvent(raw);
    switch (ev.method) {
      case "Target.attachedToTarget":
        this.#attached(ev.sessionId, ev.params);
        return;
      case "Target.detachedFromTarget": {
        const s = this.#sessions.get(str(ev.params.sessionId));
        if (s) s.detached = true;
        this.#ready.delete(str(ev.params.sessionId));
        return;
      }
      case "Target.targetInfoChanged": {
        const info: Partial<Protocol.Target.TargetInfo> | undefined = ev.params.targetInfo;
        for (const s of this.#sessions.values()) if (s.targetId === info?.targetId) s.url = str(info?.url);
        return;
      }
    }
    const session = ev.sessionId === undefined ? undefined : this.#sessions.get(ev.sessionId);
    if (!session || session.internal) return;
    switch (ev.method) {
      case "Runtime.executionContextCreated": {
        const ctx: Partial<Protocol.Runtime.ExecutionContextDescription> = ev.params.context ?? {};
        if (internalUrl(str(ctx.origin))) this.#extensionContexts.add(`${session.id}|${String(ctx.id)}`);
        return;
      }
      // Context ids restart in a new renderer (a chrome:// tab navigated to the site): forget the old ones.
      case "Runtime.executionContextDestroyed":
        this.#extensionContexts.delete(`${session.id}|${String(ev.params.executionContextId)}`);
        return;
      case "Runtime.executionContextsCleared":
        for (const key of this.#extensionContexts) {
          if (key.startsWith(`${session.id}|`)) this.#extensionContexts.delete(key);
        }
        return;
      case "Runtime.consoleAPICalled":
        if (this.#extensionContexts.has(`${session.id}|${String(ev.params.executionContextId)}`)) return;
        return this.#consoleCalled(session, ev.params);
      case "Runtime.exceptionThrown":
        return this.#exception(session, ev.params);
      case "Log.entryAdded":
        return this.#logEntry(session, ev.params);
      case "Network.requestWillBeSent":
        return this.#requestWillBeSent(session, ev.params);
      case "Network.requestWillBeSentExtraInfo":
        return this.#requestExtra(session, ev.params);
      case "Network.responseReceived":
        return this.#responseReceived(session, ev.params);
      case "Network.responseReceivedExtraInfo":
        return this.#responseExtra(session, ev.params);
      case "Network.dataReceived": {
        const rec = this.#find(session, str(ev.params.requestId));
        if (rec) rec.received = (rec.received ?? 0) + (num(ev.params.dataLength) ?? 0);
        return;
      }
      case "Network.loadingFinished":
        return this.#loadingFinished(session, ev.params);
      case "Network.loadingFailed":
        return this.#loadingFailed(session, ev.params);
    }
  }

  #attached(parentId: string | undefined, p: Params<"Target.attachedToTarget">): void {
    const info: Partial<Protocol.Target.TargetInfo> = p.targetInfo ?? {};
    const sessionId = str(p.sessionId);
    const targetId = str(info.targetId);
    const type = str(info.type);
    const url = str(info.url);
    const parent = parentId === undefined ? undefined : this.#sessions.get(parentId);
    const tab = type === "page" || !parent ? targetId : parent.tab;
    const s: AttachedTarget = { id: sessionId, targetId, type, url, tab, detached: false, internal: false };
    this.#sessions.set(sessionId, s);
    const cdp = this.#cdp;
    const quiet = (method: string) => (err: unknown) => {
      if (!cdp.isClosed) {
        this.#log(
          `[collector] ${type} ${targetId.slice(0, 8)} ${method}: ${String(err instanceof Error ? err.message : err)}`,
        );
      }
    };
    // A page is always captured, even one that starts on chrome://newtab/ (a tab opened by hand): it may navigate
    // to the site later. Chromium's own requests and console output on such pages are filtered per event.
    const extension = !CONTENT_TYPES.has(type) || (type !== "page" && internalUrl(url));
    s.internal = extension;
    // Commands on one session run in order: every domain is enabled before the target resumes.
    if (!extension) {
      cdp.send("Target.setAutoAttach", AUTO_ATTACH, sessionId)
        .catch(() => {});
      cdp.send("Runtime.enable", {}, sessionId).catch(quiet("Runtime.enable"));
      if (type !== "worker" && type !== "shared_worker" && type !== "service_worker") {
        cdp.send("Log.enable", {}, sessionId).catch(() => {});
      }
      const ready = cdp.send(
        "Network.enable",
        { maxTotalBufferSize: 100_000_000, maxResourceBufferSize: 10_000_000, enableDurableMessages: true },
        sessionId,
      )
        .then(() => {}, quiet("Network.enable"));
      this.#ready.set(sessionId, ready);
    }
    cdp.send("Runtime.runIfWaitingForDebugger", {}, sessionId).catch(() => {});
    for (const w of [...this.#attachWaiters]) w(s);
  }

  #pushConsole(session: AttachedTarget, level: Level, text: string, ts: number, source: string, frame?: Frame): void {
    const entry: ConsoleEntry = {
      index: this.console.nextIndex(),
      level,
      text: capText(text, CONSOLE_TEXT_CAP),
      tab: session.tab,
      ts: Math.trunc(ts),
      source,
      matches: [],
    };
    if (frame) entry.frame = { ...frame, function: capText(frame.function, 1024), url: capText(frame.url, URL_CAP) };
    if (session.url) entry.origin = capText(session.url, URL_CAP);
    this.console.push(entry);
  }

  #consoleCalled(session: AttachedTarget, p: Params<"Runtime.consoleAPICalled">): void {
    const type = str(p.type);
    if (type === "endGroup" || type === "clear") return;
    const args = (p.args as RemoteObject[] | undefined) ?? [];
    let text = renderArgs(args, CONSOLE_ARG_CAP);
    if (type === "assert") text = text ? `Assertion failed: ${text}` : "Assertion failed: console.assert";
    this.#pushConsole(session, levelOf(type), text, num(p.timestamp) ?? this.#now(), "console", topFrame(p.stackTrace));
  }

  #exception(session: AttachedTarget, p: Params<"Runtime.exceptionThrown">): void {
    const d: Partial<Protocol.Runtime.ExceptionDetails> = p.exceptionDetails ?? {};
    if (this.#extensionContexts.has(`${session.id}|${String(d.executionContextId)}`)) return;
    const ex = d.exception as RemoteObject | undefined;
    const head = str(d.text) || "Uncaught";
    let text = head;
    if (ex) {
      const body = ex.type === "string" ? String(ex.value) : renderObject(ex);
      text = body ? `${head} ${body}` : head;
    }
    let frame = topFrame(d.stackTrace);
    if (!frame && str(d.url)) {
      frame = {
        function: "",
        url: str(d.url),
        line: (num(d.lineNumber) ?? 0) + 1,
        column: (num(d.columnNumber) ?? 0) + 1,
      };
    }
    this.#pushConsole(session, "exception", text, num(p.timestamp) ?? this.#now(), "exception", frame);
  }

  #logEntry(session: AttachedTarget, p: Params<"Log.entryAdded">): void {
    const e: Partial<Protocol.Log.LogEntry> = p.entry ?? {};
    // A worker's console calls also surface as `worker` log entries on its parent; the worker session has them.
    if (str(e.source) === "worker" || internalUrl(str(e.url))) return;
    let frame = topFrame(e.stackTrace);
    if (!frame && str(e.url)) {
      frame = { function: "", url: str(e.url), line: (num(e.lineNumber) ?? 0) + 1, column: 1 };
    }
    this.#pushConsole(
      session,
      logLevel(str(e.level)),
      str(e.text),
      num(e.timestamp) ?? this.#now(),
      str(e.source) || "other",
      frame,
    );
  }

  #key(session: AttachedTarget, requestId: string): string {
    return `${session.id}|${requestId}`;
  }

  /** The newest record for a request: seen on this session, else on another (a worker's script is requested by
   * its parent but answered on the worker's own session). */
  #find(session: AttachedTarget, requestId: string): NetworkRecord | undefined {
    return this.#byRequest.get(this.#key(session, requestId)) ?? this.#byId.get(requestId);
  }

  #requestWillBeSent(session: AttachedTarget, p: Params<"Network.requestWillBeSent">): void {
    const requestId = str(p.requestId);
    const key = this.#key(session, requestId);
    const req: Partial<Protocol.Network.Request> = p.request ?? {};
    // Extensions' own resources (the overlay's content script modules) and what Chromium's own pages load (the
    // new-tab page) are not the site's traffic.
    if (internalUrl(str(req.url)) || internalUrl(str(p.documentURL))) return;
    const t = num(p.timestamp) ?? 0;
    const previous = this.#byRequest.get(key);
    const redirect = p.redirectResponse;
    if (previous && redirect) {
      this.#applyResponse(previous, redirect, t);
      previous.redirected = true;
      previous.durationMs = Math.max(0, Math.round((t - previous.t0) * 1000));
    }
    const rec: NetworkRecord = {
      index: this.network.nextIndex(),
      tab: session.tab,
      method: str(req.method) || "GET",
      url: capText(str(req.url) + str(req.urlFragment), URL_CAP),
      state: "pending",
      status: null,
      statusText: "",
      resourceType: str(p.type) || "Other",
      ts: Math.round((num(p.wallTime) ?? this.#now() / 1000) * 1000),
      hasRequestBody: req.hasPostData === true || typeof req.postData === "string",
      responseBody: "none",
      requestHeaders: headerList(req.headers),
      responseHeaders: [],
      matches: [],
      sessionId: session.id,
      bodySessionId: session.id,
      requestId,
      t0: t,
    };
    // Small POST data is copied now; larger bodies (or ones the pipe cut) are fetched from Chromium on demand.
    if (typeof req.postData === "string" && req.postData.length <= POST_DATA_KEEP) rec.postData = req.postData;
    const extra = this.#extraRequest.get(key);
    if (extra) {
      rec.requestHeaders = extra;
      this.#extraRequest.delete(key);
    }
    this.#byRequest.set(key, rec);
    this.#byId.set(requestId, rec);
    this.network.push(rec);
  }

  #requestExtra(session: AttachedTarget, p: Params<"Network.requestWillBeSentExtraInfo">): void {
    const key = this.#key(session, str(p.requestId));
    const headers = headerList(p.headers);
    const rec = this.#byRequest.get(key);
    if (rec) {
      rec.requestHeaders = headers;
      this.network.update(rec);
    } else this.#extraRequest.set(key, headers);
    // Orphans (requests never announced, e.g. Chromium's own) must not pile up.
    if (this.#extraRequest.size > 500) this.#extraRequest.clear();
  }

  #responseExtra(session: AttachedTarget, p: Params<"Network.responseReceivedExtraInfo">): void {
    const key = this.#key(session, str(p.requestId));
    const headers = headerList(p.headers);
    const rec = this.#byRequest.get(key);
    if (rec && rec.status !== null) {
      rec.responseHeaders = headers;
      this.network.update(rec);
    } else {
      const status = num(p.statusCode);
      this.#extraResponse.set(key, status === undefined ? { headers } : { headers, status });
    }
    if (this.#extraResponse.size > 500) this.#extraResponse.clear();
  }

  #applyResponse(rec: NetworkRecord, r: Partial<Protocol.Network.Response>, t: number): void {
    rec.state = "complete";
    rec.status = num(r.status) ?? 0;
    rec.statusText = str(r.statusText) || STATUS_CODES[rec.status] || "";
    rec.responseHeaders = headerList(r.headers);
    if (str(r.mimeType)) rec.mimeType = str(r.mimeType);
    // The event's own timestamp can trail the load for navigations; the response timing says when headers came.
    const timing: Partial<Protocol.Network.ResourceTiming> = r.timing ?? {};
    const base = num(timing.requestTime);
    const headers = num(timing.receiveHeadersEnd);
    const at = base !== undefined && headers !== undefined && headers >= 0 ? base + headers / 1000 : t;
    rec.responseMs = Math.max(0, Math.round((at - rec.t0) * 1000));
    const key = `${rec.sessionId}|${rec.requestId}`;
    const extra = this.#extraResponse.get(key);
    if (extra && (extra.status === undefined || extra.status === rec.status)) {
      rec.responseHeaders = extra.headers;
      this.#extraResponse.delete(key);
    }
    this.network.update(rec);
  }

  #responseReceived(session: AttachedTarget, p: Params<"Network.responseReceived">): void {
    const rec = this.#find(session, str(p.requestId));
    if (!rec) return;
    this.#applyResponse(rec, p.response ?? {}, num(p.timestamp) ?? rec.t0);
    if (str(p.type)) rec.resourceType = str(p.type);
    rec.responseBody = "live";
    rec.bodySessionId = session.id;
  }

  #loadingFinished(session: AttachedTarget, p: Params<"Network.loadingFinished">): void {
    const rec = this.#find(session, str(p.requestId));
    if (!rec) return;
    const t = num(p.timestamp) ?? rec.t0;
    rec.durationMs = Math.max(rec.responseMs ?? 0, Math.round((t - rec.t0) * 1000));
    const bytes = num(p.encodedDataLength);
    if (bytes !== undefined) rec.encodedBytes = bytes;
    if (rec.status === null) rec.state = "complete";
    if (!RETAINED_TYPES.has(rec.resourceType)) return;
    const known = Math.max(rec.received ?? 0, rec.encodedBytes ?? 0);
    if (known > this.#bodyLimit) {
      // Not even fetched: a page must not make the daemon hold a huge body, however briefly.
      this.#bodiesDropped++;
      rec.bodyNote = `${NOT_KEPT}: ${known} bytes is over the ${size(this.#bodyLimit)} limit per body`;
      return;
    }
    this.#cdp.send(
      "Network.getResponseBody",
      { requestId: rec.requestId },
      session.id,
    )
      .then((res) => {
        const body = bodyBytes(res.body ?? "", res.base64Encoded === true);
        this.#retain(rec, body);
      })
      .catch((err: unknown) => {
        rec.bodyNote = err instanceof Error ? err.message : String(err);
      });
  }

  #retain(rec: NetworkRecord, body: Uint8Array): void {
    if (this.network.get(rec.index) !== rec) return;
    if (body.length > this.#bodyLimit) {
      this.#bodiesDropped++;
      rec.bodyNote = `${NOT_KEPT}: ${body.length} bytes is over the ${size(this.#bodyLimit)} limit per body`;
      return;
    }
    rec.body = body;
    rec.responseBody = "retained";
    this.#retained.push(rec);
    this.#retainedBytes += body.length;
    while (this.#retainedBytes > this.#bodyBudget && this.#retained.length > 0) {
      const old = this.#retained[0]!;
      this.#release(old);
      this.#bodiesDropped++;
      old.bodyNote = `${NOT_KEPT}: released to stay within the ${size(this.#bodyBudget)} budget for all bodies`;
    }
  }

  #release(rec: NetworkRecord): void {
    if (!rec.body) return;
    const i = this.#retained.indexOf(rec);
    if (i >= 0) this.#retained.splice(i, 1);
    this.#retainedBytes -= rec.body.length;
    delete rec.body;
    rec.responseBody = "live";
  }

  #loadingFailed(session: AttachedTarget, p: Params<"Network.loadingFailed">): void {
    const rec = this.#find(session, str(p.requestId));
    if (!rec) return;
    const t = num(p.timestamp) ?? rec.t0;
    rec.durationMs = Math.max(rec.responseMs ?? 0, Math.round((t - rec.t0) * 1000));
    const reason = str(p.errorText) || (p.canceled === true ? "net::ERR_ABORTED" : "unknown error");
    rec.failure = str(p.blockedReason) ? `${reason} (blocked: ${str(p.blockedReason)})` : reason;
    if (str(p.type)) rec.resourceType = str(p.type);
    // A response that arrived and was then abandoned (a 404 script) keeps its status; the failure stays recorded.
    if (rec.status !== null) return;
    rec.state = "failed";
    rec.responseBody = "none";
  }

  /**
   * The response body of a buffered record: retained bytes, else a live fetch from the session that saw it. When
   * neither has it, the error says why (and why the collector kept no copy, when it tried).
   */
  async responseBody(rec: NetworkRecord): Promise<Uint8Array> {
    if (rec.body) return rec.body;
    if (rec.state === "failed") throw new BodyUnavailable(`the request failed (${rec.failure ?? "unknown error"})`);
    if (rec.status === null) throw new BodyUnavailable("the request is still pending: no response has arrived");
    if (rec.redirected) throw new BodyUnavailable(`it is a redirect hop (${rec.status}); see the next request`);
    const why = (reason: string) =>
      new BodyUnavailable(rec.bodyNote?.startsWith(NOT_KEPT) ? `${reason}; ${rec.bodyNote}` : reason);
    const s = this.#sessions.get(rec.bodySessionId);
    if (!s || s.detached) throw why("the tab, frame or worker that loaded it has closed");
    try {
      const res = await this.#cdp.send(
        "Network.getResponseBody",
        { requestId: rec.requestId },
        rec.bodySessionId,
        10_000,
      );
      return bodyBytes(res.body ?? "", res.base64Encoded === true);
    } catch (err: unknown) {
      throw why(friendly(err));
    }
  }

  /** The request body (POST data) of a buffered record. */
  async requestBody(rec: NetworkRecord): Promise<Uint8Array> {
    if (rec.postData !== undefined) return new TextEncoder().encode(rec.postData);
    if (!rec.hasRequestBody) throw new BodyUnavailable(`this ${rec.method} request has no request body`);
    const s = this.#sessions.get(rec.sessionId);
    if (!s || s.detached) throw new BodyUnavailable("the tab, frame or worker that sent it has closed");
    try {
      const res = await this.#cdp.send(
        "Network.getRequestPostData",
        { requestId: rec.requestId },
        rec.sessionId,
        10_000,
      );
      return bodyBytes(res.postData ?? "", res.base64Encoded === true);
    } catch (err: unknown) {
      throw new BodyUnavailable(friendly(err));
    }
  }
}

/** How a body note starts when the collector chose not to keep a copy (the budget). */
const NOT_KEPT = "not kept by the collector";

/** `1 MB` for whole mebibytes, else bytes. */
function size(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`;
}

function friendly(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  if (/No resource with given identifier|No data found/i.test(msg)) {
    return "Chromium no longer holds it (the page navigated away or its network cache evicted the body)";
  }
  if (err instanceof CdpError && err.code === 0) return `the DevTools connection failed (${msg})`;
  return msg;
}
