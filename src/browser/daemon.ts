/**
 * The session daemon: one process running Chromium (the only client of its DevTools pipe), the collector, and one
 * HTTP server on `127.0.0.1` that answers the corpus paths (`/mapper`, `/mapper/version`, `/mapper/diagnostics`, the
 * same handler as `serve-mapper`) and the devtools API (`/devtools/*`, see `daemon_api.ts`), every request passing one guard
 * first (`src/http_guard.ts`: loopback Host, no foreign Origin, the session secret but for the corpus). It writes the
 * session file once everything answers, prints a ready block, and runs until SIGINT/SIGTERM, `POST /devtools/shutdown`, or until Chromium exits;
 * either way it stops Chromium, closes the server and removes the session file. Neither the secret nor any browser
 * endpoint is ever printed or logged.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { cacheHome, type Io } from "../io.ts";
import { describe, EXIT_INTERRUPTED, FileError, SessionError } from "../errors.ts";
import { escapeControls } from "../terminal.ts";
import { VERSION } from "../version.ts";
import { siteName } from "../corpus/find.ts";
import type { CdpConnection } from "./cdp.ts";
import { chromiumArgs, findBrowser, launchChromium, type LaunchedChromium } from "./chromium.ts";
import { pidAlive, processStartTime } from "./process.ts";
import { Collector } from "./collector.ts";
import { ensureExtension, injectPort } from "./extension.ts";
import { compileMatcher, type CorpusMatcher } from "./traffic_match.ts";
import { type FieldDefs, fieldDefs } from "./fields.ts";
import { devtoolsHandler } from "./_http.ts";
import { type Access, guarded, newSecret } from "../http_guard.ts";
import { privateDir, projectKey } from "./_private.ts";
import { PageEngine, PageEvents, pageHandler } from "../see/mod.ts";
import { trustedCorpusDir } from "../corpus/find.ts";
import { schemeRefusal } from "./schemes.ts";
import { removeSession, type SessionInfo, sessionPath, writeSession } from "./session_file.ts";

/** Options of `mapper browser start` (also what the detached daemon is re-run with). */
export interface StartOptions {
  browser?: string | undefined;
  profile?: string | undefined;
  headless: boolean;
  url?: string | undefined;
  /** Schemes besides http(s) the start URL may have (`--allow-scheme`; see `schemes.ts`). */
  allowSchemes?: readonly string[] | undefined;
  browserFlags: string[];
  port: number;
  dir: string;
  detach: boolean;
  /** Set on the re-run daemon of `--detach`: where its output goes. */
  logFile?: string | undefined;
}

/** How many ports above `--port` the daemon tries when it is busy. */
export const PORT_SLIDE = 100;

/** Binds the HTTP server on 127.0.0.1, sliding upwards from `port` when busy (`0` = any free port). */
export function listenSliding(port: number, handler: Deno.ServeHandler): Deno.HttpServer<Deno.NetAddr> {
  const last = port === 0 ? 0 : Math.min(65535, port + PORT_SLIDE - 1);
  for (let p = port; p <= last; p++) {
    try {
      return Deno.serve({ hostname: "127.0.0.1", port: p, onListen: () => {} }, handler);
    } catch (err: unknown) {
      if (!(err instanceof Deno.errors.AddrInUse)) throw err;
    }
  }
  throw new SessionError(`ports ${port}–${last} on 127.0.0.1 are all busy`, {
    hint: "pass --port 0 for any free port",
  });
}

/** The command that stops the session of corpus directory `dir`: `--dir` only when it is not the default. */
export function stopCommand(dir: string, cwd: string): string {
  return resolve(cwd, dir) === resolve(cwd, ".mapper") ? "mapper browser stop" : `mapper browser stop --dir ${dir}`;
}

/**
 * Whether Chromium should run headless, and whether that was decided for lack of a display. Only X11/Wayland
 * systems (Linux, the BSDs) announce a display in the environment; macOS and Windows always have one.
 */
export function headlessMode(
  flag: boolean,
  env: (name: string) => string | undefined,
  os: typeof Deno.build.os = Deno.build.os,
): { headless: boolean; auto: boolean } {
  if (flag) return { headless: true, auto: false };
  const x11 = os !== "darwin" && os !== "windows" && os !== "android";
  const noDisplay = x11 && !env("DISPLAY") && !env("WAYLAND_DISPLAY");
  return { headless: noDisplay, auto: noDisplay };
}

/**
 * The default profile directory of corpus directory `dir`: `~/.mapper/profiles/<project>-<hash>`, keyed by the
 * corpus directory's real path (`x/app` and `y/app` get different profiles).
 */
export async function defaultProfile(io: Io, dir: string): Promise<string> {
  return join(io.home, ".mapper", "profiles", await projectKey(dir));
}

async function stopChromium(chromium: LaunchedChromium): Promise<void> {
  if (!pidAlive(chromium.pid)) {
    await chromium.exited.catch(() => {});
    return;
  }
  chromium.kill("SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = await Promise.race([
    chromium.exited.then(() => true, () => true),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 3000))),
  ]);
  clearTimeout(timer);
  if (!done) {
    chromium.kill("SIGKILL");
    await chromium.exited.catch(() => {});
  }
}

/** `mkdir -p` that reports a path it cannot create (a file in the way, a read-only place) as a {@linkcode FileError}. */
async function makeDir(abs: string, shown: string, what: string, hint: string, mode?: number): Promise<void> {
  try {
    await Deno.mkdir(abs, mode === undefined ? { recursive: true } : { recursive: true, mode });
  } catch (err: unknown) {
    throw new FileError(`cannot create ${what} ${JSON.stringify(escapeControls(shown))}: ${describe(err)}`, { hint });
  }
}

/**
 * Makes sure the corpus directory exists: creates it when its parent exists; refuses (one line, nothing created)
 * when the parent is missing, so a mistyped `--dir` never builds a tree of directories.
 */
export async function prepareCorpusDir(dir: string, shown: string): Promise<void> {
  try {
    if ((await Deno.stat(dir)).isDirectory) return;
    throw new FileError(`--dir ${JSON.stringify(escapeControls(shown))} is not a directory`, {
      hint: "pass --dir <path> naming a directory",
    });
  } catch (err: unknown) {
    if (!(err instanceof Deno.errors.NotFound)) {
      if (err instanceof FileError) throw err;
      throw new FileError(`cannot use --dir ${JSON.stringify(escapeControls(shown))}: ${describe(err)}`, {
        hint: "pass --dir <path> naming a directory",
      });
    }
  }
  try {
    await Deno.mkdir(dir);
  } catch (err: unknown) {
    const parentMissing = err instanceof Deno.errors.NotFound;
    throw new FileError(
      parentMissing
        ? `the folder holding --dir ${JSON.stringify(escapeControls(shown))} does not exist (${
          JSON.stringify(escapeControls(dirname(dir)))
        })`
        : `cannot create the corpus directory ${JSON.stringify(escapeControls(shown))}: ${describe(err)}`,
      {
        hint: parentMissing
          ? "create it first, or pass --dir inside an existing folder"
          : "pass --dir <path> naming a writable directory",
      },
    );
  }
}

/** Runs the daemon in this process until it is stopped; returns the exit code. */
export async function runDaemon(opts: StartOptions, io: Io): Promise<number> {
  // Stopped by a signal (listened to from now on: a signal during start-up must still stop Chromium cleanly) or by
  // `POST /devtools/shutdown`.
  const shutdown = new AbortController();
  const stopSignal = AbortSignal.any([io.signal, shutdown.signal]);
  const dir = resolve(io.cwd, opts.dir);
  const site = siteName(io.cwd);
  await prepareCorpusDir(dir, opts.dir);
  // The daemon publishes the corpus on the loopback: checked here too, however it was started.
  trustedCorpusDir(dir);
  const binary = await findBrowser(opts.browser, io.env);
  const key = await projectKey(dir);
  const profile = opts.profile ? resolve(io.cwd, opts.profile) : await defaultProfile(io, dir);
  // ~/.mapper and its profiles are private, also when an older release made them 0755.
  await privateDir(join(io.home, ".mapper")).catch(() => {});
  if (!opts.profile) await privateDir(join(io.home, ".mapper", "profiles")).catch(() => {});
  await makeDir(
    profile,
    opts.profile ?? profile,
    "browser profile",
    "pass --profile <dir> naming a writable directory",
    0o700,
  );
  await Deno.chmod(profile, 0o700).catch(() => {});
  const secret = newSecret();
  const sessionId = newSecret().slice(0, 32);
  const mode = headlessMode(opts.headless, io.env);
  if (mode.auto) io.stderr.write("[browser] no display ($DISPLAY/$WAYLAND_DISPLAY unset): running headless\n");

  const ext = await ensureExtension(io.home);
  if (ext.installed) io.stderr.write(`[browser] installed extension v${ext.version} → ${ext.dir}\n`);

  // Lenient: a missing or broken corpus is logged and served empty, and picked up as soon as it is fixed.
  const { startCorpusService } = await import("../corpus/mod.ts");
  await using corpus = await startCorpusService({
    dir,
    site,
    log: (line) => io.stderr.write(`${line}\n`),
    logPrefix: "[browser]",
    lenient: true,
    startCacheHome: cacheHome(io),
  });
  let matcherVersion: unknown = null;
  let matcher: CorpusMatcher = compileMatcher(undefined);
  let fields: FieldDefs = fieldDefs(undefined);
  const currentMatcher = () => {
    const wire = corpus.current().wire;
    if (wire !== matcherVersion) {
      matcher = compileMatcher(wire);
      fields = fieldDefs(wire);
      matcherVersion = wire;
    }
    return matcher;
  };

  // The server binds first so a busy port fails before Chromium starts; /devtools answers 503 until ready. Every
  // request passes the guard first, whatever its path (routes added later included).
  let api: ((req: Request) => Promise<Response> | undefined) | undefined;
  const access: Access = { hosts: [], secret, extensionOrigin: ext.origin };
  const server = listenSliding(
    opts.port,
    guarded(() => access, async (req) => {
      const fromCorpus = corpus.handle(req);
      if (fromCorpus) return fromCorpus;
      if (new URL(req.url).pathname.startsWith("/devtools")) {
        const answer = api?.(req);
        if (answer) return await answer;
        return new Response(
          JSON.stringify({ schema: 1, error: "the session is still starting", code: "starting" }) + "\n",
          {
            status: 503,
            headers: { "content-type": "application/json; charset=utf-8" },
          },
        );
      }
      return new Response("not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
    }),
  );
  const port = server.addr.port;
  access.hosts = [`127.0.0.1:${port}`]; // what the session file and the extension name, nothing else
  io.stderr.write(`[browser] listening on http://127.0.0.1:${port}\n`);

  let chromium: LaunchedChromium | undefined;
  let cdp: CdpConnection | undefined;
  try {
    const logs = join(io.home, ".mapper", "logs");
    await privateDir(logs).catch(() => {});
    chromium = await launchChromium(
      binary,
      chromiumArgs({
        profile,
        headless: mode.headless,
        extensionDir: ext.dir,
        extraFlags: opts.browserFlags,
        root: Deno.build.os !== "windows" && Deno.uid() === 0,
      }),
      undefined,
      stopSignal,
      join(logs, `${key}-chromium.log`),
    );
    const interrupted = () => {
      io.stderr.write("mapper browser start: interrupted before the session was ready\n");
      return EXIT_INTERRUPTED;
    };
    if (stopSignal.aborted) return interrupted();
    cdp = chromium.cdp;
    const collector = new Collector(cdp, { log: (line) => io.stderr.write(`${line}\n`), now: io.now });
    // Before the collector attaches: every tab, the first one too, gets the Page domain (dialogs, lifecycle).
    const pageEvents = new PageEvents(cdp);
    await collector.start();
    const conn = cdp;
    const proc = chromium;
    const tabs = () => collector.tabs();
    api = devtoolsHandler({
      collector,
      matcher: currentMatcher,
      status: () => ({ version: VERSION, daemonPid: Deno.pid, chromiumPid: proc.pid, port }),
      identity: () => ({ sessionId, daemonPid: Deno.pid, chromiumPid: proc.pid, port, version: VERSION }),
      shutdown: () => shutdown.abort(),
      fields: () => {
        currentMatcher();
        return fields;
      },
      openTab: (url) => collector.openTab(url),
      tabs,
      page: pageHandler(
        new PageEngine({
          send: conn.send.bind(conn),
          tabs,
          session: async (targetId) => {
            const s = await collector.waitForSession((x) => x.targetId === targetId, 5000);
            await collector.ready(s.id);
            return s.id;
          },
          corpus: () => corpus.current().wire,
          fresh: () => corpus.fresh(),
          events: pageEvents,
        }),
      ),
    });

    const firstPage = await collector.waitForSession((s) => s.type === "page", 5000).catch(() => undefined);
    // Clients trust the file by this (the port is bound by now, and stays bound until the file is removed).
    const daemonStart = processStartTime(Deno.pid);
    const info: SessionInfo = {
      schema: 2,
      sessionId,
      secret,
      daemonPid: Deno.pid,
      ...(daemonStart === undefined ? {} : { daemonStart }),
      chromiumPid: chromium.pid,
      port,
      profile,
      headless: mode.headless,
      startedAt: new Date(io.now()).toISOString(),
      version: VERSION,
      log: opts.logFile ?? null,
    };
    if (stopSignal.aborted) return interrupted();
    await writeSession(dir, info);

    if (ext.hasServiceWorker) {
      injectPort(conn, collector, port, ext.origin).then(
        () => io.stderr.write(`[browser] told the extension the port (${port})\n`),
        (err: unknown) =>
          io.stderr.write(
            `[browser] warning: could not tell the extension the port: ${
              err instanceof Error ? err.message : String(err)
            }\n`,
          ),
      );
    }
    const refused = opts.url ? schemeRefusal(opts.url, opts.allowSchemes) : undefined;
    if (refused) io.stderr.write(`[browser] warning: ${refused.message} — ${refused.hint}\n`);
    if (opts.url && firstPage && !refused) {
      await collector.openTab(opts.url, firstPage.id).catch((err: unknown) =>
        io.stderr.write(
          `[browser] warning: could not open "${opts.url}": ${err instanceof Error ? err.message : String(err)}\n`,
        )
      );
    }

    io.stdout.write(
      [
        `● ready  http://127.0.0.1:${port}  (daemon pid ${Deno.pid}, chromium pid ${chromium.pid}${
          mode.headless ? ", headless" : ""
        })`,
        `  corpus:   http://127.0.0.1:${port}/mapper`,
        `  devtools: http://127.0.0.1:${port}/devtools/status  (read it with 'mapper console list' / 'mapper network list')`,
        `  profile:  ${profile}`,
        `  session:  ${sessionPath(dir)}`,
        `  stop:     ${opts.logFile ? "" : "Ctrl-C here, or "}'${stopCommand(opts.dir, io.cwd)}'`,
        "",
      ].join("\n"),
    );

    const why = await Promise.race([
      new Promise<"signal">((r) => {
        if (stopSignal.aborted) r("signal");
        stopSignal.addEventListener("abort", () => r("signal"), { once: true });
      }),
      chromium.exited.then(() => "exited" as const),
      conn.closed.then(() => "exited" as const),
    ]);
    io.stderr.write(why === "signal" ? "[browser] stopping…\n" : "[browser] Chromium exited — session ended\n");
    return 0;
  } finally {
    cdp?.close();
    if (chromium) await stopChromium(chromium);
    await server.shutdown().catch(() => {});
    await removeSession(dir, sessionId);
  }
}
