/**
 * The session file `<corpus dir>/.session` (mode 0600): how every other command finds the running daemon.
 *
 * Shape (one JSON object, `schema` 2): `sessionId` (random, 128 bits, hex), `secret` (random, 256 bits, hex: the
 * `Authorization: Bearer` credential of the daemon API), `daemonPid`, `daemonStart` (Linux only: when the daemon
 * process started, clock ticks after boot), `chromiumPid`, `port` (daemon HTTP: corpus
 * server + devtools API), `profile`, `headless`, `startedAt` (ISO), `version` (mapper), `log` (the daemon's log file
 * when detached, else `null`). There is no DevTools endpoint in it: Chromium is driven over a pipe only the daemon
 * holds.
 *
 * Written atomically (a fresh temp file + rename) once Chromium, the collector and the HTTP server are all up;
 * removed by the daemon when it stops. Reading it proves nothing: anyone who can write the corpus directory (an
 * installed archive, another program) can plant one. {@linkcode readSession} only checks its shape; `session.ts`
 * trusts it once the recorded daemon is shown to be alive (see `verifySession` there).
 *
 * @module
 */
import { join } from "../path.ts";
import { SESSION_FILE } from "../corpus/owned.ts";
import { writeUserFile } from "../user_file.ts";

/** Contents of the session file. The one type for it: every reader and writer uses this. */
export interface SessionInfo {
  /** Session file format version. */
  schema: 2;
  /** Random per session (hex, 128 bits): the daemon must answer the same id. */
  sessionId: string;
  /** Random per session (hex, 256 bits): required on every devtools API request. Never printed or logged. */
  secret: string;
  /** Process id of the daemon. */
  daemonPid: number;
  /**
   * When the daemon process started, as the OS counts it (Linux: clock ticks after boot, `processStartTime`); absent
   * elsewhere. With `daemonPid` it names the daemon process itself, so a client can tell it still runs (and so still
   * holds `port`) without asking it, and a pid reused since by another process from the daemon.
   */
  daemonStart?: number;
  /** Process id of Chromium. */
  chromiumPid: number;
  /** Port the daemon listens on. */
  port: number;
  /** Chromium profile directory. */
  profile: string;
  /** Whether Chromium runs headless. */
  headless: boolean;
  /** When the session started. */
  startedAt: string;
  /** mapper version that started the session. */
  version: string;
  /** Daemon log file, if any. */
  log: string | null;
}

/** The session as shown to users (`browser status --json`): everything but the secret. */
export type PublicSession = Omit<SessionInfo, "secret">;

/** The session without its secret. */
export function publicSession(info: SessionInfo): PublicSession {
  const { secret: _secret, ...rest } = info;
  return rest;
}

/** A session file that is present but cannot describe a session, and why (one clause). */
export interface Unreadable {
  /** Why the session file could not be read. */
  unreadable: string;
}

/** Path of the session file for a corpus directory. */
export function sessionPath(dir: string): string {
  return join(dir, SESSION_FILE);
}

const HEX32 = /^[0-9a-f]{32}$/;
const HEX64 = /^[0-9a-f]{64}$/;

function pid(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v > 1;
}

/** Why parsed JSON is not a session (one clause), or `undefined` when it is one. */
export function sessionProblem(v: unknown): string | undefined {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return "it is not a JSON object";
  const s = v as Partial<Record<keyof SessionInfo, unknown>>;
  if (s.schema !== 2) return "it is not a schema-2 session file";
  if (typeof s.sessionId !== "string" || !HEX32.test(s.sessionId)) return "it has no valid session id";
  if (typeof s.secret !== "string" || !HEX64.test(s.secret)) return "it has no valid secret";
  if (!pid(s.daemonPid) || !pid(s.chromiumPid)) return "its pids are not valid";
  if (s.daemonPid === s.chromiumPid) return "it names the same pid twice";
  if (s.daemonStart !== undefined && !(Number.isSafeInteger(s.daemonStart) && (s.daemonStart as number) >= 0)) {
    return "its daemon start time is not valid";
  }
  if (typeof s.port !== "number" || !Number.isInteger(s.port) || s.port < 1 || s.port > 65535) {
    return "its port is not valid";
  }
  if (typeof s.profile !== "string" || !s.profile.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(s.profile)) {
    return "its profile is not an absolute path";
  }
  if (typeof s.headless !== "boolean" || typeof s.startedAt !== "string" || typeof s.version !== "string") {
    return "it lacks required fields";
  }
  if (s.log !== null && typeof s.log !== "string") return "its log is not valid";
  return undefined;
}

/**
 * Reads the session file: `undefined` when absent; {@linkcode Unreadable} when present but not a session we wrote
 * (not a regular file, readable by others or owned by another user on POSIX, not JSON, wrong shape).
 */
export function readSession(dir: string): SessionInfo | Unreadable | undefined {
  const path = sessionPath(dir);
  let st: Deno.FileInfo;
  try {
    st = Deno.lstatSync(path);
  } catch (err: unknown) {
    // A corpus path that is a file (ENOTDIR) cannot hold a session either.
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return undefined;
    return { unreadable: "it cannot be read" };
  }
  if (!st.isFile) return { unreadable: "it is not a regular file" };
  if (Deno.build.os !== "windows") {
    if (st.mode !== null && (st.mode & 0o077) !== 0) {
      return {
        unreadable: `it is readable by others (mode ${(st.mode & 0o777).toString(8)}), so mapper did not write it`,
      };
    }
    if (st.uid !== null && st.uid !== Deno.uid()) return { unreadable: "it belongs to another user" };
  }
  if (st.size > 64 * 1024) return { unreadable: "it is too large" };
  let v: unknown;
  try {
    v = JSON.parse(Deno.readTextFileSync(path));
  } catch {
    return { unreadable: "it is not JSON" };
  }
  const problem = sessionProblem(v);
  return problem === undefined ? v as SessionInfo : { unreadable: problem };
}

/**
 * Writes the session file with mode 0600 by the one user-file write (a fresh temp file renamed into place: a planted
 * symlink is replaced, never followed).
 */
export async function writeSession(dir: string, info: SessionInfo): Promise<void> {
  const path = sessionPath(dir);
  await writeUserFile(path, JSON.stringify(info) + "\n", path, { forceMode: true });
}

/**
 * Removes the session file. With `sessionId`, only if it still describes that session (a newer session's file is
 * kept).
 */
export async function removeSession(dir: string, sessionId?: string): Promise<void> {
  if (sessionId !== undefined) {
    const current = readSession(dir);
    if (current && !("unreadable" in current) && current.sessionId !== sessionId) return;
  }
  await Deno.remove(sessionPath(dir)).catch(() => {});
}
