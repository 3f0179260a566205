/**
 * `stats(corpus)`: catalog statistics as the atlas catalog publishes them for an entry.
 *
 * - `views`: number of views.
 * - `components`: distinct component names corpus-wide (a global reused by views counts once).
 * - `requests`: global plus view-scoped requests.
 * - `messages`: console message definitions.
 * - `properties`: summed over distinct component definitions, where a definition is the flattened component's
 *   content (name, selectors, parent chain, properties, memory, tags, source, stability): exact copies collapse
 *   (a top-level `$ref` expansion, the same block pasted in two view files); a `$ref` expanded under a parent has
 *   other selectors and is its own definition; two different local definitions with one name both count.
 * - `memory`: file, view, component (over distinct definitions) and request memory entries.
 * - `per_view`: components and requests reachable in each view after `$ref` expansion (globals not included).
 *
 * @module
 */
import type { Corpus, CorpusComponent } from "./model.ts";

/** Per-view counts for the catalog. */
export interface ViewStats {
  /** View name. */
  name: string;
  /** URL route pattern. */
  route: string;
  /** Number of components. */
  components: number;
  /** Number of requests. */
  requests: number;
}

/** Catalog statistics, as the atlas catalog publishes them for an entry. */
export interface CorpusStats {
  /** Number of views. */
  views: number;
  /** Distinct component names corpus-wide. */
  components: number;
  /** Number of requests. */
  requests: number;
  /** Global message definitions. */
  messages: number;
  /** Number of properties. */
  properties: number;
  /** Number of memory notes. */
  memory: number;
  /** Counts per view. */
  per_view: ViewStats[];
}
/** Computes the catalog statistics
 of a loaded corpus. */
export function stats(corpus: Corpus): CorpusStats {
  const names = new Set<string>();
  const definitions = new Map<string, CorpusComponent>();
  const visit = (c: CorpusComponent) => {
    names.add(c.name);
    const key = definitionKey(c);
    if (!definitions.has(key)) definitions.set(key, c);
  };
  corpus.globals.forEach(visit);
  for (const v of corpus.views) v.components.forEach(visit);
  let properties = 0;
  let memory = corpus.memory.length;
  for (const c of definitions.values()) {
    properties += c.properties.length;
    memory += c.memory?.length ?? 0;
  }
  let requests = corpus.requests.length;
  for (const r of corpus.requests) memory += r.memory?.length ?? 0;
  for (const v of corpus.views) {
    memory += v.memory.length;
    requests += v.requests.length;
    for (const r of v.requests) memory += r.memory?.length ?? 0;
  }
  return {
    views: corpus.views.length,
    components: names.size,
    requests,
    messages: corpus.messages.length,
    properties,
    memory,
    per_view: corpus.views.map((v) => ({
      name: v.name,
      route: v.route ?? "",
      components: v.components.length,
      requests: v.requests.length,
    })),
  };
}

/** The content identity of a flattened component (wire-visible fields only). */
function definitionKey(c: CorpusComponent): string {
  return JSON.stringify([
    c.name,
    c.selectors,
    c.parentChain,
    c.properties.map((p) => [p.name, p.extract, p.transform ?? null]),
    c.memory ?? null,
    c.tags ?? null,
    c.source ?? null,
    c.stability ?? null,
  ]);
}
