/**
 * Page events for the action engine: JavaScript dialogs open per tab (alert, confirm, prompt, beforeunload), and
 * a way to wait for the next event matching a predicate (navigation lifecycle). Listens on the browser-level
 * {@linkcode CdpConnection} next to the collector (it chains the connection's one `onEvent` callback, so both see
 * every event, in order), and enables the `Page` domain with lifecycle events on every tab as it attaches.
 *
 * A dialog blocks its page's main thread: an evaluation or a press sent then does not answer until the dialog is
 * closed. So every page command asks {@linkcode PageEvents.dialog} first and refuses, naming `browser dialog`.
 *
 * @module
 */
import { asKnownEvent, type CdpConnection, type CdpEvent } from "../../browser/mod.ts";

/** An open JavaScript dialog. */
export interface DialogInfo {
  /** `alert`, `confirm`, `prompt` or `beforeunload`. */
  type: string;
  /** Dialog message. */
  message: string;
  /** Prompt's default text. */
  defaultPrompt: string;
  /** URL of the page that opened it. */
  url: string;
}

/** The event hub of one browser connection. */
export class PageEvents {
  #cdp: CdpConnection;
  #listeners = new Set<(ev: CdpEvent) => void>();
  #dialogs = new Map<string, DialogInfo>();
  #enabled = new Map<string, Promise<void>>();
  /** Target id of each page session. */
  #tabs = new Map<string, string>();

  /** Starts listening on `cdp` (after whoever set `onEvent` before: the collector keeps its order). */
  constructor(cdp: CdpConnection) {
    this.#cdp = cdp;
    const previous = cdp.onEvent;
    cdp.onEvent = (ev) => {
      previous(ev);
      this.#handle(ev);
    };
  }

  #handle(raw: CdpEvent): void {
    const ev = asKnownEvent(raw);
    if (ev.method === "Target.attachedToTarget") {
      const p = ev.params;
      if (p.targetInfo?.type === "page" && typeof p.sessionId === "string") {
        this.#tabs.set(p.sessionId, String(p.targetInfo.targetId));
        void this.enable(p.sessionId).catch(() => {});
      }
    } else if (ev.method === "Target.detachedFromTarget" && typeof ev.params.sessionId === "string") {
      this.#dialogs.delete(ev.params.sessionId);
      this.#enabled.delete(ev.params.sessionId);
      this.#tabs.delete(ev.params.sessionId);
    } else if (ev.method === "Page.javascriptDialogOpening" && ev.sessionId !== undefined) {
      const p = ev.params;
      this.#dialogs.set(ev.sessionId, {
        type: String(p.type ?? "alert"),
        message: String(p.message ?? ""),
        defaultPrompt: String(p.defaultPrompt ?? ""),
        url: String(p.url ?? ""),
      });
    } else if (ev.method === "Page.javascriptDialogClosed" && ev.sessionId !== undefined) {
      this.#dialogs.delete(ev.sessionId);
    }
    for (const l of [...this.#listeners]) {
      try {
        l(raw);
      } catch {
        // a waiter's bug must not stop the others
      }
    }
  }

  /** Enables `Page` and its lifecycle events on a tab's session (once; later calls share the first). */
  enable(sessionId: string): Promise<void> {
    let p = this.#enabled.get(sessionId);
    if (!p) {
      p = Promise.all([
        this.#cdp.send("Page.enable", {}, sessionId, 10_000),
        this.#cdp.send("Page.setLifecycleEventsEnabled", { enabled: true }, sessionId, 10_000),
      ]).then(() => {});
      p.catch(() => this.#enabled.delete(sessionId));
      this.#enabled.set(sessionId, p);
    }
    return p;
  }

  /** The dialog open on a tab's session, if any. */
  dialog(sessionId: string): DialogInfo | undefined {
    return this.#dialogs.get(sessionId);
  }

  /** The dialog open on a tab (by target id), if any. */
  dialogOfTab(targetId: string): DialogInfo | undefined {
    for (const [session, tab] of this.#tabs) {
      if (tab === targetId && this.#dialogs.has(session)) return this.#dialogs.get(session);
    }
    return undefined;
  }

  /** Calls `fn` for every event until the returned handle is disposed. */
  listen(fn: (ev: CdpEvent) => void): Disposable {
    this.#listeners.add(fn);
    return { [Symbol.dispose]: () => this.#listeners.delete(fn) };
  }

  /** Resolves with the first event (on `sessionId`) satisfying `pred`, or `undefined` after `timeoutMs`. */
  next(sessionId: string, pred: (ev: CdpEvent) => boolean, timeoutMs: number): Promise<CdpEvent | undefined> {
    return new Promise((resolve) => {
      const sub = this.listen((ev) => {
        if (ev.sessionId !== sessionId || !pred(ev)) return;
        clearTimeout(timer);
        sub[Symbol.dispose]();
        resolve(ev);
      });
      const timer = setTimeout(() => {
        sub[Symbol.dispose]();
        resolve(undefined);
      }, timeoutMs);
    });
  }
}
