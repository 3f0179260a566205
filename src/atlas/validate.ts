/**
 * `mapper atlas validate [FILE|-]`: checks a catalog `index.json` as published (no escaping) and reports every
 * problem in one run, each with its JSON path and line, in a form that reads well in a CI log:
 *
 * ```
 *   index.json:12: entries[1].slug: duplicate slug "dupe" (the second entry would shadow the first at install)
 * ```
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
import { escapeTerminal, needsEscape, plural, quote } from "./_text.ts";
import { toJson } from "../terminal.ts";
import { SCHEMA_VERSION } from "./catalog.ts";
import { slugProblem } from "./slug.ts";
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

const TEXT_FIELDS = ["name", "description", "last_verified", "updated"] as const;

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return "a number";
  return `a ${typeof value}`;
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
      `the catalog must be a JSON object with "schema_version" and "entries", found ${kind(top)}`,
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
      `expected an integer, found ${kind(sv)} ${escapeTerminal(JSON.stringify(sv))}`,
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
    add("entries", "entries", `expected an array of entries, found ${kind(entries)}`);
    return { problems, entries: 0 };
  }
  const seen = new Map<string, number>();
  entries.forEach((item: unknown, i) => {
    const path = childPath("entries", i);
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      add("wrong-type", path, `expected an entry object, found ${kind(item)}`, i);
      return;
    }
    const e = item as Record<string, unknown>;
    const slugPath = childPath(path, "slug");
    if (e.slug === undefined || e.slug === null) {
      add("missing-slug", path, `the entry has no "slug", so it can never be installed`, i);
      return;
    }
    if (typeof e.slug !== "string") {
      add("wrong-type", slugPath, `expected a string, found ${kind(e.slug)}`, i);
      return;
    }
    const slug = e.slug;
    const reason = slugProblem(slug);
    if (reason !== undefined) {
      add("unsafe-slug", slugPath, `slug ${shown(slug)} ${reason}; the entry can never be installed`, i);
      return;
    }
    const first = seen.get(slug);
    if (first !== undefined) {
      add(
        "duplicate-slug",
        slugPath,
        `duplicate slug ${
          shown(slug)
        }, first used by entries[${first}] (the second entry would shadow the first at install)`,
        i,
      );
    } else {
      seen.set(slug, i);
    }
    const checkText = (value: string, p: string) => {
      if (needsEscape(value)) {
        const invalid = !/[\ud800-\udfff]/.test(value)
          ? "a control character"
          : !valid && /[\udc80-\udcff]/.test(value)
          ? "invalid UTF-8"
          : "an unpaired surrogate escape";
        const why = invalid === "a control character" ? "terminals would interpret it" : "it cannot be displayed";
        add("control-character", p, `${invalid} in ${shown(value)} (${why})`, i);
      }
    };
    for (const field of TEXT_FIELDS) {
      const v = e[field];
      const p = childPath(path, field);
      if (v === undefined || v === null) continue;
      if (typeof v !== "string") add("wrong-type", p, `expected a string, found ${kind(v)}`, i);
      else checkText(v, p);
    }
    for (const field of ["domains", "categories"] as const) {
      const v = e[field];
      const p = childPath(path, field);
      if (v === undefined || v === null) continue;
      if (!Array.isArray(v)) {
        add("wrong-type", p, `expected an array of strings, found ${kind(v)}`, i);
        continue;
      }
      v.forEach((x: unknown, k) => {
        const pk = childPath(p, k);
        if (typeof x !== "string") add("wrong-type", pk, `expected a string, found ${kind(x)}`, i);
        else checkText(x, pk);
      });
    }
    const stats = e.stats;
    if (stats !== undefined && stats !== null) {
      const p = childPath(path, "stats");
      if (typeof stats !== "object" || Array.isArray(stats)) {
        add("wrong-type", p, `expected an object of counts, found ${kind(stats)}`, i);
      } else {
        for (const [k, v] of Object.entries(stats)) {
          const pk = childPath(p, k);
          if (v === null) continue;
          if (typeof v !== "number" || !Number.isInteger(v) || doc.nonIntegers.has(pk) || v < 0) {
            add("wrong-type", pk, `expected a whole number ≥ 0, found ${escapeTerminal(JSON.stringify(v))}`, i);
          }
        }
      }
    }
    const site = e.site_url;
    if (site !== undefined && site !== null) {
      const p = childPath(path, "site_url");
      if (typeof site !== "string") add("wrong-type", p, `expected a string, found ${kind(site)}`, i);
      else {
        let ok = false;
        try {
          ok = new URL(site).protocol === "https:";
        } catch {
          ok = false;
        }
        if (!ok) add("site-url", p, `site_url ${shown(site)} is not an https:// URL`, i);
      }
    }
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
