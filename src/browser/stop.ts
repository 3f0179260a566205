/**
 * `mapper browser stop` and `mapper browser status`.
 *
 * `stop` signals exactly the recorded pids (never by name): SIGTERM to the daemon, which stops Chromium and removes
 * the session file; then, if Chromium still runs, SIGTERM and after 3 s SIGKILL to Chromium; finally the session
 * file is removed if it is still there.
 *
 * @module
 */
import { resolve } from "node:path";
import type { Io } from "../io.ts";
import { SessionError } from "../errors.ts";
import { API_SCHEMA, type StatusPayload } from "./api.ts";
import { pidAlive } from "./chromium.ts";
import { liveness, readSession, removeSession, type SessionInfo, sessionPath } from "./session_file.ts";
import { escapeControls, toJson } from "../terminal.ts";

/** Options of `browser stop`. */
export interface StopOptions {
  dir: string;
}

/** Options of `browser status`. */
export interface StatusOptions {
  dir: string;
  json: boolean;
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

/** Runs `mapper browser stop`. */
export async function runBrowserStop(opts: StopOptions, io: Io): Promise<number> {
  const dir = resolve(io.cwd, opts.dir);
  const info = await readSession(dir);
  if (info === undefined) {
    io.stderr.write("no running session\n");
    return 0;
  }
  if (info === "unreadable") {
    await removeSession(dir);
    io.stderr.write(`removed an unreadable session file "${sessionPath(dir)}"; nothing was signalled\n`);
    return 0;
  }
  const live = liveness(info);
  if (live.daemon) {
    signal(info.daemonPid, "SIGTERM");
    await waitGone(info.daemonPid, 6000);
  }
  if (live.chromium && pidAlive(info.chromiumPid)) {
    signal(info.chromiumPid, "SIGTERM");
    if (!(await waitGone(info.chromiumPid, 3000))) {
      signal(info.chromiumPid, "SIGKILL");
      await waitGone(info.chromiumPid, 2000);
    }
  }
  if (live.daemon && pidAlive(info.daemonPid)) {
    signal(info.daemonPid, "SIGKILL");
    await waitGone(info.daemonPid, 2000);
  }
  await removeSession(dir);
  const still = [info.daemonPid, info.chromiumPid].filter((p) => pidAlive(p));
  if (still.length > 0) {
    throw new SessionError(`pid ${still.join(" and ")} still running after SIGKILL`, {
      hint: "check 'ps' and end it by hand",
    });
  }
  if (!live.daemon && !live.chromium) {
    io.stderr.write(
      `removed a stale session file (daemon pid ${info.daemonPid} and chromium pid ${info.chromiumPid} were already gone)\n`,
    );
  } else {
    io.stderr.write(`stopped (daemon pid ${info.daemonPid}, chromium pid ${info.chromiumPid})\n`);
  }
  return 0;
}

/** The state `browser status` reports. */
export interface StatusReport {
  schema: number;
  state: "running" | "degraded" | "none";
  /** Why it is degraded, or what was cleaned up. */
  note?: string;
  session?: SessionInfo;
  daemonAlive?: boolean;
  chromiumAlive?: boolean;
  daemon?: StatusPayload;
}

/** Works out the status without printing. A stale session file is removed (and said in `note`). */
export async function sessionStatus(dir: string, io: Io): Promise<StatusReport> {
  const info = await readSession(dir);
  if (info === undefined) return { schema: API_SCHEMA, state: "none" };
  if (info === "unreadable") {
    await removeSession(dir);
    return { schema: API_SCHEMA, state: "none", note: `removed an unreadable session file "${sessionPath(dir)}"` };
  }
  const live = liveness(info);
  if (!live.daemon && !live.chromium) {
    await removeSession(dir);
    return {
      schema: API_SCHEMA,
      state: "none",
      note: `removed a stale session file (daemon pid ${info.daemonPid} and chromium pid ${info.chromiumPid} are gone)`,
    };
  }
  let daemon: StatusPayload | undefined;
  if (live.daemon) {
    try {
      const res = await io.fetch(`http://127.0.0.1:${info.port}/devtools/status`, {
        signal: AbortSignal.timeout(3000),
      });
      if (res.ok) daemon = (await res.json()) as StatusPayload;
      else await res.body?.cancel();
    } catch {
      daemon = undefined;
    }
  }
  const base = { schema: API_SCHEMA, session: info, daemonAlive: live.daemon, chromiumAlive: live.chromium };
  if (daemon && live.chromium) return { ...base, state: "running", daemon };
  const note = !live.chromium
    ? `chromium pid ${info.chromiumPid} is gone but daemon pid ${info.daemonPid} still runs`
    : !live.daemon
    ? `chromium pid ${info.chromiumPid} runs but the daemon (pid ${info.daemonPid}) is gone: nothing is being captured`
    : `daemon pid ${info.daemonPid} runs but does not answer on port ${info.port}`;
  return daemon ? { ...base, state: "degraded", note, daemon } : { ...base, state: "degraded", note };
}

/** Runs `mapper browser status`. */
export async function runBrowserStatus(opts: StatusOptions, io: Io): Promise<number> {
  const dir = resolve(io.cwd, opts.dir);
  const report = await sessionStatus(dir, io);
  if (opts.json) {
    io.stdout.write(toJson(report));
    return 0;
  }
  if (report.note && report.state === "none") io.stderr.write(`${report.note}\n`);
  const s = report.session;
  if (report.state === "none" || !s) {
    io.stdout.write("○ no session\n");
    return 0;
  }
  const lines: string[] = [];
  if (report.state === "running") {
    lines.push(
      `● running  http://127.0.0.1:${s.port}  (daemon pid ${s.daemonPid}, chromium pid ${s.chromiumPid}${
        s.headless ? ", headless" : ""
      })`,
    );
  } else {
    lines.push(`⚠ degraded  ${report.note}`);
    lines.push("  recover: 'mapper browser stop', then 'mapper browser start'");
  }
  lines.push(`  started: ${s.startedAt}`, `  profile: ${s.profile}`);
  if (s.log) lines.push(`  log:     ${s.log}`);
  const d = report.daemon;
  if (d) {
    lines.push(
      `  console: ${d.console.buffered} buffered, ${d.console.dropped} dropped;  network: ${d.network.buffered} buffered, ${d.network.dropped} dropped`,
    );
    lines.push(d.tabs.length === 0 ? "  tabs: (none)" : `  tabs (${d.tabs.length}):`);
    for (const t of d.tabs) lines.push(`    ${t.id.slice(0, 8)}  ${escapeControls(t.url).slice(0, 100)}`);
  }
  io.stdout.write(lines.join("\n") + "\n");
  return 0;
}
