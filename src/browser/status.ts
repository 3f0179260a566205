/**
 * `mapper browser status`.
 *
 * It trusts the session file only once it is verified (`session.ts`): a file that fails is reported as stale and
 * removed; a daemon that passed it but answers `/devtools/status` badly is reported as degraded.
 *
 * @module
 */
import type { Io } from "../io.ts";
import { API_SCHEMA, type StatusPayload } from "./daemon_api.ts";
import { locateSession, openSession } from "./session.ts";
import { type PublicSession, publicSession } from "./session_file.ts";
import { escapeControls, toJson } from "../terminal.ts";

/** Options of `browser status`. */
export interface StatusOptions {
  /** `--dir`; else the nearest `.mapper/` walking up that holds a session. */
  dir?: string | undefined;
  json: boolean;
}

/** The state `browser status` reports. */
export interface StatusReport {
  schema: number;
  state: "running" | "degraded" | "none";
  /** Why it is degraded, or what was cleaned up. */
  note?: string;
  /** The session file's contents, without its secret. */
  session?: PublicSession;
  daemon?: StatusPayload;
}

/** Whether a daemon's answer has the shape `browser status` prints (an impostor's may not). */
function isStatusPayload(v: unknown): v is StatusPayload {
  const p = v as Partial<StatusPayload> | null | undefined;
  const counts = (c: unknown) =>
    c !== null && typeof c === "object" && typeof (c as { buffered?: unknown }).buffered === "number" &&
    typeof (c as { dropped?: unknown }).dropped === "number";
  return typeof p === "object" && p !== null && Array.isArray(p.tabs) &&
    p.tabs.every((t) => t !== null && typeof t === "object" && typeof t.id === "string" && typeof t.url === "string") &&
    counts(p.console) && counts(p.network);
}

/** Works out the status without printing. A stale session file is removed (and said in `note`). */
export async function sessionStatus(dir: string, io: Io): Promise<StatusReport> {
  let note: string | undefined;
  const session = await openSession(dir, io, (line) => (note = line));
  if (!session) {
    return note === undefined ? { schema: API_SCHEMA, state: "none" } : { schema: API_SCHEMA, state: "none", note };
  }
  let daemon: StatusPayload | undefined;
  let why = "";
  try {
    const res = await session.request("/devtools/status", { signal: AbortSignal.timeout(5000) });
    if (res.ok) daemon = (await res.json()) as StatusPayload;
    else {
      why = `its daemon answered /devtools/status with ${res.status}`;
      await res.cancel();
    }
  } catch (err: unknown) {
    why = `its daemon did not answer /devtools/status (${err instanceof Error ? err.message : String(err)})`;
  }
  const base = { schema: API_SCHEMA, session: publicSession(session.info) };
  if (isStatusPayload(daemon)) return { ...base, state: "running", daemon };
  return { ...base, state: "degraded", note: why || "its daemon sent an invalid status" };
}

/** Runs `mapper browser status`. */
export async function runBrowserStatus(opts: StatusOptions, io: Io): Promise<number> {
  const { dir } = locateSession(opts.dir, io);
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
