/**
 * `mapper fmt [--check] [--write] [--dir D] [--json] [--format …]`: rewrite every corpus file in the canonical format
 * ({@linkcode canonicalize}). A file that does not parse (`fmt.parse-error`), that has any error
 * diagnostic (`fmt.schema-invalid`), or whose sorting would change which view wins a URL (`fmt.order-sensitive`) is
 * never touched. `--check` writes nothing and reports each file that is not canonical (`fmt.not-canonical`, exit 1).
 * Files are replaced atomically (temp file beside it, then rename).
 *
 * @module
 */
import { dirname, join, relative, sep } from "node:path";
import type { Diagnostic } from "../corpus/mod.ts";
import { FileError } from "../errors.ts";
import type { Io } from "../io.ts";
import { canonicalize } from "./canonical.ts";
import { resolveCorpusDir } from "./dir.ts";
import { countSeverities, makeEnvelope, outputFormat, summaryLine, writeEnvelope } from "./envelope.ts";
import { checkCorpus } from "./validate.ts";

/** Options of `mapper fmt`. */
export interface FmtOptions {
  dir?: string | undefined;
  json?: boolean | undefined;
  format?: string | undefined;
  check?: boolean | undefined;
  write?: boolean | undefined;
}

/** One file of the fmt result. */
export interface FmtFile {
  /** Corpus-relative, `/`-separated. */
  path: string;
  /** The bytes were (or, with `--check`, would be) altered; `false` for refused files. */
  changed: boolean;
  /** Only when `<dir>/.expected/<path>` exists: whether the canonical text equals it. */
  matchesExpected?: boolean;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (err: unknown) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/** Writes a file through a temp file beside it, so a reader never sees half a file. */
async function replaceFile(path: string, text: string): Promise<void> {
  const temp = join(dirname(path), `.${path.split(/[\\/]/).pop()}.fmt-${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    const info = await Deno.stat(path);
    await Deno.writeTextFile(temp, text, { mode: info.mode ?? 0o644 });
    await Deno.rename(temp, path);
  } catch (err: unknown) {
    await Deno.remove(temp).catch(() => {});
    throw new FileError(`cannot write "${path}": ${err instanceof Error ? err.message : String(err)}`, {
      hint: "check the file's permissions",
    });
  }
}

function problem(code: string, message: string, file: string, severity: "error" | "warning" = "error"): Diagnostic {
  return { code, severity, message, location: { file, line: 0, column: 0 } };
}

/** Runs `mapper fmt`; returns the exit code. */
export async function runFmt(opts: FmtOptions, io: Io): Promise<number> {
  const format = outputFormat(opts);
  const where = resolveCorpusDir(io, format, opts.dir);
  if (typeof where === "number") return where;
  const check = opts.check === true;
  const { files, diagnostics } = await checkCorpus(where.path);
  const errorsByFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    if (d.severity !== "error") continue;
    errorsByFile.set(d.location.file, [...(errorsByFile.get(d.location.file) ?? []), d]);
  }
  const out: Diagnostic[] = [];
  const results: FmtFile[] = [];
  for (const file of files) {
    const rel = relative(where.path, file).split(sep).join("/");
    const entry: FmtFile = { path: rel, changed: false };
    results.push(entry);
    const text = await readOptional(file);
    const errors = errorsByFile.get(file) ?? [];
    // YAML that parses but has the wrong shape (`components:` given as a mapping) is a schema error, not a parse error.
    const parseError = errors.find((d) => d.code === "parse-error" && d.cause !== "type-mismatch");
    if (text === undefined || parseError) {
      const at = parseError?.location ?? { file, line: 0, column: 0 };
      out.push({
        code: "fmt.parse-error",
        severity: "error",
        message: `${parseError?.message ?? "the file cannot be read"}; the file is left untouched`,
        location: at,
      });
      continue;
    }
    if (errors.length > 0) {
      const first = errors[0]!;
      const what = first.cause === "type-mismatch"
        ? first.message.replace(/ \(the file is skipped until this is fixed\)$/, "")
        : first.code;
      out.push({
        code: "fmt.schema-invalid",
        severity: "error",
        message: `the file has ${errors.length} error${
          errors.length === 1 ? "" : "s"
        } (first: line ${first.location.line} ${what}); fix ${
          errors.length === 1 ? "it" : "them"
        } (mapper validate) — the file is left untouched`,
        location: { file, line: first.location.line, column: first.location.column },
      });
      continue;
    }
    const canonical = canonicalize(text.replace(/^\uFEFF/, ""));
    if (canonical.kind === "parse-error") {
      out.push(problem("fmt.parse-error", `${canonical.message}; the file is left untouched`, file));
      continue;
    }
    if (canonical.kind === "order-sensitive") {
      out.push(problem("fmt.order-sensitive", `${canonical.message}; the file is left untouched`, file));
      continue;
    }
    entry.changed = canonical.text !== text;
    const expected = await readOptional(join(where.path, ".expected", ...rel.split("/")));
    if (expected !== undefined) entry.matchesExpected = expected === canonical.text;
    if (!entry.changed) continue;
    if (check) {
      out.push(problem(
        "fmt.not-canonical",
        `not in the canonical format; run 'mapper fmt' to rewrite it`,
        file,
        "warning",
      ));
    } else {
      await replaceFile(file, canonical.text);
    }
  }
  const counts = countSeverities(out);
  const ok = counts.errors === 0 && !(check && out.some((d) => d.code === "fmt.not-canonical"));
  const envelope = makeEnvelope(out, where.path, { files: results }, { ok });
  return writeEnvelope(io, envelope, {
    format,
    dir: where.path,
    text: (e) => {
      const changed = results.filter((f) => f.changed);
      const lines = check ? [] : changed.map((f) => `formatted ${f.path}\n`);
      const verb = check ? "not canonical" : "reformatted";
      const tail = e.diagnostics.length > 0 ? ` — ${summaryLine(e.diagnostics)}` : "";
      return `${lines.join("")}${changed.length} of ${results.length} file${
        results.length === 1 ? "" : "s"
      } ${verb}${tail}\n`;
    },
  });
}
