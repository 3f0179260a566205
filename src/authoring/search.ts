/**
 * `mapper search PATTERN`: a JavaScript regular expression (or, with `--fixed`, plain text) over the corpus's
 * declarations as written — names, selectors (each list item), descriptions, memory notes, routes and URLs of
 * components, views, requests and messages, and the names of components' properties — each hit with where it is written and the path to it:
 *
 * ```
 * views/home.yaml:12:15  Catalog › ProductCard  selector: li.card
 * views/home.yaml:14:17  Catalog › ProductCard › price  name: price
 * ```
 *
 * Case-insensitive unless `--case`. A declaration reached through several `$ref`s is one hit, at its definition.
 * `--json`: `{schema: 1, pattern, flags, fields, types, files, hits: [{file, line, column, type, path, field,
 * value}]}`. Exit 0 (no hit too: the line says how many files were searched), 2 for a bad pattern or flag value.
 *
 * @module
 */
import type { Corpus, CorpusComponent, FieldLocations, SourceLocation } from "../corpus/mod.ts";
import { UsageError } from "../errors.ts";
import type { Io } from "../io.ts";
import { escapeControls, quote, toJson } from "../terminal.ts";
import { corpusFile, loadForCommand } from "./_corpus.ts";

/** The fields `--field` names. */
export const SEARCH_FIELDS = ["name", "selector", "description", "memory", "route", "url"] as const;
/** The declaration types `--type` names. */
export const SEARCH_TYPES = ["component", "view", "request", "message"] as const;

/** A searchable field. */
export type SearchField = typeof SEARCH_FIELDS[number];
/** A declaration type (`memory` notes at a file's top level are of type `file`). */
export type SearchType = typeof SEARCH_TYPES[number] | "file";

/** Options of {@linkcode runSearch} (the command's flags). */
export interface SearchOptions {
  /** The pattern as typed. */
  pattern: string;
  /** `name`, `selector`, `description`, `memory`, `route`, `url` or `all` (default). */
  field?: string;
  /** `component`, `view`, `request`, `message` or `all` (default). */
  type?: string;
  /** Match case exactly. */
  caseSensitive?: boolean;
  /** The pattern is plain text, not a regular expression. */
  fixed?: boolean;
  /** Print the JSON report. */
  json?: boolean;
  /** Corpus directory (default: the nearest `.mapper/` here or above). */
  dir?: string;
}

/** One hit. */
export interface SearchHit {
  /** Corpus-relative file (`views/home.yaml`). */
  file: string;
  line: number;
  column: number;
  type: SearchType;
  /** The path of names to the declaration: view, parent components, the component (empty for file memory). */
  path: string[];
  /** The field, with the list index for selectors and memory notes (`selector[1]`, `memory[0]`). */
  field: string;
  /** The value as written. */
  value: string;
}

/** The JSON report. */
export interface SearchReport {
  schema: 1;
  pattern: string;
  /** The regular expression's flags (`iu`, or `u` with `--case`). */
  flags: string;
  fields: SearchField[];
  types: SearchType[];
  /** Corpus files searched. */
  files: number;
  hits: SearchHit[];
}

function choose<T extends string>(given: string | undefined, all: readonly T[], flag: string): T[] {
  if (given === undefined || given === "all") return [...all];
  if ((all as readonly string[]).includes(given)) return [given as T];
  throw new UsageError(`unknown ${flag} ${quote(given)}`, { hint: `use one of ${all.join(", ")} or all` });
}

/** Compiles the pattern (or the fixed text) as `search` uses it; a bad one is a usage error naming the problem. */
export function searchPattern(pattern: string, options: { caseSensitive?: boolean; fixed?: boolean } = {}): RegExp {
  if (pattern === "") {
    throw new UsageError("empty pattern", { hint: "give the text or regular expression to look for" });
  }
  const source = options.fixed ? pattern.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&") : pattern;
  try {
    return new RegExp(source, options.caseSensitive ? "u" : "iu");
  } catch (err: unknown) {
    const why = (err instanceof Error ? err.message : String(err)).replace(/^Invalid regular expression: /, "");
    throw new UsageError(`invalid pattern ${quote(pattern)}: ${escapeControls(why)}`, {
      hint: "it is a JavaScript regular expression; add --fixed to look for the text as it is",
    });
  }
}

/**
 * Every field value of the corpus that `re` matches, in file order, then line and column. Pure; `fields` and
 * `types` select what is looked at.
 */
export function searchCorpus(
  corpus: Corpus,
  re: RegExp,
  fields: readonly SearchField[],
  types: readonly SearchType[],
): SearchHit[] {
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  const want = new Set<string>(fields);
  const add = (
    type: SearchType,
    path: string[],
    field: string,
    value: string | undefined,
    at: SourceLocation | undefined,
  ) => {
    if (value === undefined || at === undefined || !want.has(field.replace(/\[\d+\]$/, ""))) return;
    if (!re.test(value)) return;
    const key = `${at.file}\0${at.line}\0${at.column}\0${field}`;
    if (seen.has(key)) return; // a `$ref` expansion: the definition was reported already
    seen.add(key);
    hits.push({ file: at.file, line: at.line, column: at.column, type, path, field, value });
  };
  const listed = (
    type: SearchType,
    path: string[],
    field: "memory" | "selector",
    values: readonly string[] | undefined,
    at: FieldLocations | undefined,
  ) => values?.forEach((v, i) => add(type, path, `${field}[${i}]`, v, at?.[`${field}[${i}]`]));
  const component = (c: CorpusComponent, view: string | undefined) => {
    const path = [...(view === undefined ? [] : [view]), ...c.parentChain, c.name];
    add("component", path, "name", c.name, c.fieldAt?.name);
    listed("component", path, "selector", c.selectorText, c.fieldAt);
    add("component", path, "description", c.description, c.fieldAt?.description);
    listed("component", path, "memory", c.memory, c.fieldAt);
    c.properties.forEach((p, i) =>
      add("component", [...path, p.name], "name", p.name, c.fieldAt?.[`properties[${i}].name`])
    );
  };
  const on = new Set(types);
  if (on.has("file")) corpus.memory.forEach((m, i) => add("file", [], `memory[${i}]`, m, corpus.memoryAt?.[i]));
  if (on.has("component")) { for (const c of corpus.globals) component(c, undefined); }
  for (const v of corpus.views) {
    if (on.has("view")) {
      const at = v.fieldAt;
      add("view", [v.name], "name", v.name, at?.name);
      add("view", [v.name], "route", v.route, at?.route);
      add("view", [v.name], "url", v.url, at?.url);
      add("view", [v.name], "description", v.description, at?.description);
      listed("view", [v.name], "memory", v.memory, at);
    }
    if (on.has("component")) { for (const c of v.components) component(c, v.name); }
    if (on.has("request")) { for (const r of v.requests) request(r, [v.name, r.name]); }
  }
  function request(r: Corpus["requests"][number], path: string[]) {
    add("request", path, "name", r.name, r.fieldAt?.name);
    add("request", path, "route", r.route, r.fieldAt?.route);
    add("request", path, "description", r.description, r.fieldAt?.description);
    listed("request", path, "memory", r.memory, r.fieldAt);
  }
  if (on.has("request")) { for (const r of corpus.requests) request(r, [r.name]); }
  if (on.has("message")) {
    for (const m of corpus.messages) {
      add("message", [m.name], "name", m.name, m.fieldAt?.name);
      add("message", [m.name], "description", m.description, m.fieldAt?.description);
    }
  }
  const order = new Map(corpus.files.map((f, i) => [f, i]));
  return hits.sort((a, b) =>
    (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.line - b.line || a.column - b.column
  );
}

/** Runs `mapper search`; returns the exit code. */
export async function runSearch(opts: SearchOptions, io: Io): Promise<number> {
  const fields = choose(opts.field, SEARCH_FIELDS, "--field");
  const types: SearchType[] = choose(opts.type, SEARCH_TYPES, "--type");
  if (opts.type === undefined || opts.type === "all") types.push("file");
  const re = searchPattern(opts.pattern, { caseSensitive: opts.caseSensitive === true, fixed: opts.fixed === true });
  const loaded = await loadForCommand(io, opts.json ? "json" : "text", opts.dir);
  if (typeof loaded === "number") return loaded;
  const hits = searchCorpus(loaded.corpus, re, fields, types)
    .map((h) => ({ ...h, file: corpusFile(h.file, loaded.path) }));
  const report: SearchReport = {
    schema: 1,
    pattern: opts.pattern,
    flags: re.flags,
    fields,
    types,
    files: loaded.corpus.files.length,
    hits,
  };
  io.stdout.write(opts.json ? toJson(report) : render(report, re));
  return 0;
}

const MAX_SHOWN = 100;

/** The value around its first match, on one line, at most {@linkcode MAX_SHOWN} characters. */
function excerpt(value: string, re: RegExp): string {
  const line = value.replace(/\s*\n\s*/g, " ");
  const chars = [...line];
  if (chars.length <= MAX_SHOWN) return line;
  const at = line.search(re);
  const start = Math.max(0, Math.min([...line.slice(0, Math.max(0, at))].length - 20, chars.length - MAX_SHOWN));
  const end = start + MAX_SHOWN;
  return `${start > 0 ? "…" : ""}${chars.slice(start, end).join("")}${end < chars.length ? "…" : ""}`;
}

function render(r: SearchReport, re: RegExp): string {
  if (r.hits.length === 0) {
    return `no match for ${quote(r.pattern)} in ${r.files} ${r.files === 1 ? "file" : "files"} searched\n`;
  }
  const lines = r.hits.map((h) => {
    const where = `${h.file}:${h.line}:${h.column}`;
    const path = h.path.length > 0 ? `  ${h.path.join(" › ")}` : "";
    const field = h.field.replace(/\[\d+\]$/, "");
    return escapeControls(`${where}${path}  ${field}: ${excerpt(h.value, re)}`);
  });
  const n = r.hits.length;
  lines.push(`${n} ${n === 1 ? "hit" : "hits"} in ${r.files} ${r.files === 1 ? "file" : "files"} searched`);
  return `${lines.join("\n")}\n`;
}
