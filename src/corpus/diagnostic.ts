/**
 * Problems found while loading a corpus: the diagnostic shape, the fatal-load error and the one-line format every
 * command prints (`file:line:col: message`).
 *
 * @module
 */
import { DataError } from "../errors.ts";

/**
 * Where a problem is: the file path as walked (corpus dir joined with the relative path), 1-based line/column.
 * Line and column are `0` when the problem concerns a whole file or directory (e.g. unreadable).
 */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
  /**
   * The field inside the file: keys joined by `.`, list indexes as `[i]`, odd keys quoted (`views[0].route`,
   * `views[1].components[2]["$ref"]`); `""` for the document root; absent when unknown (e.g. a YAML syntax error).
   */
  path?: string;
}

/** A problem found while loading. `error` diagnostics from `load` are non-fatal (the entry was dropped). */
export interface Diagnostic {
  /** Stable machine code, e.g. `missing-name`, `ref-unresolved`, `unknown-field`, `yaml-syntax`. */
  code: string;
  severity: "error" | "warning";
  message: string;
  location: SourceLocation;
  /** The entity the problem is about (component, view, request or message name), when there is one. */
  component?: string;
  /** The selector the problem is about, when there is one. */
  selector?: string;
}

/** Formats a diagnostic as one line: `file:line:col: message` (or `file: message` without a position). */
export function formatDiagnostic(d: Diagnostic): string {
  const { file, line, column } = d.location;
  const where = line > 0 ? `${file}:${line}:${column}` : file;
  return `${where}: ${d.message}`;
}

/** The load failed: unreadable file, YAML syntax error, wrong types. Lists every problem, not just the first. */
export class CorpusLoadError extends DataError {
  /** Every fatal problem, in file order. */
  readonly problems: readonly Diagnostic[];
  /** Creates the error; the message summarises, `problems` carries the detail. */
  constructor(problems: readonly Diagnostic[], options: { hint?: string } = {}) {
    const first = problems[0];
    const where = first ? formatDiagnostic(first) : "";
    super(
      problems.length === 1 ? where : `${problems.length} problems, first: ${where}`,
      options.hint === undefined ? {} : { hint: options.hint },
    );
    this.problems = problems;
  }
}
