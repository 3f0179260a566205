/**
 * Trusting a session file: the handshake, and the one authenticated client of the daemon API every command uses.
 *
 * A session file proves nothing by itself (an installed archive or another program can plant one). It is trusted
 * only once the daemon it names answered `GET /devtools/session` with the file's secret, and that answer names the
 * same session id, daemon pid, Chromium pid and port, and the daemon pid is alive. Until then nothing is signalled
 * and nothing is asked of it. A file that fails is reported in one line, removed, and never acted on.
 *
 * @module
 */
import type { Io } from "../io.ts";
import { escapeControls } from "../terminal.ts";
import { API_SCHEMA, type SessionPayload } from "./api.ts";
import { pidAlive } from "./chromium.ts";
import { readSession, removeSession, type SessionInfo, sessionPath } from "./session_file.ts";

/** How long the handshake waits for the daemon. */
export const HANDSHAKE_TIMEOUT_MS = 3000;
/** Largest handshake answer read (a hostile port could stream forever). */
const HANDSHAKE_MAX_BYTES = 16 * 1024;

/** A session whose daemon answered the handshake. */
export interface Session {
  readonly info: SessionInfo;
  /** The daemon's base URL, `http://127.0.0.1:<port>`. */
  readonly base: string;
  /** Calls the daemon API with the session secret (no redirects followed). */
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** Calls `path` on the daemon of `info` with its secret. The one place the credential is attached. */
export function daemonRequest(
  info: SessionInfo,
  fetcher: typeof fetch,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${info.secret}`);
  return fetcher(`http://127.0.0.1:${info.port}${path}`, { ...init, headers, redirect: "manual" });
}

async function readCapped(res: Response, max: number): Promise<string | undefined> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > max) return undefined;
      parts.push(value);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new TextDecoder().decode(all);
}

/** The handshake: `undefined` when the daemon named by `info` proved it runs this session, else why not. */
export async function handshake(info: SessionInfo, fetcher: typeof fetch): Promise<string | undefined> {
  if (!pidAlive(info.daemonPid)) return `its daemon pid ${info.daemonPid} is not running`;
  let res: Response;
  try {
    res = await daemonRequest(info, fetcher, "/devtools/session", {
      signal: AbortSignal.timeout(HANDSHAKE_TIMEOUT_MS),
    });
  } catch {
    return `nothing answers on its port ${info.port}`;
  }
  const text = await readCapped(res, HANDSHAKE_MAX_BYTES).catch(() => undefined);
  if (res.status !== 200) return `port ${info.port} answered the handshake with ${res.status}`;
  let p: Partial<SessionPayload>;
  try {
    p = JSON.parse(text ?? "");
  } catch {
    return `port ${info.port} did not answer the handshake with JSON`;
  }
  if (
    p === null || typeof p !== "object" || p.schema !== API_SCHEMA || p.sessionId !== info.sessionId ||
    p.daemonPid !== info.daemonPid || p.chromiumPid !== info.chromiumPid || p.port !== info.port
  ) {
    return `port ${info.port} answered as another session`;
  }
  return undefined;
}

/** The one line reporting a session file that was not trusted. */
export function staleLine(dir: string, reason: string): string {
  return `removed a stale session file "${escapeControls(sessionPath(dir))}" (${
    escapeControls(reason)
  }); nothing was signalled`;
}

/**
 * Finds the trusted session of corpus directory `dir`: `undefined` when there is none. A file that is unreadable
 * or fails the handshake is removed and reported with {@linkcode staleLine} through `report` (default: stderr).
 */
export async function openSession(
  dir: string,
  io: Io,
  report: (line: string) => void = (line) => io.stderr.write(`${line}\n`),
): Promise<Session | undefined> {
  const info = await readSession(dir);
  if (info === undefined) return undefined;
  const reason = "unreadable" in info ? info.unreadable : await handshake(info, io.fetch);
  if (reason !== undefined || "unreadable" in info) {
    await removeSession(dir);
    report(staleLine(dir, reason ?? "unreadable"));
    return undefined;
  }
  return {
    info,
    base: `http://127.0.0.1:${info.port}`,
    request: (path, init) => daemonRequest(info, io.fetch, path, init),
  };
}
