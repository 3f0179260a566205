/**
 * `mapper serve-mapper`: compile `.mapper/`, serve it on `/mapper` and `/mapper/version`, recompile on change.
 *
 * Output: the one "serving … on <url>" line goes to stdout once the port is bound (it is the command's result, and
 * scripts read the URL from it); every later log line (recompiles, compile errors, diagnostics, stop) goes to
 * stderr. With `--json-log` both are one JSON object per line.
 *
 * @module
 */
import { resolve } from "../path.ts";
import { cacheHome, type Io } from "../io.ts";
import { DataError, FileError, NetworkError } from "../errors.ts";
import { CorpusLoadError, type Diagnostic, formatDiagnostic } from "./diagnostic.ts";
import { startCorpusService } from "./service.ts";
import { siteName, trustedCorpusDir } from "./find.ts";
import { type Access, extensionId, guarded, hostsFor } from "../http_guard.ts";
import { EXTENSION_MANIFEST } from "../extension_manifest.ts";

/** The bundled extension's origin (its manifest `key` fixes the id): the one Origin the corpus health answers. */
async function bundledExtensionOrigin(): Promise<string | undefined> {
  try {
    const key = JSON.parse(EXTENSION_MANIFEST).key;
    return typeof key === "string" ? `chrome-extension://${await extensionId(key)}` : undefined;
  } catch {
    return undefined;
  }
}
import type { CorpusService } from "./service.ts";

/** Options of {@linkcode runServeMapper} (the command's flags). */
export interface ServeMapperOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Address to bind. */
  host: string;
  /** Corpus directory, relative to `io.cwd` unless absolute. */
  dir: string;
  /** One JSON object per log line. */
  jsonLog: boolean;
  /**
   * Start from the start cache of the last run and keep one for the next (`~/.mapper/cache/corpus/`; see
   * `start_cache.ts`). Default true; `--no-cache` turns it off.
   */
  cache?: boolean;
  /** Recompile delay (tests); default 200 ms. */
  debounceMs?: number;
}

const PREFIX = "[serve-mapper]";

/**
 * How long after the "serving" line the work the first answers do not need is done: the checks across files and the
 * log of the problems found (`deferChecks`), then the arming of the watch (`deferWatch`), which walks the tree and
 * opens the platform's watch. Tens of milliseconds each on a large corpus; done later, the answers clients ask for
 * right away go out first. An edit saved before then is not lost: once armed, the service compares the files with
 * what it loaded. A stop before then still logs the problems.
 */
const AFTER_SERVING_MS = 250;

/** Runs the server until `io.signal` aborts; returns the exit code (0 after a clean stop). */
export async function runServeMapper(opts: ServeMapperOptions, io: Io): Promise<number> {
  const signal = io.signal; // read first: installs the SIGINT/SIGTERM listeners before anything can block
  const absDir = resolve(io.cwd, opts.dir);
  // Paths in messages stay as the user wrote them when they resolve the same from the process's cwd.
  const dir = resolve(opts.dir) === absDir ? opts.dir : absDir;
  const label = `${opts.dir.replace(/[\\/]+$/, "")}/`;
  const site = siteName(io.cwd);

  try {
    const info = await Deno.stat(absDir);
    if (!info.isDirectory) {
      throw new FileError(`corpus path "${opts.dir}" is not a directory`, {
        hint: "pass the corpus directory with --dir <path>",
      });
    }
  } catch (err: unknown) {
    if (err instanceof FileError) throw err;
    if (err instanceof Deno.errors.NotFound) {
      throw new FileError(`no corpus directory "${opts.dir}" in "${io.cwd}"`, {
        hint:
          "pass --dir <path> to serve another directory, run 'mapper atlas add <slug>' to install a published corpus, or create it and add YAML files (see the mapper-authoring skill)",
      });
    }
    throw new FileError(`cannot read corpus directory "${opts.dir}": ${err instanceof Error ? err.message : err}`);
  }
  // Served to anyone on the loopback: never a directory another user controls.
  trustedCorpusDir(absDir);

  /** One log line as written: the text, or with `--json-log` one JSON object. */
  const logLine = (text: string, extra: Record<string, unknown> = {}): string => {
    if (!opts.jsonLog) return `${text}\n`;
    const message = text.startsWith(`${PREFIX} `) ? text.slice(PREFIX.length + 1) : text;
    const level = /^(compile error|watcher error|request error|error:)/.test(message)
      ? "error"
      : /^warning/.test(message)
      ? "warn"
      : "info";
    const recompiled = /^recompiled \(v(\d+)\)$/.exec(message);
    const event = recompiled ? { event: "recompiled", version: Number(recompiled[1]) } : {};
    return `${JSON.stringify({ time: new Date(io.now()).toISOString(), level, message, ...event, ...extra })}\n`;
  };
  const emit = (stream: "stdout" | "stderr", text: string, extra: Record<string, unknown> = {}) => {
    io[stream].write(logLine(text, extra));
  };
  /** Logs problems in one write (a large corpus has hundreds: one system call each would delay serving). */
  const logDiagnostics = (list: readonly Diagnostic[]) => {
    if (list.length === 0) return;
    io.stderr.write(list.map((d) => logLine(`${PREFIX} ${d.severity}: ${formatDiagnostic(d)} [${d.code}]`)).join(""));
  };

  /**
   * The problems of the last good compile (a recompile logs only the ones not among them), formatted when a recompile
   * first compares (not before serving).
   */
  let lastProblems: readonly Diagnostic[] = [];
  let lastFormatted: Set<string> | undefined;
  let service: CorpusService | undefined;
  const extensionOrigin = bundledExtensionOrigin(); // made while the corpus loads
  try {
    service = await startCorpusService({
      dir,
      site,
      now: io.now,
      debounceMs: opts.debounceMs ?? 200,
      deferWatch: true,
      deferChecks: true,
      startCacheHome: opts.cache === false ? undefined : cacheHome(io),
      log: (line) => {
        emit("stderr", line);
        if (line.startsWith(`${PREFIX} recompiled`) && service) {
          const diags = service.current().diagnostics;
          const formatted = diags.map(formatDiagnostic);
          // Only new problems are worth repeating on every save.
          const known = lastFormatted ??= new Set(lastProblems.map(formatDiagnostic));
          logDiagnostics(diags.filter((_, i) => !known.has(formatted[i]!)));
          lastFormatted = new Set(formatted);
        }
      },
    });
  } catch (err: unknown) {
    if (err instanceof CorpusLoadError) {
      for (const p of err.problems) io.stderr.write(`${formatDiagnostic(p)}\n`);
      const n = err.problems.length;
      throw new DataError(`cannot compile "${opts.dir}": ${n} ${n === 1 ? "problem" : "problems"} (listed above)`, {
        hint: "fix the YAML and run again",
      });
    }
    throw err;
  }
  await using svc = service;

  const stop = new AbortController();
  // The session daemon's guard (src/http_guard.ts): loopback Host names only, and no web page's Origin on the
  // corpus health (it names files by absolute path). Hosts are known once the port is bound.
  const access: Access = { hosts: [], secret: undefined, extensionOrigin: await extensionOrigin };
  let server: Deno.HttpServer;
  try {
    server = Deno.serve({
      hostname: opts.host,
      port: opts.port,
      signal: stop.signal,
      onListen: () => {},
      onError: (err) => {
        emit("stderr", `${PREFIX} request error: ${err instanceof Error ? err.message : String(err)}`);
        return new Response("internal error", { status: 500 });
      },
    }, guarded(() => access, (request) => svc.handle(request) ?? notFound(request)));
  } catch (err: unknown) {
    if (err instanceof Deno.errors.AddrInUse) {
      throw new NetworkError(`port ${opts.port} on ${opts.host} is already in use`, {
        hint: "stop the other server or pass another --port (--port 0 picks a free one)",
      });
    }
    throw new NetworkError(
      `cannot listen on ${opts.host}:${opts.port}: ${err instanceof Error ? err.message : String(err)}`,
      { hint: "check --host and --port" },
    );
  }
  const addr = server.addr as Deno.NetAddr;
  access.hosts = hostsFor(opts.host, addr.port);
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  const url = `http://${host}:${addr.port}/mapper`;
  const snap = svc.current();
  const { views, components } = snap;
  emit(
    "stdout",
    `${PREFIX} serving ${label} (${views} ${views === 1 ? "view" : "views"}, ${components} ${
      components === 1 ? "component" : "components"
    }) on ${url}`,
    { event: "serving", url, views, components, version: snap.version },
  );
  let reported = false;
  /** Logs the first compile's problems and their count (once, before any recompile can log its own). */
  const report = () => {
    if (reported) return;
    reported = true;
    const first = lastProblems = snap.diagnostics;
    logDiagnostics(first);
    const errors = first.filter((d) => d.severity === "error").length;
    const warnings = first.length - errors;
    emit(
      "stderr",
      `${PREFIX} validate: ${errors} ${errors === 1 ? "error" : "errors"}, ${warnings} ${
        warnings === 1 ? "warning" : "warnings"
      } (mapper validate for details; live at ${url}/diagnostics)`,
      { event: "validate", errors, warnings },
    );
  };
  const later = setTimeout(() => {
    report();
    svc.watch().catch((err: unknown) => {
      emit("stderr", `${PREFIX} watcher error: ${err instanceof Error ? err.message : String(err)}`);
    });
  }, AFTER_SERVING_MS);
  if (!signal.aborted) {
    await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  }
  clearTimeout(later);
  report();
  stop.abort();
  await server.finished;
  emit("stderr", `${PREFIX} stopped`);
  return 0;
}

function notFound(request: Request): Response {
  const { pathname } = new URL(request.url);
  const body = JSON.stringify({
    error: {
      code: "not_found",
      message: `no resource at "${pathname}"`,
      hint: "the corpus is at /mapper and its version at /mapper/version",
      status: 404,
    },
  });
  return new Response(body, {
    status: 404,
    headers: { "content-type": "application/json; charset=utf-8", "access-control-allow-origin": "*" },
  });
}
