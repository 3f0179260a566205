/**
 * The session file `<corpus dir>/.session` (mode 0600): how every other command finds the running daemon.
 *
 * Shape (one JSON object, `schema` 1): `daemonPid`, `chromiumPid`, `port` (daemon HTTP: corpus server + devtools
 * API), `cdpPort`, `cdpUrl` (browser WebSocket), `profile`, `headless`, `startedAt` (ISO), `version` (mapper),
 * `log` (the daemon's log file when detached, else `null`).
 *
 * Written atomically (temp file + rename) once Chromium, the collector and the HTTP server are all up; removed by
 * the daemon when it stops and by `browser stop`. Readers never trust it blindly: {@linkcode liveness} checks the
 * recorded pids (and that they still run the expected programs: by command line on Linux, macOS and the BSDs, by
 * image name on Windows).
 *
 * @module
 */
import { basename, join } from "../path.ts";
import { pidAlive, pidCommandLine, pidImageName, windowsSessionLiveness } from "./chromium.ts";

/** Contents of the session file. */
export interface SessionInfo {
  schema: 1;
  daemonPid: number;
  chromiumPid: number;
  port: number;
  cdpPort: number;
  cdpUrl: string;
  profile: string;
  headless: boolean;
  startedAt: string;
  version: string;
  log: string | null;
}

/** Path of the session file for a corpus directory. */
export function sessionPath(dir: string): string {
  return join(dir, ".session");
}

/** Reads the session file; `undefined` when absent; `"unreadable"` when present but not a session. */
export async function readSession(dir: string): Promise<SessionInfo | "unreadable" | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(sessionPath(dir));
  } catch (err: unknown) {
    // A corpus path that is a file (ENOTDIR) cannot hold a session either.
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return undefined;
    return "unreadable";
  }
  try {
    const v = JSON.parse(text) as Partial<SessionInfo>;
    if (
      typeof v.port !== "number" || typeof v.daemonPid !== "number" || typeof v.chromiumPid !== "number" ||
      v.port < 1 || v.port > 65535
    ) return "unreadable";
    return v as SessionInfo;
  } catch {
    return "unreadable";
  }
}

/** Writes the session file atomically with mode 0600. */
export async function writeSession(dir: string, info: SessionInfo): Promise<void> {
  const target = sessionPath(dir);
  const tmp = `${target}.${Deno.pid}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(info) + "\n", { mode: 0o600 });
  await Deno.chmod(tmp, 0o600).catch(() => {});
  await Deno.rename(tmp, target);
}

/** Removes the session file, but only if it still describes the daemon `daemonPid` (a newer session is kept). */
export async function removeSession(dir: string, daemonPid?: number): Promise<void> {
  if (daemonPid !== undefined) {
    const current = await readSession(dir);
    if (current && current !== "unreadable" && current.daemonPid !== daemonPid) return;
  }
  await Deno.remove(sessionPath(dir)).catch(() => {});
}

/** Which of the recorded processes still run. */
export interface Liveness {
  daemon: boolean;
  chromium: boolean;
}

/**
 * Checks the recorded pids, and that they still run mapper / this profile's Chromium (pid reuse): by command line
 * where it can be read (Linux, macOS, the BSDs), by image name on Windows.
 */
export function liveness(info: SessionInfo): Liveness {
  if (Deno.build.os === "windows") {
    const self = basename(Deno.execPath());
    return windowsSessionLiveness(pidImageName(info.daemonPid), pidImageName(info.chromiumPid), self);
  }
  const daemon = pidAlive(info.daemonPid) && matches(info.daemonPid, "browser");
  const chromium = pidAlive(info.chromiumPid) && matches(info.chromiumPid, info.profile);
  return { daemon, chromium };
}

function matches(pid: number, needle: string): boolean {
  const cmd = pidCommandLine(pid);
  return cmd === undefined || needle === "" || cmd.includes(needle);
}
