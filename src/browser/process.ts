/**
 * Looking at other processes by pid: alive (not a zombie), their command line, their Windows image name. Kept
 * apart from the Chromium launcher so the commands that only check a session (`console`, `network`, `status`) load
 * no child-process machinery.
 *
 * @module
 */

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
