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

/** Linux: the fields of `/proc/<pid>/stat` after the command name (state first), or `undefined` when it is gone. */
function procStat(pid: number): string[] | undefined {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The command name (field 2) is in parentheses and may hold spaces or parentheses itself: count from the last.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** Whether a `/proc/<pid>/stat` state letter is a running (not zombie, not dead) process. */
function running(fields: string[] | undefined): fields is string[] {
  return fields !== undefined && fields[0] !== "Z" && fields[0] !== "X";
}

/**
 * Linux: when a live (not zombie) process started, in clock ticks after boot (`/proc/<pid>/stat` field 22). With the
 * pid it names one process for as long as the machine runs: a pid reused by a later process has a later start.
 * `undefined` when the process is gone, or on another OS.
 */
export function processStartTime(pid: number): number | undefined {
  if (Deno.build.os !== "linux" || !Number.isInteger(pid) || pid <= 0) return undefined;
  const fields = procStat(pid);
  if (!running(fields)) return undefined;
  const start = Number(fields[19]);
  return Number.isSafeInteger(start) && start >= 0 ? start : undefined;
}

/**
 * Linux: the inodes of the IPv4 sockets listening on `port` where a connection to 127.0.0.1 lands (bound to
 * 127.0.0.1 or to any address); `undefined` when `/proc/net/tcp` cannot be read or on another OS.
 *
 * Once one of them is known to be a given process's, no other user's process can listen there too (Linux refuses a
 * second listener on an address and port another one covers, save with `SO_REUSEPORT` under the same user), so the
 * IPv6 table is not needed.
 */
export function loopbackListeners(port: number): Set<string> | undefined {
  if (Deno.build.os !== "linux" || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  // Addresses are in host byte order: 127.0.0.1 reads 0100007F on a little-endian machine.
  const loopback = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? "0100007F" : "7F000001";
  const wanted = new Set([`${loopback}:${hexPort}`, `00000000:${hexPort}`]);
  const inodes = new Set<string>();
  try {
    // The kernel writes the listening sockets first, then walks every bucket of the connection hash for the rest
    // (milliseconds on a large machine): read a page at a time and stop at the first row that is not listening.
    using file = Deno.openSync("/proc/net/tcp");
    const page = new Uint8Array(4096);
    const decoder = new TextDecoder();
    let rest = "";
    let header = true;
    for (;;) {
      const n = file.readSync(page);
      if (n === null || n === 0) return inodes;
      const lines = (rest + decoder.decode(page.subarray(0, n), { stream: true })).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        if (header) {
          header = false;
          continue;
        }
        // sl, local address, remote address, state (0A: listening), …, inode (10th column)
        const cols = line.trim().split(/\s+/);
        if (cols[3] !== "0A") return inodes;
        if (wanted.has(cols[1]!) && cols[9] !== undefined) inodes.add(cols[9]);
      }
    }
  } catch {
    return undefined;
  }
}

/**
 * Linux: whether process `pid` holds one of the sockets `inodes` open (`/proc/<pid>/fd`). `false` when it holds none
 * or its open files cannot be read (another user's process).
 */
export function holdsSocket(pid: number, inodes: Set<string>): boolean {
  if (Deno.build.os !== "linux" || !Number.isInteger(pid) || pid <= 0) return false;
  const links = new Set([...inodes].map((inode) => `socket:[${inode}]`));
  try {
    for (const entry of Deno.readDirSync(`/proc/${pid}/fd`)) {
      try {
        if (links.has(Deno.readLinkSync(`/proc/${pid}/fd/${entry.name}`))) return true;
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    // gone, or another user's
  }
  return false;
}

/**
 * Whether a process is alive and not a zombie: Linux reads `/proc`; Windows asks `tasklist` (`Deno.kill` there only
 * terminates, it cannot probe); elsewhere a harmless signal probe.
 */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (Deno.build.os === "windows") return pidImageName(pid) !== undefined;
  if (Deno.build.os === "linux") return running(procStat(pid));
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
