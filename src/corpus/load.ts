/**
 * `load(dir)`: discover, parse, merge, expand `$ref`s and flatten a `.mapper/` corpus.
 *
 * Rules (corpus.md §2): files in lexical byte order per directory, depth-first; `.yaml`/`.yml` any case;
 * `snapshots/` and `review/` skipped at any depth; plain append merge without de-duplication; `$ref` expansion from
 * a registry of named root components; required fields checked after expansion; nesting flattened in pre-order
 * into descendant selectors (cross product) with a root-first `parentChain`.
 *
 * @module
 */
import { readRegularFile } from "../files.ts";
import { CorpusLoadError, type Diagnostic, type SourceLocation } from "./diagnostic.ts";
import { decodeFile, type RawComponent, type RawDefinition, type RawFile, type RawRequest } from "./_decode.ts";
import { walkCorpus } from "./_walk.ts";
import { composeSelectors } from "./selector.ts";
import type { Corpus, CorpusComponent, CorpusMessage, CorpusRequest, CorpusView } from "./model.ts";

/** What {@linkcode load} returns: the corpus and every non-fatal diagnostic, in file order. */
export interface LoadResult {
  corpus: Corpus;
  diagnostics: Diagnostic[];
}

/** Options of {@linkcode load}. */
export interface LoadOptions {
  /**
   * Reuse decoded files whose text is unchanged since the previous load with the same cache (the live service
   * recompiles a large corpus after a one-file edit without re-parsing the rest).
   */
  cache?: LoadCache;
}

interface CacheEntry {
  text: string;
  raw: RawFile;
  warnings: Diagnostic[];
}

/** Decoded files from the previous load, keyed by path and validated by exact text. Opaque. */
export class LoadCache {
  /** Path → decoded file of the last load (files that vanished are dropped at the next load). */
  entries: Map<string, CacheEntry> = new Map();
}

/** Hint attached to a missing-directory failure. */
const START_HINT = "run 'mapper atlas add <slug>' to install a published corpus, or create the directory and add YAML";

/**
 * Loads the corpus in `dir`. Throws {@linkcode CorpusLoadError} listing every fatal problem (missing or unreadable
 * directory, unreadable file, YAML syntax error, wrong type) across all files; everything else is a diagnostic.
 */
export async function load(dir: string, options: LoadOptions = {}): Promise<LoadResult> {
  const fatal: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dir);
  } catch (err: unknown) {
    const missing = err instanceof Deno.errors.NotFound;
    throw new CorpusLoadError([{
      code: missing ? "dir-not-found" : "dir-unreadable",
      severity: "error",
      message: missing
        ? `corpus directory "${dir}" does not exist`
        : `cannot read corpus directory "${dir}": ${err instanceof Error ? err.message : String(err)}`,
      location: { file: dir, line: 0, column: 0 },
    }], missing ? { hint: START_HINT } : {});
  }
  if (!info.isDirectory) {
    throw new CorpusLoadError([{
      code: "not-a-directory",
      severity: "error",
      message: `corpus path "${dir}" is not a directory`,
      location: { file: dir, line: 0, column: 0 },
    }]);
  }
  const files = await walkCorpus(dir, fatal, warnings);
  const texts = await Promise.all(files.map(async (f) => {
    try {
      // Type checked before the open: a FIFO (swapped in since the walk) must never block a compile.
      return new TextDecoder("utf-8", { fatal: true }).decode(await readRegularFile(f.path));
    } catch (err: unknown) {
      fatal.push({
        code: err instanceof TypeError ? "file-encoding" : "file-unreadable",
        severity: "error",
        message: err instanceof TypeError
          ? "the file is not valid UTF-8"
          : `cannot read file: ${err instanceof Error ? err.message : String(err)}`,
        location: { file: f.path, line: 0, column: 0 },
      });
      return undefined;
    }
  }));
  const decoded: RawFile[] = [];
  const cache = options.cache;
  const entries = new Map<string, CacheEntry>();
  files.forEach((f, i) => {
    const text = texts[i];
    if (text === undefined) return;
    const hit = cache?.entries.get(f.path);
    if (hit && hit.text === text) {
      warnings.push(...hit.warnings);
      decoded.push(hit.raw);
      entries.set(f.path, hit);
      return;
    }
    const fileWarnings: Diagnostic[] = [];
    const raw = decodeFile(f.path, text, fatal, fileWarnings);
    warnings.push(...fileWarnings);
    if (raw) {
      decoded.push(raw);
      entries.set(f.path, { text, raw, warnings: fileWarnings });
    }
  });
  if (cache) cache.entries = entries;
  if (fatal.length > 0) throw new CorpusLoadError(dedupe(sortByLocation(fatal, files.map((f) => f.path))));
  const result = assemble(dir, files.map((f) => f.path), decoded, warnings, fatal);
  if (fatal.length > 0) throw new CorpusLoadError(fatal);
  return { corpus: result, diagnostics: dedupe(sortByLocation(warnings, files.map((f) => f.path))) };
}

/** Merges decoded files (append, file order), expands `$ref`s and flattens nesting. */
function assemble(
  dir: string,
  paths: string[],
  files: RawFile[],
  diagnostics: Diagnostic[],
  fatal: Diagnostic[],
): Corpus {
  // DECISION: `$ref` to a name declared more than once resolves to the FIRST declaration in load order, as the
  // Sightmap spec (schema.md) says; the reference implementation lets the last one win. A warning
  // (`ref-ambiguous`) names both places so the author can rename one.
  const registry = new Map<string, RawDefinition>();
  const duplicates = new Map<string, RawDefinition[]>();
  for (const file of files) {
    for (const c of file.components) {
      if (c.kind !== "def" || c.name === undefined || c.name === "") continue;
      const first = registry.get(c.name);
      if (!first) registry.set(c.name, c);
      else duplicates.set(c.name, [...(duplicates.get(c.name) ?? [first]), c]);
    }
  }
  const flattener = new Flattener(registry, duplicates, diagnostics, fatal);
  const corpus: Corpus = { dir, files: paths, memory: [], globals: [], views: [], requests: [], messages: [] };
  for (const file of files) {
    corpus.memory.push(...file.memory);
    flattener.flatten(file.components, undefined, [], corpus.globals);
    for (const r of file.requests) {
      const req = checkRequest(r, diagnostics);
      if (req) corpus.requests.push(req);
    }
    for (const m of file.messages) {
      if (m.name === undefined) warn(diagnostics, "missing-name", 'message without a "name"', m.location);
      const message: CorpusMessage = { ...m, name: m.name ?? "" };
      corpus.messages.push(message);
    }
    for (const v of file.views) {
      if (v.name === undefined) warn(diagnostics, "missing-name", 'view without a "name"', v.location);
      if (v.route === undefined) warn(diagnostics, "missing-route", 'view without a "route"', v.location);
      const view: CorpusView = {
        name: v.name ?? "",
        memory: [...v.memory],
        components: [],
        requests: [],
        location: v.location,
      };
      if (v.route !== undefined) view.route = v.route;
      if (v.url !== undefined) view.url = v.url;
      if (v.description !== undefined) view.description = v.description;
      flattener.flatten(v.components, undefined, [], view.components);
      for (const r of v.requests) {
        const req = checkRequest(r, diagnostics);
        if (req) view.requests.push(req);
      }
      corpus.views.push(view);
    }
  }
  return corpus;
}

/** The enclosing component while flattening children. */
interface Parent {
  selectors: string[];
  chain: string[];
}

/** Upper bound on flattened components in one corpus: `$ref`s and cross products can grow exponentially. */
const MAX_COMPONENTS = 100_000;
/** Upper bound on the composed selectors of one component. */
const MAX_SELECTORS = 1_024;

class Flattener {
  count = 0;

  constructor(
    readonly registry: Map<string, RawDefinition>,
    readonly duplicates: Map<string, RawDefinition[]>,
    readonly diagnostics: Diagnostic[],
    readonly fatal: Diagnostic[],
  ) {}

  /**
   * Appends `list` flattened in pre-order to `out`. `refs` is the chain of `$ref` names being expanded: a repeat
   * cuts the cycle there (so a self-reference emits one level of self-expansion, as the reference does).
   */
  flatten(list: RawComponent[], parent: Parent | undefined, refs: string[], out: CorpusComponent[]): void {
    for (const entry of list) {
      if (this.count > MAX_COMPONENTS) return;
      let def: RawDefinition;
      let chain = refs;
      if (entry.kind === "ref") {
        if (refs.includes(entry.ref)) {
          error(
            this.diagnostics,
            "ref-circular",
            `"$ref: ${entry.ref}" refers back to a component being expanded (${
              [...refs, entry.ref].join(" → ")
            }); the cycle is cut here`,
            entry.location,
          );
          continue;
        }
        const target = this.registry.get(entry.ref);
        if (!target) {
          error(
            this.diagnostics,
            "ref-unresolved",
            `"$ref: ${entry.ref}" names no top-level component; the entry is dropped`,
            entry.location,
          );
          continue;
        }
        const dups = this.duplicates.get(entry.ref);
        if (dups) {
          const others = dups.slice(1).map((d) => `${d.location.file}:${d.location.line}`).join(", ");
          warn(
            this.diagnostics,
            "ref-ambiguous",
            `"$ref: ${entry.ref}" matches ${dups.length} top-level components; the first (${target.location.file}:${target.location.line}) is used, not ${others}`,
            entry.location,
          );
        }
        def = target;
        chain = [...refs, entry.ref];
      } else {
        def = entry;
      }
      const children = def.children.length;
      const dropped = children > 0 ? ` (with its ${children} direct ${children === 1 ? "child" : "children"})` : "";
      if (def.name === undefined || def.name === "") {
        error(this.diagnostics, "missing-name", `component without a "name" is dropped${dropped}`, def.location);
        continue;
      }
      if (!def.selectors || def.selectors.length === 0) {
        error(
          this.diagnostics,
          "missing-selector",
          def.selectorGiven
            ? `component "${def.name}" has a selector with no usable part; it is dropped${dropped}`
            : `component "${def.name}" has no "selector"; it is dropped${dropped}`,
          def.location,
        );
        continue;
      }
      if (parent && parent.selectors.length * def.selectors.length > MAX_SELECTORS) {
        error(
          this.diagnostics,
          "selector-explosion",
          `component "${def.name}" would have ${
            parent.selectors.length * def.selectors.length
          } selectors once nested (more than ${MAX_SELECTORS}); it is dropped${dropped}`,
          def.location,
        );
        continue;
      }
      const selectors = parent ? composeSelectors(parent.selectors, def.selectors) : [...def.selectors];
      if (++this.count > MAX_COMPONENTS) {
        this.fatal.push({
          code: "corpus-too-large",
          severity: "error",
          message: `the corpus expands to more than ${MAX_COMPONENTS} components (check $ref and children nesting)`,
          location: def.location,
        });
        return;
      }
      const parentChain = parent ? parent.chain : [];
      const c: CorpusComponent = {
        name: def.name,
        selectors,
        parentChain: [...parentChain],
        properties: def.properties.map((p) => ({ ...p })),
        location: def.location,
      };
      if (def.memory !== undefined) c.memory = [...def.memory];
      if (def.tags !== undefined) c.tags = [...def.tags];
      if (def.source !== undefined) c.source = def.source;
      if (def.stability !== undefined) c.stability = def.stability;
      if (def.description !== undefined) c.description = def.description;
      out.push(c);
      if (def.children.length > 0) {
        this.flatten(def.children, { selectors, chain: [...parentChain, def.name] }, chain, out);
      }
    }
  }
}

function checkRequest(r: RawRequest, diagnostics: Diagnostic[]): CorpusRequest | undefined {
  if (r.name === undefined || r.name === "") {
    error(diagnostics, "missing-name", 'request without a "name" is dropped', r.location);
    return undefined;
  }
  if (r.route === undefined || r.route === "") {
    error(diagnostics, "missing-route", `request "${r.name}" has no "route"; it is dropped`, r.location);
    return undefined;
  }
  return { ...r, name: r.name, route: r.route };
}

function error(diagnostics: Diagnostic[], code: string, message: string, location: SourceLocation): void {
  diagnostics.push({ code, severity: "error", message, location });
}

function warn(diagnostics: Diagnostic[], code: string, message: string, location: SourceLocation): void {
  diagnostics.push({ code, severity: "warning", message, location });
}

/** Stable sort by file (load order is already lexical), then line, then column. */
function sortByLocation(list: Diagnostic[], files: readonly string[]): Diagnostic[] {
  const fileOrder = new Map<string, number>(files.map((f, i) => [f, i]));
  for (const d of list) if (!fileOrder.has(d.location.file)) fileOrder.set(d.location.file, -1);
  return list
    .map((d, i) => ({ d, i }))
    .sort((a, b) =>
      fileOrder.get(a.d.location.file)! - fileOrder.get(b.d.location.file)! ||
      a.d.location.line - b.d.location.line || a.d.location.column - b.d.location.column || a.i - b.i
    )
    .map(({ d }) => d);
}

/** Drops repeats (a definition reached through several `$ref`s reports its problems once). */
function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.code}\0${d.location.file}\0${d.location.line}\0${d.location.column}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
