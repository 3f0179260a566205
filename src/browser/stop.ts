/**
 * `mapper browser stop`.
 *
 * It trusts the session file only after the handshake (`session.ts`): a file that fails it is reported as stale,
 * removed, and nothing is signalled. `stop` asks the daemon to shut down (`POST /devtools/shutdown`: it stops
 * Chromium and removes the session file). Only if a daemon that passed the handshake does not exit does `stop`
 * signal it, and only when that pid still runs a mapper daemon; Chromium exits by itself once the daemon's pipe
 * closes, and is signalled only if it survives and its command line names this session's profile.
 *
 * @module
 */
import { basename } from "node:path";
import type { Io } from "../io.ts";
import { SessionError } from "../errors.ts";
import { pidAlive, pidCommandLine, pidImageName, windowsSessionLiveness } from "./process.ts";
import { locateSession, openSession, staleLine } from "./session.ts";
import { removeSession } from "./session_file.ts";

/** Options of `browser stop`. */
export interface StopOptions {
  /** `--dir`; else the nearest `.mapper/` walking up that holds a session. */
  dir?: string | undefined;
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!pidAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !pidAlive(pid);
}

function signal(pid: number, sig: Deno.Signal): void {
  try {
    Deno.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Whether `pid` still runs a mapper session daemon (pid reuse, or a handshake answered by someone else). */
function runsMapperDaemon(pid: number): boolean {
  if (Deno.build.os === "windows") {
    return windowsSessionLiveness(pidImageName(pid), undefined, basename(Deno.execPath())).daemon;
  }
  const cmd = pidCommandLine(pid);
  return cmd !== undefined && / browser start /.test(` ${cmd} `);
}

/** Whether `pid` still runs the Chromium of `profile`. */
function runsProfile(pid: number, profile: string): boolean {
  if (Deno.build.os === "windows") return windowsSessionLiveness(undefined, pidImageName(pid), "").chromium;
  const cmd = pidCommandLine(pid);
  return profile !== "" && cmd !== undefined && cmd.includes(`--user-data-dir=${profile}`);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves with whether the pid is gone. */
async function terminate(pid: number, graceMs: number): Promise<boolean> {
  signal(pid, "SIGTERM");
  if (await waitGone(pid, graceMs)) return true;
  signal(pid, "SIGKILL");
  return await waitGone(pid, 2000);
}

/** Runs `mapper browser stop`. */
export async function runBrowserStop(opts: StopOptions, io: Io): Promise<number> {
  const { dir } = locateSession(opts.dir, io);
  let stale = false;
  const session = await openSession(dir, io, (line) => {
    stale = true;
    io.stderr.write(`${line}\n`);
  });
  if (!session) {
    if (!stale) io.stderr.write("no running session\n");
    return 0;
  }
  const { info } = session;
  if (!runsMapperDaemon(info.daemonPid)) {
    // Something answered the handshake for a pid that is no mapper daemon: the file names processes it must not.
    await removeSession(dir);
    io.stderr.write(`${staleLine(dir, `its daemon pid ${info.daemonPid} does not run a mapper session daemon`)}\n`);
    return 0;
  }
  try {
    const res = await session.request("/devtools/shutdown", { method: "POST", signal: AbortSignal.timeout(5000) });
    await res.cancel();
  } catch {
    // Not answering any more: the wait below decides.
  }
  if (!(await waitGone(info.daemonPid, 10_000)) && runsMapperDaemon(info.daemonPid)) {
    await terminate(info.daemonPid, 5000);
  }
  // Chromium leaves once the daemon's pipe closes; give it a moment before treating it as stuck.
  if (!(await waitGone(info.chromiumPid, 3000)) && runsProfile(info.chromiumPid, info.profile)) {
    await terminate(info.chromiumPid, 3000);
  }
  await removeSession(dir, info.sessionId);
  const still = [info.daemonPid, info.chromiumPid].filter((p) => pidAlive(p));
  if (still.length > 0) {
    throw new SessionError(`pid ${still.join(" and ")} still running after the session was asked to stop`, {
      hint: "check 'ps' and end it by hand",
    });
  }
  io.stderr.write(`stopped (daemon pid ${info.daemonPid}, chromium pid ${info.chromiumPid})\n`);
  return 0;
}
