/**
 * The one staged write: new contents are written beside their place first and renamed into it, so a reader sees
 * the old copy or the new one, never a half-written mix, and a failure at any step leaves the old copy where it
 * was. {@linkcode replaceDirectory} swaps a whole directory (`skills install`, the bundled extension);
 * {@linkcode replaceFile} one file (every file mapper writes for the user: `--out`, `--response-file`,
 * `--request-file`; the session file; the catalog cache).
 *
 * Light on purpose (the project's own path module, no `node:` import): `network get` loads it.
 *
 * @module
 */
import { basename, dirname, join } from "./path.ts";

/** The file-system operations the swap uses; tests inject failures through it. */
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
      await Deno.writeTextFile(file, content, { mode: opts.fileMode });
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

/** Options of {@linkcode replaceFile}. */
export interface ReplaceFileOptions {
  /** Mode of a file that did not exist yet (default 0600: private to the user). A file that existed keeps its own. */
  mode?: number;
  /** Give the file `mode` even when one existed with another (private state mapper owns). Default false. */
  forceMode?: boolean;
}

/**
 * Writes `data` to `path` as a new file: a fresh temporary file beside it (`.<name>.<random>.tmp`, created
 * exclusively, so nothing planted at a guessable name is ever written through) is filled and renamed over `path`.
 * A symbolic link at `path` is replaced, never followed, so a planted link cannot steer the bytes into its target;
 * a regular file that was there keeps its mode (unless `forceMode`), anything new gets `options.mode` (0600). On failure the temporary
 * file is removed and `path` is as it was; the error is the file system's (callers say what they were writing).
 */
export async function replaceFile(
  path: string,
  data: Uint8Array | string,
  options: ReplaceFileOptions = {},
): Promise<void> {
  let mode = options.mode ?? 0o600;
  try {
    const info = await Deno.lstat(path);
    if (info.isDirectory) throw new Deno.errors.IsADirectory(`"${path}" is a directory`);
    if (info.isFile && info.mode !== null && !options.forceMode) mode = info.mode & 0o7777;
  } catch (err: unknown) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const tmp = join(dirname(path), `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    await Deno.writeFile(tmp, bytes, { createNew: true, mode: 0o600 });
    // Exactly this mode (the one given at creation is narrowed by the umask); no-op where modes do not exist.
    if (Deno.build.os !== "windows") await Deno.chmod(tmp, mode);
    await Deno.rename(tmp, path);
  } catch (err: unknown) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}
