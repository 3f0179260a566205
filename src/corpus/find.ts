/**
 * Finding the corpus directory the way git finds its repository: the nearest `.mapper/` at or above the working
 * directory. The one walk-up every command uses: the authoring commands (`validate`, `match`, …) take the nearest
 * one; the session commands (`console`, `network`, `browser status|stop`) the nearest one holding a session file;
 * `browser start` the nearest one, else `./.mapper`.
 *
 * Light on purpose (no `node:` module, no corpus loader): `mapper console list` imports it before it prints.
 *
 * @module
 */
import { dirname, join } from "../path.ts";

/** The corpus directory name looked for when `--dir` is not given. */
export const DEFAULT_CORPUS_DIR = ".mapper";

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
 * The absolute path of the nearest `.mapper/` directory at or above `cwd` (absolute) for which `holds` is true
 * (default: any), or `undefined` when there is none up to the file-system root.
 */
export function findCorpusDirUp(
  cwd: string,
  holds: (dir: string) => boolean = () => true,
): string | undefined {
  for (let dir = cwd;; dir = dirname(dir)) {
    const candidate = join(dir, DEFAULT_CORPUS_DIR);
    if (isDirectory(candidate) && holds(candidate)) return candidate;
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
