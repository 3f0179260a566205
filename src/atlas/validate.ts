/**
 * `mapper atlas validate [FILE|-]`: checks a catalog `index.json` as published (no escaping) and reports every
 * problem in one run, each with its JSON path and line, in a form that reads well in a CI log:
 *
 * ```
 *   index.json:12: entries[1].slug: duplicate slug "dupe" (the second entry would shadow the first at install)
 * ```
 *
 * Each entry is checked with the catalog's one set of entry rules (`entry_rules.ts`), the rules `mapper atlas build`
 * applies to a gallery entry's front matter, so what the build accepts validate accepts and the other way round.
 *
 * Exit 0 when clean, 1 when any problem was found (also for an unreadable file).
 *
 * @module
 */
import { resolve } from "node:path";
import {
  describe,
  EXIT_FAILURE,
  EXIT_OK,
  FileError,
  MapperError,
  NotFoundError,
  ProblemsFound,
  UsageError,
} from "../errors.ts";
import type { Io } from "../io.ts";
import { childPath, decodeUtf8Marked, JsonSyntaxError, type LocatedJson, parseLocated } from "./_json.ts";
import { escapeTerminal, plural, quote } from "./_text.ts";
import { toJson } from "../terminal.ts";
import { SCHEMA_VERSION } from "./catalog.ts";
import { checkEntry, kindOf } from "./entry_rules.ts";
import { readCapped } from "./transport.ts";
import { githubAnnotation } from "../github.ts";

/** Version of the `--json` report shape. */
export const VALIDATE_JSON_SCHEMA = 1;

/** Options of `atlas validate`. */
export interface ValidateOptions {
  /** File to check; `-` or undefined reads standard input. */
  file?: string | undefined;
  /** Print JSON instead of text. */
  json?: boolean | undefined;
  /** `text` (default), `json` (same as `json: true`) or `github` (workflow annotations at file:line). */
  format?: string | undefined;
}

/** One problem in a catalog. */
export interface CatalogProblem {
  /** Stable machine code, e.g. `duplicate-slug`. */
  code: string;
  /** JSON path, e.g. `entries[3].slug` (`""` for the document). */
  path: string;
  /** 1-based line where the offending value starts. */
  line: number;
  /** Index of the entry, when the problem is inside one. */
  entry?: number;
  /** Human sentence (values quoted and terminal-escaped). */
  message: string;
}

/** A catalog value in a message: terminal-escaped and wrapped in quotes (backslashes not doubled, for log readability). */
function shown(value: string): string {
  return `"${escapeTerminal(value)}"`;
}

/** Every problem of a catalog document, in document order. Pure: no I/O. */
export function validateCatalog(bytes: Uint8Array): { problems: CatalogProblem[]; entries: number } {
  const { text, valid } = decodeUtf8Marked(bytes);
  const problems: CatalogProblem[] = [];
  let doc: LocatedJson;
  try {
    doc = parseLocated(text);
  } catch (err: unknown) {
    if (err instanceof JsonSyntaxError) {
      return {
        problems: [{ code: "json-syntax", path: "", line: err.line, message: `not valid JSON: ${err.message}` }],
        entries: 0,
      };
    }
    throw err;
  }
  const lineOf = (path: string) => doc.lines.get(path) ?? 1;
  const add = (code: string, path: string, message: string, entry?: number) => {
    problems.push({ code, path, line: lineOf(path), ...(entry === undefined ? {} : { entry }), message });
  };
  const top = doc.value;
  if (top === null || typeof top !== "object" || Array.isArray(top)) {
    add(
      "not-an-object",
      "",
      `the catalog must be a JSON object with "schema_version" and "entries", found ${kindOf(top)}`,
    );
    return { problems, entries: 0 };
  }
  const t = top as Record<string, unknown>;
  const sv = t.schema_version;
  if (sv === undefined || sv === null) {
    add("schema-version", "", `"schema_version" is missing (write "schema_version": ${SCHEMA_VERSION})`);
  } else if (typeof sv !== "number" || !Number.isInteger(sv) || doc.nonIntegers.has("schema_version")) {
    add(
      "schema-version",
      "schema_version",
      `expected an integer, found ${kindOf(sv)} ${escapeTerminal(JSON.stringify(sv))}`,
    );
  } else if (sv > SCHEMA_VERSION) {
    add(
      "schema-version",
      "schema_version",
      `schema_version ${sv} is newer than this mapper understands (${SCHEMA_VERSION}); every shipped client would refuse the catalog`,
    );
    return { problems, entries: 0 };
  }
  const entries = t.entries;
  if (entries === undefined || entries === null) {
    add("entries", "", `"entries" is missing (write "entries": [])`);
    return { problems, entries: 0 };
  }
  if (!Array.isArray(entries)) {
    add("entries", "entries", `expected an array of entries, found ${kindOf(entries)}`);
    return { problems, entries: 0 };
  }
  const seen = new Map<string, number>();
  const unprintable = (value: string) =>
    !/[\ud800-\udfff]/.test(value)
      ? "a control character"
      : !valid && /[\udc80-\udcff]/.test(value)
      ? "invalid UTF-8"
      : "an unpaired surrogate escape";
  entries.forEach((item: unknown, i) => {
    const path = childPath("entries", i);
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      add("wrong-type", path, `expected an entry object, found ${kindOf(item)}`, i);
      return;
    }
    const at = (inner: ReadonlyArray<string | number>) => inner.reduce<string>((p, k) => childPath(p, k), path);
    const found = checkEntry(item as Record<string, unknown>, {
      source: "index",
      unprintable,
      isInteger: (v, inner) => Number.isInteger(v) && !doc.nonIntegers.has(at(inner)),
    });
    // The cross-entry rule: a slug used twice (the second would shadow the first at install).
    const slug = (item as { slug?: unknown }).slug;
    if (typeof slug === "string" && !found.some((p) => p.code === "unsafe-slug")) {
      const first = seen.get(slug);
      if (first !== undefined) {
        found.unshift({
          code: "duplicate-slug",
          path: ["slug"],
          message: `duplicate slug ${shown(slug)}, first used by entries[${first}] (the second entry would shadow ` +
            `the first at install)`,
        });
      } else seen.set(slug, i);
    }
    for (const p of found) add(p.code, at(p.path), p.message, i);
  });
  return { problems, entries: entries.length };
}

/** Runs `atlas validate`: prints the report; throws {@linkcode ProblemsFound} (exit 1) when there are problems. */
export async function runValidate(options: ValidateOptions, io: Io): Promise<number> {
  const fromStdin = options.file === undefined || options.file === "-";
  const label = fromStdin ? "<stdin>" : options.file ?? "";
  let bytes: Uint8Array;
  if (fromStdin) {
    if (options.file === undefined && io.isTTY.stdin) {
      throw new UsageError("no catalog to check: standard input is a terminal", {
        hint: "pass the path of an index.json, or pipe one in ('mapper atlas validate - < index.json')",
      });
    }
    bytes = await readCapped(io.stdin(), "standard input");
  } else {
    const abs = resolve(io.cwd, label);
    try {
      const info = await Deno.stat(abs);
      if (info.isDirectory) {
        throw new FileError(`cannot read ${quote(label)}: it is a directory`, {
          hint: "pass the path of the index.json inside it",
        });
      }
      bytes = await readCapped((await Deno.open(abs)).readable, quote(label));
    } catch (err: unknown) {
      if (err instanceof MapperError) throw err;
      if (err instanceof Deno.errors.NotFound) {
        throw new NotFoundError(`no such file: ${quote(label)}`, {
          hint: "pass the path of an index.json, or - for stdin",
        });
      }
      throw new FileError(`cannot read ${quote(label)}: ${describe(err)}`);
    }
  }
  const { problems, entries } = validateCatalog(bytes);
  const shownLabel = escapeTerminal(label);
  if (options.format === "github") {
    for (const p of problems) {
      io.stdout.write(githubAnnotation({
        severity: "error",
        file: fromStdin ? undefined : label,
        line: p.line,
        title: p.code,
        message: `${p.path === "" ? "" : `${p.path}: `}${p.message}`,
      }));
    }
    io.stdout.write(
      problems.length === 0
        ? `The catalog is valid (${plural(entries, "entry", "entries")}).\n`
        : `${plural(problems.length, "problem")} in ${shownLabel}\n`,
    );
  } else if (options.json) {
    io.stdout.write(toJson({
      schema: VALIDATE_JSON_SCHEMA,
      file: label,
      valid: problems.length === 0,
      entries,
      problems,
    }));
  } else if (problems.length === 0) {
    io.stdout.write(`The catalog is valid (${plural(entries, "entry", "entries")}).\n`);
  } else {
    for (const p of problems) {
      io.stdout.write(`  ${shownLabel}:${p.line}: ${p.path === "" ? "" : `${escapeTerminal(p.path)}: `}${p.message}\n`);
    }
  }
  if (problems.length > 0 && options.format === "github") return EXIT_FAILURE;
  if (problems.length > 0) {
    throw new ProblemsFound(`${plural(problems.length, "problem")} in ${shownLabel}`, {
      hint: "fix them and run 'mapper atlas validate' again",
    });
  }
  return EXIT_OK;
}
