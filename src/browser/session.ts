/**
 * Trusting a session file, and the one authenticated client of the daemon API every command uses.
 *
 * A session file proves nothing by itself (an installed archive or another program can plant one). It is trusted
 * only once the daemon it names is shown to be the live process that wrote it, which then holds the port (it binds
 * the port before it writes the file and keeps it until it removes the file):
 * - where the OS tells when a process started and who listens where (Linux) and the file records the start
 *   (`daemonStart`): the daemon pid runs and started then (a pid reused since by another process started later),
 *   and the socket listening where a connection to 127.0.0.1:`port` lands is one that process holds open. Nothing
 *   goes over the network first: a stale or planted file is found out without a byte sent to whatever owns its port.
 * - otherwise (another OS, a file of an older daemon): the handshake. The daemon pid is alive and the port answered
 *   `GET /devtools/session` (with the file's secret) with the same session id, daemon pid, Chromium pid and port.
 *
 * Until then nothing is signalled and nothing is asked of it. A file that fails is reported in one line, removed,
 * and never acted on.
 *
 * @module
 */
import type { Io } from "../io.ts";
import { SessionError } from "../errors.ts";
import { join, resolve } from "../path.ts";
import { escapeControls } from "../terminal.ts";
// The file itself, not `corpus/mod.ts`: the walk-up is on the start-up path of `mapper console list`, the loader is not.
import { DEFAULT_CORPUS_DIR, findCorpusDirUp, trustedCorpusDir } from "../corpus/find.ts";
import { API_SCHEMA, type SessionPayload } from "./daemon_api.ts";
import { holdsSocket, loopbackListeners, pidAlive, processStartTime } from "./process.ts";
import { readSession, removeSession, type SessionInfo, sessionPath } from "./session_file.ts";
import { loopbackFetch, type LoopbackInit, type LoopbackResponse } from "./_loopback_http.ts";

export type { LoopbackInit, LoopbackResponse };

/** How long the handshake waits for the daemon. */
export const HANDSHAKE_TIMEOUT_MS = 3000;
/** Largest handshake answer read (a hostile port could stream forever). */
const HANDSHAKE_MAX_BYTES = 16 * 1024;

/** A session whose daemon answered the handshake. */
export interface Session {
  /** What the session file says about the session. */
  readonly info: SessionInfo;
  /** The daemon's base URL, `http://127.0.0.1:<port>`. */
  readonly base: string;
  /** Calls the daemon API with the session secret (no redirects followed). */
  request(path: string, init?: LoopbackInit): Promise<LoopbackResponse>;
}

/**
 * Calls `path` on the daemon of `info` with its secret, over the loopback client (`_loopback_http.ts`: 127.0.0.1
 * only, no redirects followed). The one place the credential is attached.
 */
export function daemonRequest(info: SessionInfo, path: string, init: LoopbackInit = {}): Promise<LoopbackResponse> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(init.headers ?? {})) {
    if (name.toLowerCase() !== "authorization") headers[name] = value;
  }
  headers.authorization = `Bearer ${info.secret}`;
  return loopbackFetch(info.port, path, { ...init, headers });
}

/** The handshake: `undefined` when the daemon named by `info` proved it runs this session, else why not. */
export async function handshake(info: SessionInfo): Promise<string | undefined> {
  if (!pidAlive(info.daemonPid)) return `its daemon pid ${info.daemonPid} is not running`;
  let res: LoopbackResponse;
  try {
    res = await daemonRequest(info, "/devtools/session", {
      signal: AbortSignal.timeout(HANDSHAKE_TIMEOUT_MS),
    });
  } catch {
    return `nothing answers on its port ${info.port}`;
  }
  const text = await res.bytes(HANDSHAKE_MAX_BYTES).then((bytes) => new TextDecoder().decode(bytes), () => undefined);
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

/**
 * Why `info` is not to be trusted, or `undefined` when its daemon is shown to be the live process that wrote it: by
 * its recorded start time and the sockets it holds where there is one and the OS tells them (reads of `/proc`, no
 * request), else by the {@linkcode handshake}.
 */
export async function verifySession(info: SessionInfo): Promise<string | undefined> {
  if (info.daemonStart === undefined || Deno.build.os !== "linux") return await handshake(info);
  const started = processStartTime(info.daemonPid);
  if (started === undefined) return `its daemon pid ${info.daemonPid} is not running`;
  if (started !== info.daemonStart) return `its daemon pid ${info.daemonPid} is now another process`;
  // The daemon runs, but a live pid and start time are no proof it holds the port (a planted file can name any
  // process): the listener there must be that very process's, or the first request would hand the secret to another.
  const listeners = loopbackListeners(info.port);
  if (listeners === undefined) return await handshake(info);
  if (listeners.size === 0) return `nothing listens on its port ${info.port}`;
  if (!holdsSocket(info.daemonPid, listeners)) return `its port ${info.port} is held by another process`;
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
 * or fails {@linkcode verifySession} is removed and reported with {@linkcode staleLine} through `report` (default:
 * stderr).
 */
export async function openSession(
  dir: string,
  io: Io,
  report: (line: string) => void = (line) => io.stderr.write(`${line}\n`),
): Promise<Session | undefined> {
  const info = readSession(dir);
  if (info === undefined) return undefined;
  const reason = "unreadable" in info ? info.unreadable : await verifySession(info);
  if (reason !== undefined || "unreadable" in info) {
    await removeSession(dir);
    report(staleLine(dir, reason ?? "unreadable"));
    return undefined;
  }
  return {
    info,
    base: `http://127.0.0.1:${info.port}`,
    request: (path, init) => daemonRequest(info, path, init),
  };
}

/** Where a session command looks for its session (see {@linkcode locateSession}). */
export interface SessionPlace {
  /** Absolute corpus directory whose session file is read. */
  dir: string;
  /** Whether a session file was found there (walking up), or `--dir` was given. */
  found: boolean;
  /** The `--dir` as given, if any. */
  given?: string;
}

function holdsSession(dir: string): boolean {
  try {
    return Deno.statSync(sessionPath(dir)).isFile;
  } catch {
    return false;
  }
}

/**
 * Finds the session of a command the way git finds its repository: `--dir` when given, else the nearest `.mapper/`
 * at or above the working directory that holds a session file. When the one found is not `./.mapper`, says so in
 * one line on stderr, so the user knows which project's browser answered. With none found, `dir` is where
 * `mapper browser start` would put one (the nearest `.mapper/`, else `./.mapper`) and `found` is false. A directory
 * another user controls is refused either way (`trustedCorpusDir`).
 */
export function locateSession(given: string | undefined, io: Io): SessionPlace {
  if (given !== undefined) return { dir: trustedCorpusDir(resolve(io.cwd, given)), found: true, given };
  const here = join(io.cwd, DEFAULT_CORPUS_DIR);
  const withSession = findCorpusDirUp(io.cwd, holdsSession);
  if (withSession !== undefined) {
    if (withSession !== here) io.stderr.write(`using the session of ${escapeControls(withSession)}\n`);
    return { dir: withSession, found: true };
  }
  return { dir: findCorpusDirUp(io.cwd) ?? here, found: false };
}

/**
 * The corpus directory `mapper browser start` uses: `--dir` when given, else the nearest existing `.mapper/` walking
 * up (said on stderr when it is not `./.mapper`), else `./.mapper` (created by the start); never one another user
 * controls (`trustedCorpusDir`).
 */
export function startDir(given: string | undefined, io: Io): { dir: string; shown: string } {
  if (given !== undefined) return { dir: trustedCorpusDir(resolve(io.cwd, given)), shown: given };
  const here = join(io.cwd, DEFAULT_CORPUS_DIR);
  const found = findCorpusDirUp(io.cwd);
  if (found === undefined || found === here) return { dir: here, shown: DEFAULT_CORPUS_DIR };
  io.stderr.write(`using the corpus of ${escapeControls(found)}\n`);
  return { dir: found, shown: found };
}

/**
 * The "no running session" error of a session command, with a hint that never starts a browser in the wrong place:
 * it names the directory the session would belong to.
 */
export function noSessionError(place: SessionPlace, io: Io): SessionError {
  if (place.given !== undefined) {
    return new SessionError(`no running session in ${escapeControls(place.given)}`, {
      hint: `start one with 'mapper browser start --dir ${escapeControls(place.given)}'`,
    });
  }
  if (place.dir === join(io.cwd, DEFAULT_CORPUS_DIR) && !isExisting(place.dir)) {
    return new SessionError(`no running session here or in any parent of ${escapeControls(io.cwd)}`, {
      hint: "run 'mapper browser start' in your project folder, or pass --dir <project>/.mapper",
    });
  }
  if (place.dir === join(io.cwd, DEFAULT_CORPUS_DIR)) {
    return new SessionError("no running session", { hint: "start one with 'mapper browser start'" });
  }
  return new SessionError(`no running session for ${escapeControls(place.dir)}`, {
    hint: `start one with 'mapper browser start' (it uses that directory)`,
  });
}

function isExisting(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
