/**
 * Helpers of the real-Chromium tests: find the browser (or skip loudly), start a detached session on port 0 with
 * its own HOME and profile, query the daemon, wait for conditions, and make sure nothing survives a test.
 *
 * @module
 */
import { delimiter, join } from "node:path";
import { tmpdir } from "node:os";
import { baseEnv, type CliResult, mapperCommand, runMapper, type TempDir, tempDir } from "../_helpers.ts";

const NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

function findBrowserSync(): string | undefined {
  const fromEnv = Deno.env.get("MAPPER_BROWSER");
  if (fromEnv) return fromEnv;
  for (const dir of (Deno.env.get("PATH") ?? "").split(delimiter)) {
    for (const name of NAMES) {
      try {
        if (Deno.statSync(join(dir, name)).isFile) return join(dir, name);
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** The Chromium binary the tests use, or `undefined` (tests are then skipped, unless MAPPER_REQUIRE_BROWSER=1). */
export const BROWSER: string | undefined = findBrowserSync();

/** Whether a missing browser must fail the run instead of skipping (`.ci/run` sets it). */
export const REQUIRE_BROWSER: boolean = Deno.env.get("MAPPER_REQUIRE_BROWSER") === "1";

const SKIP_MARKER = "mapper-browser-tests-skipped-";

/**
 * Prints the skip line once per `deno test` run. Every test file is evaluated in its own isolate, but all of them
 * (also with `--parallel`) live in one process: a marker file named after that pid, created atomically, elects the
 * one file that speaks. Markers of earlier runs (dead pids) are removed on the way.
 */
function sayOnce(line: string): void {
  const dir = tmpdir();
  try {
    Deno.openSync(join(dir, `${SKIP_MARKER}${Deno.pid}`), { write: true, createNew: true }).close();
  } catch {
    return; // another file of this run already said it (or the temp dir is unusable: stay quiet)
  }
  try {
    for (const e of Deno.readDirSync(dir)) {
      const pid = e.name.startsWith(SKIP_MARKER) ? Number(e.name.slice(SKIP_MARKER.length)) : NaN;
      if (Deno.build.os === "linux" && Number.isInteger(pid) && pid !== Deno.pid && !alive(pid)) {
        Deno.removeSync(join(dir, e.name));
      }
    }
  } catch {
    // best effort
  }
  // deno-lint-ignore no-console
  console.error(line);
}

/**
 * Whether the real-browser tests must be skipped. Without a browser it prints ONE loud line for the whole run;
 * with MAPPER_REQUIRE_BROWSER=1 it returns false and {@linkcode requireBrowser} fails every such test instead.
 */
export function skipBrowserTests(): boolean {
  if (BROWSER || REQUIRE_BROWSER) return false;
  sayOnce(
    "!!! SKIPPING the real-browser tests: no Chromium found (set MAPPER_BROWSER or put chromium on PATH; MAPPER_REQUIRE_BROWSER=1 makes this a failure) !!!",
  );
  return true;
}

/** The browser binary, or a clear failure (only reached with MAPPER_REQUIRE_BROWSER=1 and no browser). */
export function requireBrowser(): string {
  if (BROWSER) return BROWSER;
  throw new Error(
    "MAPPER_REQUIRE_BROWSER=1 but no Chromium found: set MAPPER_BROWSER or put chromium/google-chrome on PATH",
  );
}

/** Flags every test session passes to Chromium. */
export const TEST_FLAGS: string[] = ["--disable-popup-blocking", "--mute-audio"];

/** A test session: its dirs, env, and the daemon's port and pids. */
export interface TestSession extends AsyncDisposable {
  readonly tmp: TempDir;
  /** The working directory (its `.mapper/` holds the session file). */
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly port: number;
  readonly daemonPid: number;
  readonly chromiumPid: number;
  /** The session secret (from the 0600 session file): the `Authorization: Bearer` credential of the daemon API. */
  readonly secret: string;
  /** The daemon's log file (detached sessions log to `~/.mapper/logs/<project>-<hash>-daemon.log`). */
  readonly log: string;
  /** What `browser start --detach` printed (it exited 0). */
  readonly started: CliResult;
  /** Runs mapper in this session's cwd and env. */
  run(args: string[]): Promise<CliResult>;
  /** GETs a daemon API path as JSON. */
  api<T>(path: string): Promise<T>;
}

/** Whether a pid is alive (not a zombie). */
export function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z";
  } catch {
    return false;
  }
}

/** Waits until `fn` returns a truthy value (polling every 100 ms), or throws after `ms` with `what`. */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err: unknown) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ""}`);
}

/** Kills a pid if it is still alive (test cleanup only; by pid, never by name). */
export function reap(pid: number): void {
  if (!alive(pid)) return;
  try {
    Deno.kill(pid, "SIGKILL");
  } catch {
    // gone
  }
}

/**
 * Ends a detached session as its session file describes it: the daemon's own shutdown (what `browser stop` asks for)
 * without a mapper process to start per session; SIGKILL only for what is still there after a grace period.
 */
export async function endSession(
  info: { daemonPid: number; chromiumPid: number; port: number; secret: string },
): Promise<void> {
  const gone = () => !alive(info.daemonPid) && !alive(info.chromiumPid);
  if (alive(info.daemonPid)) {
    await fetch(`http://127.0.0.1:${info.port}/devtools/shutdown`, {
      method: "POST",
      headers: { authorization: `Bearer ${info.secret}` },
      signal: AbortSignal.timeout(5000),
    }).then((r) => r.body?.cancel(), () => {});
    await waitFor("the session to shut down", gone, 5000).catch(() => {});
  }
  reap(info.daemonPid);
  reap(info.chromiumPid);
  await waitFor("the session's processes to end", gone, 5000).catch(() => {});
}

/**
 * Starts a detached session (`browser start --detach --port 0`) in a fresh temp dir with its own HOME; the files of
 * `corpus` (one folder, or several whose file names differ) are its `.mapper/`.
 */
export async function startSession(extra: string[] = [], corpus?: string | readonly string[]): Promise<TestSession> {
  const browser = requireBrowser();
  const tmp = await tempDir("mapper-browser-");
  const cwd = tmp.join("site");
  await Deno.mkdir(join(cwd, ".mapper"), { recursive: true });
  for (const dir of typeof corpus === "string" ? [corpus] : corpus ?? []) {
    for await (const e of Deno.readDir(dir)) {
      if (!e.isFile) continue;
      const to = join(cwd, ".mapper", e.name);
      // Two folders with a file of one name would silently lose one of them.
      if (await Deno.lstat(to).then(() => true, () => false)) throw new Error(`${e.name}: in two corpus folders`);
      await Deno.copyFile(join(dir, e.name), to);
    }
  }
  const env: Record<string, string> = { HOME: tmp.join("home"), TMPDIR: tmp.path };
  delete (env as Record<string, string | undefined>).DISPLAY;
  const run = (args: string[]) => runMapper(args, { cwd, env });
  const flags = TEST_FLAGS.map((f) => `--browser-flag=${f}`);
  const res = await run([
    "browser",
    "start",
    "--detach",
    "--headless",
    "--port",
    "0",
    "--profile",
    tmp.join("profile"),
    "--browser",
    browser,
    ...flags,
    ...extra,
  ]);
  if (res.code !== 0) {
    await tmp[Symbol.asyncDispose]();
    throw new Error(`browser start failed (${res.code}):\n${res.stdout}\n${res.stderr}`);
  }
  const info = JSON.parse(await Deno.readTextFile(join(cwd, ".mapper", ".session")));
  const session: TestSession = {
    tmp,
    cwd,
    env,
    port: info.port,
    daemonPid: info.daemonPid,
    chromiumPid: info.chromiumPid,
    secret: info.secret,
    log: info.log,
    started: res,
    run,
    async api<T>(path: string): Promise<T> {
      const r = await fetch(`http://127.0.0.1:${info.port}${path}`, {
        headers: { authorization: `Bearer ${info.secret}` },
      });
      if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      return (await r.json()) as T;
    },
    async [Symbol.asyncDispose]() {
      await endSession(info);
      await tmp[Symbol.asyncDispose]();
    },
  };
  return session;
}

/** Console texts currently buffered. */
export async function consoleTexts(s: TestSession): Promise<string[]> {
  const p = await s.api<{ entries: Array<{ text: string }> }>("/devtools/console");
  return p.entries.map((e) => e.text);
}

/** Waits for a console message whose text equals `text`. */
export function waitForLog(s: TestSession, text: string, ms = 15_000): Promise<true> {
  return waitFor(`console message "${text}"`, async () => (await consoleTexts(s)).includes(text) || undefined, ms);
}

/** Opens a tab on `url` through `browser start` (the "second start opens a tab" path); returns the tab id. */
export async function openTab(s: TestSession, url: string): Promise<string> {
  const res = await s.run(["browser", "start", "--url", url]);
  if (res.code !== 0) throw new Error(`opening a tab failed:\n${res.stdout}\n${res.stderr}`);
  const m = /● tab {2}(\S+)/.exec(res.stdout);
  if (!m?.[1]) throw new Error(`no tab id in:\n${res.stdout}`);
  return m[1];
}

/**
 * For benches (which cannot await teardown): on unload, SIGTERM the session's daemon (it stops Chromium and removes
 * its session file), wait for both to end, then remove the temp dir.
 */
export function stopOnUnload(session: TestSession): void {
  globalThis.addEventListener("unload", () => {
    try {
      Deno.kill(session.daemonPid, "SIGTERM");
    } catch {
      // already gone
    }
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (alive(session.daemonPid) || alive(session.chromiumPid))) {
      // brief busy wait: unload handlers cannot await
    }
    try {
      Deno.removeSync(session.tmp.path, { recursive: true });
    } catch {
      // best effort
    }
  });
}

/** Runs mapper in the session's directory and environment, keeping the raw output (benches time whole processes). */
export function runRaw(session: TestSession, args: string[]): Promise<Deno.CommandOutput> {
  return new Deno.Command(Deno.execPath(), {
    args: mapperCommand(args),
    cwd: session.cwd,
    env: { ...baseEnv(session.env.HOME!) },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
}

/**
 * One start of a session on `/first-fetch.html` (a page that calls `fetch()` as its head is parsed), then whether
 * `mapper network list` holds that first fetch once the page says it finished: the collector must be on the tab
 * before its first byte. Used by the browser test (a few starts) and `bench/first_request_stress.ts` (many).
 * `list` runs the listing (default: the session's own subprocess; a test with several starts passes a runner that
 * spawns only the first); the page's "fetched" title is awaited on the daemon's status, not a mapper process a poll.
 */
export async function firstFetchCaptured(
  origin: string,
  list?: (s: TestSession, args: string[]) => Promise<CliResult>,
): Promise<{ captured: boolean; listing: string }> {
  await using s = await startSession(["--url", `${origin}/first-fetch.html`]);
  await waitFor(
    "the page's own fetch to finish",
    async () =>
      (await s.api<{ tabs: Array<{ title: string }> }>("/devtools/status")).tabs.some((t) => t.title === "fetched"),
  );
  const listed = await (list ? list(s, ["network", "list"]) : s.run(["network", "list"]));
  return { captured: listed.stdout.includes("/api/data?via=first-fetch"), listing: listed.stdout };
}
