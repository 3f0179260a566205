/**
 * `mapper validate [--dir D] [--json] [--format text|json|github]`: every diagnostic the corpus spec defines
 * (lint rules aside), each with code, severity, file:line:col, field path and a message naming the
 * fix. Exit 1 on any error, 0 otherwise (warnings alone pass). A file that cannot be parsed is one `parse-error`;
 * the rest of the corpus is still checked.
 *
 * @module
 */
import { type Corpus, type Diagnostic, load } from "../corpus/mod.ts";
import type { Io } from "../io.ts";
import { resolveCorpusDir } from "./dir.ts";
import { countSeverities, makeEnvelope, outputFormat, summaryLine, writeEnvelope } from "./envelope.ts";

/** Options of `mapper validate`. */
export interface ValidateOptions {
  dir?: string | undefined;
  json?: boolean | undefined;
  format?: string | undefined;
}

/** `result` of the validate envelope. */
export interface ValidateResult {
  /** Corpus files read. */
  files: number;
  errors: number;
  warnings: number;
}

/** What every check of a corpus found, in file load order (corpus-wide problems last). */
export interface CorpusCheck {
  corpus: Corpus;
  /** Every corpus file read, as walked. */
  files: string[];
  diagnostics: Diagnostic[];
}

/** Loads `dir` with every authoring check on, going past unparsable files. The one pipeline validate/lint/fmt use. */
export async function checkCorpus(dir: string): Promise<CorpusCheck> {
  const { corpus, diagnostics } = await load(dir, { validate: true, tolerant: true });
  return { corpus, files: corpus.files, diagnostics };
}

/** Runs `mapper validate`; returns the exit code. */
export async function runValidate(opts: ValidateOptions, io: Io): Promise<number> {
  const format = outputFormat(opts);
  const where = resolveCorpusDir(io, format, opts.dir);
  if (typeof where === "number") return where;
  const { files, diagnostics } = await checkCorpus(where.path);
  const counts = countSeverities(diagnostics);
  const envelope = makeEnvelope(diagnostics, where.path, { files: files.length, ...counts });
  return writeEnvelope(io, envelope, {
    format,
    dir: where.path,
    text: (e) => `${summaryLine(e.diagnostics)} (${files.length} file${files.length === 1 ? "" : "s"})\n`,
  });
}
