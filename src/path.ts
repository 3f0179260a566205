/**
 * File-path helpers with the semantics of `node:path` (`posix`, `win32`, and the running OS's flavour), for the
 * modules on a short command's start-up path (`console`, `network`, the session file, Chromium discovery) and on
 * `serve-mapper`'s (the corpus loader, service and watcher).
 *
 * Why not `node:path`: the first `node:` import makes Deno boot its Node compatibility layer, about 20 ms of CPU
 * before `mapper console list` has read a flag; these helpers cost nothing to load. They are tested against
 * `node:path` itself (`path_test.ts`), so both agree on every case the tests list. Code off the start-up path may
 * keep using `node:path`.
 *
 * @module
 */

/** The subset of `node:path`'s platform API mapper uses. */
export interface PathApi {
  /** Segment separator: `/` or `\`. */
  readonly sep: string;
  /** `PATH` list delimiter: `:` or `;`. */
  readonly delimiter: string;
  /** Joins segments and normalizes the result (`.` for nothing). */
  join(...parts: string[]): string;
  /** Resolves segments right to left into an absolute path (the process cwd when none is absolute). */
  resolve(...parts: string[]): string;
  /** Collapses `.`, `..` and repeated separators; keeps one trailing separator. */
  normalize(path: string): string;
  /** True for a rooted path (`/x`; on Windows also `C:\x`, `\x`, `\\server\share`). */
  isAbsolute(path: string): boolean;
  /** The last segment (trailing separators ignored). */
  basename(path: string): string;
  /** Everything before the last segment. */
  dirname(path: string): string;
  /** The path from `from` to `to` (both resolved first); `""` when they are the same. */
  relative(from: string, to: string): string;
}

/** Normalizes the part after the root: `.`/`..`/empty segments collapse; `..` above a root is dropped. */
function normalizeTail(tail: string, rooted: boolean, separators: string | RegExp, sep: string): string {
  const out: string[] = [];
  for (const segment of tail.split(separators)) {
    if (segment === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!rooted) out.push("..");
    } else if (segment !== "" && segment !== ".") {
      out.push(segment);
    }
  }
  return out.join(sep);
}

const POSIX_SEP = "/";
const WIN_SEPS = /[\\/]/;
const isWinSep = (c: string) => c === "/" || c === "\\";

/** POSIX paths. */
export const posix: PathApi = {
  sep: "/",
  delimiter: ":",
  normalize(path: string): string {
    if (path === "") return ".";
    const rooted = path[0] === "/";
    const trailing = path.endsWith("/");
    let tail = normalizeTail(path, rooted, POSIX_SEP, "/");
    if (tail === "" && !rooted) tail = ".";
    if (tail !== "" && trailing) tail += "/";
    return rooted ? `/${tail}` : tail;
  },
  join(...parts: string[]): string {
    const joined = parts.filter((p) => p !== "").join("/");
    return joined === "" ? "." : posix.normalize(joined);
  },
  resolve(...parts: string[]): string {
    let resolved = "";
    for (let i = parts.length - 1; i >= -1 && !resolved.startsWith("/"); i--) {
      const part = i >= 0 ? parts[i]! : Deno.cwd();
      if (part !== "") resolved = resolved === "" ? part : `${part}/${resolved}`;
    }
    return `/${normalizeTail(resolved, true, POSIX_SEP, "/")}`;
  },
  isAbsolute: (path: string) => path.startsWith("/"),
  basename(path: string): string {
    const trimmed = path.replace(/\/+$/, "");
    return trimmed.slice(trimmed.lastIndexOf("/") + 1);
  },
  dirname(path: string): string {
    if (path === "") return ".";
    const rooted = path[0] === "/";
    let end = -1;
    let matchedSlash = true;
    for (let i = path.length - 1; i >= 1; i--) {
      if (path[i] === "/") {
        if (!matchedSlash) {
          end = i;
          break;
        }
      } else {
        matchedSlash = false;
      }
    }
    if (end === -1) return rooted ? "/" : ".";
    if (rooted && end === 1) return "//";
    return path.slice(0, end);
  },
  relative(from: string, to: string): string {
    const a = posix.resolve(from).split("/").filter(Boolean);
    const b = posix.resolve(to).split("/").filter(Boolean);
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common++;
    return [...a.slice(common).map(() => ".."), ...b.slice(common)].join("/");
  },
};

/** Splits a Windows path into its root (`C:`, `C:\`, `\`, `\\server\share\`) and the rest. */
function winRoot(path: string): { device: string; rooted: boolean; rest: string } {
  const unc = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)[\\/]*/.exec(path);
  if (unc) return { device: `\\\\${unc[1]}\\${unc[2]}`, rooted: true, rest: path.slice(unc[0].length) };
  const drive = /^([A-Za-z]:)([\\/]?)/.exec(path);
  if (drive) return { device: drive[1]!, rooted: drive[2] !== "", rest: path.slice(drive[0].length) };
  const rooted = path !== "" && isWinSep(path[0]!);
  return { device: "", rooted, rest: rooted ? path.slice(1) : path };
}

/** Windows paths (`\` and `/` both separate; drive letters and UNC shares are roots). */
export const win32: PathApi = {
  sep: "\\",
  delimiter: ";",
  normalize(path: string): string {
    if (path === "") return ".";
    const { device, rooted, rest } = winRoot(path);
    const unc = device.startsWith("\\\\");
    let tail = normalizeTail(rest, rooted, WIN_SEPS, "\\");
    if (tail === "" && !rooted) tail = ".";
    if (tail !== "" && rest !== "" && isWinSep(rest[rest.length - 1]!)) tail += "\\";
    // A relative result must not read as a drive (`a\..\b:c` → `b:c`) or a device (`x:`): node prefixes `.\`.
    if (!rooted && device === "" && (/^[A-Za-z]:/.test(tail) || /:(?:[\\/]|$)/.test(path))) return `.\\${tail}`;
    if (unc) return `${device}\\${tail}`;
    return `${device}${rooted ? "\\" : ""}${tail}`;
  },
  join(...parts: string[]): string {
    const kept = parts.filter((p) => p !== "");
    let joined = kept.join("\\");
    if (joined === "") return ".";
    // Like node's: leading separators would read as a UNC path (`join("/", "a")` is `\\a`, not `\\\\a`), unless the
    // first part plainly names one (exactly two separators, then a server name).
    if (!/^[\\/]{2}[^\\/]/.test(kept[0]!)) joined = joined.replace(/^[\\/]{2,}/, "\\");
    return win32.normalize(joined);
  },
  resolve(...parts: string[]): string {
    let device = "";
    let tail = "";
    let rooted = false;
    for (let i = parts.length - 1; i >= -1; i--) {
      const part = i >= 0 ? parts[i]! : Deno.cwd();
      if (part === "") continue;
      const root = winRoot(part);
      if (root.device !== "" && device !== "" && root.device.toLowerCase() !== device.toLowerCase()) continue;
      if (device === "") device = root.device;
      if (!rooted) {
        tail = tail === "" ? root.rest : `${root.rest}\\${tail}`;
        rooted = root.rooted;
      }
      if (rooted && device !== "") break;
    }
    const normal = normalizeTail(tail, rooted, WIN_SEPS, "\\");
    if (device.startsWith("\\\\")) return `${device}\\${normal}`;
    return `${device}${rooted ? "\\" : ""}${normal}` || ".";
  },
  isAbsolute: (path: string) => /^[\\/]/.test(path) || /^[A-Za-z]:[\\/]/.test(path),
  basename(path: string): string {
    // Like node's: only a drive letter is skipped (a UNC share name is a segment like any other).
    const trimmed = path.replace(/^[A-Za-z]:/, "").replace(/[\\/]+$/, "");
    return trimmed.slice(Math.max(trimmed.lastIndexOf("\\"), trimmed.lastIndexOf("/")) + 1);
  },
  dirname(path: string): string {
    // A slice of the original (separators kept as typed), like node's: the root, or up to the last separator.
    const { device, rooted, rest } = winRoot(path);
    if (device.startsWith("\\\\") && rest === "") return path;
    const rootEnd = path.length - rest.length;
    let end = -1;
    let matchedSlash = true;
    for (let i = path.length - 1; i >= Math.max(rootEnd, 1); i--) {
      if (isWinSep(path[i]!)) {
        if (!matchedSlash) {
          end = i;
          break;
        }
      } else {
        matchedSlash = false;
      }
    }
    if (end === -1) return device === "" && !rooted ? "." : path.slice(0, rootEnd);
    return path.slice(0, end);
  },
  relative(from: string, to: string): string {
    // Like node's: compared without regard to case; another drive or share has no relative path (`to` resolved).
    const target = win32.resolve(to);
    const a = winRoot(win32.resolve(from));
    const b = winRoot(target);
    if (a.device.toLowerCase() !== b.device.toLowerCase()) return target;
    const x = a.rest.split("\\").filter(Boolean);
    const y = b.rest.split("\\").filter(Boolean);
    let common = 0;
    while (common < x.length && common < y.length && x[common]!.toLowerCase() === y[common]!.toLowerCase()) common++;
    return [...x.slice(common).map(() => ".."), ...y.slice(common)].join("\\");
  },
};

/** The running OS's flavour. */
const native: PathApi = Deno.build.os === "windows" ? win32 : posix;

/** {@linkcode PathApi.join} for the running OS. */
export const join: PathApi["join"] = native.join;
/** {@linkcode PathApi.resolve} for the running OS. */
export const resolve: PathApi["resolve"] = native.resolve;
/** {@linkcode PathApi.normalize} for the running OS. */
export const normalize: PathApi["normalize"] = native.normalize;
/** {@linkcode PathApi.isAbsolute} for the running OS. */
export const isAbsolute: PathApi["isAbsolute"] = native.isAbsolute;
/** {@linkcode PathApi.basename} for the running OS. */
export const basename: PathApi["basename"] = native.basename;
/** {@linkcode PathApi.dirname} for the running OS. */
export const dirname: PathApi["dirname"] = native.dirname;
/** {@linkcode PathApi.relative} for the running OS. */
export const relative: PathApi["relative"] = native.relative;
/** {@linkcode PathApi.sep} for the running OS. */
export const sep: string = native.sep;
/** {@linkcode PathApi.delimiter} for the running OS. */
export const delimiter: string = native.delimiter;
