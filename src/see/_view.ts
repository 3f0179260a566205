/**
 * The current view of a URL: the single most-specific view (authoring.md §5), its memory notes, and the active
 * components (globals plus that view's), all through the resolver module the extension uses.
 *
 * @module
 */
import type { WireCorpus } from "../corpus/mod.ts";
import { activeComponents, matchRoute, normalizeCorpus } from "../../assets/extension/core.js";
import type { SeeComponent } from "./page.js";
import type { ViewInfo } from "./api.ts";

/** Route specificity: literal 3, `:param` 2, `*` 1, `**` 0, `/` 1. TODO(resolver): use the resolver's. */
function specificity(route: string): number {
  const segs = route.split("/").filter((s) => s !== "");
  if (segs.length === 0) return 1;
  return segs.reduce((n, s) => n + (s === "**" ? 0 : s === "*" ? 1 : /^:[A-Za-z_]\w*$/.test(s) ? 2 : 3), 0);
}

/** What a URL resolves to in a corpus. */
export interface Resolution {
  view: ViewInfo | null;
  /** Other views exactly as specific as the chosen one. */
  conflicts: string[];
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
  let pathname = "/";
  try {
    pathname = new URL(url).pathname;
  } catch {
    // about:blank and friends: no view
  }
  const matching = activeComponents(corpus, pathname).views;
  let best: typeof matching[number] | undefined;
  let bestScore = -1;
  const conflicts: string[] = [];
  for (const v of matching) {
    const score = specificity(v.route);
    if (score > bestScore) {
      best = v;
      bestScore = score;
      conflicts.length = 0;
    } else if (score === bestScore) conflicts.push(v.name);
  }
  const wireView = best ? wire?.views.find((v) => v.name === best.name) : undefined;
  const view = best && wireView
    ? {
      name: best.name,
      route: best.route,
      memory: wireView.memory ?? [],
      params: matchRoute(best.route, pathname) ?? {},
    }
    : null;
  const byName = new Map<string, SeeComponent>();
  for (const c of corpus.globals) if (!byName.has(c.name)) byName.set(c.name, c);
  const viewDef = best ? corpus.views.find((v) => v.name === best.name) : undefined;
  for (const c of viewDef?.components ?? []) byName.set(c.name, c);
  return {
    view,
    conflicts,
    components: [...byName.values()],
    hasCorpus: corpus.componentCount > 0 || corpus.views.length > 0,
    declared,
  };
}
