/**
 * `mapper browser start`: open a tab in the running session if there is one; else run the daemon in the
 * foreground, or (`--detach`) re-run this program as a background daemon and return once it answers.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Io, type Sink, withSinks } from "../io.ts";
import { describe, FileError, PolicyError, SessionError, UsageError } from "../errors.ts";
import { escapeControls } from "../terminal.ts";
import { findBrowser } from "./chromium.ts";
import { prepareCorpusDir, runDaemon, type StartOptions, stopCommand } from "./daemon.ts";
import { handshake, openSession, type Session, startDir } from "./session.ts";
import { readSession } from "./session_file.ts";
import { trustedCorpusDir } from "../corpus/find.ts";
import { allowedSchemes, assertOpenable, schemesOption } from "./schemes.ts";
import { readAllCapped } from "../bytes.ts";
import type { LoopbackResponse } from "./_loopback_http.ts";
import { privateDir, projectKey } from "./_private.ts";

export type { StartOptions } from "./daemon.ts";

/** What `--detach` waits for before it returns: the first page's load (`load`), or only the daemon (`none`). */
export type WaitFor = "load" | "none";

/** Options of `mapper browser start` as the command line gives them. */
export interface StartCommandOptions extends Omit<StartOptions, "dir"> {
  /** `--dir`; else the nearest `.mapper/` walking up, else `./.mapper`. */
  dir?: string | undefined;
  /** `--wait` (with `--detach`; default `load`). */
  wait?: WaitFor | undefined;
  /**
   * Set on the re-run daemon of `--detach`: the start URL and its allowed schemes come as one JSON object on
   * standard input ({@linkcode StartSecrets}), never on the command line, which every local user can read.
   */
  startStdin?: boolean | undefined;
}

/** What the parent of a detached daemon hands it on standard input. */
export interface StartSecrets {
  /** The page to open once the session is ready. */
  url?: string;
  /** Schemes besides http(s) it may have. */
  allowSchemes?: string[];
}

/** Largest {@linkcode StartSecrets} read (a URL is capped well below this by the daemon's own limits). */
const START_STDIN_MAX = 256 * 1024;

/** How long `--detach` waits for the daemon to answer. */
const DETACH_TIMEOUT_MS = 30_000;
/** How long `--wait load` waits for the first page, after the daemon answered; then a warning, not a failure. */
const LOAD_TIMEOUT_MS = 15_000;

async function getJson<T>(session: Session, path: string): Promise<T | undefined> {
  try {
    const res = await session.request(path, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) {
      await res.cancel();
      return undefined;
    }
    return (await res.json()) as T;
  } catch {
    return undefined;
  }
}

/**
 * `--wait load`: waits until the first tab left `about:blank` and the collector saw its document request finish
 * (or fail). Returns the line saying what was waited for; a page that does not load in time is a warning on stderr.
 */
async function waitForFirstPage(session: Session, url: string | undefined, wait: WaitFor, io: Io): Promise<string> {
  if (wait === "none") return "  waited for: the daemon only (--wait none); the first page may still be loading";
  if (url === undefined) return "  waited for: the daemon (no --url: the first tab stays about:blank)";
  // about:blank and the like load nothing: there is no document request to wait for (it waited out the bound).
  if (URL.canParse(url) && new URL(url).protocol === "about:") {
    return `  waited for: the daemon (${escapeControls(url)} has nothing to load)`;
  }
  const deadline = Date.now() + LOAD_TIMEOUT_MS;
  let seen = "about:blank";
  while (Date.now() < deadline) {
    const status = await getJson<{ tabs?: Array<{ id: string; url: string }> }>(session, "/devtools/status");
    const tab = status?.tabs?.find((t) => t.url !== "about:blank" && t.url !== "");
    if (tab) {
      seen = tab.url;
      const list = await getJson<{ entries?: Array<{ state: string; failure?: string }> }>(
        session,
        `/devtools/network?type=Document&tab=${encodeURIComponent(tab.id)}`,
      );
      const doc = list?.entries?.at(-1);
      if (doc?.state === "complete") return `  waited for: the first page to load — ${escapeControls(tab.url)}`;
      if (doc?.state === "failed") {
        io.stderr.write(`warning: the first page failed to load: ${escapeControls(doc.failure ?? "unknown error")}\n`);
        return `  waited for: the first page to load — ${escapeControls(tab.url)} (failed)`;
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  io.stderr.write(
    `warning: the first page did not finish loading within ${LOAD_TIMEOUT_MS / 1000} s (now at ${
      escapeControls(seen)
    }); the session is running — check 'mapper browser status'\n`,
  );
  return `  waited for: the first page to load — gave up after ${LOAD_TIMEOUT_MS / 1000} s`;
}

async function openTab(session: Session, url: string, allow: readonly string[]): Promise<string> {
  let res: LoopbackResponse;
  const query = new URLSearchParams([["url", url], ...allow.map((a) => ["allow", a])]);
  try {
    res = await session.request(`/devtools/tabs?${query}`, {
      method: "POST",
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err: unknown) {
    throw new SessionError(`the session daemon did not open the tab: ${describe(err)}`, {
      hint: "check 'mapper browser status'",
    });
  }
  const text = await res.text();
  let answer: { tab?: unknown; code?: unknown; error?: unknown; hint?: unknown } = {};
  try {
    answer = JSON.parse(text);
  } catch {
    // not JSON
  }
  const tab = answer.tab;
  if (answer.code === "scheme_refused" && typeof answer.error === "string") {
    throw new PolicyError(escapeControls(answer.error), {
      ...(typeof answer.hint === "string" ? { hint: escapeControls(answer.hint) } : {}),
    });
  }
  if (!res.ok || typeof tab !== "string") {
    throw new SessionError(`the session daemon answered ${res.status} when asked to open a tab`, {
      hint: "check 'mapper browser status'",
    });
  }
  return tab;
}

/** The argv (after the executable) that re-runs this program as `browser start` with `args`. */
export function selfCommand(args: string[]): string[] {
  if (Deno.build.standalone) return args;
  const main = Deno.mainModule.startsWith("file:") ? fileURLToPath(Deno.mainModule) : Deno.mainModule;
  return ["run", "-A", "--quiet", main, ...args];
}

function daemonArgs(opts: StartOptions, dir: string, logFile: string, io: Io): string[] {
  const args = ["browser", "start", "--port", String(opts.port), "--dir", dir, "--log-file", logFile];
  if (opts.browser) args.push("--browser", resolve(io.cwd, opts.browser));
  if (opts.profile) args.push("--profile", resolve(io.cwd, opts.profile));
  if (opts.headless) args.push("--headless");
  // The start URL (a magic link or a token URL, perhaps) goes on standard input: /proc/PID/cmdline is world-readable.
  if (opts.url) args.push("--start-stdin");
  for (const f of opts.browserFlags) args.push(`--browser-flag=${f}`);
  return args;
}

async function tail(path: string, bytes = 4000): Promise<string> {
  try {
    const text = await Deno.readTextFile(path);
    return text.slice(-bytes).trimEnd();
  } catch {
    return "(no log)";
  }
}

/** The one line of a daemon log that says why it stopped: its own error line if there is one, else the last line. */
function failureLine(log: string): string {
  const lines = log.split("\n").map((l) => l.trim()).filter(Boolean);
  const own = lines.findLast((l) => l.startsWith("mapper browser start: "));
  return (own ?? lines.at(-1) ?? "(empty log)").replace(/^mapper browser start: /, "");
}

async function detach(opts: StartOptions, dir: string, wait: WaitFor, io: Io): Promise<number> {
  // Fail here, not in the background, when there is no browser to run.
  await findBrowser(opts.browser, io.env);
  const logs = join(io.home, ".mapper", "logs");
  const logFile = join(logs, `${await projectKey(dir)}-daemon.log`);
  try {
    await privateDir(logs);
    // 0600, also when an older release left it 0644: the log names the profile and every page's console notes.
    await Deno.writeTextFile(logFile, "", { mode: 0o600 });
    await Deno.chmod(logFile, 0o600).catch(() => {});
  } catch (err: unknown) {
    throw new FileError(`cannot write the daemon log "${logFile}": ${describe(err)}`, {
      hint: "make ~/.mapper/logs writable (or set HOME to a writable directory)",
    });
  }
  const child = new Deno.Command(Deno.execPath(), {
    args: selfCommand(daemonArgs(opts, dir, logFile, io)),
    cwd: io.cwd,
    stdin: opts.url ? "piped" : "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  if (opts.url) {
    const secrets: StartSecrets = { url: opts.url, allowSchemes: [...(opts.allowSchemes ?? [])] };
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(JSON.stringify(secrets))).catch(() => {});
    await writer.close().catch(() => {});
  }
  let exited: Deno.CommandStatus | undefined;
  child.status.then((s) => (exited = s), () => {});
  const deadline = Date.now() + DETACH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    if (exited) {
      throw new SessionError(
        `the session daemon exited with code ${exited.code} before it was ready: ${failureLine(await tail(logFile))}`,
        { hint: `read its log "${logFile}"` },
      );
    }
    const info = readSession(dir);
    if (!info || "unreadable" in info || info.daemonPid !== child.pid) continue;
    if (await handshake(info) !== undefined) continue;
    child.unref();
    const session = await openSession(dir, io);
    const waited = session ? await waitForFirstPage(session, opts.url, wait, io) : "";
    io.stdout.write(
      [
        `● detached  http://127.0.0.1:${info.port}  (daemon pid ${info.daemonPid}, chromium pid ${info.chromiumPid}${
          info.headless ? ", headless" : ""
        })`,
        `  log:  ${logFile}`,
        ...(waited ? [waited] : []),
        `  The daemon runs in the background; stop it with '${stopCommand(opts.dir, io.cwd)}'.`,
        "",
      ].join("\n"),
    );
    return 0;
  }
  try {
    Deno.kill(child.pid, "SIGTERM");
  } catch {
    // gone
  }
  throw new SessionError(
    `the session daemon did not answer within ${DETACH_TIMEOUT_MS / 1000} s; its log ends with: ${
      failureLine(await tail(logFile))
    }`,
    { hint: `read its log "${logFile}", then run 'mapper browser stop' if it is still running` },
  );
}

function fileIo(io: Io, path: string): Io {
  const file = Deno.openSync(path, { write: true, append: true, create: true });
  const encoder = new TextEncoder();
  const sink: Sink = {
    write(text: string) {
      let bytes = encoder.encode(text);
      while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
    },
  };
  return withSinks(io, sink, sink);
}

/** The start URL and schemes a detached daemon's parent wrote on its standard input ({@linkcode StartSecrets}). */
async function readStartSecrets(io: Io): Promise<{ url?: string; allowSchemes?: string[] }> {
  let v: StartSecrets;
  try {
    const bytes = await readAllCapped(io.stdin(), START_STDIN_MAX, () => new Error("too large"));
    v = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err: unknown) {
    throw new SessionError(`cannot read the start URL from standard input: ${describe(err)}`, {
      hint: "--start-stdin is for 'mapper browser start --detach' itself; use --url",
    });
  }
  const out: { url?: string; allowSchemes?: string[] } = {};
  if (typeof v?.url === "string") out.url = v.url;
  if (Array.isArray(v?.allowSchemes)) out.allowSchemes = allowedSchemes(v.allowSchemes);
  return out;
}

/** Runs `mapper browser start`. */
export async function runBrowserStart(cmd: StartCommandOptions, io: Io): Promise<number> {
  const wait = cmd.wait ?? "load";
  if (cmd.url !== undefined && !URL.canParse(cmd.url)) {
    throw new UsageError(`--url ${JSON.stringify(escapeControls(cmd.url))} is not an absolute URL`, {
      hint: "include the scheme, e.g. --url https://example.com/",
    });
  }
  if (cmd.startStdin) cmd = { ...cmd, ...await readStartSecrets(io) };
  cmd = { ...cmd, allowSchemes: schemesOption(cmd.allowSchemes) };
  assertOpenable(cmd.url, cmd.allowSchemes ?? []);
  // The re-run daemon of --detach is always given the --dir its parent chose, so it does not walk again.
  const { dir, shown } = startDir(cmd.dir, io);
  const { startStdin: _stdin, ...rest } = cmd;
  const opts: StartOptions = { ...rest, dir: shown };
  await prepareCorpusDir(dir, shown);
  trustedCorpusDir(dir); // also one just created: inside a folder another user controls it is not ours to use
  if (opts.logFile) {
    const logIo = fileIo(io, opts.logFile);
    try {
      return await runDaemon(opts, logIo);
    } catch (err: unknown) {
      logIo.stderr.write(`mapper browser start: ${describe(err)}\n`);
      throw err;
    }
  }
  const live = await openSession(dir, io);
  if (live) {
    const url = opts.url ?? "about:blank";
    const tab = escapeControls(await openTab(live, url, opts.allowSchemes ?? []));
    io.stdout.write(
      [
        `● tab  ${tab}`,
        `  A session was already running (http://127.0.0.1:${live.info.port}); opened a new tab${
          opts.url ? ` on ${escapeControls(url)}` : ""
        }.`,
        `  Filter its capture with --tab ${tab.slice(0, 8)} on 'mapper console list' / 'mapper network list'.`,
        "",
      ].join("\n"),
    );
    return 0;
  }
  if (opts.detach) return await detach(opts, dir, wait, io);
  return await runDaemon(opts, io);
}
