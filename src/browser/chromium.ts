/**
 * Finding and launching Chromium: discovery (`--browser`, `MAPPER_BROWSER`, then `PATH`), the argv, and the
 * DevTools endpoint (`DevTools listening on ws://…` on stderr, or `DevToolsActivePort` in the profile).
 *
 * @module
 */
import { delimiter, join } from "node:path";
import { SessionError } from "../errors.ts";

/** Executable names searched on `PATH`, in order. */
export const BROWSER_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] as const;

async function isExecutable(path: string): Promise<boolean> {
  try {
    const st = await Deno.stat(path);
    return st.isFile && (st.mode === null || (st.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

/**
 * Finds the browser: `explicit` (from `--browser`), else `MAPPER_BROWSER`, else the first of
 * {@linkcode BROWSER_NAMES} on `PATH`. Throws one {@linkcode SessionError} naming all three ways.
 */
export async function findBrowser(
  explicit: string | undefined,
  env: (name: string) => string | undefined,
): Promise<string> {
  if (explicit) {
    if (await isExecutable(explicit)) return explicit;
    throw new SessionError(`browser "${explicit}" given with --browser is not an executable file`, {
      hint: "pass the path of a Chromium or Chrome binary",
    });
  }
  const fromEnv = env("MAPPER_BROWSER");
  if (fromEnv) {
    if (await isExecutable(fromEnv)) return fromEnv;
    throw new SessionError(`browser "${fromEnv}" from MAPPER_BROWSER is not an executable file`, {
      hint: "fix MAPPER_BROWSER or pass --browser PATH",
    });
  }
  for (const dir of (env("PATH") ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const name of BROWSER_NAMES) {
      const candidate = join(dir, name);
      if (await isExecutable(candidate)) return candidate;
    }
  }
  throw new SessionError(`no Chromium or Chrome found (looked for ${BROWSER_NAMES.join(", ")} on PATH)`, {
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

/** Whether a process is alive and not a zombie (Linux `/proc`; elsewhere a harmless signal probe). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
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

/** The command line of a process (Linux only; `undefined` elsewhere or when gone). */
export function pidCommandLine(pid: number): string | undefined {
  if (Deno.build.os !== "linux") return undefined;
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\u0000", " ");
  } catch {
    return undefined;
  }
}

/** Launches Chromium and waits (up to `timeoutMs`) for its DevTools endpoint. Kills it again on failure. */
export async function launchChromium(
  binary: string,
  args: readonly string[],
  timeoutMs = 20_000,
): Promise<LaunchedChromium> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(binary, { args: [...args], stdin: "null", stdout: "null", stderr: "piped" }).spawn();
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
  ]);
  clearTimeout(timer);
  if (!("url" in outcome)) {
    if ("timeout" in outcome) {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await exited;
    }
    await pump;
    const why = "timeout" in outcome
      ? `did not open its DevTools endpoint within ${timeoutMs} ms`
      : `exited with code ${outcome.status.code} before opening its DevTools endpoint`;
    const stderr = tail.trim()
      ? tail.trim().split("\n").slice(-6).map((l) => `    ${l}`).join("\n")
      : "    (no stderr output)";
    throw new SessionError(`browser "${binary}" ${why}; its stderr ended with:\n${stderr}\n`, {
      hint: "check the binary, or pass --browser-flag to adjust its flags",
    });
  }
  const wsUrl = outcome.url;
  const cdpPort = Number(new URL(wsUrl).port);
  return { process: child, pid: child.pid, wsUrl, cdpPort, exited, stderrTail: () => tail };
}
