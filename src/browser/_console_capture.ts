/**
 * Console capture: `console.*` calls, uncaught exceptions and `Log` entries of a recorded session, each one
 * {@linkcode ConsoleEntry} in the console ring, its text cut at {@linkcode CONSOLE_TEXT_CAP} (each argument at
 * {@linkcode CONSOLE_ARG_CAP}). Extensions' content scripts and Chromium's own pages are not the page: skipped.
 *
 * @module
 */
import type { KnownCdpEvent, Protocol } from "./cdp.ts";
import type { ConsoleEntry, Frame, Level } from "./daemon_api.ts";
import { type RemoteObject, renderArgs, renderObject } from "./_render.ts";
import { capText } from "./_pipe.ts";
import { num, str, URL_CAP } from "./_fields.ts";
import type { Ring } from "./_ring.ts";
import { type AttachedTarget, internalUrl, type Targets } from "./_targets.ts";

/** Longest console message text kept (UTF-16 code units). */
export const CONSOLE_TEXT_CAP = 32 * 1024;
/** Longest rendering of one console argument kept. */
export const CONSOLE_ARG_CAP = 16 * 1024;

/** Estimated bytes of a console entry (strings as UTF-16). */
export function consoleSize(e: ConsoleEntry): number {
  return 128 + 2 * (e.text.length + (e.origin?.length ?? 0) + (e.frame?.url.length ?? 0) + e.tab.length);
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

/** Records a session's console output into the console ring. */
export class ConsoleCapture {
  #ring: Ring<ConsoleEntry>;
  #targets: Targets;
  #now: () => number;

  /** Creates the capture writing into `ring`; `now` stamps entries that arrive without a timestamp. */
  constructor(ring: Ring<ConsoleEntry>, targets: Targets, now: () => number) {
    this.#ring = ring;
    this.#targets = targets;
    this.#now = now;
  }

  /** Handles a recorded session's console, exception and log events (others are ignored). */
  handle(session: AttachedTarget, ev: KnownCdpEvent): void {
    switch (ev.method) {
      case "Runtime.consoleAPICalled":
        return this.#consoleCalled(session, ev.params);
      case "Runtime.exceptionThrown":
        return this.#exception(session, ev.params);
      case "Log.entryAdded":
        return this.#logEntry(session, ev.params);
    }
  }

  #pushConsole(session: AttachedTarget, level: Level, text: string, ts: number, source: string, frame?: Frame): void {
    const entry: ConsoleEntry = {
      index: this.#ring.nextIndex(),
      level,
      text: capText(text, CONSOLE_TEXT_CAP),
      tab: session.tab,
      ts: Math.trunc(ts),
      source,
      matches: [],
    };
    if (frame) entry.frame = { ...frame, function: capText(frame.function, 1024), url: capText(frame.url, URL_CAP) };
    if (session.url) entry.origin = capText(session.url, URL_CAP);
    this.#ring.push(entry);
  }

  #consoleCalled(session: AttachedTarget, p: Protocol.Runtime.ConsoleAPICalledEvent): void {
    if (this.#targets.isExtensionContext(session, p.executionContextId)) return;
    const type = str(p.type);
    if (type === "endGroup" || type === "clear") return;
    const args = (p.args as RemoteObject[] | undefined) ?? [];
    let text = renderArgs(args, CONSOLE_ARG_CAP);
    if (type === "assert") text = text ? `Assertion failed: ${text}` : "Assertion failed: console.assert";
    this.#pushConsole(session, levelOf(type), text, num(p.timestamp) ?? this.#now(), "console", topFrame(p.stackTrace));
  }

  #exception(session: AttachedTarget, p: Protocol.Runtime.ExceptionThrownEvent): void {
    const d: Partial<Protocol.Runtime.ExceptionDetails> = p.exceptionDetails ?? {};
    if (this.#targets.isExtensionContext(session, d.executionContextId)) return;
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

  #logEntry(session: AttachedTarget, p: Protocol.Log.EntryAddedEvent): void {
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
}
