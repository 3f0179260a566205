/**
 * The browser session behind the MCP server. The first tool that needs the browser makes sure one runs: the
 * running session of `--dir` is used as it is; without one, a session is started the way `mapper browser start
 * --detach` starts it (the same function). When the server stops, it stops exactly the session it started (checked
 * by the daemon pid in the session file) and never one it found running.
 *
 * @module
 */
import { resolve } from "../path.ts";
import { capture, type Io, withSinks } from "../io.ts";
import { SessionError } from "../errors.ts";
import { openSession, readSession, type SessionInfo } from "../browser/mod.ts";
import { trustedCorpusDir } from "../corpus/find.ts";

/** What the server was asked to start a session with (the `mapper mcp` flags). */
export interface SessionOptions {
  /** Corpus directory (`--dir`), as given. */
  dir: string;
  /** Whether Chromium runs headless. */
  headless: boolean;
  /** Browser executable to use. */
  browser?: string | undefined;
  /** Opened when the session starts, or in a new tab of a session that was already running. */
  url?: string | undefined;
  /** Daemon port of a session this server starts (slides up when busy). */
  port: number;
  /** Schemes besides http(s) the navigate and tabs tools (and `url`) may open (`--allow-scheme`). */
  allowSchemes: readonly string[];
}

/** Keeps (or starts) the session; dispose to stop what it started. */
export class SessionKeeper implements AsyncDisposable {
  readonly #opts: SessionOptions;
  readonly #io: Io;
  #pending: Promise<void> | undefined;
  /** Daemon pid of the session this server started, if it did. */
  #startedPid: number | undefined;
  /** Whether `--url` was already opened (once per server, not on every call). */
  #urlOpened = false;

  /** Creates a keeper; nothing starts until {@linkcode ensure}. */
  constructor(opts: SessionOptions, io: Io) {
    this.#opts = opts;
    this.#io = io;
  }

  /** Whether this server started the session it uses (and will stop it). */
  get started(): boolean {
    return this.#startedPid !== undefined;
  }

  /** Makes sure a usable session runs; concurrent callers share one start. */
  ensure(): Promise<void> {
    this.#pending ??= this.#ensure().finally(() => (this.#pending = undefined));
    return this.#pending;
  }

  async #ensure(): Promise<void> {
    const { runBrowserStart } = await import("../browser/start.ts");
    const dir = trustedCorpusDir(resolve(this.#io.cwd, this.#opts.dir));
    const log = (line: string) => this.#io.stderr.write(`[mcp] ${line}\n`);
    const out = capture();
    const quiet = withSinks(this.#io, out, this.#io.stderr);
    // Only a verified session is used (`verifySession`); a stale or planted file is reported and removed by it.
    const live = await openSession(dir, this.#io, log);
    if (live) {
      if (this.#opts.url !== undefined && !this.#urlOpened) {
        this.#urlOpened = true;
        await runBrowserStart(this.#startOptions(false), quiet);
        log(`using the running session (daemon pid ${live.info.daemonPid}); opened ${this.#opts.url} in a new tab`);
      }
      return;
    }
    this.#urlOpened = true;
    await runBrowserStart(this.#startOptions(true), quiet);
    const info = this.#sessionFile(dir);
    if (info === undefined) {
      throw new SessionError("the browser session started but its session file is missing", {
        hint: "check 'mapper browser status'",
      });
    }
    this.#startedPid = info.daemonPid;
    log(`started a browser session (daemon pid ${info.daemonPid}, port ${info.port}); it stops with this server`);
  }

  /** The session file of `dir`, when there is a readable one. */
  #sessionFile(dir: string): SessionInfo | undefined {
    const info = readSession(dir);
    return info === undefined || "unreadable" in info ? undefined : info;
  }

  #startOptions(detach: boolean) {
    return {
      browser: this.#opts.browser,
      profile: undefined,
      headless: this.#opts.headless,
      url: this.#opts.url,
      allowSchemes: this.#opts.allowSchemes,
      browserFlags: [],
      port: this.#opts.port,
      dir: this.#opts.dir,
      detach,
      logFile: undefined,
    };
  }

  /** Stops the session if this server started it and it is still that session; otherwise leaves it alone. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#pending?.catch(() => {});
    if (this.#startedPid === undefined) return;
    const dir = resolve(this.#io.cwd, this.#opts.dir);
    const info = this.#sessionFile(dir);
    if (info === undefined || info.daemonPid !== this.#startedPid) return;
    const { runBrowserStop } = await import("../browser/stop.ts");
    await runBrowserStop({ dir: this.#opts.dir }, withSinks(this.#io, capture(), this.#io.stderr));
    this.#startedPid = undefined;
  }
}
