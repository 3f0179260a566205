/**
 * `mapper explain NAME`: everything the corpus says about one name — each component, view, request and message
 * called exactly that (case-sensitive), in corpus order, with where it is declared and where it applies
 * . A global component lists the views that `$ref` it; a `$ref` expansion inside a view is not a
 * second definition. No hit is not a failure in `--json` (`ok: true`, `hits: []`, with `suggestions`); in text the
 * command names the closest names and exits 1, so a typo is never read as "nothing to say".
 *
 * @module
 */
import { didYouMean } from "../../assets/extension/resolver.js";
import type { Corpus, CorpusComponent, SourceLocation } from "../corpus/mod.ts";
import { NotFoundError } from "../errors.ts";
import type { Io } from "../io.ts";
import { escapeControls } from "../terminal.ts";
import { corpusFile, loadForCommand } from "./_corpus.ts";
import { makeEnvelope, outputFormat, writeEnvelope } from "./envelope.ts";

/** One definition named like the query. */
export interface ExplainHit {
  type: "view" | "component" | "request" | "message";
  /** The definition as declared (a component's `selector` is always a list). */
  entry: Record<string, unknown>;
  /** Corpus-relative file, 1-based line and field path of the declaration (`path` null when unknown). */
  file: string;
  line: number;
  path: string | null;
  /** `global` for corpus-level definitions (views, messages, root components and requests). */
  scope: "global" | "view-scoped";
  /** The view a view-scoped component or request belongs to. */
  view?: string;
  /** Views that `$ref` this global component. */
  referencedBy?: string[];
}

/** `result` of `mapper explain --json`. */
export interface ExplainResult {
  query: string;
  hits: ExplainHit[];
  /** Near names (case or a typo away) when there is no hit. */
  suggestions: string[];
}

const sameLocation = (a: SourceLocation, b: SourceLocation) =>
  a.file === b.file && a.line === b.line && a.column === b.column;

/** Looks a name up in the corpus (pure). */
export function explain(corpus: Corpus, query: string): ExplainResult {
  const hits: ExplainHit[] = [];
  const where = (location: SourceLocation) => ({
    file: corpusFile(location.file, corpus.dir),
    line: location.line,
    path: location.path ?? null,
  });
  // A view component declared where a global is declared is a `$ref` expansion of it.
  const isExpansion = (c: CorpusComponent) => corpus.globals.some((g) => sameLocation(g.location, c.location));
  for (const v of corpus.views) {
    if (v.name !== query) continue;
    const entry: Record<string, unknown> = { name: v.name };
    if (v.route !== undefined) entry.route = v.route;
    if (v.url !== undefined) entry.url = v.url;
    if (v.description !== undefined) entry.description = v.description;
    if (v.tags !== undefined) entry.tags = v.tags;
    if (v.dependencies !== undefined) entry.dependencies = v.dependencies;
    if (v.memory.length > 0) entry.memory = v.memory;
    entry.components = v.components.map((c) => c.name);
    entry.requests = v.requests.map((r) => r.name);
    hits.push({ type: "view", entry, ...where(v.location), scope: "global" });
  }
  for (const g of corpus.globals) {
    if (g.name !== query) continue;
    const referencedBy = corpus.views.filter((v) => v.components.some((c) => sameLocation(c.location, g.location)))
      .map((v) => v.name);
    hits.push({
      type: "component",
      entry: componentEntry(g),
      ...where(g.location),
      scope: "global",
      ...(referencedBy.length > 0 ? { referencedBy } : {}),
    });
  }
  for (const v of corpus.views) {
    for (const c of v.components) {
      if (c.name !== query || isExpansion(c)) continue;
      hits.push({
        type: "component",
        entry: componentEntry(c),
        ...where(c.location),
        scope: "view-scoped",
        view: v.name,
      });
    }
  }
  for (const r of corpus.requests) {
    if (r.name === query) hits.push({ type: "request", entry: declared(r), ...where(r.location), scope: "global" });
  }
  for (const v of corpus.views) {
    for (const r of v.requests) {
      if (r.name !== query) continue;
      hits.push({ type: "request", entry: declared(r), ...where(r.location), scope: "view-scoped", view: v.name });
    }
  }
  for (const m of corpus.messages) {
    if (m.name === query) hits.push({ type: "message", entry: declared(m), ...where(m.location), scope: "global" });
  }
  return { query, hits, suggestions: hits.length > 0 ? [] : didYouMean(query, allNames(corpus)) };
}

function componentEntry(c: CorpusComponent): Record<string, unknown> {
  const entry: Record<string, unknown> = { name: c.name, selector: [...c.selectors] };
  if (c.parentChain.length > 0) entry.parentChain = [...c.parentChain];
  if (c.description !== undefined) entry.description = c.description;
  if (c.properties.length > 0) entry.properties = c.properties.map((p) => ({ ...p }));
  if (c.memory !== undefined) entry.memory = [...c.memory];
  if (c.tags !== undefined) entry.tags = [...c.tags];
  if (c.source !== undefined) entry.source = c.source;
  if (c.stability !== undefined) entry.stability = c.stability;
  return entry;
}

/** A request or message without its source locations (the declaration's is reported beside it). */
function declared(def: { location: SourceLocation; fieldAt?: unknown }): Record<string, unknown> {
  const { location: _location, fieldAt: _fieldAt, ...rest } = def;
  return structuredClone(rest);
}

function allNames(corpus: Corpus): string[] {
  return [
    ...corpus.views.map((v) => v.name),
    ...corpus.globals.map((c) => c.name),
    ...corpus.views.flatMap((v) => v.components.map((c) => c.name)),
    ...corpus.requests.map((r) => r.name),
    ...corpus.views.flatMap((v) => v.requests.map((r) => r.name)),
    ...corpus.messages.map((m) => m.name),
  ].filter((n) => n !== "");
}

/** Options of {@linkcode runExplain}. */
export interface ExplainOptions {
  name: string;
  dir?: string;
  json?: boolean;
  format?: string;
}

/** Runs `mapper explain`; returns the exit code. Text mode throws {@linkcode NotFoundError} when nothing matches. */
export async function runExplain(opts: ExplainOptions, io: Io): Promise<number> {
  const format = outputFormat(opts);
  const loaded = await loadForCommand(io, format, opts.dir);
  if (typeof loaded === "number") return loaded;
  const result = explain(loaded.corpus, opts.name);
  if (result.hits.length === 0 && format !== "json") {
    const near = result.suggestions.slice(0, 3).map((s) => `"${escapeControls(s)}"`);
    throw new NotFoundError(`no component, view, request or message is named "${escapeControls(opts.name)}"`, {
      hint: near.length > 0
        ? `did you mean ${near.join(" or ")}? (names are case-sensitive)`
        : "names are exact and case-sensitive; 'mapper stats' lists the views",
    });
  }
  const envelope = makeEnvelope(loaded.diagnostics, loaded.path, result);
  return writeEnvelope(io, envelope, { format, dir: loaded.dir, text: (e) => renderExplain(e.result) });
}

/** The text form: one block per hit, `type name  scope  file:line`, then the declared fields. */
export function renderExplain(r: ExplainResult): string {
  const clean = (s: string) => escapeControls(s);
  const blocks = r.hits.map((h) => {
    const scope = h.scope === "view-scoped" ? `in view ${clean(h.view ?? "")}` : "global";
    const lines = [`${h.type} ${clean(String(h.entry.name))}  ${scope}  ${clean(h.file)}:${h.line}`];
    for (const [key, value] of Object.entries(h.entry)) {
      if (key === "name") continue;
      lines.push(`  ${key}: ${clean(fieldText(value))}`);
    }
    if (h.referencedBy) lines.push(`  referenced by: ${h.referencedBy.map(clean).join(", ")}`);
    return lines.join("\n");
  });
  const head = r.hits.length > 1 ? `${r.hits.length} definitions named "${clean(r.query)}"\n\n` : "";
  return `${head}${blocks.join("\n\n")}\n`;
}

function fieldText(value: unknown): string {
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join(", ");
  if (Array.isArray(value) && value.every((v) => typeof v === "object" && v !== null && "name" in v)) {
    return value.map((v) => {
      const { name, ...rest } = v as Record<string, unknown>;
      const detail = Object.values(rest).map(String).join(" ");
      return detail ? `${name} (${detail})` : String(name);
    }).join(", ");
  }
  return typeof value === "string" ? value : JSON.stringify(value);
}
