/**
 * The current view of a URL: the single most-specific view (docs/corpus-format.md, "Routes"), its memory notes, and the active
 * components (globals plus that view's), all through the resolver module the extension uses.
 *
 * @module
 */
import type { WireCorpus } from "../../corpus/mod.ts";
import { activeComponents, matchViews, normalizeCorpus } from "../../../assets/extension/resolver.js";
import type { SeeComponent } from "../page/page.js";
import type { ViewInfo } from "../page_api.ts";

/** What a URL resolves to in a corpus. */
export interface Resolution {
  /** The matched view, or `null`. */
  view: ViewInfo | null;
  /** Other views exactly as specific as the chosen one (the first declared wins). */
  conflicts: string[];
  /** Components to look for. */
  components: SeeComponent[];
  /** Whether the corpus declares anything at all. */
  hasCorpus: boolean;
  /** Every component name in the corpus, with the views declaring it (`null` = global). */
  declared: Map<string, Array<string | null>>;
}

/** Resolves a URL against a compiled corpus (`undefined`: no corpus loaded). */
export function resolveUrl(wire: WireCorpus | undefined, url: string): Resolution {
  const corpus = wire === undefined ? null : normalizeCorpus(wire);
  const declared = new Map<string, Array<string | null>>();
  if (corpus === null) return { view: null, conflicts: [], components: [], hasCorpus: false, declared };
  for (const c of corpus.globals) declared.set(c.name, [...(declared.get(c.name) ?? []), null]);
  for (const v of corpus.views) {
    for (const c of v.components) declared.set(c.name, [...(declared.get(c.name) ?? []), v.name]);
  }
  const active = activeComponents(corpus, url);
  const ranked = matchViews(corpus.views, url);
  const best = ranked[0];
  const conflicts = best ? ranked.slice(1).filter((r) => r.score === best.score).map((r) => r.view.name) : [];
  const memory = active.view ? wire?.views.find((v) => v.name === active.view!.name)?.memory ?? [] : [];
  return {
    view: active.view ? { ...active.view, memory } : null,
    conflicts,
    components: active.components,
    hasCorpus: corpus.componentCount > 0 || corpus.views.length > 0,
    declared,
  };
}
