/**
 * The I/O every command receives: streams, terminal facts, environment, home directory, clock, fetch and a
 * shutdown signal. Commands never touch `Deno.stdout`, `Deno.env` or the global `fetch` directly, so tests can run
 * them in-process with captured output, a temporary home and a fake clock.
 *
 * @module
 */

/** A text sink: stdout or stderr. Writes are synchronous so output order is exactly the call order. */
export interface Sink {
  /** Write text as-is (callers add their own newlines). */
  write(text: string): void;
  /**
   * Why writing failed (a full disk, an I/O error), once it has; later writes are dropped. A reader that went away
   * (EPIPE, `| head -1`) is not a failure. The top-level handler reports it once for every command.
   */
  failure?(): Error | undefined;
}

/** Everything a command's `run(opts, io)` may use to talk to the world. */
export interface Io {
  /** Standard output: the command's result. */
  readonly stdout: Sink;
  /** Standard error: diagnostics, progress, logs of long-running servers. */
  readonly stderr: Sink;
  /** Standard input as a byte stream (for `atlas validate -`). */
  readonly stdin: () => ReadableStream<Uint8Array>;
  /** Whether each stream is an interactive terminal (progress and colour only on a TTY; no silent wait on stdin). */
  readonly isTTY: { readonly stdin: boolean; readonly stdout: boolean; readonly stderr: boolean };
  /** Reads an environment variable; `undefined` when unset. */
  readonly env: (name: string) => string | undefined;
  /** The user's home directory (`~`), where `~/.mapper/` and `~/.agents/skills/` live. */
  readonly home: string;
  /** The working directory relative paths resolve against. */
  readonly cwd: string;
  /** Wall clock in Unix milliseconds. */
  readonly now: () => number;
  /** The fetch used for every outgoing HTTP request. */
  readonly fetch: typeof fetch;
  /** Aborted when the process is asked to stop (SIGINT/SIGTERM); long-running commands shut down on it. */
  readonly signal: AbortSignal;
}

/**
 * A sink over a Deno file resource that writes every byte before returning. It never throws: a reader that went
 * away (`mapper atlas list | head -1`) ends the output quietly; any other failure (`> /dev/full`: no space left)
 * is kept for {@linkcode Sink.failure} and the rest of the output is dropped, so no command crashes mid-write.
 * Exported for `main.ts`'s `version` fast path.
 */
export function fileSink(file: { writeSync(p: Uint8Array): number }): Sink {
  const encoder = new TextEncoder();
  let closed = false;
  let failed: Error | undefined;
  return {
    write(text: string): void {
      let bytes = encoder.encode(text);
      while (bytes.length > 0 && !closed) {
        try {
          bytes = bytes.subarray(file.writeSync(bytes));
        } catch (err: unknown) {
          closed = true;
          if (!(err instanceof Deno.errors.BrokenPipe)) failed = err instanceof Error ? err : new Error(String(err));
        }
      }
    },
    failure: () => failed,
  };
}

/** Returns an AbortSignal aborted on the first SIGINT or SIGTERM (where the platform has them). */
function shutdownSignal(): AbortSignal {
  const controller = new AbortController();
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT", "SIGBREAK"] : ["SIGINT", "SIGTERM"];
  const onSignal = () => {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
    controller.abort(new Error("interrupted"));
  };
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  return controller.signal;
}

/** The home directory from the environment: `HOME`, else `USERPROFILE` (Windows), else the working directory. */
export function homeFrom(env: (name: string) => string | undefined, cwd: string): string {
  return env("HOME") || env("USERPROFILE") || cwd;
}

/**
 * Where mapper may keep caches for the user (`~/.mapper/…`): the home directory when the environment names one (or a
 * test gave one), `undefined` when it fell back to the working directory — never write a cache into a project.
 */
export function cacheHome(io: Pick<Io, "env" | "home" | "cwd">): string | undefined {
  return io.env("HOME") || io.env("USERPROFILE") || io.home !== io.cwd ? io.home : undefined;
}

/**
 * The real process I/O. The shutdown signal installs its listeners lazily, only when a command reads it, so
 * short commands never keep the event loop alive.
 */
export function processIo(): Io {
  let signal: AbortSignal | undefined;
  const env = (name: string) => Deno.env.get(name);
  const cwd = Deno.cwd();
  return {
    stdout: fileSink(Deno.stdout),
    stderr: fileSink(Deno.stderr),
    stdin: () => Deno.stdin.readable,
    isTTY: { stdin: Deno.stdin.isTerminal(), stdout: Deno.stdout.isTerminal(), stderr: Deno.stderr.isTerminal() },
    env,
    home: homeFrom(env, cwd),
    cwd,
    now: () => Date.now(),
    fetch: globalThis.fetch.bind(globalThis),
    get signal() {
      signal ??= shutdownSignal();
      return signal;
    },
  };
}

/** Whether colour may be used on a stream: only on a TTY and never when `NO_COLOR` is set. */
export function colorEnabled(io: Io, stream: "stdout" | "stderr"): boolean {
  return io.isTTY[stream] && io.env("NO_COLOR") === undefined;
}

/** A captured sink for tests and for in-process composition. */
export interface CapturedSink extends Sink {
  /** Everything written so far. */
  text(): string;
}

/** Creates a sink that remembers what was written. */
export function capture(): CapturedSink {
  const parts: string[] = [];
  return {
    write(text: string) {
      parts.push(text);
    },
    text: () => parts.join(""),
  };
}

/** Options for {@linkcode testIo}. */
export interface TestIoOptions {
  env?: Record<string, string>;
  home?: string;
  cwd?: string;
  now?: () => number;
  fetch?: typeof fetch;
  stdin?: string;
  signal?: AbortSignal;
  tty?: boolean;
}

/** An in-memory Io for unit tests: captured stdout/stderr, fixed environment, optional fake clock and fetch. */
export function testIo(options: TestIoOptions = {}): Io & { stdout: CapturedSink; stderr: CapturedSink } {
  const env = options.env ?? {};
  const cwd = options.cwd ?? Deno.cwd();
  return {
    stdout: capture(),
    stderr: capture(),
    stdin: () => new Blob([options.stdin ?? ""]).stream(),
    isTTY: { stdin: options.tty ?? false, stdout: options.tty ?? false, stderr: options.tty ?? false },
    env: (name) => env[name],
    home: options.home ?? homeFrom((n) => env[n], cwd),
    cwd,
    now: options.now ?? (() => Date.now()),
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    signal: options.signal ?? new AbortController().signal,
  };
}

/**
 * The same I/O with other output sinks: a front end that runs a command in-process (the MCP server) captures what
 * the command prints and returns it, while everything else (environment, clock, fetch, signal) stays the caller's.
 */
export function withSinks(io: Io, stdout: Sink, stderr: Sink): Io {
  return {
    stdout,
    stderr,
    stdin: io.stdin,
    isTTY: { stdin: false, stdout: false, stderr: false },
    env: io.env,
    home: io.home,
    cwd: io.cwd,
    now: io.now,
    fetch: io.fetch,
    get signal() {
      return io.signal;
    },
  };
}
