/**
 * The targets the collector is attached to: auto-attach at browser level (flattened, paused at start), every
 * content target's `Runtime`/`Log`/`Network` enabled before it resumes, each session's tab, and the execution
 * contexts that are not the page's (extensions' content scripts, Chromium's own pages).
 *
 * @module
 */
import type { CdpConnection, KnownCdpEvent, Protocol } from "./cdp.ts";
import { str } from "./_fields.ts";

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
export function internalUrl(url: string): boolean {
  return /^(chrome|chrome-extension|chrome-untrusted|devtools|chrome-search):/.test(url);
}

/**
 * Whether a `page` target is a tab someone looks at: every page but the extension's own pages, DevTools and
 * Chromium's top-chrome UI (`chrome://….top-chrome/`). A tab navigated to `chrome://version` stays a tab: it was
 * dropped from `tabs list` (and from every page command) as if it had closed.
 */
export function isTabUrl(url: string): boolean {
  if (/^(chrome-extension|chrome-untrusted|devtools):/.test(url)) return false;
  return !/^chrome:\/\/[^/]*\.top-chrome(\/|$)/.test(url);
}

/** A tab as the browser lists it. */
export interface TabInfo {
  /** Target id. */
  id: string;
  /** Its URL; `""` while the first document of a new tab commits (the browser no longer shows the URL it asked for). */
  url: string;
  /** Its title. */
  title: string;
}

/**
 * The tabs, in the browser's order: every `page` target that is a tab ({@linkcode isTabUrl}). The one list every
 * daemon answer about tabs comes from (status, `tabs list`, the tab a page command picks).
 */
export async function listTabs(cdp: CdpConnection): Promise<TabInfo[]> {
  const res = await cdp.send("Target.getTargets");
  return res.targetInfos
    .filter((t) => t.type === "page" && isTabUrl(t.url))
    .map((t) => ({ id: t.targetId, url: t.url, title: t.title }));
}

/** Where a session sits: its target, type, and the tab (top-level page) it belongs to. */
export interface AttachedTarget {
  id: string;
  targetId: string;
  type: string;
  url: string;
  tab: string;
  detached: boolean;
  /** Chromium UI or an extension: attached so it resumes, never recorded. */
  internal: boolean;
}

/** The attached sessions of one browser-level connection. */
export class Targets {
  #cdp: CdpConnection;
  #log: (line: string) => void;
  #sessions = new Map<string, AttachedTarget>();
  #attachWaiters: Array<(s: AttachedTarget) => void> = [];
  #ready = new Map<string, Promise<void>>();
  /** Execution contexts of extensions' content scripts and Chromium's own pages (`<session>|<contextId>`): their
   * console output and exceptions are not the page's. */
  #extensionContexts = new Set<string>();

  /** Creates the table for a connection; `log` gets one line per failure to enable a domain. */
  constructor(cdp: CdpConnection, log: (line: string) => void) {
    this.#cdp = cdp;
    this.#log = log;
  }

  /** Starts auto-attaching at browser level; resolves once Chromium accepted it (existing tabs are attached too). */
  async start(): Promise<void> {
    await this.#cdp.send("Target.setDiscoverTargets", { discover: true });
    await this.#cdp.send("Target.setAutoAttach", AUTO_ATTACH);
  }

  /** The session an event came on (`undefined` for the browser's own or an unknown one). */
  get(sessionId: string | undefined): AttachedTarget | undefined {
    return sessionId === undefined ? undefined : this.#sessions.get(sessionId);
  }

  /** Whether the session is known and still attached. */
  isOpen(sessionId: string): boolean {
    const s = this.#sessions.get(sessionId);
    return s !== undefined && !s.detached;
  }

  /** Attached sessions that are still alive. */
  sessions(): AttachedTarget[] {
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

  /** Whether an execution context of this session is an extension's or Chromium's own (not the page's). */
  isExtensionContext(session: AttachedTarget, contextId: unknown): boolean {
    return this.#extensionContexts.has(`${session.id}|${String(contextId)}`);
  }

  /** Handles the browser-level target events (any session, or none). */
  handleTarget(ev: KnownCdpEvent): void {
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
  }

  /** Handles a recorded session's execution-context events. */
  handleContext(session: AttachedTarget, ev: KnownCdpEvent): void {
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
    }
  }

  #attached(parentId: string | undefined, p: Protocol.Target.AttachedToTargetEvent): void {
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
}
