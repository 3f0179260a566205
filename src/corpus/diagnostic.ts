/**
 * Problems found while loading a corpus: the diagnostic shape, the fatal-load error and the one-line format every
 * command prints (`file:line:col: message`).
 *
 * @module
 */
import { relative, sep as SEPARATOR } from "../path.ts";
import { DataError } from "../errors.ts";

/**
 * Where a problem is: the file path as walked (corpus dir joined with the relative path), 1-based line/column.
 * Line and column are `0` when the problem concerns a whole file or directory (e.g. unreadable).
 */
export interface SourceLocation {
  /** File path. */
  file: string;
  /** Line number. */
  line: number;
  /** Column number. */
  column: number;
  /**
   * The field inside the file: keys joined by `.`, list indexes as `[i]`, odd keys quoted (`views[0].route`,
   * `views[1].components[2]["$ref"]`); `""` for the document root; absent when unknown (e.g. a YAML syntax error).
   */
  path?: string;
}

/**
 * Authoring-only: where the value of each searchable field of a declaration starts, keyed `name`, `description`,
 * `route`, `url`, `selector[i]` and `memory[i]` (the i-th string kept), as written. No field path (`path`): only
 * the position.
 */
export type FieldLocations = Record<string, SourceLocation>;

/** A problem found while loading. `error` diagnostics from `load` are non-fatal (the entry was dropped). */
export interface Diagnostic {
  /** Stable machine code, e.g. `missing-name`, `ref-unresolved`, `unknown-field`, `yaml-syntax`. */
  code: string;
  /** How serious the problem is. */
  severity: "error" | "warning";
  /** What is wrong. */
  message: string;
  /** Where it is. */
  location: SourceLocation;
  /** The entity the problem is about (component, view, request or message name), when there is one. */
  component?: string;
  /** The selector the problem is about, when there is one. */
  selector?: string;
  /**
   * For a `parse-error`: the loader's own code for why the file could not be read (`yaml-syntax`, `type-mismatch`,
   * `file-encoding`, …), so `fmt` can tell a YAML syntax error from YAML of the wrong shape.
   */
  cause?: string;
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

/**
 * Stable sort by file (in the load order given), then line, column and code: the order every authoring command
 * reports in. Files not in `files` (the directory itself) sort first; callers append corpus-wide problems last.
 */
export function sortByLocation(list: Diagnostic[], files: readonly string[]): Diagnostic[] {
  const fileOrder = new Map<string, number>(files.map((f, i) => [f, i]));
  for (const d of list) if (!fileOrder.has(d.location.file)) fileOrder.set(d.location.file, -1);
  return list
    .map((d, i) => ({ d, i }))
    .sort((a, b) =>
      fileOrder.get(a.d.location.file)! - fileOrder.get(b.d.location.file)! ||
      a.d.location.line - b.d.location.line || a.d.location.column - b.d.location.column ||
      (a.d.code < b.d.code ? -1 : a.d.code > b.d.code ? 1 : 0) || a.i - b.i
    )
    .map(({ d }) => d);
}

/** One diagnostic as the envelope carries it (the `--json` envelope). */
export interface EnvelopeDiagnostic {
  /** Stable machine code, e.g. `missing-route`, `selector-invalid`. */
  code: string;
  /** How serious the problem is. */
  severity: "error" | "warning";
  /** One sentence naming what is wrong and how to fix it. */
  message: string;
  /** Corpus-relative, `/`-separated path of the file; `null` when the problem concerns the whole corpus. */
  file: string | null;
  /** 1-based line of the offending key or value; `null` when unknown or file-wide. */
  line: number | null;
  /** 1-based column; `null` with `line`. */
  column: number | null;
  /** Field path inside the file (`views[0].route`, `""` = the document); `null` when unknown. */
  path: string | null;
  /** The entity (component, view, request, message) the problem is about, when there is one. */
  component?: string;
  /** The selector the problem is about, when there is one. */
  selector?: string;
}

/** Converts a loader/checker diagnostic to the envelope's shape; `dir` is the corpus directory as loaded. */
export function toEnvelopeDiagnostic(d: Diagnostic, dir: string): EnvelopeDiagnostic {
  const { file, line, column, path } = d.location;
  const rel = corpusRelative(file, dir);
  const out: EnvelopeDiagnostic = {
    code: d.code,
    severity: d.severity,
    message: d.message,
    file: rel,
    line: rel !== null && line > 0 ? line : null,
    column: rel !== null && line > 0 && column > 0 ? column : null,
    path: path ?? null,
  };
  if (d.component !== undefined) out.component = d.component;
  if (d.selector !== undefined) out.selector = d.selector;
  return out;
}

/** A file path as walked (`dir` joined with the relative path) → corpus-relative with `/`; `null` for the dir. */
function corpusRelative(file: string, dir: string): string | null {
  if (file === "" || file === dir) return null;
  const rel = relative(dir, file);
  if (rel === "") return null;
  const posix = SEPARATOR === "/" ? rel : rel.split(SEPARATOR).join("/");
  // A file outside the corpus (should not happen) keeps its own path rather than a misleading `../`.
  return posix.startsWith("../") ? file : posix;
}
