/**
 * The devtools commands' client of the session daemon: finds it through the session file (trusted only once it is
 * verified, `openSession`), calls its HTTP API (`src/browser/daemon_api.ts`) with the session secret, and turns every
 * failure into one clear {@linkcode SessionError}.
 *
 * @module
 */
import type { Io } from "../io.ts";
import { describe, NotFoundError, SessionError, UsageError } from "../errors.ts";
// The files themselves, not `browser/mod.ts`, which also brings the CDP client onto this short command's start-up.
import type { ErrorPayload } from "../browser/daemon_api.ts";
import {
  locateSession,
  type LoopbackInit,
  type LoopbackResponse,
  noSessionError,
  openSession,
} from "../browser/session.ts";
import type { SessionInfo } from "../browser/session_file.ts";
import { pidAlive } from "../browser/process.ts";
import { escapeControls } from "../terminal.ts";

/** A connection to the running daemon. */
export interface DaemonClient {
  /** The session the client talks to. */
  readonly session: SessionInfo;
  /**
   * GETs a JSON path; throws typed errors (404 `not_buffered` → {@linkcode NotFoundError}; an answer failing `valid`
   * → {@linkcode SessionError}, never a crash in the formatter).
   */
  json<T>(path: string, valid?: (v: unknown) => boolean): Promise<T>;
  /**
   * GETs a path whose answer may be text (`format=text` lists): the body as text, its content type and its headers.
   * Error answers throw as for {@linkcode DaemonClient.json}.
   */
  get(path: string): Promise<DaemonText>;
  /** Parses `text`, the answer to `path`, as {@linkcode DaemonClient.json} does. */
  parse<T>(path: string, text: string, valid?: (v: unknown) => boolean): T;
  /**
   * POSTs a JSON body and parses the JSON answer (the page commands, `/devtools/page/*`). An error answer becomes a
   * typed error with the daemon's message and hint: 400 → {@linkcode UsageError}, 404 → {@linkcode NotFoundError},
   * anything else → {@linkcode SessionError}.
   */
  post<T>(path: string, body: unknown, timeoutMs?: number): Promise<T>;
  /** GETs a body; resolves with bytes and content type, or with the daemon's reason it is unavailable. */
  body(
    index: number,
    kind: "request" | "response",
  ): Promise<{ bytes: Uint8Array; contentType: string } | { reason: string }>;
}

/** A text answer of the daemon ({@linkcode DaemonClient.get}). */
export interface DaemonText {
  /** The body, decoded as UTF-8. */
  readonly text: string;
  /** The `Content-Type` as sent (`""` when absent). */
  readonly contentType: string;
  /** A header's value, or `null`. */
  header(name: string): string | null;
}

/**
 * A daemon's error text, safe to print after `mapper <command>:` (CLI) or return as a tool error (MCP): it quotes page
 * text (a thrown value, a dialog's message, an element's name), so every control, line-breaking and invisible
 * character is shown escaped, and a newline stays only where the daemon lays out a list of its own, whose lines are
 * indented (`2 tabs are open:\n  D13A6E0B  …`); any other newline is shown as `\n`, so no line the page wrote can
 * start in the first column.
 */
function oneLine(text: string): string {
  return escapeControls(String(text), { keepNewlines: true }).replace(/\t/g, "\\t").replace(/\n(?! {2}\S)/g, "\\n");
}

/**
 * Opens a client for the session of corpus directory `dir` (`--dir`), else of the nearest `.mapper/` walking up
 * that holds one (`locateSession`).
 */
export async function connect(dir: string | undefined, io: Io): Promise<DaemonClient> {
  const place = locateSession(dir, io);
  const session = place.found ? await openSession(place.dir, io) : undefined;
  const noSession = () => noSessionError(place, io);
  if (session === undefined) throw noSession();
  const { info, base } = session;
  const request = async (path: string, init: LoopbackInit = {}, timeoutMs = 15_000): Promise<LoopbackResponse> => {
    try {
      return await session.request(path, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err: unknown) {
      if (!pidAlive(info.daemonPid)) throw noSession();
      throw new SessionError(
        `cannot reach the session daemon at ${base}: ${err instanceof Error ? err.message : String(err)}`,
        {
          hint: "check 'mapper browser status'",
        },
      );
    }
  };
  /** The whole body of `res`: a daemon that breaks its answer off or garbles it is one clear error, not a crash. */
  const read = async (res: LoopbackResponse): Promise<Uint8Array> => {
    try {
      return await res.bytes();
    } catch (err: unknown) {
      throw new SessionError(`the session daemon at ${base} sent a broken answer: ${describe(err)}`, {
        hint: "check 'mapper browser status'",
      });
    }
  };
  const readText = async (res: LoopbackResponse) => new TextDecoder().decode(await read(res));
  const fail = async (res: LoopbackResponse): Promise<never> => {
    const text = await readText(res);
    let payload: Partial<ErrorPayload> = {};
    try {
      payload = JSON.parse(text);
    } catch {
      // not JSON
    }
    const message = oneLine(payload.error ?? (text.trim().split("\n")[0] || res.statusText));
    if (res.status === 503) throw new SessionError("the session is still starting", { hint: "retry in a moment" });
    if (res.status === 404 && payload.code === "not_buffered") {
      const list = message.startsWith("console") ? "console" : "network";
      throw new NotFoundError(message, { hint: `pick an index shown by 'mapper ${list} list'` });
    }
    throw new SessionError(`the session daemon answered ${res.status}: ${message}`, {
      hint: "check 'mapper browser status'",
    });
  };
  const parse = <T>(path: string, text: string, valid: (v: unknown) => boolean = () => true): T => {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (err: unknown) {
      throw new SessionError(
        `the session daemon sent invalid JSON for "${path}": ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (!valid(v)) {
      throw new SessionError(`the session daemon sent an answer of the wrong shape for "${path}"`, {
        hint: "check 'mapper browser status'",
      });
    }
    return v as T;
  };
  return {
    session: info,
    async json<T>(path: string, valid?: (v: unknown) => boolean): Promise<T> {
      const res = await request(path);
      if (!res.ok) return await fail(res);
      return parse<T>(path, await readText(res), valid);
    },
    async get(path: string): Promise<DaemonText> {
      const res = await request(path);
      if (!res.ok) return await fail(res);
      const text = await readText(res);
      return { text, contentType: res.header("content-type") ?? "", header: (name) => res.header(name) };
    },
    parse,
    async post<T>(path: string, body: unknown, timeoutMs = 60_000): Promise<T> {
      const res = await request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }, timeoutMs);
      const text = await readText(res);
      let payload: Partial<ErrorPayload> & { hint?: string } = {};
      try {
        payload = JSON.parse(text);
      } catch {
        if (res.ok) throw new SessionError(`the session daemon sent invalid JSON for "${path}"`);
      }
      if (res.ok) return payload as T;
      if (res.status === 503) throw new SessionError("the session is still starting", { hint: "retry in a moment" });
      const message = oneLine(payload.error ?? (text.trim().split("\n")[0] || res.statusText));
      const hint = oneLine(payload.hint ?? "check 'mapper browser status'");
      if (res.status === 400) throw new UsageError(message, { hint });
      if (res.status === 404 && payload.code !== "not_found") throw new NotFoundError(message, { hint });
      if (payload.hint !== undefined) throw new SessionError(message, { hint });
      throw new SessionError(`the session daemon answered ${res.status}: ${message}`, { hint });
    },
    async body(index, kind) {
      const res = await request(`/devtools/network/${index}/body?kind=${kind}`);
      if (res.status === 410) {
        const payload = (await res.json().catch(() => ({}))) as Partial<ErrorPayload>;
        return { reason: oneLine(payload.reason ?? payload.error ?? "unavailable") };
      }
      if (!res.ok) return await fail(res);
      return { bytes: await read(res), contentType: res.header("content-type") ?? "" };
    },
  };
}
