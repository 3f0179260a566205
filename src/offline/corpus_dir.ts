/**
 * Which corpus an offline command reads, and the corpus itself: `--dir` as given, else the nearest `.mapper/` here or
 * above (the walk every corpus command uses); loaded and compiled, its load failures printed as `validate` words
 * them.
 *
 * @module
 */
import { resolve } from "node:path";
import {
  compile,
  type Corpus,
  CorpusLoadError,
  DEFAULT_CORPUS_DIR,
  findCorpusDirUp,
  formatDiagnostic,
  isDirectory,
  load,
  siteName,
  type WireCorpus,
} from "../corpus/mod.ts";
import { DataError, UsageError } from "../errors.ts";
import type { Io } from "../io.ts";
import { escapeControls } from "../terminal.ts";

/** A corpus directory: the path to read and the name to show. */
export interface CorpusDir {
  /** Absolute (or cwd-resolved) path. */
  path: string;
  /** As the user gave it, or the path found. */
  shown: string;
}

/** `--dir` as given, else the nearest `.mapper/` here or above. Throws a usage error naming the fix. */
export function corpusDir(given: string | undefined, io: Io): CorpusDir {
  if (given !== undefined) {
    const path = resolve(io.cwd, given);
    if (!isDirectory(path)) {
      throw new UsageError(`corpus directory "${escapeControls(given)}" does not exist or is not a directory`, {
        hint: "pass the .mapper/ directory with --dir",
      });
    }
    return { path, shown: given };
  }
  const found = findCorpusDirUp(io.cwd);
  if (found === undefined) {
    throw new UsageError(`no ${DEFAULT_CORPUS_DIR}/ directory here or in any parent of "${escapeControls(io.cwd)}"`, {
      hint: "pass one with --dir, or run 'mapper init' to create one",
    });
  }
  return { path: found, shown: found };
}

/** A loaded corpus: the model (authoring fields such as a view's `url:`) and its compiled wire form. */
export interface LoadedCorpus {
  /** The corpus as loaded. */
  model: Corpus;
  /** The compiled corpus (what the resolver matches with). */
  wire: WireCorpus;
  /** What the load found (errors included: the caller decides whether they stop it). */
  diagnostics: Awaited<ReturnType<typeof load>>["diagnostics"];
}

/**
 * Loads and compiles the corpus in `dir`; a corpus that cannot be loaded is a {@linkcode DataError} after its
 * problems are printed to stderr. `validate` runs every authoring check (the CSS parser included).
 */
export async function loadCorpus(dir: CorpusDir, io: Io, validate = false): Promise<LoadedCorpus> {
  let loaded;
  try {
    loaded = await load(dir.path, { validate, sources: false });
  } catch (err: unknown) {
    if (!(err instanceof CorpusLoadError)) throw err;
    for (const p of err.problems) io.stderr.write(`${escapeControls(formatDiagnostic(p))}\n`);
    throw new DataError(`cannot compile "${escapeControls(dir.shown)}" (problems listed above)`, {
      hint: "fix the YAML ('mapper validate' lists every problem) and run this again",
    });
  }
  return {
    model: loaded.corpus,
    wire: compile(loaded.corpus, { site: siteName(io.cwd), version: Math.trunc(io.now()) }),
    diagnostics: loaded.diagnostics,
  };
}
