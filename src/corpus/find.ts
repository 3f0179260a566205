/**
 * Finding the corpus directory the way git finds its repository: the nearest `.mapper/` at or above the working
 * directory. The one walk-up every command uses: the authoring commands (`validate`, `match`, …) take the nearest
 * one; the session commands (`console`, `network`, `browser status|stop`) the nearest one holding a session file;
 * `browser start` the nearest one, else `./.mapper`.
 *
 * And trusting it the way git trusts a repository (`safe.directory`): a corpus is data the session publishes on the
 * loopback, memory notes agents are told to trust, and files `fmt --write` rewrites, so one that another user
 * controls is refused ({@linkcode trustedCorpusDir}): owned by another user, writable by other users, or inside a
 * folder another user owns or can write without the sticky bit (they could swap it for their own). The user trusts
 * one explicitly by listing it in `MAPPER_SAFE_DIRECTORIES`.
 *
 * Light on purpose (no `node:` module, no corpus loader): `mapper console list` imports it before it prints.
 *
 * @module
 */
import { PolicyError } from "../errors.ts";
import { delimiter, dirname, isAbsolute, join, resolve } from "../path.ts";
import { quote } from "../terminal.ts";

/** The corpus directory name looked for when `--dir` is not given. */
export const DEFAULT_CORPUS_DIR = ".mapper";

/**
 * The environment variable listing corpus directories trusted although the ownership check refuses them: absolute
 * paths separated by the platform's path delimiter (`:`; `;` on Windows), or `*` for every directory. An environment
 * variable rather than a file: it is set by the user in their own shell, where no corpus, archive or other user can
 * plant it (a setting inside a project would be exactly what an attacker plants).
 */
export const SAFE_DIRS_ENV = "MAPPER_SAFE_DIRECTORIES";

/**
 * Whether `path` is an existing directory (a missing or unreadable path is not). Synchronous, like the walk-up: a
 * stat is a few microseconds, and the first asynchronous file operation of a process costs more than the walk.
 */
export function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/**
 * Whether users other than the one running mapper can write to what `info` describes: anyone (`o+w`), or its group
 * when that is not the user's primary group `gid` (with user private groups, the usual setup, a umask of 002 makes a
 * user's own files group-writable by a group only they are in).
 */
export function othersCanWrite(info: Deno.FileInfo, gid: number | null): boolean {
  const m = info.mode ?? 0;
  return (m & 0o002) !== 0 || ((m & 0o020) !== 0 && info.gid !== gid);
}

/** A corpus directory another user controls, refused until the user trusts it (`MAPPER_SAFE_DIRECTORIES`). */
export class UntrustedCorpusError extends PolicyError {}

/** What the trust check asks of the system; tests fake ownership through it. */
export interface TrustSystem {
  /** The user running mapper, or `null` where there are no user ids (Windows: nothing is checked). */
  uid: number | null;
  /** That user's primary group (a directory writable by it alone is the user's own, as with user private groups). */
  gid: number | null;
  /** `stat` (following links). */
  stat(path: string): Deno.FileInfo;
  /** `lstat` (not following links). */
  lstat(path: string): Deno.FileInfo;
  /** The real path (links resolved). */
  realPath(path: string): string;
  /** The value of {@linkcode SAFE_DIRS_ENV}, if set. */
  safeDirs: string | undefined;
  /** The login name of a user id, if known. */
  userName(uid: number): string | undefined;
}

/** The login name of `uid` from `/etc/passwd` (read only when a refusal names an owner). */
function passwdName(uid: number): string | undefined {
  try {
    for (const line of Deno.readTextFileSync("/etc/passwd").split("\n")) {
      const [name, , id] = line.split(":");
      if (name && Number(id) === uid) return name;
    }
  } catch {
    // no passwd file
  }
  return undefined;
}

/** The running system's {@linkcode TrustSystem}. */
export function systemTrust(): TrustSystem {
  const windows = Deno.build.os === "windows";
  let safeDirs: string | undefined;
  try {
    safeDirs = Deno.env.get(SAFE_DIRS_ENV);
  } catch {
    safeDirs = undefined; // no --allow-env: nothing is listed
  }
  return {
    uid: windows ? null : Deno.uid(),
    gid: windows ? null : Deno.gid(),
    stat: (p) => Deno.statSync(p),
    lstat: (p) => Deno.lstatSync(p),
    realPath: (p) => Deno.realPathSync(p),
    safeDirs,
    userName: passwdName,
  };
}

/** Whether `entries` (the variable's value) lists `paths` (any of them) or `*`. */
function listed(entries: string | undefined, paths: readonly string[]): boolean {
  for (const raw of (entries ?? "").split(delimiter)) {
    const entry = raw.trim();
    if (entry === "*") return true;
    if (entry === "" || !isAbsolute(entry)) continue;
    const normal = resolve(entry);
    if (paths.some((p) => p === normal)) return true;
  }
  return false;
}

/**
 * Why the corpus directory `dir` (absolute, existing) is not trusted, as one clause, or `undefined` when it is: it
 * (or a symbolic link leading to it) belongs to another user; other users can write it; or the folder holding it
 * belongs to another user (root excepted) or can be written by other users and has no sticky bit. "Other users" of a
 * group-writable entry means a group other than the user's own primary group (user private groups stay usable).
 */
export function untrustedReason(dir: string, sys: TrustSystem = systemTrust()): string | undefined {
  if (sys.uid === null) return undefined;
  const uid = sys.uid;
  let real: string;
  try {
    real = sys.realPath(dir);
  } catch {
    return undefined; // gone: nothing of it will be read
  }
  if (listed(sys.safeDirs, [resolve(dir), real])) return undefined;
  const owner = (id: number) => {
    const name = sys.userName(id);
    return name === undefined ? `user ${id}` : `user ${quote(name)} (uid ${id})`;
  };
  const mode = (info: Deno.FileInfo) => ((info.mode ?? 0) & 0o7777).toString(8).padStart(3, "0");
  const othersWrite = (info: Deno.FileInfo) => othersCanWrite(info, sys.gid);
  const check = (path: string, info: Deno.FileInfo, role: "corpus" | "link" | "folder"): string | undefined => {
    const what = role === "corpus"
      ? "it"
      : role === "link"
      ? `the link ${quote(path)} to it`
      : `its folder ${quote(path)}`;
    if (info.uid !== null && info.uid !== uid && !(role === "folder" && info.uid === 0)) {
      return `${what} belongs to ${owner(info.uid)}, not to you`;
    }
    if (role === "link") return undefined;
    if (othersWrite(info) && !(role === "folder" && (info.mode ?? 0) & 0o1000)) {
      return `other users can write ${role === "corpus" ? "it" : what}` +
        ` (mode ${mode(info)}${role === "folder" ? ", no sticky bit" : ""})`;
    }
    return undefined;
  };
  try {
    const places: Array<[string, Deno.FileInfo, "corpus" | "link" | "folder"]> = [
      [real, sys.stat(real), "corpus"],
      [dirname(real), sys.stat(dirname(real)), "folder"],
    ];
    const given = resolve(dir);
    if (given !== real) {
      // Reached through a link: whoever controls the link or the folder it sits in chooses what is read.
      const link = sys.lstat(given);
      if (link.isSymlink) places.push([given, link, "link"]);
      places.push([dirname(given), sys.stat(dirname(given)), "folder"]);
    }
    for (const [path, info, role] of places) {
      const why = check(path, info, role);
      if (why !== undefined) return why;
    }
  } catch {
    return undefined; // unreadable: the load that follows reports it
  }
  return undefined;
}

/**
 * Returns `dir` (absolute) when it is a trusted corpus directory or does not exist; throws
 * {@linkcode UntrustedCorpusError} (one line naming the owner and how to trust it) otherwise.
 */
export function trustedCorpusDir(dir: string, sys: TrustSystem = systemTrust()): string {
  const why = untrustedReason(dir, sys);
  if (why === undefined) return dir;
  throw new UntrustedCorpusError(`refusing the corpus ${quote(dir)}: ${why}`, {
    hint: `use a corpus of your own, or if you trust this one, add it to ${SAFE_DIRS_ENV} ` +
      `(export ${SAFE_DIRS_ENV}=${/^[\w./-]+$/.test(dir) ? dir : `'${dir.replaceAll("'", `'\\''`)}'`})`,
  });
}

/**
 * The absolute path of the nearest `.mapper/` directory at or above `cwd` (absolute) for which `holds` is true
 * (default: any), or `undefined` when there is none up to the file-system root. The one found must be trusted
 * ({@linkcode trustedCorpusDir}): a `.mapper/` another user planted above the working directory is refused, not
 * skipped, so the user learns it is there.
 */
export function findCorpusDirUp(
  cwd: string,
  holds: (dir: string) => boolean = () => true,
  sys?: TrustSystem,
): string | undefined {
  for (let dir = cwd;; dir = dirname(dir)) {
    const candidate = join(dir, DEFAULT_CORPUS_DIR);
    if (isDirectory(candidate) && holds(candidate)) return trustedCorpusDir(candidate, sys);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The `site` label of a compiled corpus: the name of the working directory (the project), as `serve-mapper`, the
 * browser session, `mapper://corpus` and `export` all label it.
 */
export function siteName(cwd: string): string {
  return cwd.split(/[\\/]/).filter(Boolean).pop() ?? "";
}
