/**
 * The one staged-directory swap: a directory's new contents are written into a fresh staging directory beside it,
 * then swapped into place by rename, so a reader sees the old copy or the new one, never a half-written mix, and a
 * failure at any step leaves the old copy where it was. Used by `skills install` (each skill) and the browser
 * session (the bundled extension).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

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
