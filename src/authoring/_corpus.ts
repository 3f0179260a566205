/**
 * Loading the corpus for a read-only authoring command (`stats`, `match`, `explain`): `--dir` or the walk-up
 * default, then `load()`. A load that fails outright is reported like any other finding (the envelope with the
 * fatal problems, exit 1) instead of a stack of text, so scripts reading `--json` always get an envelope.
 *
 * @module
 */
import { relative, sep as SEPARATOR } from "node:path";
import { type Corpus, CorpusLoadError, type Diagnostic, load } from "../corpus/mod.ts";
import type { Io } from "../io.ts";
import { resolveCorpusDir } from "./dir.ts";
import { makeEnvelope, type OutputFormat, writeEnvelope } from "./envelope.ts";

/** A loaded corpus with the directory it came from and the loader's findings. */
export interface LoadedCorpus {
  /** The directory as the user gave it (or as found walking up), for messages. */
  dir: string;
  /** The directory to read. */
  path: string;
  corpus: Corpus;
  diagnostics: readonly Diagnostic[];
}

/**
 * Resolves and loads the corpus. Returns it, or the exit code after the problem was reported: 2 for no corpus
 * directory (usage), 1 for a load that failed (YAML syntax, unreadable file…), printed in the chosen format.
 */
export async function loadForCommand(
  io: Io,
  format: OutputFormat,
  dir: string | undefined,
): Promise<LoadedCorpus | number> {
  const found = resolveCorpusDir(io, format, dir);
  if (typeof found === "number") return found;
  try {
    const { corpus, diagnostics } = await load(found.path);
    return { ...found, corpus, diagnostics };
  } catch (err: unknown) {
    if (!(err instanceof CorpusLoadError)) throw err;
    return writeEnvelope(io, makeEnvelope(err.problems, found.path, null), { format, dir: found.dir });
  }
}

/** A walked file path as corpus-relative with `/` (`views/home.yaml`). */
export function corpusFile(file: string, dirPath: string): string {
  const rel = relative(dirPath, file);
  return SEPARATOR === "/" ? rel : rel.split(SEPARATOR).join("/");
}
