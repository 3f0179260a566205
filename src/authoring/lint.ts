/**
 * `mapper lint [--dir D] [--json] [--warn-only] [--format …]`: everything `validate` reports (with its own codes and
 * severities; `no-views` is validate's alone) plus the style rules of {@linkcode lintCorpus}, as warnings. Exit 1
 * on any finding, so a gallery can gate on it; `--warn-only` exits 0 on warnings but never hides an error.
 *
 * @module
 */
import { sortByLocation } from "../corpus/mod.ts";
import type { Io } from "../io.ts";
import { resolveCorpusDir } from "./dir.ts";
import { countSeverities, makeEnvelope, outputFormat, summaryLine, writeEnvelope } from "./envelope.ts";
import { lintCorpus } from "./lint_rules.ts";
import { checkCorpus } from "./validate.ts";

/** Options of `mapper lint`. */
export interface LintOptions {
  dir?: string | undefined;
  json?: boolean | undefined;
  format?: string | undefined;
  warnOnly?: boolean | undefined;
}

/** Runs `mapper lint`; returns the exit code. */
export async function runLint(opts: LintOptions, io: Io): Promise<number> {
  const format = outputFormat(opts);
  const where = resolveCorpusDir(io, format, opts.dir);
  if (typeof where === "number") return where;
  const { corpus, files, diagnostics } = await checkCorpus(where.path);
  const kept = diagnostics.filter((d) => d.code !== "no-views");
  const inFiles = kept.filter((d) => files.includes(d.location.file));
  const corpusWide = kept.filter((d) => !files.includes(d.location.file));
  const all = [...sortByLocation([...inFiles, ...lintCorpus(corpus)], files), ...corpusWide];
  const counts = countSeverities(all);
  const ok = counts.errors === 0 && (opts.warnOnly === true || counts.warnings === 0);
  const envelope = makeEnvelope(all, where.path, counts, { ok });
  return writeEnvelope(io, envelope, {
    format,
    dir: where.path,
    text: (e) => e.diagnostics.length === 0 ? "✓ no lint findings\n" : `${summaryLine(e.diagnostics)}\n`,
  });
}
