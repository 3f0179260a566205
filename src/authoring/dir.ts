/**
 * Which corpus an authoring command works on: `--dir D` as given, else the nearest `.mapper/` walking up from the
 * working directory, so `mapper validate` works from any folder of a project.
 *
 * @module
 */
import { join, relative, resolve } from "node:path";
import { DEFAULT_CORPUS_DIR, findCorpusDirUp, isDirectory } from "../corpus/mod.ts";
import type { Io } from "../io.ts";
import { type OutputFormat, usageFailure } from "./envelope.ts";

export { DEFAULT_CORPUS_DIR };

/**
 * The nearest `.mapper/` directory at or above `cwd`, shown relative to `cwd` when it is inside it (`.mapper`,
 * `../.mapper`), else absolute; `undefined` when there is none up to the file-system root.
 */
export function findCorpusDir(cwd: string): string | undefined {
  const found = findCorpusDirUp(cwd);
  return found === undefined ? undefined : relative(cwd, found) || ".";
}

/**
 * Resolves `--dir` (or the walk-up default) to an existing directory, relative paths against `io.cwd`. When there is
 * none: with `--json` prints a `corpus-not-found` envelope and returns the exit code (2); otherwise throws a
 * usage error. `{dir}` is the path as the user gave it (messages), `{path}` the one to read.
 */
export function resolveCorpusDir(
  io: Io,
  format: OutputFormat,
  dir: string | undefined,
): { dir: string; path: string } | number {
  if (dir !== undefined) {
    const path = resolve(io.cwd, dir);
    if (isDirectory(path)) return { dir, path };
    return usageFailure(
      io,
      format,
      "corpus-not-found",
      `corpus directory "${dir}" does not exist or is not a directory`,
      "pass the .mapper/ directory with --dir, or run 'mapper init' to create one",
    );
  }
  const found = findCorpusDir(io.cwd);
  if (found !== undefined) return { dir: found, path: join(io.cwd, found) };
  return usageFailure(
    io,
    format,
    "corpus-not-found",
    `no .mapper/ directory here or in any parent of "${io.cwd}"`,
    "pass one with --dir, or run 'mapper init' to create one",
  );
}
