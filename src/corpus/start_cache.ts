/**
 * The start cache: what the live corpus service compiled last time, kept on disk so the next start of the same
 * corpus serves at once instead of decoding every file again (a 2 MB corpus takes most of a second to decode; its
 * cache well under a tenth of that to read).
 *
 * One file per corpus directory, `~/.mapper/cache/corpus/<SHA-256 of the directory>.cache`: a first line of fixed
 * length (format, header length), a JSON header (the build and options it was made with, the stamp of every file, the
 * walk's warnings, counts, section lengths), then the diagnostics, the served JSON gzip-compressed and as it is, and
 * each file's decoded form. A start reads the header, the diagnostics and the compressed JSON (what most clients are
 * sent); the rest is read from the file, kept open, only when needed.
 *
 * It is used only when the header's build and options are this process's, and the corpus is then checked file by
 * file (`unchangedSince`: the same files, none changed by size, times or inode). All of them unchanged: the cached
 * corpus and diagnostics are served as they are. Some changed: the unchanged files' decoded forms are reused and
 * only the others are parsed.
 *
 * Trust: the file and its directories must be the user's own and private (mode 0600 / not writable by others), the
 * file is never followed through a link, and anything unexpected in it (truncated, foreign, another version) is a
 * silent miss, never an error: the cache is an optimisation, and a cold start is always correct.
 *
 * @module
 */
import { join } from "../path.ts";
import { othersCanWrite } from "./find.ts";
import { removeStaleTemps, writeUserFile } from "../user_file.ts";
import { VERSION } from "../version.ts";
import type { Diagnostic } from "./diagnostic.ts";
import type { RawFile } from "./_decode.ts";
import { type CacheEntry, LoadCache } from "./load.ts";

/** Bumped whenever the layout or the meaning of a cached field changes. */
const FORMAT = 2;
/** A cache file larger than this is not read (a corpus of this size would be hundreds of megabytes of YAML). */
const MAX_BYTES = 512 * 1024 * 1024;

/** What identifies the compile a cache is valid for (anything else must compile differently). */
export interface StartCacheKey {
  /** The corpus directory as the service names it (problems name files under it). */
  dir: string;
  /** The same, absolute (which file holds the cache). */
  absDir: string;
  /** The `site` label of the compiled corpus. */
  site: string;
  /** Whether every authoring check ran. */
  validate: boolean;
}

/** A successful compile, as written to the cache. */
export interface StartCacheRecord {
  /** The load that made it. */
  cache: LoadCache;
  /** The files the compile read (`Corpus.files`). */
  files: string[];
  /** The compiled corpus's version. */
  version: number;
  /** Its views (what the start line reports). */
  views: number;
  /** Components of the globals and of every view. */
  components: number;
  /** The served JSON of the compiled corpus. */
  body: Uint8Array<ArrayBuffer>;
  /** The same, gzip-compressed (what most clients are sent). */
  gzip: Uint8Array<ArrayBuffer>;
  /** The diagnostics of that compile. */
  diagnostics: Diagnostic[];
}

/**
 * A cache read back: everything a start needs is read at once but the served JSON and the decoded files, which are
 * read from the file kept open on first use (a start that changes nothing and serves compressing clients never reads
 * them; a newer cache written meanwhile replaces the file, not what this one reads). Dispose to close the file.
 */
export interface StartCache extends Omit<StartCacheRecord, "body">, Disposable {
  /** The served JSON (read on first use). */
  body(): Uint8Array<ArrayBuffer>;
  /** Its length in bytes. */
  size: number;
}

/** The header. */
interface Header {
  build: string;
  key: StartCacheKey;
  /** `[path, relative, size, mtime, ctime, ino, checkedAt]` per walked file, in load order. */
  files: [string, string, number, number | null, number | null, number | null, number][];
  walkWarnings: Diagnostic[];
  read: string[];
  version: number;
  views: number;
  components: number;
  /** Bytes of each section after the header: diagnostics, gzip body, body, decoded files. */
  sections: [number, number, number, number];
}

/** The first line, of fixed length: the format and the header's length in bytes. */
function lead(headerBytes: number): string {
  return `mapper start cache ${FORMAT} ${String(headerBytes).padStart(12, "0")}\n`;
}
const LEAD_BYTES = lead(0).length;

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const ENCODER = new TextEncoder();

/**
 * The directories whose files a run from source stamps (see {@linkcode buildStamp}): every directory holding a module
 * that loading or compiling a corpus runs (the extract and route checks are the extension's resolver's), and the root
 * (`deno.json`, `deno.lock`: the npm packages it runs).
 */
export const BUILD_SOURCE_DIRS: readonly URL[] = [".", "../", "../../", "../../assets/extension/"]
  .map((p) => new URL(p, import.meta.url));

/**
 * What must be equal for a cache to be used beside its key: this build of mapper. A release is its version plus the
 * executable's size and time; a run from source adds the newest modification time of the sources (a developer's edit
 * of the decoder must not be served a stale compile).
 */
function buildStamp(): string {
  const parts = [String(FORMAT), VERSION];
  try {
    const exe = Deno.statSync(Deno.execPath());
    parts.push(`${exe.size}:${exe.mtime?.getTime()}`);
  } catch {
    parts.push("?");
  }
  if (import.meta.url.startsWith("file:")) {
    let newest = 0;
    for (const dir of BUILD_SOURCE_DIRS) {
      try {
        for (const e of Deno.readDirSync(dir)) {
          if (!e.isFile || !/\.(ts|js|json|lock)$/.test(e.name)) continue;
          newest = Math.max(newest, Deno.statSync(new URL(e.name, dir)).mtime?.getTime() ?? 0);
        }
      } catch {
        // A compiled binary's embedded sources may not be listable: its executable stamp stands for them.
      }
    }
    parts.push(String(newest));
  }
  return parts.join("|");
}

/**
 * A staged copy older than this is a killed writer's leftover, not a write under way (a write takes well under a
 * second; ten minutes leaves room for a machine under any load).
 */
const STALE_TEMP_MS = 10 * 60_000;

/** `~/.mapper`, `~/.mapper/cache`, `~/.mapper/cache/corpus`: each must be private to the user. */
function cacheDirs(home: string): string[] {
  const mapper = join(home, ".mapper");
  const cache = join(mapper, "cache");
  return [mapper, cache, join(cache, "corpus")];
}

/** The cache file of a corpus directory under `home`. */
export async function startCachePath(home: string, absDir: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", ENCODER.encode(absDir)));
  const hex = [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return join(cacheDirs(home).at(-1)!, `${hex}.cache`);
}

/** Whether `info` is the user's own (where the platform has owners). */
function own(info: Deno.FileInfo): boolean {
  return info.uid === null || info.uid === Deno.uid();
}

/** Whether a directory is the user's own, not a link, and writable by nobody else (the corpus directory's rule). */
function privateDir(path: string): boolean {
  try {
    const info = Deno.lstatSync(path);
    return info.isDirectory && own(info) && !othersCanWrite(info, Deno.build.os === "windows" ? null : Deno.gid());
  } catch {
    return false;
  }
}

/** A cached stamp number, or `undefined` for `null`. */
function opt(n: number | null): number | undefined {
  return n === null ? undefined : n;
}

/** `length` bytes of `file` from `offset` (all of them, or it throws). */
function readAt(file: Deno.FsFile, offset: number, length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  file.seekSync(offset, Deno.SeekMode.Start);
  for (let at = 0; at < length;) {
    const n = file.readSync(out.subarray(at));
    if (n === null) throw new Error("truncated");
    at += n;
  }
  return out;
}

/**
 * Reads the cache of `key` under `home`; `undefined` on any miss (none, foreign, untrusted, corrupt). Its served JSON
 * keeps the version of the compile it holds: the same corpus is the same version, so a client holding it need not
 * fetch it again.
 */
export async function readStartCache(home: string, key: StartCacheKey): Promise<StartCache | undefined> {
  return readCacheFile(home, await startCachePath(home, key.absDir), key);
}

/**
 * {@linkcode readStartCache} once the path is known. Synchronous: a handful of small reads, each cheaper blocking
 * than as a round trip to the runtime's I/O threads, on the start-up path.
 */
function readCacheFile(home: string, path: string, key: StartCacheKey): StartCache | undefined {
  if (!cacheDirs(home).every(privateDir)) return undefined;
  let file: Deno.FsFile | undefined;
  try {
    const before = Deno.lstatSync(path);
    if (!trusted(before)) return undefined;
    file = Deno.openSync(path);
    const info = file.statSync();
    if (!trusted(info) || info.ino !== before.ino || info.size > MAX_BYTES) throw new Error("untrusted");
    const first = new TextDecoder().decode(readAt(file, 0, LEAD_BYTES));
    const headerBytes = Number(first.slice(first.lastIndexOf(" ") + 1, -1));
    if (first !== lead(headerBytes) || LEAD_BYTES + headerBytes > info.size) throw new Error("another format");
    const header = JSON.parse(UTF8.decode(readAt(file, LEAD_BYTES, headerBytes))) as Header;
    if (!wellFormed(header) || header.build !== buildStamp()) throw new Error("another build");
    const k = header.key;
    if (k.dir !== key.dir || k.absDir !== key.absDir || k.site !== key.site || k.validate !== key.validate) {
      throw new Error("another corpus");
    }
    const [diagnosticsBytes, gzipBytes, bodyBytes, decodedBytes] = header.sections;
    const at = LEAD_BYTES + headerBytes;
    if (at + diagnosticsBytes + gzipBytes + bodyBytes + decodedBytes !== info.size) throw new Error("truncated");
    const front = readAt(file, at, diagnosticsBytes + gzipBytes);
    const diagnostics = JSON.parse(UTF8.decode(front.subarray(0, diagnosticsBytes))) as Diagnostic[];
    if (!Array.isArray(diagnostics) || !diagnostics.every(isDiagnostic)) throw new Error("corrupt");
    const gzip = front.slice(diagnosticsBytes);
    const open = file;
    let body: Uint8Array<ArrayBuffer> | undefined;
    let decoded: [RawFile, Diagnostic[]][] | undefined;
    let closed = false;
    const close = () => {
      if (!closed) open.close();
      closed = true;
    };
    const section = () =>
      decoded ??= JSON.parse(UTF8.decode(readAt(open, at + diagnosticsBytes + gzipBytes + bodyBytes, decodedBytes)));
    const entries = new Map<string, CacheEntry>();
    header.files.forEach(([file, , size, mtime, ctime, ino, checkedAt], i) => {
      entries.set(file, {
        size,
        mtime: opt(mtime),
        ctime: opt(ctime),
        ino: opt(ino),
        checkedAt,
        text: undefined,
        validated: key.validate,
        get raw() {
          return section()[i]![0];
        },
        get warnings() {
          return section()[i]![1];
        },
      });
    });
    const walk = {
      dir: key.dir,
      files: header.files.map(([file, relative]) => ({ path: file, relative })),
      warnings: header.walkWarnings,
    };
    file = undefined; // kept open: closed by the cache's disposal
    return {
      cache: new LoadCache(entries, walk),
      files: header.read,
      version: header.version,
      views: header.views,
      components: header.components,
      body: () => body ??= readAt(open, at + diagnosticsBytes + gzipBytes, bodyBytes),
      size: bodyBytes,
      gzip,
      diagnostics,
      [Symbol.dispose]: close,
    };
  } catch {
    return undefined;
  } finally {
    file?.close();
  }
}

/** A count or length: a safe integer, not negative. */
function isCount(n: unknown): n is number {
  return Number.isSafeInteger(n) && (n as number) >= 0;
}

/** A recorded stat number: a number, or `null` where the OS has none. */
function isStat(n: unknown): boolean {
  return n === null || typeof n === "number";
}

/** Whether a parsed value is a diagnostic as far as it is read (formatted, logged, served). */
function isDiagnostic(d: Diagnostic): boolean {
  if (typeof d !== "object" || d === null) return false;
  const at = d.location;
  return typeof d.code === "string" && (d.severity === "error" || d.severity === "warning") &&
    typeof d.message === "string" && typeof at === "object" && at !== null && typeof at.file === "string" &&
    typeof at.line === "number" && typeof at.column === "number";
}

/**
 * Whether a parsed header has every field of the type its use expects: one that does not is a miss like any other
 * damage (a start must never fail, or serve a version that is not a number, because of its cache).
 */
function wellFormed(h: Header): boolean {
  return typeof h === "object" && h !== null && typeof h.build === "string" && typeof h.key === "object" &&
    h.key !== null && Array.isArray(h.files) &&
    h.files.every((f) =>
      Array.isArray(f) && f.length === 7 && typeof f[0] === "string" && typeof f[1] === "string" && isCount(f[2]) &&
      isStat(f[3]) && isStat(f[4]) && isStat(f[5]) && typeof f[6] === "number"
    ) &&
    Array.isArray(h.walkWarnings) && Array.isArray(h.read) && h.read.every((f) => typeof f === "string") &&
    isCount(h.version) && isCount(h.views) && isCount(h.components) &&
    Array.isArray(h.sections) && h.sections.length === 4 && h.sections.every(isCount);
}

/** Whether a cache file is the user's own, a regular file (not a link) and private. */
function trusted(info: Deno.FileInfo): boolean {
  return info.isFile && own(info) && (info.mode === null || (info.mode & 0o077) === 0);
}

/**
 * The decoded files of a restored cache, read now: the cache itself, or an empty one when they cannot be read (the
 * next load then parses every file, as a cold start would).
 */
export function materialized(cache: LoadCache): LoadCache {
  try {
    for (const entry of cache.entries.values()) {
      if (
        !Array.isArray(entry.raw.components) || !Array.isArray(entry.warnings) || !entry.warnings.every(isDiagnostic)
      ) {
        throw new Error("corrupt");
      }
    }
    return cache;
  } catch {
    return new LoadCache();
  }
}

/**
 * Each decoded file's section bytes, kept while the file is (a decoded file and its warnings never change): a write
 * after a recompile encodes only the files parsed since the last one, not the whole corpus again.
 */
const DECODED_JSON = new WeakMap<RawFile, Uint8Array>();
const COMMA = new TextEncoder().encode(",");

/**
 * Writes the cache of a successful compile; resolves to whether it was written. Never throws: a cache that cannot be
 * written (read-only home, another user's directory) only means the next start decodes everything.
 */
export async function writeStartCache(
  home: string,
  key: StartCacheKey,
  record: StartCacheRecord,
): Promise<boolean> {
  try {
    const walk = record.cache.walk;
    if (!walk || walk.dir !== key.dir) return false;
    const files: Header["files"] = [];
    // The decoded files' section: one JSON array, its parts written in turn, never one large buffer.
    const entries: Uint8Array[] = [ENCODER.encode("[")];
    for (const f of walk.files) {
      const e = record.cache.entries.get(f.path);
      if (!e || e.validated !== key.validate) return false;
      files.push([f.path, f.relative, e.size, e.mtime ?? null, e.ctime ?? null, e.ino ?? null, e.checkedAt]);
      let json = DECODED_JSON.get(e.raw);
      if (json === undefined) DECODED_JSON.set(e.raw, json = ENCODER.encode(JSON.stringify([e.raw, e.warnings])));
      if (entries.length > 1) entries.push(COMMA);
      entries.push(json);
    }
    entries.push(ENCODER.encode("]"));
    const entriesBytes = entries.reduce((n, p) => n + p.length, 0);
    const diagnostics = ENCODER.encode(JSON.stringify(record.diagnostics));
    const header = ENCODER.encode(JSON.stringify(
      {
        build: buildStamp(),
        key,
        files,
        walkWarnings: walk.warnings,
        read: record.files,
        version: record.version,
        views: record.views,
        components: record.components,
        sections: [diagnostics.length, record.gzip.length, record.body.length, entriesBytes],
      } satisfies Header,
    ));
    const dirs = cacheDirs(home);
    await Deno.mkdir(dirs.at(-1)!, { recursive: true, mode: 0o700 });
    if (!dirs.every(privateDir)) return false;
    const path = await startCachePath(home, key.absDir);
    // A server killed while writing leaves its staged copy (megabytes for a large corpus): swept on the next write.
    removeStaleTemps(dirs.at(-1)!, STALE_TEMP_MS);
    const parts = [ENCODER.encode(lead(header.length)), header, diagnostics, record.gzip, record.body, ...entries];
    await writeUserFile(path, parts, path, { forceMode: true });
    return true;
  } catch {
    return false;
  }
}
