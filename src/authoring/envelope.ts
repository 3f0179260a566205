/**
 * The one output shape of every authoring command (`validate`, `lint`, `fmt`, `stats`, `match`, `explain`, `init`):
 * the `--json` envelope `{ok, diagnostics, result}`, and its two other renderings: text lines for
 * people (`views/home.yaml:4:5: error missing-route: …` + a summary) and GitHub workflow commands
 * (`::error file=…,line=…,col=…,title=CODE::message`) for CI annotations (§10).
 *
 * @module
 */
import { isAbsolute, join, relative, sep as SEPARATOR } from "node:path";
import { type Diagnostic, type EnvelopeDiagnostic, toEnvelopeDiagnostic } from "../corpus/mod.ts";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "../errors.ts";
import { colorEnabled, type Io } from "../io.ts";
import { githubAnnotation } from "../github.ts";
import { escapeControls, toJson } from "../terminal.ts";

/** How a command prints its report. `--json` is `--format json`. */
export type OutputFormat = "text" | "json" | "github";

/** The accepted `--format` values, for help text and errors. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["text", "json", "github"];

export type { EnvelopeDiagnostic };
export { toEnvelopeDiagnostic };

/** What every authoring command prints with `--json`: one object on stdout and nothing else there. */
export interface Envelope<T> {
  /** No error diagnostic (and, for `lint` without `--warn-only` and `fmt --check`, no finding at all). */
  ok: boolean;
  /** Problems found, in report order. */
  diagnostics: EnvelopeDiagnostic[];
  /** The command's result; `null` when it could not produce one. */
  result: T;
}

/** Options of {@linkcode makeEnvelope}. */
export interface EnvelopeOptions {
  /** Overrides `ok` (default: no error diagnostic). `lint` and `fmt --check` are stricter. */
  ok?: boolean;
}

/** Builds the envelope for a result and its diagnostics (kept in the order given). */
export function makeEnvelope<T>(
  diagnostics: readonly Diagnostic[],
  dir: string,
  result: T,
  options: EnvelopeOptions = {},
): Envelope<T> {
  const list = diagnostics.map((d) => toEnvelopeDiagnostic(d, dir));
  return { ok: options.ok ?? !list.some((d) => d.severity === "error"), diagnostics: list, result };
}

/** Counts errors and warnings. */
export function countSeverities(diagnostics: readonly { severity: string }[]): { errors: number; warnings: number } {
  let errors = 0;
  for (const d of diagnostics) if (d.severity === "error") errors++;
  return { errors, warnings: diagnostics.length - errors };
}

/** The output format from `--json` / `--format`; an unknown format is a usage error. */
export function outputFormat(opts: { json?: boolean | undefined; format?: string | undefined }): OutputFormat {
  if (opts.format !== undefined && !(OUTPUT_FORMATS as readonly string[]).includes(opts.format)) {
    throw new UsageError(`unknown --format "${escapeControls(opts.format)}"`, {
      hint: `use one of ${OUTPUT_FORMATS.join(", ")}`,
    });
  }
  if (opts.json && opts.format !== undefined && opts.format !== "json") {
    throw new UsageError(`--json conflicts with --format ${opts.format}`, { hint: "give only one of them" });
  }
  return opts.json ? "json" : (opts.format as OutputFormat | undefined) ?? "text";
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The one-line summary of a diagnostics list: `✗ 1 error, 2 warnings`, `✓ no errors (2 warnings)`, `✓ no problems`. */
export function summaryLine(diagnostics: readonly { severity: string }[]): string {
  const { errors, warnings } = countSeverities(diagnostics);
  if (errors > 0) return `✗ ${plural(errors, "error")}, ${plural(warnings, "warning")}`;
  if (warnings > 0) return `✓ no errors (${plural(warnings, "warning")})`;
  return "✓ no problems";
}

/** Options of {@linkcode renderText}. */
export interface TextOptions {
  /** Colour the severity word (only on a TTY without `NO_COLOR`). */
  color?: boolean;
}

/**
 * The text rendering of diagnostics: one `file:line:col: severity code: message` line each (corpus-relative file;
 * `file: …` without a position, no prefix for corpus-wide problems). Control characters are shown escaped.
 */
export function renderDiagnosticLines(diagnostics: readonly EnvelopeDiagnostic[], options: TextOptions = {}): string {
  let out = "";
  for (const d of diagnostics) {
    const where = d.file === null ? "" : d.line === null ? `${d.file}: ` : `${d.file}:${d.line}:${d.column ?? 1}: `;
    const sev = options.color
      ? (d.severity === "error" ? "\x1b[31merror\x1b[0m" : "\x1b[33mwarning\x1b[0m")
      : d.severity;
    out += `${escapeControls(where)}${sev} ${d.code}: ${escapeControls(d.message)}\n`;
  }
  return out;
}

/** Options of {@linkcode renderGithub}. */
export interface GithubOptions {
  /** The corpus directory the envelope's files are relative to (absolute, or relative to `cwd`). */
  dir: string;
  /** The working directory annotation paths are made relative to (the repository root in CI). */
  cwd: string;
}

/**
 * GitHub Actions workflow commands, one per diagnostic: `::error file=F,line=L,col=C,title=CODE::message`
 * (`::warning` for warnings), with `F` relative to the working directory, so each lands on the diff at file:line.
 */
export function renderGithub(diagnostics: readonly EnvelopeDiagnostic[], options: GithubOptions): string {
  let out = "";
  for (const d of diagnostics) {
    let file: string | undefined;
    if (d.file !== null) {
      const abs = join(isAbsolute(options.dir) ? options.dir : join(options.cwd, options.dir), d.file);
      file = relative(options.cwd, abs);
      if (SEPARATOR !== "/") file = file.split(SEPARATOR).join("/");
    }
    out += githubAnnotation({
      severity: d.severity,
      file,
      line: d.line ?? undefined,
      column: d.line === null ? undefined : d.column ?? 1,
      title: d.code,
      message: d.message + (d.path ? ` (${d.path})` : ""),
    });
  }
  return out;
}

/** Options of {@linkcode writeEnvelope}. */
export interface WriteOptions<T> {
  /** Output format to write. */
  format: OutputFormat;
  /** The corpus directory (for github paths). */
  dir: string;
  /** Text-mode rendering of the result, printed after the diagnostic lines (default: the summary line). */
  text?: (envelope: Envelope<T>) => string;
}

/**
 * Prints an envelope in the chosen format on stdout and returns the exit code (0 when `ok`, else 1). JSON: the
 * envelope and nothing else; github: workflow commands then the summary; text: diagnostic lines then the result.
 */
export function writeEnvelope<T>(io: Io, envelope: Envelope<T>, options: WriteOptions<T>): number {
  switch (options.format) {
    case "json":
      io.stdout.write(toJson(envelope));
      break;
    case "github":
      io.stdout.write(renderGithub(envelope.diagnostics, { dir: options.dir, cwd: io.cwd }));
      io.stdout.write(options.text ? options.text(envelope) : `${summaryLine(envelope.diagnostics)}\n`);
      break;
    default:
      io.stdout.write(renderDiagnosticLines(envelope.diagnostics, { color: colorEnabled(io, "stdout") }));
      io.stdout.write(options.text ? options.text(envelope) : `${summaryLine(envelope.diagnostics)}\n`);
  }
  return envelope.ok ? EXIT_OK : EXIT_FAILURE;
}

/** The envelope of a usage problem: one `usage`/`corpus-not-found` error, no result. */
export function usageEnvelope(code: "usage" | "corpus-not-found", message: string): Envelope<null> {
  return {
    ok: false,
    diagnostics: [{ code, severity: "error", message, file: null, line: null, column: null, path: null }],
    result: null,
  };
}

/**
 * A usage problem (`usage`, `corpus-not-found`): with `--json` an envelope with that one error is printed and the
 * exit code is 2; otherwise a {@linkcode UsageError} is thrown so the CLI prints its one line.
 */
export function usageFailure(
  io: Io,
  format: OutputFormat,
  code: "usage" | "corpus-not-found",
  message: string,
  hint: string,
): number {
  if (format !== "json") throw new UsageError(message, { hint });
  io.stdout.write(toJson(usageEnvelope(code, `${message} — ${hint}`)));
  return EXIT_USAGE;
}
