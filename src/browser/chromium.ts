/**
 * Finding and launching Chromium: discovery (`--browser`, `MAPPER_BROWSER`, `PATH`, then the standard install
 * locations on macOS and Windows), the argv, and the launch itself: Chromium is driven over
 * `--remote-debugging-pipe` (fds 3 and 4 of the child), never a TCP port, so only the launching process can reach
 * it; it exits on its own when that pipe closes (the daemon died).
 *
 * @module
 */
import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { posix, win32 } from "node:path";
import { SessionError } from "../errors.ts";
import { escapeControls } from "../terminal.ts";
import { CdpConnection, pipeTransport } from "./cdp.ts";

/** An operating system as `Deno.build.os` names it. */
export type Os = typeof Deno.build.os;

/** Executable names searched on `PATH`, in order (Linux, the BSDs, macOS). */
export const BROWSER_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] as const;

/** Executable names searched on `PATH` on Windows, each with every `PATHEXT` extension. */
export const WINDOWS_BROWSER_NAMES = ["chrome", "chromium", "msedge"] as const;

/** The file names looked for in each `PATH` directory on `os` (Windows: with the `PATHEXT` extensions). */
export function pathNames(os: Os, env: (name: string) => string | undefined): string[] {
  if (os !== "windows") return [...BROWSER_NAMES];
  const exts = (env("PATHEXT") || ".COM;.EXE;.BAT;.CMD").split(";").map((e) => e.trim().toLowerCase()).filter(
    (e) => e.startsWith("."),
  );
  return WINDOWS_BROWSER_NAMES.flatMap((name) => exts.map((ext) => name + ext));
}

/**
 * The standard install locations of Chrome, Chromium and Edge on `os`, in order of preference: the app bundles in
 * `/Applications` and `~/Applications` on macOS; the per-machine (`%ProgramFiles%`, `%ProgramFiles(x86)%`) and
 * per-user (`%LocalAppData%`) installs on Windows. None elsewhere (`PATH` covers them).
 */
export function installLocations(os: Os, env: (name: string) => string | undefined): string[] {
  const out: string[] = [];
  if (os === "darwin") {
    const home = env("HOME");
    const roots = ["/Applications", ...(home ? [posix.join(home, "Applications")] : [])];
    for (const app of ["Google Chrome", "Chromium", "Microsoft Edge"]) {
      for (const root of roots) out.push(posix.join(root, `${app}.app`, "Contents", "MacOS", app));
    }
  } else if (os === "windows") {
    const roots = [env("ProgramFiles"), env("ProgramW6432"), env("ProgramFiles(x86)"), env("LocalAppData")]
      .filter((r): r is string => !!r);
    const installs = [
      ["Google", "Chrome", "Application", "chrome.exe"],
      ["Chromium", "Application", "chrome.exe"],
      ["Microsoft", "Edge", "Application", "msedge.exe"],
    ];
    for (const rel of installs) for (const root of roots) out.push(win32.join(root, ...rel));
  }
  return [...new Set(out)];
}

/** Every path tried after `--browser` and `MAPPER_BROWSER`, in order: the `PATH` directories, then {@linkcode installLocations}. */
export function browserCandidates(os: Os, env: (name: string) => string | undefined): string[] {
  const path = os === "windows" ? win32 : posix;
  const names = pathNames(os, env);
  const out: string[] = [];
  for (const entry of (env("PATH") ?? "").split(path.delimiter)) {
    // Windows PATH entries may be wrapped in double quotes.
    const dir = os === "windows" ? entry.trim().replace(/^"(.*)"$/, "$1") : entry;
    if (!dir) continue;
    for (const name of names) out.push(path.join(dir, name));
  }
  return [...out, ...installLocations(os, env)];
}

async function isExecutable(path: string, os: Os): Promise<boolean> {
  try {
    const st = await Deno.stat(path);
    // Windows has no execute bit (a reported mode is synthesised from the read-only flag): a file is enough.
    return st.isFile && (os === "windows" || st.mode === null || (st.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

/**
 * Finds the browser: `explicit` (from `--browser`), else `MAPPER_BROWSER`, else the first of
 * {@linkcode browserCandidates} (`PATH`, then the standard install locations on macOS and Windows). Throws one
 * {@linkcode SessionError} naming all three ways.
 */
export async function findBrowser(
  explicit: string | undefined,
  env: (name: string) => string | undefined,
  os: Os = Deno.build.os,
): Promise<string> {
  if (explicit) {
    if (await isExecutable(explicit, os)) return explicit;
    throw new SessionError(`browser "${explicit}" given with --browser is not an executable file`, {
      hint: "pass the path of a Chromium or Chrome binary",
    });
  }
  const fromEnv = env("MAPPER_BROWSER");
  if (fromEnv) {
    if (await isExecutable(fromEnv, os)) return fromEnv;
    throw new SessionError(`browser "${fromEnv}" from MAPPER_BROWSER is not an executable file`, {
      hint: "fix MAPPER_BROWSER or pass --browser PATH",
    });
  }
  for (const candidate of browserCandidates(os, env)) {
    if (await isExecutable(candidate, os)) return candidate;
  }
  const names = os === "windows" ? WINDOWS_BROWSER_NAMES.map((n) => `${n}.exe`) : BROWSER_NAMES;
  const where = installLocations(os, env).length > 0 ? " and in the standard install locations" : "";
  throw new SessionError(`no Chromium or Chrome found (looked for ${names.join(", ")} on PATH${where})`, {
    hint: "pass --browser PATH, set MAPPER_BROWSER, or install chromium",
  });
}

/** What the argv is built from. */
export interface LaunchSpec {
  profile: string;
  headless: boolean;
  extensionDir: string | undefined;
  /** Extra flags from `--browser-flag`, appended last (they win). */
  extraFlags: readonly string[];
  /** Whether we run as root (Chromium's sandbox refuses root). */
  root: boolean;
}

/** The Chromium argv (without the binary): CDP on the pipe (no port), own profile, quiet networking, `about:blank` first. */
export function chromiumArgs(spec: LaunchSpec): string[] {
  const args = [
    "--remote-debugging-pipe",
    `--user-data-dir=${spec.profile}`,
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-quic",
    "--disable-breakpad",
    "--password-store=basic",
    "--use-mock-keychain",
  ];
  if (spec.headless) args.push("--headless", "--disable-gpu");
  if (spec.extensionDir) {
    args.push(
      `--load-extension=${spec.extensionDir}`,
      `--disable-extensions-except=${spec.extensionDir}`,
      "--disable-features=DisableLoadExtensionCommandLineSwitch",
    );
  }
  if (spec.root) args.push("--no-sandbox");
  args.push(...spec.extraFlags, "about:blank");
  return args;
}

/** How a Chromium run ended. */
export interface ChromiumExit {
  code: number | null;
  signal: string | null;
}

/** A launched Chromium: its pid, the DevTools connection over its pipe, and the tail of its output. */
export interface LaunchedChromium {
  readonly pid: number;
  /** The only DevTools client of this browser. */
  readonly cdp: CdpConnection;
  /** Resolves once Chromium has exited. */
  readonly exited: Promise<ChromiumExit>;
  /** Sends a signal to Chromium (ignored when it is gone). */
  kill(signal: "SIGTERM" | "SIGKILL"): void;
  /** The last {@linkcode OUTPUT_TAIL} bytes Chromium wrote on stdout and stderr. */
  outputTail(): string;
}

/** Bytes of Chromium's stdout/stderr kept for diagnosing a failed launch. */
export const OUTPUT_TAIL = 8192;

/** The image name (first CSV column) `tasklist /FI "PID eq <pid>" /FO CSV /NH` output gives for `pid`, if listed. */
export function tasklistImage(output: string, pid: number): string | undefined {
  for (const line of output.split(/\r?\n/)) {
    const m = /^"([^"]*)","(\d+)"/.exec(line.trim());
    if (m?.[2] === String(pid)) return m[1];
  }
  return undefined;
}

/** Windows: the image name of a running process (`chrome.exe`), from `tasklist`; `undefined` when gone or elsewhere. */
export function pidImageName(pid: number): string | undefined {
  if (Deno.build.os !== "windows" || !Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const out = new Deno.Command("tasklist", {
      args: ["/FI", `PID eq ${pid}`, "/FO", "CSV", "/NH"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    return out.success ? tasklistImage(new TextDecoder().decode(out.stdout), pid) : undefined;
  } catch {
    return undefined;
  }
}

/** Image names of the browsers {@linkcode findBrowser} finds on Windows (and the common Chromium forks). */
const WINDOWS_BROWSER_IMAGES = new Set(["chrome.exe", "chromium.exe", "msedge.exe", "brave.exe", "vivaldi.exe"]);

/**
 * Windows stand-in for the Linux command-line check (Windows recycles pids quickly, and `Deno.kill` there
 * terminates at once): the daemon must run this very program (`self`, the image of `Deno.execPath()`); Chromium is
 * trusted while that daemon runs, and otherwise only when its image is a known browser.
 */
export function windowsSessionLiveness(
  daemonImage: string | undefined,
  chromiumImage: string | undefined,
  self: string,
): { daemon: boolean; chromium: boolean } {
  const daemon = daemonImage !== undefined && daemonImage.toLowerCase() === self.toLowerCase();
  const chromium = chromiumImage !== undefined && (daemon || WINDOWS_BROWSER_IMAGES.has(chromiumImage.toLowerCase()));
  return { daemon, chromium };
}

/**
 * Whether a process is alive and not a zombie: Linux reads `/proc`; Windows asks `tasklist` (`Deno.kill` there only
 * terminates, it cannot probe); elsewhere a harmless signal probe.
 */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (Deno.build.os === "windows") return pidImageName(pid) !== undefined;
  if (Deno.build.os === "linux") {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      return state !== "Z" && state !== "X";
    } catch {
      return false;
    }
  }
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

/**
 * The command line of a process, to tell a recorded pid from an unrelated process that reused it: Linux reads
 * `/proc`, macOS and the BSDs ask `ps`. `undefined` on Windows (no cheap way) or when it cannot be read.
 */
export function pidCommandLine(pid: number): string | undefined {
  if (Deno.build.os === "windows" || !Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    if (Deno.build.os === "linux") return Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\u0000", " ");
    const out = new Deno.Command("ps", {
      args: ["-ww", "-o", "command=", "-p", String(pid)],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    // `ps` exits 1 with no output when the pid is gone: an empty command line matches nothing.
    return new TextDecoder().decode(out.stdout).trim();
  } catch {
    return undefined;
  }
}

/**
 * On Linux, Chromium puts its singleton socket directory (`org.chromium.Chromium.*`) in `$TMPDIR`; when the browser
 * is killed it stays there forever. Pointing `TMPDIR` inside the profile keeps such leftovers with the profile. Only
 * when the resulting socket path fits the 108-byte limit of Unix socket addresses; otherwise Chromium keeps its
 * default.
 */
export function chromiumEnv(args: readonly string[], os: typeof Deno.build.os = Deno.build.os): Record<string, string> {
  const profile = args.find((a) => a.startsWith("--user-data-dir="))?.slice("--user-data-dir=".length);
  if (os !== "linux" || !profile) return {};
  const tmp = posix.join(profile, ".tmp");
  const socket = posix.join(tmp, "org.chromium.Chromium.XXXXXX", "SingletonSocket");
  return new TextEncoder().encode(socket).length < 100 ? { TMPDIR: tmp } : {};
}

/** The one line a launch failure shows of Chromium's output: its last non-empty line, at most 160 characters. */
export function lastOutputLine(tail: string): string {
  const line = tail.split("\n").map((l) => l.trim()).filter(Boolean).at(-1) ?? "";
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/**
 * Launches Chromium with its DevTools pipe and waits (up to `timeoutMs`) until it answers `Browser.getVersion` on
 * it. Kills it again on failure, and when `signal` aborts (then rejects with the signal's reason, so the caller
 * reports "interrupted"). A failure is one line naming the last line of Chromium's output; the bounded tail of that
 * output is written to `outputLog` (mode 0600) when given, and the message names that file.
 */
export async function launchChromium(
  binary: string,
  args: readonly string[],
  timeoutMs = 20_000,
  signal?: AbortSignal,
  outputLog?: string,
): Promise<LaunchedChromium> {
  if (!args.includes("--remote-debugging-pipe")) throw new Error("launchChromium needs --remote-debugging-pipe");
  const env = chromiumEnv(args);
  if (env.TMPDIR) await Deno.mkdir(env.TMPDIR, { recursive: true, mode: 0o700 }).catch(() => {});
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(binary, [...args], {
      env: { ...Deno.env.toObject(), ...env },
      stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
    });
  } catch (err: unknown) {
    throw new SessionError(`cannot run browser "${binary}": ${err instanceof Error ? err.message : String(err)}`, {
      hint: "pass --browser PATH to a working Chromium",
    });
  }
  let tail = "";
  const decoder = new TextDecoder();
  const keep = (chunk: Uint8Array) => {
    tail = (tail + decoder.decode(chunk, { stream: true })).slice(-OUTPUT_TAIL);
  };
  const [, out, err, input, output] = child.stdio as unknown as [null, Readable, Readable, Writable, Readable];
  out.on("data", keep);
  err.on("data", keep);
  out.on("error", () => {});
  err.on("error", () => {});
  let spawnError: Error | undefined;
  const exited = new Promise<ChromiumExit>((resolve) => {
    child.on("error", (e: Error) => {
      spawnError = e;
      resolve({ code: null, signal: null });
    });
    child.on("exit", (code: number | null, sig: string | null) => resolve({ code, signal: sig }));
  });
  const kill = (sig: "SIGTERM" | "SIGKILL") => {
    try {
      child.kill(sig);
    } catch {
      // already gone
    }
  };
  const cdp = new CdpConnection(pipeTransport(input, output));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const outcome = await Promise.race([
    cdp.send("Browser.getVersion", {}, undefined, 0).then(
      () => ({ ready: true as const }),
      () => ({ closed: true as const }),
    ),
    exited.then((status) => ({ status })),
    new Promise<{ timeout: true }>((resolve) => (timer = setTimeout(() => resolve({ timeout: true }), timeoutMs))),
    new Promise<{ aborted: true }>((resolve) => {
      onAbort = () => resolve({ aborted: true });
      if (signal?.aborted) onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
  ]);
  clearTimeout(timer);
  if (onAbort) signal?.removeEventListener("abort", onAbort);
  if ("ready" in outcome && child.pid !== undefined) {
    return { pid: child.pid, cdp, exited, kill, outputTail: () => tail };
  }
  if ("closed" in outcome) {
    // The pipe closed first: Chromium is exiting; let it say how before making sure it is gone.
    let grace: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([exited, new Promise((r) => (grace = setTimeout(r, 2000)))]);
    clearTimeout(grace);
  }
  kill("SIGKILL");
  cdp.close();
  await exited;
  if ("aborted" in outcome) throw signal?.reason ?? new DOMException("interrupted", "AbortError");
  if (spawnError) {
    throw new SessionError(`cannot run browser "${binary}": ${spawnError.message}`, {
      hint: "pass --browser PATH to a working Chromium",
    });
  }
  const status = "status" in outcome ? outcome.status : await exited;
  const why = "timeout" in outcome
    ? `did not answer on its DevTools pipe within ${timeoutMs} ms`
    : `exited ${
      status.signal ? `on ${status.signal}` : `with code ${status.code}`
    } before answering on its DevTools pipe`;
  let saved = "";
  if (outputLog && tail) {
    try {
      await Deno.writeTextFile(outputLog, tail, { mode: 0o600 });
      await Deno.chmod(outputLog, 0o600).catch(() => {});
      saved = `; its output is in "${outputLog}"`;
    } catch {
      // the one line below still says the essentials
    }
  }
  const last = escapeControls(lastOutputLine(tail));
  throw new SessionError(
    `browser "${binary}" ${why}: ${last ? `it last said "${last}"` : "it wrote nothing"}${saved}`,
    {
      hint: "check the binary, or pass --browser-flag to adjust its flags",
    },
  );
}
