/**
 * Where `mapper atlas add` lands files before the final rename: what is at the target, parent directories created
 * (and removed again on failure), and the staging directories beside the target, including the clean-up of ones an
 * install that was killed left behind.
 *
 * @module
 */
import { dirname, join } from "node:path";

/**
 * What is at the install target. A symbolic link is refused whatever it points at: the final rename would replace
 * the link itself, not fill the directory it names.
 */
export async function pathKind(path: string): Promise<"missing" | "empty" | "nonempty" | "notdir" | "symlink"> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (err: unknown) {
    if (err instanceof Deno.errors.NotFound) return "missing";
    throw err;
  }
  if (info.isSymlink) return "symlink";
  if (!info.isDirectory) return "notdir";
  for await (const _ of Deno.readDir(path)) return "nonempty";
  return "empty";
}

/** Creates `dir` and missing parents; returns the topmost directory this call created (for clean-up). */
export async function mkdirTracked(dir: string): Promise<string | undefined> {
  let top: string | undefined;
  let probe = dir;
  for (;;) {
    try {
      await Deno.lstat(probe);
      break;
    } catch {
      top = probe;
      const up = dirname(probe);
      if (up === probe) break;
      probe = up;
    }
  }
  await Deno.mkdir(dir, { recursive: true, mode: 0o755 });
  return top;
}

/**
 * Staging directories are named `.mapper-add-<pid>-<random>` beside the target. One left behind by an install that
 * was killed (`kill -9`, power loss) is removed by a later install into the same parent, but only when it is
 * certainly ours and certainly abandoned: a real directory (not a symbolic link) owned by this user, whose name
 * matches the pattern exactly, and whose recorded pid is no longer running. Where liveness cannot be checked, it
 * is left alone.
 */
export const STAGING_PREFIX = ".mapper-add-";
const STAGING_NAME = /^\.mapper-add-([1-9][0-9]{0,9})-[A-Za-z0-9_]{1,32}$/;

/** Whether process `pid` is running: `true`/`false`, or `undefined` when this platform cannot tell cheaply. */
async function processAlive(pid: number): Promise<boolean | undefined> {
  if (pid === Deno.pid) return true;
  if (Deno.build.os !== "linux") return undefined;
  try {
    await Deno.lstat(`/proc/${pid}`);
    return true;
  } catch (err: unknown) {
    return err instanceof Deno.errors.NotFound ? false : undefined;
  }
}

/** Removes abandoned staging directories in `parent` (see {@linkcode STAGING_PREFIX}); never fails the install. */
export async function removeStaleStaging(parent: string): Promise<string[]> {
  const removed: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(parent));
  } catch {
    return removed;
  }
  const uid = Deno.uid();
  for (const e of entries) {
    const m = STAGING_NAME.exec(e.name);
    if (!m || !e.isDirectory || e.isSymlink) continue;
    const path = join(parent, e.name);
    const info = await Deno.lstat(path).catch(() => undefined);
    if (!info?.isDirectory || (uid !== null && info.uid !== uid)) continue;
    if ((await processAlive(Number(m[1]))) !== false) continue;
    try {
      await Deno.remove(path, { recursive: true });
      removed.push(e.name);
    } catch {
      // not ours to fight over: leave it
    }
  }
  return removed;
}

/** Removes `dir` and its parents up to and including `top` while they are empty. */
export async function removeEmptyUpTo(dir: string, top: string): Promise<void> {
  let d = dir;
  for (;;) {
    try {
      await Deno.remove(d);
    } catch {
      return;
    }
    if (d === top) return;
    const up = dirname(d);
    if (up === d) return;
    d = up;
  }
}
