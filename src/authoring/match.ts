/**
 * `mapper match URL [--method M]`: what the corpus says applies at one URL — the single most
 * specific view and its parameters, every other matching view by precedence, the active components (globals not
 * shadowed by the view, then the view's own) and the requests. Every decision comes from the one resolver
 * (`assets/extension/resolver.js`), the module the extension and the browser session use.
 *
 * Requests: the global requests, then the resolved view's, that accept `--method` (case-insensitive; a request
 * without a method accepts any; no `--method`: all of them). Request routes are API routes, not page routes, so
 * they are not matched against the page URL here; the browser session matches captured traffic by route.
 *
 * @module
 */
import { matchViews, mergeComponents, methodMatches } from "../../assets/extension/resolver.js";
import type { Corpus, CorpusComponent, CorpusRequest, CorpusView } from "../corpus/mod.ts";
import type { Io } from "../io.ts";
import { escapeControls } from "../terminal.ts";
import { corpusFile, loadForCommand } from "./_corpus.ts";
import { makeEnvelope, outputFormat, writeEnvelope } from "./envelope.ts";

/** A view that matches the URL, as declared plus where and how it matched. */
export interface MatchedView {
  name: string;
  route: string;
  /** The view's `url`, else its file's default. */
  url?: string;
  description?: string;
  tags?: string[];
  dependencies?: string[];
  memory: string[];
  /** Corpus-relative file and 1-based line of the declaration. */
  file: string;
  line: number;
  /** Specificity: literal 3, `:param` 2, `*` 1, `**` 0 per segment; `/` scores 1. */
  score: number;
  params: Record<string, string>;
}

/** A component active at the URL. */
export interface MatchedComponent {
  name: string;
  scope: "global" | "view-scoped";
  /** The view a view-scoped component belongs to. */
  scopedToView?: string;
  selectors: string[];
  parentChain: string[];
}

/** A request that applies at the URL. */
export interface MatchedRequest {
  name: string;
  route: string;
  /** The declared method; `null` = any. */
  method: string | null;
  scope: "global" | "view-scoped";
  scopedToView?: string;
}

/** `result` of `mapper match --json`. */
export interface MatchResult {
  url: string;
  /** `--method` as given (upper-cased); `null` when not given. */
  method: string | null;
  /** The winner (highest score, first declared on a tie); `null` when no view matches. */
  view: MatchedView | null;
  /** Every matching view, winner first, then by score and declaration order. */
  views: MatchedView[];
  /** Names of the views tied at the top score, when two or more are (the first declared won). */
  tiedViews: string[];
  components: MatchedComponent[];
  requests: MatchedRequest[];
}

/** Works out what applies at `url` (pure). */
export function matchUrl(corpus: Corpus, url: string, method?: string): MatchResult {
  const hits = matchViews(corpus.views, url);
  const views = hits.map((h) => matchedView(h.view, h.score, h.params, corpus.dir));
  const top = hits[0];
  const tied = top === undefined ? [] : hits.filter((h) => h.score === top.score);
  const view = top?.view;
  const own = new Set(view?.components ?? []);
  const components: MatchedComponent[] = mergeComponents<CorpusComponent>(corpus.globals, view?.components ?? [])
    .map((c) => ({
      name: c.name,
      scope: own.has(c) ? "view-scoped" : "global",
      ...(own.has(c) && view !== undefined ? { scopedToView: view.name } : {}),
      selectors: [...c.selectors],
      parentChain: [...c.parentChain],
    }));
  const accepts = (r: CorpusRequest) => method === undefined || methodMatches(r.method, method);
  const requests: MatchedRequest[] = corpus.requests.filter(accepts).map((r) => matchedRequest(r, "global"));
  if (view !== undefined) {
    for (const r of view.requests.filter(accepts)) {
      requests.push({ ...matchedRequest(r, "view-scoped"), scopedToView: view.name });
    }
  }
  return {
    url,
    method: method === undefined ? null : method.toUpperCase(),
    view: views[0] ?? null,
    views,
    tiedViews: tied.length >= 2 ? tied.map((h) => h.view.name) : [],
    components,
    requests,
  };
}

function matchedView(v: CorpusView, score: number, params: Record<string, string>, dir: string): MatchedView {
  const out: MatchedView = {
    name: v.name,
    route: v.route ?? "",
    memory: [...v.memory],
    file: "",
    line: 0,
    score,
    params,
  };
  if (v.url !== undefined) out.url = v.url;
  if (v.description !== undefined) out.description = v.description;
  if (v.tags !== undefined) out.tags = [...v.tags];
  if (v.dependencies !== undefined) out.dependencies = [...v.dependencies];
  out.file = corpusFile(v.location.file, dir);
  out.line = v.location.line;
  return out;
}

function matchedRequest(r: CorpusRequest, scope: "global" | "view-scoped"): MatchedRequest {
  return { name: r.name, route: r.route, method: r.method ?? null, scope };
}

/** Options of {@linkcode runMatch}. */
export interface MatchOptions {
  url: string;
  method?: string;
  dir?: string;
  json?: boolean;
  format?: string;
}

/** Runs `mapper match`; returns the exit code (0, or 1 when the corpus has errors, 2 for usage). */
export async function runMatch(opts: MatchOptions, io: Io): Promise<number> {
  const format = outputFormat(opts);
  const loaded = await loadForCommand(io, format, opts.dir);
  if (typeof loaded === "number") return loaded;
  const result = matchUrl(loaded.corpus, opts.url, opts.method);
  const envelope = makeEnvelope(loaded.diagnostics, loaded.path, result);
  return writeEnvelope(io, envelope, {
    format,
    dir: loaded.dir,
    text: (e) => renderMatch(e.result),
  });
}

/** The text form: the view and its parameters, other matches, the components and the requests. */
export function renderMatch(r: MatchResult): string {
  const clean = (s: string) => escapeControls(s);
  const lines: string[] = [];
  if (r.view === null) {
    lines.push(`no view matches ${clean(r.url)}${r.components.length ? " (globals only)" : ""}`);
  } else {
    const v = r.view;
    lines.push(`view ${clean(v.name)}  ${clean(v.route)}  (score ${v.score}, ${clean(v.file)}:${v.line})`);
    const params = Object.entries(v.params).map(([k, val]) => `${k}=${val}`).join(" ");
    if (params) lines.push(`params ${clean(params)}`);
    if (r.tiedViews.length >= 2) {
      lines.push(`tied at score ${v.score}: ${r.tiedViews.map(clean).join(", ")} (the first declared wins)`);
    }
    for (const other of r.views.slice(1)) {
      lines.push(`also matches ${clean(other.name)}  ${clean(other.route)}  (score ${other.score})`);
    }
  }
  lines.push(`components (${r.components.length})`);
  const width = Math.max(0, ...r.components.map((c) => c.name.length));
  for (const c of r.components) {
    const where = c.scope === "global" ? "global" : "view-scoped";
    lines.push(`  ${clean(c.name.padEnd(width))}  ${where.padEnd(11)}  ${clean(c.selectors.join(", "))}`);
  }
  const method = r.method === null ? "" : ` accepting ${r.method}`;
  lines.push(`requests${method} (${r.requests.length})`);
  for (const q of r.requests) {
    lines.push(`  ${(q.method ?? "ANY").toUpperCase().padEnd(6)} ${clean(q.route)}  ${clean(q.name)}  ${q.scope}`);
  }
  return `${lines.join("\n")}\n`;
}
