/**
 * `compile(corpus, { site, version })`: the wire format served on `/mapper`.
 *
 * Shape: top-level `site, version, memory, globals, views, requests, messages` (always present); each component
 * `name, selector` (selectors joined with `", "`), `ownSelector` (a child's own selectors, not composed),
 * `parentChain` (always an array), `properties` (always an array),
 * then `memory, tags, source, stability` when declared. Authoring-only fields (descriptions of components and views,
 * view `url`, source locations) never appear.
 *
 * @module
 */
import type { Corpus, CorpusComponent, CorpusMessage, CorpusRequest } from "./model.ts";
import type { WireComponent, WireCorpus, WireMessage, WireRequest } from "./wire.ts";

/** Compiles a loaded corpus to the wire format. Pure: the same input gives deep-equal output. */
export function compile(corpus: Corpus, meta: { site: string; version: number }): WireCorpus {
  return {
    site: meta.site,
    version: meta.version,
    memory: [...corpus.memory],
    globals: corpus.globals.map(wireComponent),
    views: corpus.views.map((v) => ({
      name: v.name,
      ...(v.route !== undefined ? { route: v.route } : {}),
      memory: [...v.memory],
      components: v.components.map(wireComponent),
      requests: v.requests.map(wireRequest),
    })),
    requests: corpus.requests.map(wireRequest),
    messages: corpus.messages.map(wireMessage),
  };
}

function wireComponent(c: CorpusComponent): WireComponent {
  const w: WireComponent = {
    name: c.name,
    selector: c.selectors.join(", "),
    ...(c.ownSelectors !== undefined ? { ownSelector: c.ownSelectors.join(", ") } : {}),
    parentChain: [...c.parentChain],
    properties: c.properties.map((p) => ({
      name: p.name,
      extract: p.extract,
      ...(p.transform !== undefined ? { transform: p.transform } : {}),
    })),
  };
  if (c.memory !== undefined) w.memory = [...c.memory];
  if (c.tags !== undefined) w.tags = [...c.tags];
  if (c.source !== undefined) w.source = c.source;
  if (c.stability !== undefined) w.stability = c.stability;
  return w;
}

function wireRequest(r: CorpusRequest): WireRequest {
  const w: WireRequest = { name: r.name, route: r.route };
  if (r.method !== undefined) w.method = r.method;
  if (r.description !== undefined) w.description = r.description;
  if (r.source !== undefined) w.source = r.source;
  if (r.request !== undefined) w.request = structuredClone(r.request);
  if (r.response !== undefined) w.response = structuredClone(r.response);
  if (r.headers !== undefined) w.headers = { ...r.headers };
  if (r.memory !== undefined) w.memory = [...r.memory];
  if (r.tags !== undefined) w.tags = [...r.tags];
  if (r.properties !== undefined) w.properties = r.properties.map((p) => ({ ...p }));
  return w;
}

function wireMessage(m: CorpusMessage): WireMessage {
  const w: WireMessage = { name: m.name };
  if (m.level !== undefined) w.level = m.level;
  if (m.message !== undefined) w.message = m.message;
  if (m.description !== undefined) w.description = m.description;
  if (m.source !== undefined) w.source = m.source;
  if (m.properties !== undefined) w.properties = m.properties.map((p) => ({ ...p }));
  return w;
}
