/**
 * The one write of what mapper writes for the user: never half-written, never through a link planted at its path,
 * private unless it already had its own permissions.
 *
 * {@linkcode writeUserFile} writes one file (`export -o`, `snapshot --out`, `screenshot --out`, `--response-file`,
 * `--request-file`, `fmt --write`, `init`, the session file, the catalog cache): the bytes go to a new file beside the
 * target (created exclusively: nothing already at that name is opened or followed), are flushed, and the new file is
 * renamed over the target — a rename replaces the directory entry itself, so a symbolic link at the target is
 * replaced, not written through. A new file is mode 0600; an existing regular file keeps its mode. A directory or a
 * special file (FIFO, socket, device) at the target is refused.
 *
 * {@linkcode replaceDirectory} swaps a whole directory (`skills install`, the bundled extension) the same way: staged
 * beside it, renamed in, the old copy put back when the swap fails.
 *
 * Light on purpose (the project's own path module, no `node:` import): `network get` loads it.
 *
 * @module
 */
import { basename, dirname, join } from "./path.ts";
import { FileError } from "./errors.ts";
import { escapeControls } from "./terminal.ts";

/** Mode of a file mapper creates for the user: readable by its owner only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Options of {@linkcode writeUserFile}. */
export interface UserFileOptions {
  /** Mode of a new file (default {@linkcode PRIVATE_FILE_MODE}). An existing regular file keeps its own. */
  mode?: number;
  /** Give the file `mode` even when one existed with another (private state mapper owns). Default false. */
  forceMode?: boolean;
  /**
   * Create only: when anything (a file, a link, a directory) is already at the path, write nothing and return
   * `false` (`init` never overwrites). Default false: an existing file is replaced.
   */
  createOnly?: boolean;
  /** The hint of the {@linkcode FileError} thrown when the write fails. */
  hint?: string;
}

/** What is at `path` now, without following a link: its mode when it is a regular file. */
async function existing(path: string, shown: string): Promise<{ mode: number | null } | "link" | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (err: unknown) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw new FileError(`cannot write "${shown}": ${err instanceof Error ? err.message : String(err)}`);
  }
  if (info.isSymlink) return "link"; // replaced by the rename, never followed
  if (!info.isFile) {
    throw new FileError(`cannot write "${shown}": it is ${info.isDirectory ? "a directory" : "not a regular file"}`, {
      hint: "give the path of a file to create or replace",
    });
  }
  return { mode: info.mode === null ? null : info.mode & 0o7777 };
}

function randomSuffix(): string {
  return crypto.getRandomValues(new Uint8Array(6)).reduce((s, b) => s + b.toString(16).padStart(2, "0"), "");
}

/** The temporary file a write of `path` is staged in: hidden, beside it, named after it. */
function tempFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.mapper-${randomSuffix()}.tmp`);
}

/** A name {@linkcode tempFor} makes. */
const TEMP_NAME = /^\..+\.mapper-[0-9a-f]{12}\.tmp$/;

/**
 * Removes from `dir` the temporary files of writes that never finished (a process killed mid-write leaves its staged
 * copy behind) whose last change is older than `olderThanMs`: a younger one may be a write still under way. Only the
 * user's own regular files with the staging name are touched, never followed through a link; for directories mapper
 * owns (its caches), where such leftovers would otherwise pile up, one per kill. Returns how many it removed; a
 * directory it cannot read has none.
 */
export function removeStaleTemps(dir: string, olderThanMs: number, now: number = Date.now()): number {
  let removed = 0;
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (!e.isFile || !TEMP_NAME.test(e.name)) continue;
    const path = join(dir, e.name);
    try {
      const info = Deno.lstatSync(path);
      const mine = info.uid === null || info.uid === Deno.uid();
      const changed = info.mtime?.getTime();
      if (!info.isFile || !mine || changed === undefined || now - changed < olderThanMs) continue;
      Deno.removeSync(path);
      removed++;
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

/** Size of the buffer {@linkcode writeChunks} fills before each write. */
const WRITE_BUFFER_BYTES = 64 * 1024;

/**
 * Writes `chunks` in turn to `file`, texts encoded and small parts copied into one reused buffer: a large file made of
 * many parts is never one large buffer (allocating and filling one holds the event loop far longer than writing as it
 * goes).
 */
async function writeChunks(file: Deno.FsFile, chunks: Iterable<Uint8Array | string>): Promise<void> {
  const buffer = new Uint8Array(WRITE_BUFFER_BYTES);
  const encoder = new TextEncoder();
  let fill = 0;
  const writeAll = async (bytes: Uint8Array) => {
    for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
  };
  const flush = async () => {
    await writeAll(buffer.subarray(0, fill));
    fill = 0;
  };
  for (const chunk of chunks) {
    if (typeof chunk !== "string") {
      if (chunk.length > buffer.length - fill) await flush();
      if (chunk.length > buffer.length) await writeAll(chunk);
      else (buffer.set(chunk, fill), fill += chunk.length);
      continue;
    }
    let rest = chunk;
    for (;;) {
      const { read, written } = encoder.encodeInto(rest, buffer.subarray(fill));
      fill += written;
      if (read === rest.length) break;
      rest = rest.slice(read);
      await flush();
    }
    if (fill === buffer.length) await flush();
  }
  await flush();
}

/**
 * Writes `data` to `path` (see the module documentation): bytes, a text, or parts written in turn. `shown` names it
 * in messages (default `path`). Returns `false` only when `createOnly` found something at the path (nothing written),
 * else `true`. Throws {@linkcode FileError} naming the file and why.
 */
export async function writeUserFile(
  path: string,
  data: Uint8Array | string | Iterable<Uint8Array | string>,
  shown: string = path,
  options: UserFileOptions = {},
): Promise<boolean> {
  const name = escapeControls(shown);
  const hint = options.hint ?? "give a file path in an existing directory you can write to";
  const before = options.createOnly ? undefined : await existing(path, name);
  const temp = tempFor(path);
  let mode = options.mode ?? PRIVATE_FILE_MODE;
  if (typeof before === "object" && before.mode !== null && !options.forceMode) mode = before.mode;
  try {
    {
      await using file = await Deno.open(temp, { write: true, createNew: true, mode: PRIVATE_FILE_MODE });
      await writeChunks(file, typeof data === "string" || data instanceof Uint8Array ? [data] : data);
      await file.syncData();
    }
    // Exactly this mode (the one given at creation is narrowed by the umask); no-op where modes do not exist.
    if (Deno.build.os !== "windows") await Deno.chmod(temp, mode);
    if (options.createOnly) {
      // A hard link is created only where nothing is, atomically: no check-then-write race, no link followed.
      try {
        await Deno.link(temp, path);
      } catch (err: unknown) {
        if (err instanceof Deno.errors.AlreadyExists) return false;
        throw err;
      } finally {
        await Deno.remove(temp).catch(() => {});
      }
      return true;
    }
    await Deno.rename(temp, path);
    return true;
  } catch (err: unknown) {
    await Deno.remove(temp).catch(() => {});
    if (err instanceof FileError) throw err;
    throw new FileError(`cannot write "${name}": ${err instanceof Error ? err.message : String(err)}`, { hint });
  }
}

/** The file-system operations the directory swap uses; tests inject failures through it. */
export interface SwapOps {
  rename(from: string, to: string): Promise<void>;
}

const realOps: SwapOps = { rename: (from, to) => Deno.rename(from, to) };

/** Modes of what {@linkcode replaceDirectory} creates, and the operations it swaps with. */
export interface StagedOptions {
  /** Mode of the directory and every directory inside it. */
  dirMode: number;
  /** Mode of every file. */
  fileMode: number;
  /** The renames (tests inject failures). */
  ops?: SwapOps;
}

/**
 * Makes `dir` hold exactly `files` (`[relative path with "/", text]`). The files are written into
 * `.<name>.staging-<random>` beside `dir`; the old copy (if any) is renamed aside to `.<name>.old-<random>`, the
 * staging directory renamed in, and the old copy removed. If renaming the new copy in fails, the old copy is put
 * back, so `dir` is never missing; the staging directory is always removed. The parent of `dir` must exist.
 */
export async function replaceDirectory(
  dir: string,
  files: ReadonlyArray<readonly [string, string]>,
  opts: StagedOptions,
): Promise<void> {
  const ops = opts.ops ?? realOps;
  const id = crypto.randomUUID().slice(0, 8);
  const staging = join(dirname(dir), `.${basename(dir)}.staging-${id}`);
  const old = join(dirname(dir), `.${basename(dir)}.old-${id}`);
  try {
    await Deno.mkdir(staging, { mode: opts.dirMode });
    for (const [rel, content] of files) {
      const file = join(staging, ...rel.split("/"));
      await Deno.mkdir(dirname(file), { recursive: true, mode: opts.dirMode });
      await Deno.writeTextFile(file, content, { mode: opts.fileMode, createNew: true });
    }
    let hadOld = true;
    try {
      await ops.rename(dir, old);
    } catch (err: unknown) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
      hadOld = false;
    }
    try {
      await ops.rename(staging, dir);
    } catch (err: unknown) {
      if (hadOld) {
        try {
          await ops.rename(old, dir);
        } catch (back: unknown) {
          const why = back instanceof Error ? back.message : String(back);
          throw new Error(`${err instanceof Error ? err.message : String(err)}; the previous copy is at "${old}"`, {
            cause: new AggregateError([err, back], `putting the previous copy back failed too: ${why}`),
          });
        }
      }
      throw err;
    }
    // Swapped: the old copy is only clutter now, so failing to remove it does not fail the swap.
    if (hadOld) await Deno.remove(old, { recursive: true }).catch(() => {});
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
}
