/**
 * Finding and launching Chromium: discovery (`--browser`, `MAPPER_BROWSER`, `PATH`, then the standard install
 * locations on macOS and Windows), the argv, and the
 * DevTools endpoint (`DevTools listening on ws://…` on stderr, or `DevToolsActivePort` in the profile).
 *
 * @module
 */
import { posix, win32 } from "../path.ts";
import { SessionError } from "../errors.ts";

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

/** The Chromium argv (without the binary): CDP on a free port, own profile, quiet networking, `about:blank` first. */
export function chromiumArgs(spec: LaunchSpec): string[] {
  const args = [
    "--remote-debugging-port=0",
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

/** A launched Chromium: its process, pid, DevTools URL and the tail of its stderr. */
export interface LaunchedChromium {
  readonly process: Deno.ChildProcess;
  readonly pid: number;
  readonly wsUrl: string;
  readonly cdpPort: number;
  /** Resolves with the exit status once Chromium has exited. */
  readonly exited: Promise<Deno.CommandStatus>;
  /** The last 8 KiB of Chromium's stderr. */
  stderrTail(): string;
}

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

/**
 * Launches Chromium and waits (up to `timeoutMs`) for its DevTools endpoint. Kills it again on failure, and when
 * `signal` aborts (then rejects with the signal's reason, so the caller reports "interrupted").
 */
export async function launchChromium(
  binary: string,
  args: readonly string[],
  timeoutMs = 20_000,
  signal?: AbortSignal,
): Promise<LaunchedChromium> {
  let child: Deno.ChildProcess;
  try {
    const env = chromiumEnv(args);
    if (env.TMPDIR) await Deno.mkdir(env.TMPDIR, { recursive: true });
    child = new Deno.Command(binary, { args: [...args], env, stdin: "null", stdout: "null", stderr: "piped" }).spawn();
  } catch (err: unknown) {
    throw new SessionError(`cannot run browser "${binary}": ${err instanceof Error ? err.message : String(err)}`, {
      hint: "pass --browser PATH to a working Chromium",
    });
  }
  let tail = "";
  let found: ((url: string) => void) | undefined;
  const urlPromise = new Promise<string>((resolve) => (found = resolve));
  const pump = (async () => {
    const decoder = new TextDecoder();
    let line = "";
    try {
      for await (const chunk of child.stderr) {
        const text = decoder.decode(chunk, { stream: true });
        tail = (tail + text).slice(-8192);
        if (found) {
          line += text;
          const m = /DevTools listening on (ws:\/\/\S+)/.exec(line);
          if (m?.[1]) {
            found(m[1]);
            found = undefined;
            line = "";
          } else line = line.slice(-4096);
        }
      }
    } catch {
      // stream closed
    }
  })();
  const exited = child.status;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    urlPromise.then((url) => ({ url })),
    exited.then((status) => ({ status })),
    new Promise<{ timeout: true }>((resolve) => (timer = setTimeout(() => resolve({ timeout: true }), timeoutMs))),
    new Promise<{ aborted: true }>((resolve) => {
      if (signal?.aborted) resolve({ aborted: true });
      signal?.addEventListener("abort", () => resolve({ aborted: true }), { once: true });
    }),
  ]);
  clearTimeout(timer);
  if (!("url" in outcome)) {
    if ("timeout" in outcome || "aborted" in outcome) {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await exited;
    }
    await pump;
    if ("aborted" in outcome) throw signal?.reason ?? new DOMException("interrupted", "AbortError");
    const why = "timeout" in outcome
      ? `did not open its DevTools endpoint within ${timeoutMs} ms`
      : `exited with code ${outcome.status.code} before opening its DevTools endpoint`;
    // One line: the last few stderr lines joined, so the error stays `mapper <command>: <message> — <hint>`.
    const last = tail.split("\n").map((l) => l.trim()).filter(Boolean).slice(-3).join(" | ");
    const stderr = last ? `its stderr ended with: ${last}` : "it wrote nothing on stderr";
    throw new SessionError(`browser "${binary}" ${why}; ${stderr}`, {
      hint: "check the binary, or pass --browser-flag to adjust its flags",
    });
  }
  const wsUrl = outcome.url;
  const cdpPort = Number(new URL(wsUrl).port);
  return { process: child, pid: child.pid, wsUrl, cdpPort, exited, stderrTail: () => tail };
}
