// @ts-check
// THE resolver: route matching, view resolution (the single most specific view), the active components of a page,
// which component owns each element (`claimElements`, over a small DOM adapter: the page engine, the extension and an
// offline engine run the same one), property extraction (extract forms and transforms), and the extract-form check
// `validate` uses. One implementation for every user: the extension (content script, panels, worker), the CLI
// (`mapper match`, `explain`, `validate`), the browser session's request matching (`src/browser/traffic_match.ts`) and the
// page engine (snapshots and actions).
//
// Rules for this file, so all of those can load it:
// - A plain ES module with `// @ts-check`: Deno type-checks it (it is imported by `src/`), the extension imports it.
// - No imports, no `chrome.*`, no DOM globals: DOM access goes through an injected `Dom` object of callbacks.
// - No top-level side effects: only function and constant declarations (and one private route cache). Page
//   snapshots evaluate it as a classic script: the source with its `export ` keywords stripped, wrapped in an IIFE
//   that returns an object of the exports. Keep every export a top-level `export function` or `export const` (no
//   `export { … }` lists) so that stays true; tests/resolver_test.ts evaluates it that way.
//
// Route rules (authoring spec §5), decided where it was silent:
// - Only the path counts: scheme, host, query and fragment are ignored, except that a route written with an origin
//   (`https://api.example.com/v1/:id`) only matches URLs on that host (case-insensitive) when the URL has one too.
// - The URL path is percent-decoded (an invalid escape: the URL matches nothing); the route is decoded when its
//   escapes are valid, else kept as written. Matching is case-sensitive.
// - Empty segments are dropped from both: trailing slashes are stripped (`/about/` = `/about`, empty = `/`) and
//   repeated slashes collapse, so `/a//b` matches the route `/a/b` (what servers and browsers usually serve).
// - `*` and `:name` match exactly one non-empty segment (`/users/*` does not match `/users/`); a whole-segment `**`
//   matches zero or more segments. A wildcard glued inside a segment stays in it (`/img/*.png`, `/messages**`: any
//   run of characters, none included, within that one segment). A `:` inside a segment is literal: `/p/v-:id`
//   matches only `/p/v-:id` (URLs such as `/wiki/Special:Search` need that).
// - Specificity is a sum per segment: literal 3, `:param` 2, `*` 1, `**` 0, glued segments 3; the route `/` scores
//   1. The highest score wins; ties go to the first declared.
// - Two routes overlap when some path matches both (`routeOverlap`, exact for every segment form); hosts are not
//   compared, since a bare path (`mapper match /p`) carries none and matches a route of any host.

/**
 * One component property declaration as served on `/mapper`.
 * @typedef {{ name: string, extract: string, transform?: string }} Property
 */

/**
 * A flattened component as the extension uses it. `ownSelector`: a child's own selectors, not composed under its
 * ancestors' (what the claim looks for inside its parent's element, shadow roots included).
 * @typedef {{ name: string, selector: string, ownSelector?: string, parentChain: string[], properties: Property[],
 *   view: string | null }} Component
 */

/**
 * A view as the extension uses it.
 * @typedef {{ name: string, route: string | null, components: Component[] }} View
 */

/**
 * The corpus as the extension uses it (requests, messages and memory are not needed on the page).
 * @typedef {{ site: string, version: number, globals: Component[], views: View[], componentCount: number }} Corpus
 */

/**
 * The resolved view with the parameters its route captured.
 * @typedef {{ name: string, route: string, params: Record<string, string> }} ActiveView
 */

/**
 * One entry of a resolved component path (outermost first).
 * @template E
 * @typedef {{ name: string, element: E, component: Component, properties: Array<[string, string]> }} PathEntry
 */

/**
 * DOM access for property extraction, injected. `querySelector` searches strictly inside the element (shadow roots
 * included when the host can). `text` is the element's text with block elements set apart by spaces
 * ({@linkcode nodeText} on a real DOM); the optional members fall back to `text` (`innerText`, `textOnly`) or
 * nothing (`innerHtml`).
 * @template E
 * @typedef {{
 *   querySelector: (element: E, selector: string) => E | null,
 *   text: (element: E) => string,
 *   attr: (element: E, name: string) => string | null,
 *   innerText?: (element: E) => string,
 *   textOnly?: (element: E) => string,
 *   innerHtml?: (element: E) => string,
 * }} Dom
 */

/** Longest property value kept, in characters. */
export const MAX_VALUE = 120;

// ---- Routes --------------------------------------------------------------------------------------------------

const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;

/**
 * One compiled route segment.
 * @typedef {{ kind: "literal", text: string } | { kind: "param", name: string } | { kind: "star" } |
 *   { kind: "globstar" } | { kind: "glob", re: RegExp, parts: string[] }} RouteSegment
 */

/**
 * @param {string} s
 * @returns {string}
 */
function lenientDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The host of an absolute route or URL, lower-cased, without userinfo; `null` when it has no origin.
 * @param {string} s
 * @returns {string | null}
 */
function hostOf(s) {
  const m = ORIGIN.exec(s.trim());
  if (!m) return null;
  return (m[1] ?? "").replace(/^.*@/, "").toLowerCase();
}

/**
 * The path segments of a URL or path as matching sees them: path only, percent-decoded, empty segments dropped
 * (`/` → `[]`). `null` when the URL cannot be parsed or its path has an invalid percent escape.
 * @param {string} url an absolute URL (`https://host/p?q`) or a path (`/p?q#f`)
 * @returns {string[] | null}
 */
export function urlSegments(url) {
  let path = url.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return null;
    }
  } else {
    path = path.replace(/[?#].*$/s, "");
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    return null;
  }
  return path.split("/").filter((s) => s !== "");
}

/**
 * Compiles a route pattern into its segments (origin, query and fragment dropped; see the rules in the header).
 * @param {string} route
 * @returns {RouteSegment[]}
 */
export function parseRoute(route) {
  const path = route.trim().replace(ORIGIN, "").replace(/[?#].*$/s, "");
  return path.split("/").filter((s) => s !== "").map((raw) => {
    const s = lenientDecode(raw);
    if (s === "**") return { kind: "globstar" };
    if (s === "*") return { kind: "star" };
    const param = /^:([A-Za-z_][A-Za-z0-9_]*)$/.exec(s);
    if (param) return { kind: "param", name: /** @type {string} */ (param[1]) };
    if (s.includes("*")) {
      const parts = s.split(/\*+/);
      const source = parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*");
      return { kind: "glob", re: new RegExp(`^${source}$`, "s"), parts };
    }
    return { kind: "literal", text: s };
  });
}

/**
 * The canonical form of a route as matching sees it, for finding routes that match the same URLs (`route-conflict`):
 * origin, query, fragment, empty segments and trailing slashes dropped, percent escapes decoded, parameter names
 * erased (`/items/:id/` and `/items//:sku` → `/items/:`).
 * @param {string} route
 * @returns {string}
 */
export function routeKey(route) {
  const parts = parseRoute(route).map((s) =>
    s.kind === "param"
      ? ":"
      : s.kind === "star"
      ? "*"
      : s.kind === "globstar"
      ? "**"
      : s.kind === "glob"
      ? s.re.source
      : s.text
  );
  return `/${parts.join("/")}`;
}

/**
 * A route compiled once: its host (or `null`), segments and score.
 * @typedef {{ host: string | null, segments: RouteSegment[], score: number }} CompiledRoute
 */

/** Compiled routes by source text; cleared when it grows past {@linkcode ROUTE_CACHE_SIZE} (a corpus has fewer). */
const routeCache = /** @type {Map<string, CompiledRoute>} */ (new Map());
const ROUTE_CACHE_SIZE = 10_000;

/**
 * @param {string} route
 * @returns {CompiledRoute}
 */
function compileRoute(route) {
  let compiled = routeCache.get(route);
  if (compiled === undefined) {
    const segments = parseRoute(route);
    compiled = { host: hostOf(route), segments, score: scoreOf(segments) };
    if (routeCache.size >= ROUTE_CACHE_SIZE) routeCache.clear();
    routeCache.set(route, compiled);
  }
  return compiled;
}

/**
 * @param {RouteSegment[]} segments
 * @returns {number}
 */
function scoreOf(segments) {
  if (segments.length === 0) return 1;
  let score = 0;
  for (const s of segments) score += s.kind === "param" ? 2 : s.kind === "star" ? 1 : s.kind === "globstar" ? 0 : 3;
  return score;
}

/**
 * The specificity of a route: the sum of its segments' scores (literal and glued 3, `:param` 2, `*` 1, `**` 0);
 * the root route `/` scores 1.
 * @param {string} route
 * @returns {number}
 */
export function routeScore(route) {
  return compileRoute(route).score;
}

/**
 * Matches a route against a URL or path. Returns the parameters the route captured (`{}` when none), or `null`
 * when it does not match (also for an unparsable URL or an empty route).
 * @param {string} route
 * @param {string} url an absolute URL or a path
 * @returns {Record<string, string> | null}
 */
export function matchRoute(route, url) {
  const path = urlSegments(url);
  return path === null ? null : matchCompiled(route, hostOf(url), path);
}

/**
 * @param {string} route
 * @param {string | null} urlHost
 * @param {string[]} path
 * @returns {Record<string, string> | null}
 */
function matchCompiled(route, urlHost, path) {
  if (route.trim() === "") return null;
  const compiled = compileRoute(route);
  if (compiled.host !== null && urlHost !== null && compiled.host !== urlHost) return null;
  return matchSegments(compiled.segments, path);
}

/**
 * @param {RouteSegment[]} pattern
 * @param {string[]} path
 * @returns {Record<string, string> | null}
 */
function matchSegments(pattern, path) {
  /** @type {Record<string, string>} */
  const params = {};
  /**
   * @param {number} i
   * @param {number} j
   * @returns {boolean}
   */
  const walk = (i, j) => {
    const seg = pattern[i];
    if (seg === undefined) return j === path.length;
    if (seg.kind === "globstar") {
      for (let k = j; k <= path.length; k++) if (walk(i + 1, k)) return true;
      return false;
    }
    const value = path[j];
    if (value === undefined) return false;
    if (seg.kind === "literal" && seg.text !== value) return false;
    if (seg.kind === "glob" && !seg.re.test(value)) return false;
    if (seg.kind === "param") params[seg.name] = value; // set before descending: parameters keep route order
    if (walk(i + 1, j + 1)) return true;
    if (seg.kind === "param") delete params[seg.name];
    return false;
  };
  return walk(0, 0) ? params : null;
}

/**
 * A path both routes match, or `null` when none exists: exact for literals, `:param`, `*`, `**` and wildcards glued
 * inside a segment, with no sample paths. Hosts are not compared (see the rules above). The path's segments are
 * percent-encoded, so `matchRoute` reads them back as they were found.
 * @param {string} a
 * @param {string} b
 * @returns {string | null}
 */
export function routeOverlap(a, b) {
  if (a.trim() === "" || b.trim() === "") return null;
  const x = compileRoute(a).segments;
  const y = compileRoute(b).segments;
  // Breadth-first over (i, j): some path's prefix is matched by x[0, i) and y[0, j). A `**` either ends (moves on
  // without a segment) or eats one segment the other side's next single segment matches; a segment both `**` eat
  // could be left out of the path, so those steps are never needed.
  const width = y.length + 1;
  /** @type {Map<number, { from: number, segment: string | null }>} */
  const reached = new Map([[0, { from: -1, segment: null }]]);
  const queue = [0];
  /** A move to (i, j) adding `segment` to the path (`null`: a `**` ending, no segment). */
  /** @type {(from: number, i: number, j: number, segment: string | null) => void} */
  const step = (from, i, j, segment) => {
    const key = i * width + j;
    if (reached.has(key)) return;
    reached.set(key, { from, segment });
    queue.push(key);
  };
  for (let head = 0; head < queue.length; head++) {
    const key = /** @type {number} */ (queue[head]);
    const i = Math.floor(key / width);
    const j = key % width;
    if (i === x.length && j === y.length) {
      /** @type {string[]} */
      const path = [];
      for (let k = key; k > 0;) {
        const r = /** @type {{ from: number, segment: string | null }} */ (reached.get(k));
        if (r.segment !== null) path.unshift(encodeURIComponent(r.segment));
        k = r.from;
      }
      return `/${path.join("/")}`;
    }
    const s = x[i];
    const t = y[j];
    if (s?.kind === "globstar") {
      step(key, i + 1, j, null);
      const eaten = t !== undefined && t.kind !== "globstar" ? segmentSample(t, undefined) : null;
      if (eaten !== null) step(key, i, j + 1, eaten);
    }
    if (t?.kind === "globstar") {
      step(key, i, j + 1, null);
      const eaten = s !== undefined && s.kind !== "globstar" ? segmentSample(s, undefined) : null;
      if (eaten !== null) step(key, i + 1, j, eaten);
    }
    if (s !== undefined && t !== undefined && s.kind !== "globstar" && t.kind !== "globstar") {
      const both = segmentSample(s, t);
      if (both !== null) step(key, i + 1, j + 1, both);
    }
  }
  return null;
}

/**
 * A URL segment (non-empty, no `/`) that single segments `s` and, when given, `t` both match; `null` when none does.
 * @param {Exclude<RouteSegment, { kind: "globstar" }>} s
 * @param {Exclude<RouteSegment, { kind: "globstar" }> | undefined} t
 * @returns {string | null}
 */
function segmentSample(s, t) {
  if (t === undefined || t.kind === "param" || t.kind === "star") {
    if (s.kind === "literal") return s.text.includes("/") ? null : s.text;
    if (s.kind === "glob") return globOverlap(s.parts, ["", ""]);
    return "x";
  }
  if (s.kind === "param" || s.kind === "star") return segmentSample(t, undefined);
  if (s.kind === "literal") {
    if (t.kind === "literal") return s.text === t.text && !s.text.includes("/") ? s.text : null;
    return t.re.test(s.text) && !s.text.includes("/") ? s.text : null;
  }
  if (t.kind === "literal") return segmentSample(t, s);
  return globOverlap(s.parts, t.parts);
}

/**
 * The shortest non-empty string without `/` that both glued-wildcard patterns match (each given as the literal
 * parts around its `*` runs: `a*b` → `["a", "b"]`), or `null`. Breadth-first over the pair of positions in the two
 * patterns; the letters tried are those of either pattern plus one in neither (what a `*` run stands for).
 * @param {string[]} p
 * @param {string[]} q
 * @returns {string | null}
 */
function globOverlap(p, q) {
  /** @param {string[]} parts */
  const tokens = (parts) => parts.flatMap((part, k) => [...(k === 0 ? [] : [null]), ...part.split("")]);
  const a = tokens(p);
  const b = tokens(q);
  const used = new Set([...a, ...b]);
  let fresh = "x";
  for (let c = 97; used.has(fresh); c++) fresh = String.fromCharCode(c);
  const letters = [...new Set([...a, ...b, fresh])].filter((c) => c !== null && c !== "/");
  /** @type {(tokens: (string | null)[], i: number) => number[]} */
  const closure = (tokens, i) => {
    const out = [i];
    while (tokens[i] === null) out.push(++i);
    return out;
  };
  /** @type {Map<string, { from: string, letter: string }>} */
  const reached = new Map();
  /** @type {Array<[number, number, boolean]>} */
  const queue = [];
  for (const i of closure(a, 0)) {
    for (const j of closure(b, 0)) {
      const key = `${i},${j},0`;
      if (!reached.has(key)) {
        reached.set(key, { from: "", letter: "" });
        queue.push([i, j, false]);
      }
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const [i, j, some] = /** @type {[number, number, boolean]} */ (queue[head]);
    const key = `${i},${j},${some ? 1 : 0}`;
    if (some && i === a.length && j === b.length) {
      let out = "";
      for (let k = key; k !== "";) {
        const r = /** @type {{ from: string, letter: string }} */ (reached.get(k));
        out = r.letter + out;
        k = r.from;
      }
      return out;
    }
    for (const letter of /** @type {string[]} */ (letters)) {
      /** @type {(tokens: (string | null)[], i: number) => number[]} */
      const next = (tokens, i) =>
        tokens[i] === null ? closure(tokens, i) : tokens[i] === letter ? closure(tokens, i + 1) : [];
      for (const i2 of next(a, i)) {
        for (const j2 of next(b, j)) {
          const k2 = `${i2},${j2},1`;
          if (reached.has(k2)) continue;
          reached.set(k2, { from: key, letter });
          queue.push([i2, j2, true]);
        }
      }
    }
  }
  return null;
}

/**
 * Whether a declared method accepts a request's method: case-insensitive; an absent or empty declaration accepts any.
 * @param {string | null | undefined} declared
 * @param {string} actual
 * @returns {boolean}
 */
export function methodMatches(declared, actual) {
  return !declared || declared.toUpperCase() === actual.toUpperCase();
}

// ---- Views ---------------------------------------------------------------------------------------------------

/**
 * Every view whose route matches the URL, most specific first (score descending, then declaration order).
 * Views without a route never match.
 * @template {{ route?: string | null | undefined }} V
 * @param {readonly V[]} views in declaration order
 * @param {string} url
 * @returns {Array<{ view: V, params: Record<string, string>, score: number, index: number }>}
 */
export function matchViews(views, url) {
  /** @type {Array<{ view: V, params: Record<string, string>, score: number, index: number }>} */
  const out = [];
  const path = urlSegments(url);
  if (path === null) return out;
  const host = hostOf(url);
  views.forEach((view, index) => {
    const route = view.route;
    if (typeof route !== "string" || route === "") return;
    const params = matchCompiled(route, host, path);
    if (params !== null) out.push({ view, params, score: routeScore(route), index });
  });
  return out.sort((a, b) => b.score - a.score || a.index - b.index);
}

/**
 * The single view active at a URL: the most specific matching route, the first declared on a tie; `null` when none
 * matches.
 * @template {{ route?: string | null | undefined }} V
 * @param {{ views: readonly V[] }} corpus
 * @param {string} url
 * @returns {{ view: V, params: Record<string, string> } | null}
 */
export function resolveView(corpus, url) {
  const best = matchViews(corpus.views, url)[0];
  return best === undefined ? null : { view: best.view, params: best.params };
}

/**
 * The components active at a URL: the globals not shadowed by a same-named component of the resolved view, then
 * that view's components (so a view refines a global by redefining its name).
 * @template {{ name: string }} C
 * @param {readonly C[]} globals
 * @param {readonly C[]} viewComponents
 * @returns {C[]}
 */
export function mergeComponents(globals, viewComponents) {
  const shadowed = new Set(viewComponents.map((c) => c.name));
  return [...globals.filter((c) => !shadowed.has(c.name)), ...viewComponents];
}

/**
 * The resolved view of a URL and the components active there (see {@linkcode resolveView} and
 * {@linkcode mergeComponents}).
 * @param {Corpus} corpus
 * @param {string} url a location's pathname or href
 * @returns {{ view: ActiveView | null, components: Component[] }}
 */
export function activeComponents(corpus, url) {
  const hit = resolveView(corpus, url);
  if (hit === null) return { view: null, components: [...corpus.globals] };
  const view = { name: hit.view.name, route: hit.view.route ?? "", params: hit.params };
  return { view, components: mergeComponents(corpus.globals, hit.view.components) };
}

// ---- Corpus --------------------------------------------------------------------------------------------------

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * @param {unknown} raw
 * @returns {Property | null}
 */
function normalizeProperty(raw) {
  if (!isObject(raw) || typeof raw.name !== "string" || typeof raw.extract !== "string") return null;
  /** @type {Property} */
  const p = { name: raw.name, extract: raw.extract };
  if (typeof raw.transform === "string" && raw.transform !== "") p.transform = raw.transform;
  return p;
}

/**
 * @param {unknown} raw
 * @param {string | null} view
 * @returns {Component | null}
 */
function normalizeComponent(raw, view) {
  if (!isObject(raw) || typeof raw.name !== "string") return null;
  const selector = typeof raw.selector === "string"
    ? raw.selector
    : Array.isArray(raw.selectors)
    ? raw.selectors.filter((s) => typeof s === "string").map((s) => s.trim()).filter((s) => s !== "").join(", ")
    : "";
  const parentChain = Array.isArray(raw.parentChain) ? raw.parentChain.filter((s) => typeof s === "string") : [];
  const properties = Array.isArray(raw.properties)
    ? raw.properties.map(normalizeProperty).filter((p) => p !== null)
    : [];
  /** @type {Component} */
  const c = { name: raw.name, selector: selector.trim(), parentChain, properties, view };
  if (typeof raw.ownSelector === "string" && raw.ownSelector.trim() !== "") c.ownSelector = raw.ownSelector.trim();
  return c;
}

/**
 * Turns the `/mapper` payload into the extension's corpus. Accepts mapper's wire (`selector` string, integer
 * `version`) and, leniently, the wire of other Sightmap servers (`selectors` arrays, string `version`, fields under `corpus`).
 * Returns `null` when the payload is not a corpus at all. A corpus with zero components is a valid, empty corpus.
 * @param {unknown} wire
 * @returns {Corpus | null}
 */
export function normalizeCorpus(wire) {
  if (!isObject(wire)) return null;
  const body = isObject(wire.corpus) ? wire.corpus : wire;
  const version = Number(wire.version);
  if (!Number.isFinite(version)) return null;
  const site = typeof wire.site === "string" ? wire.site : "";
  const list = (/** @type {unknown} */ raw, /** @type {string | null} */ view) =>
    (Array.isArray(raw) ? raw : []).map((c) => normalizeComponent(c, view)).filter((c) => c !== null);
  const globals = list(body.globals, null);
  /** @type {View[]} */
  const views = (Array.isArray(body.views) ? body.views : []).filter(isObject)
    .filter((v) => typeof v.name === "string")
    .map((v) => ({
      name: String(v.name),
      route: typeof v.route === "string" && v.route !== "" ? v.route : null,
      components: list(v.components, String(v.name)),
    }));
  const componentCount = views.reduce((n, v) => n + v.components.length, globals.length);
  return { site, version, globals, views, componentCount };
}

// ---- Element resolution --------------------------------------------------------------------------------------

/**
 * What {@linkcode claimElements} needs of a document: a live page (`live_dom.js`) or a captured tree (the offline
 * engine). `E` is an element, `R` a root `querySelectorAll` runs on (a document, a shadow root, a frame's document).
 * `roots`: every root to query, the top document first, then each open shadow root and same-origin frame document in
 * document order (nested ones too). `queryAll`: the elements of one root (never inside a shadow root or frame below
 * it) matching a selector, in document order, as `root.querySelectorAll` finds them; throws when the selector cannot
 * be answered (invalid CSS; offline, something the capture did not record). `parent`: the parent element, at the
 * top of a shadow tree its host, `null` at the top of a document (maps never scope across frames).
 * @template E, R
 * @typedef {{
 *   roots: () => Iterable<R>,
 *   queryAll: (root: R, selector: string) => Iterable<E>,
 *   parent: (element: E) => E | null,
 * }} ClaimDom
 */

/**
 * Which component owns each element — the one rule for the snapshot, the actions, the extension and the offline
 * engine:
 * - Components are taken in declaration order and each element belongs to the first that matches it.
 * - A child (a component whose `parentChain` names a component active here) is claimed only inside an element its
 *   nearest active parent owns: an ancestor of it, walking {@linkcode ClaimDom.parent}, which crosses from a shadow
 *   tree to its host. It is looked for by its own selector (`ownSelector`) in every root, so it is found in its
 *   parent's open shadow roots (nested hosts too), where a selector composed under the parent's cannot reach. A
 *   component without an active parent is looked for by its composed selector.
 * - A selector is answered on every root before anything is claimed: one that cannot be answered claims nothing and
 *   is listed in `unknown` (its elements may then be claimed by a later component: show it as unknown, never as
 *   "matched nothing").
 * Answers the owner (index into `components`) of each claimed element and the conflicts (two components matching
 * the same elements; the first declared wins), one line per pair in the order first seen.
 * @template E, R
 * @param {ReadonlyArray<{ name: string, selector: string, ownSelector?: string, parentChain: ReadonlyArray<string> }>} components
 *   active components, in declaration order
 * @param {ClaimDom<E, R>} dom
 * @returns {{ owner: Map<E, number>, conflicts: string[], unknown: Array<{ index: number, reason: string }> }}
 */
export function claimElements(components, dom) {
  /** @type {Map<E, number>} */
  const owner = new Map();
  /** @type {Map<string, number>} how many elements each "Winner\u0000Loser" pair both matched */
  const clashes = new Map();
  /** @type {Array<{ index: number, reason: string }>} */
  const unknown = [];
  const active = new Set(components.map((c) => c.name));
  const roots = [...dom.roots()];
  /**
   * Whether a shadow-including ancestor of `el` is owned by the component named `name`.
   * @param {E} el
   * @param {string} name
   */
  const inside = (el, name) => {
    for (let p = dom.parent(el); p !== null; p = dom.parent(p)) {
      const o = owner.get(p);
      if (o !== undefined && components[o]?.name === name) return true;
    }
    return false;
  };
  components.forEach((c, index) => {
    const parent = [...c.parentChain].reverse().find((p) => active.has(p));
    const selector = parent !== undefined && c.ownSelector ? c.ownSelector : c.selector;
    if (selector === "") return;
    /** @type {E[]} */
    const found = [];
    try {
      for (const root of roots) for (const el of dom.queryAll(root, selector)) found.push(el);
    } catch (err) {
      unknown.push({ index, reason: err instanceof Error ? err.message : String(err) });
      return;
    }
    for (const el of found) {
      const prev = owner.get(el);
      if (prev !== undefined) {
        const winner = components[prev]?.name;
        if (winner !== c.name) {
          const key = `${winner}\u0000${c.name}`;
          clashes.set(key, (clashes.get(key) ?? 0) + 1);
        }
        continue;
      }
      if (parent !== undefined && !inside(el, parent)) continue;
      owner.set(el, index);
    }
  });
  const conflicts = [...clashes].map(([key, n]) => {
    const [winner, loser] = key.split("\u0000");
    return `${winner} and ${loser} both match ${
      n === 1 ? "one element" : `${n} elements`
    }; ${winner} (declared first) wins`;
  });
  return { owner, conflicts, unknown };
}

/**
 * The components an element is inside, outermost first, by the owners {@linkcode claimElements} gave: the element's own
 * component and every owned shadow-including ancestor's, each with its properties extracted.
 * @template E, R
 * @param {E} target
 * @param {Map<E, number>} owner from {@linkcode claimElements}
 * @param {Component[]} components the same list {@linkcode claimElements} was given
 * @param {ClaimDom<E, R> & Dom<E>} dom
 * @returns {{ path: PathEntry<E>[], tier: 1 | 2 | 3 }} tier 1: the target itself is the innermost component;
 *   2: the target is inside it; 3: no component owns it or an ancestor
 */
export function ownerPath(target, owner, components, dom) {
  /** @type {Map<string, Component>} */
  const byName = new Map(components.map((c) => [c.name, c]));
  /** @type {PathEntry<E>[]} */
  const path = [];
  for (let el = /** @type {E | null} */ (target); el !== null; el = dom.parent(el)) {
    const o = owner.get(el);
    const component = o === undefined ? undefined : components[o];
    if (component === undefined) continue;
    path.unshift({
      name: component.name,
      element: el,
      component,
      properties: extractProperties(el, component, byName, dom),
    });
  }
  const innermost = path[path.length - 1];
  const tier = innermost === undefined ? 3 : innermost.element === target ? 1 : 2;
  return { path, tier };
}

// ---- Properties ----------------------------------------------------------------------------------------------

/**
 * Elements whose text stands apart from its neighbours' when rendered (block and table boxes, line breaks): their
 * text is joined with a space, so `<div>a</div><div>b</div>` reads `a b`, never `ab`. Upper case, as `nodeName`.
 */
export const BLOCK_TAGS = Object.freeze(
  new Set(
    ("ADDRESS ARTICLE ASIDE BLOCKQUOTE BR CAPTION DD DETAILS DIALOG DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM " +
      "H1 H2 H3 H4 H5 H6 HEADER HGROUP HR LEGEND LI MAIN NAV OL OPTION P PRE SECTION SUMMARY TABLE TBODY TD TFOOT TH " +
      "THEAD TR UL").split(" "),
  ),
);

/**
 * A DOM node as {@linkcode nodeText} reads it (structurally: a real `Node`, or a test's stand-in).
 * @typedef {{ nodeType: number, nodeName: string, nodeValue: string | null,
 *   childNodes: ArrayLike<TextNode> | Iterable<TextNode> }} TextNode
 */

/**
 * The `text` of an element: its `textContent`, except that block elements ({@linkcode BLOCK_TAGS}) are set apart by
 * spaces, and comments, `<script>`, `<style>` and `<template>` contribute nothing. `skip` drops further elements
 * (`text_only` drops images, SVG and `[alt]`). The one implementation of `text` for every DOM the resolver runs on.
 * @param {TextNode} node
 * @param {(element: TextNode) => boolean} [skip]
 * @returns {string}
 */
export function nodeText(node, skip) {
  /** @type {string[]} */
  const out = [];
  /** @param {TextNode} n */
  const walk = (n) => {
    if (n.nodeType === 3 || n.nodeType === 4) {
      out.push(n.nodeValue ?? "");
      return;
    }
    if (n.nodeType !== 1 && n.nodeType !== 11 && n.nodeType !== 9) return;
    const tag = n.nodeName.toUpperCase();
    if (n.nodeType === 1 && (tag === "SCRIPT" || tag === "STYLE" || tag === "TEMPLATE" || skip?.(n))) return;
    const block = n.nodeType === 1 && BLOCK_TAGS.has(tag);
    if (block) out.push(" ");
    for (const child of Array.from(n.childNodes)) walk(child);
    if (block) out.push(" ");
  };
  for (const child of Array.from(node.childNodes)) walk(child);
  return out.join("");
}

/**
 * Trims, collapses internal whitespace and cuts to {@linkcode MAX_VALUE} characters.
 * @param {unknown} value
 * @returns {string}
 */
export function cleanValue(value) {
  const text = String(value ?? "").replace(/\s+/g, " ").trim();
  return text.length > MAX_VALUE ? text.slice(0, MAX_VALUE) : text;
}

/** The extract keywords, evaluated on the component's own element. */
export const EXTRACT_KEYWORDS = Object.freeze(["text", "raw_text", "inner_text", "text_only", "inner_html"]);

/** Every accepted extract form, as the `property-extract-invalid` message lists them. */
export const EXTRACT_FORMS =
  "text, raw_text, inner_text, text_only, inner_html, attr=NAME, exists:SELECTOR|PATH, PATH.prop, or a CSS selector";

/** The transform names (`match:REGEX` takes its regular expression after the colon). */
export const TRANSFORMS = Object.freeze(["first_word", "last_word", "first_number", "first_dollar", "number", "slug"]);

const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * A dotted path of component names when the head names a known component (`Card.Title.text`, `exists:Card.Buy`):
 * `{ names, prop }` (`prop` is `null` for an `exists:` path); else `null` (the expression is CSS).
 * @param {string} expr
 * @param {(name: string) => boolean} isComponent
 * @param {boolean} withProp
 * @returns {{ names: string[], prop: string | null } | null}
 */
function componentPath(expr, isComponent, withProp) {
  const parts = expr.split(".");
  if (parts.length === 0 || !parts.every((p) => IDENT.test(p))) return null;
  if (!isComponent(/** @type {string} */ (parts[0]))) return null;
  if (!withProp) return { names: parts, prop: null };
  if (parts.length < 2) return null;
  const prop = /** @type {string} */ (parts.pop());
  return { names: parts, prop };
}

/**
 * Walks dotted component names downwards from an element: each step is the first element strictly inside the
 * current one that matches the named component's selector.
 * @template E
 * @param {E} element
 * @param {string[]} names
 * @param {Map<string, Component>} byName
 * @param {Dom<E>} dom
 * @returns {{ element: E, component: Component } | null}
 */
function descend(element, names, byName, dom) {
  /** @type {{ element: E, component: Component } | null} */
  let at = null;
  let current = element;
  for (const name of names) {
    const component = byName.get(name);
    if (component === undefined || component.selector === "") return null;
    // The composed selector, else (inside a shadow root, where it cannot reach) the child's own.
    const next = safeQuery(dom, current, component.selector) ??
      (component.ownSelector ? safeQuery(dom, current, component.ownSelector) : null);
    if (next === null) return null;
    at = { element: next, component };
    current = next;
  }
  return at;
}

/**
 * @template E
 * @param {Dom<E>} dom
 * @param {E} element
 * @param {string} selector
 * @returns {E | null}
 */
function safeQuery(dom, element, selector) {
  try {
    return dom.querySelector(element, selector);
  } catch {
    return null;
  }
}

/**
 * Evaluates one extract expression on an element, before cleaning (authoring spec §6): `text` (textContent),
 * `raw_text` (the same; only trimmed later), `inner_text`, `text_only` (text without images, SVG and `[alt]`
 * elements), `inner_html`, `attr=NAME`, `exists:PATH|SELECTOR` (`"true"` or nothing), `A.B.prop` (dotted names of
 * descendant components, then a property the last one declares or a keyword such as `text`), and any other string as
 * a CSS selector (the first descendant's inner text). Returns `""` when there is no value.
 * @template E
 * @param {E} element
 * @param {string} extract
 * @param {Map<string, Component>} byName the active components by name
 * @param {Dom<E>} dom
 * @param {number} [depth]
 * @returns {string}
 */
export function extractValue(element, extract, byName, dom, depth = 0) {
  if (depth > 8) return "";
  const expr = extract.trim();
  if (expr === "") return "";
  switch (expr) {
    case "text":
    case "raw_text":
      return dom.text(element);
    case "inner_text":
      return (dom.innerText ?? dom.text)(element);
    case "text_only":
      return (dom.textOnly ?? dom.text)(element);
    case "inner_html":
      return dom.innerHtml?.(element) ?? "";
  }
  if (expr.startsWith("attr=")) return dom.attr(element, expr.slice(5).trim()) ?? "";
  const isComponent = (/** @type {string} */ n) => byName.has(n);
  if (expr.startsWith("exists:")) {
    const rest = expr.slice(7).trim();
    const path = componentPath(rest, isComponent, false);
    if (path !== null) return descend(element, path.names, byName, dom) ? "true" : "";
    return rest !== "" && safeQuery(dom, element, rest) !== null ? "true" : "";
  }
  const path = componentPath(expr, isComponent, true);
  if (path !== null) {
    const found = descend(element, path.names, byName, dom);
    if (found === null || path.prop === null) return "";
    const declared = found.component.properties.find((p) => p.name === path.prop);
    if (declared) return propertyValue(found.element, declared, byName, dom, depth + 1);
    return extractValue(found.element, path.prop, byName, dom, depth + 1);
  }
  const found = safeQuery(dom, element, expr);
  if (found === null) return "";
  return (dom.innerText ?? dom.text)(found);
}

/**
 * Applies a transform to a cleaned value: `first_word`, `last_word`, `first_number` (the first number as written,
 * `1,299.00`), `number` (that number in plain form, `1299`), `first_dollar` (the first `$` amount, `$19.99`), `slug`
 * (lower-case words joined by `-`), `match:REGEX` (group 1, else the whole match). A transform that finds nothing
 * yields `""` (the property is omitted), except `match:` (no match or an invalid regex: unchanged); an unknown
 * transform leaves the value unchanged.
 * @param {string} value
 * @param {string | undefined} transform
 * @returns {string}
 */
export function applyTransform(value, transform) {
  const t = (transform ?? "").trim();
  if (t === "") return value;
  if (t.startsWith("match:")) {
    try {
      const m = new RegExp(t.slice(6)).exec(value);
      return m ? (m[1] ?? m[0]) : value;
    } catch {
      return value;
    }
  }
  const words = value.split(/\s+/).filter((w) => w !== "");
  const numberText = /-?\d[\d,]*(?:\.\d+)?/.exec(value)?.[0] ?? "";
  switch (t) {
    case "first_word":
      return words[0] ?? "";
    case "last_word":
      return words[words.length - 1] ?? "";
    case "first_number":
      return numberText;
    case "number": {
      const n = Number(numberText.replace(/,/g, ""));
      return numberText === "" || !Number.isFinite(n) ? "" : String(n);
    }
    case "first_dollar":
      return /\$\s*\d[\d,]*(?:\.\d+)?/.exec(value)?.[0].replace(/\s+/g, "") ?? "";
    case "slug":
      return value.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "");
  }
  return value;
}

/**
 * One property's value on an element: extracted, trimmed and whitespace-collapsed (`raw_text` keeps its inner
 * whitespace), transformed, cut to {@linkcode MAX_VALUE} characters; `""` when there is none.
 * @template E
 * @param {E} element
 * @param {Property} property
 * @param {Map<string, Component>} byName
 * @param {Dom<E>} dom
 * @param {number} [depth]
 * @returns {string}
 */
export function propertyValue(element, property, byName, dom, depth = 0) {
  let raw = "";
  try {
    raw = extractValue(element, property.extract, byName, dom, depth);
  } catch {
    return "";
  }
  const value = property.extract.trim() === "raw_text" ? raw.trim() : raw.replace(/\s+/g, " ").trim();
  if (value === "") return "";
  const out = applyTransform(value, property.transform);
  return out.length > MAX_VALUE ? out.slice(0, MAX_VALUE) : out;
}

/**
 * Extracts a component's declared properties on its element, in declaration order; empty values omitted.
 * @template E
 * @param {E} element
 * @param {Component} component
 * @param {Map<string, Component>} byName the active components by name (for `A.B.prop` and `exists:A`)
 * @param {Dom<E>} dom
 * @returns {Array<[string, string]>}
 */
export function extractProperties(element, component, byName, dom) {
  /** @type {Array<[string, string]>} */
  const out = [];
  for (const p of component.properties) {
    const value = propertyValue(element, p, byName, dom);
    if (value !== "") out.push([p.name, value]);
  }
  return out;
}

// ---- Checking extract forms and transforms -------------------------------------------------------------------

/** HTML and SVG element names: a bare word that is none of these (nor a custom element) selects nothing. */
const TAGS = new Set(
  ("a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption cite code col " +
    "colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure footer form h1 " +
    "h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li link main map mark menu " +
    "meta meter nav noscript object ol optgroup option output p param picture pre progress q rp rt ruby s samp " +
    "script search section select slot small source span strong style sub summary sup table tbody td template " +
    "textarea tfoot th thead time title tr track u ul var video wbr svg path g circle rect line polyline polygon " +
    "ellipse text tspan use defs symbol image foreignObject math").split(" "),
);

/** Pseudo-classes and pseudo-elements a browser's `querySelector` accepts (lower-case, without colons). */
const PSEUDOS = new Set(
  ("active any-link autofill blank checked default defined dir disabled empty enabled first first-child " +
    "first-of-type focus focus-visible focus-within fullscreen has host hover in-range indeterminate invalid is " +
    "lang last-child last-of-type link modal not nth-child nth-last-child nth-last-of-type nth-of-type only-child " +
    "only-of-type open optional out-of-range placeholder-shown popover-open read-only read-write required root " +
    "scope target user-invalid user-valid valid visited where after before first-letter first-line marker " +
    "placeholder selection").split(" "),
);

/**
 * A conservative CSS selector check for extract expressions (no parser here: this module has no imports). Refuses
 * unbalanced brackets, parentheses and quotes, a type selector that is no HTML/SVG element and no custom element
 * (`value`, `raw_txt`), and pseudo-classes no browser knows (`attr:data-sku`, `text:h3`).
 * @param {string} selector
 * @returns {boolean}
 */
function plausibleSelector(selector) {
  let depth = 0;
  /** @type {string | null} */
  let quote = null;
  let bracket = false;
  for (const ch of selector) {
    if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "[") {
      if (bracket) return false;
      bracket = true;
    } else if (ch === "]") {
      if (!bracket) return false;
      bracket = false;
    } else if (ch === "(") depth++;
    else if (ch === ")" && --depth < 0) return false;
  }
  if (quote !== null || bracket || depth !== 0) return false;
  // Check names outside brackets, quotes and parentheses.
  const bare = selector.replace(/"[^"]*"|'[^']*'/g, '""').replace(/\[[^\]]*\]/g, "[]");
  let outer = "";
  let level = 0;
  for (const ch of bare) {
    if (ch === "(") level++;
    if (level === 0) outer += ch;
    if (ch === ")") level--;
  }
  if (/[=;{}@$!`]/.test(outer)) return false;
  for (const m of outer.matchAll(/(^|[\s>+~,(])([A-Za-z_][\w-]*)/g)) {
    const tag = /** @type {string} */ (m[2]);
    if (!TAGS.has(tag) && !TAGS.has(tag.toLowerCase()) && !/^[a-z][a-z0-9]*-[\w-]*$/.test(tag)) return false;
  }
  for (const m of outer.matchAll(/::?([A-Za-z_-][\w-]*)/g)) {
    if (!PSEUDOS.has(/** @type {string} */ (m[1]).toLowerCase())) return false;
  }
  return true;
}

/**
 * Edit distance of two short strings (for did-you-mean).
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
function distance(a, b) {
  /** @type {number[]} */
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/**
 * The project's one did-you-mean: the candidates closest to a word (case-insensitive edit distance at most
 * `maxDistance`, or one containing the other when both have 3+ characters), nearest first, then in given order.
 * @param {string} word
 * @param {readonly string[]} candidates
 * @param {number} [maxDistance]
 * @returns {string[]}
 */
export function didYouMean(word, candidates, maxDistance = 2) {
  const w = word.toLowerCase();
  /** @type {Array<{ name: string, d: number, i: number }>} */
  const scored = [];
  const seen = new Set();
  candidates.forEach((name, i) => {
    if (seen.has(name) || name === word) return;
    seen.add(name);
    const n = name.toLowerCase();
    let d = maxDistance + 1;
    if (n === w) d = 0;
    else if (w.length >= 3 && n.length >= 3 && (n.includes(w) || w.includes(n))) d = 1;
    // The edit distance is at least the length difference: skip the quadratic work when that already rules it out.
    else if (Math.abs(n.length - w.length) <= maxDistance) d = distance(w, n);
    if (d <= maxDistance) scored.push({ name, d, i });
  });
  return scored.sort((a, b) => a.d - b.d || a.i - b.i).map((s) => s.name);
}

/** Spellings people reach for, mapped to the form they mean. */
const ALIASES = /** @type {Record<string, string>} */ ({
  textcontent: "text",
  innertext: "inner_text",
  innerhtml: "inner_html",
  html: "inner_html",
  rawtext: "raw_text",
  textonly: "text_only",
});

/**
 * The form an invalid extract expression most likely meant, or `null`.
 * @param {string} expr
 * @param {readonly string[]} componentNames
 * @returns {string | null}
 */
function suggestExtract(expr, componentNames) {
  const attr = /^(?:attr(?:ibute)?\s*[:(\-_.]\s*|@)([^\s)]+)\)?$/i.exec(expr);
  if (attr) return `attr=${attr[1]}`;
  const exists = /^(?:exists?|has)\s*[=(]\s*([^)]+)\)?$/i.exec(expr);
  if (exists) return `exists:${exists[1]}`;
  const textOf = /^(?:text|inner_text|raw_text)\s*[:=]\s*(.+)$/i.exec(expr);
  if (textOf) return /** @type {string} */ (textOf[1]).trim();
  const word = expr.toLowerCase();
  if (ALIASES[word.replace(/[_-]/g, "")] !== undefined) return ALIASES[word.replace(/[_-]/g, "")] ?? null;
  const best = didYouMean(expr, [...EXTRACT_KEYWORDS, ...componentNames])[0];
  if (best !== undefined) return EXTRACT_KEYWORDS.includes(best) ? best : `${best}.text`;
  if (IDENT.test(expr)) return `attr=${expr}`; // `value`, `href`: usually an attribute
  return null;
}

/**
 * Checks one extract expression as `validate` does (authoring spec §6). Returns `null` when it is a valid form, else
 * the `property-extract-invalid` message (`unknown extract form "attr:data-sku" (accepted: …)`, or a more precise
 * one for a malformed `attr=`, `exists:` or component path) and a suggested replacement expression (`null` when
 * there is no good guess).
 * @param {string} expr the `extract:` value as written
 * @param {readonly string[] | ReadonlySet<string>} componentNames names of the components a path may name (all in
 *   the corpus); pass a Set when checking many expressions
 * @param {{ isSelector?: (selector: string) => boolean }} [options] a real CSS parser's verdict, when the caller has
 *   one; it is asked in addition to this module's own check
 * @returns {{ message: string, suggestion: string | null } | null}
 */
export function checkExtract(expr, componentNames, options = {}) {
  const e = expr.trim();
  const names = componentNames instanceof Set ? componentNames : new Set(componentNames);
  const isComponent = (/** @type {string} */ n) => names.has(n);
  const isSelector = (/** @type {string} */ s) => plausibleSelector(s) && (options.isSelector?.(s) ?? true);
  const unknown = () => ({
    message: `unknown extract form ${JSON.stringify(e)} (accepted: ${EXTRACT_FORMS})`,
    suggestion: suggestExtract(e, [...names]),
  });
  if (e === "") return { message: `empty extract form (accepted: ${EXTRACT_FORMS})`, suggestion: "text" };
  if (EXTRACT_KEYWORDS.includes(e)) return null;
  if (e.startsWith("attr=")) {
    const name = e.slice(5).trim();
    if (/^[^\s"'>/=]+$/.test(name)) return null;
    return {
      message: `extract ${JSON.stringify(e)} names no attribute: write attr=NAME, e.g. attr=href`,
      suggestion: null,
    };
  }
  if (e.startsWith("exists:")) {
    const rest = e.slice(7).trim();
    if (rest === "") return { message: `extract "exists:" needs a selector or component path`, suggestion: null };
    if (componentPath(rest, isComponent, false) !== null) return checkPath(rest.split("."), names, e);
    if (isSelector(rest)) return null;
    return {
      message: `extract ${JSON.stringify(e)}: ${JSON.stringify(rest)} is neither a component path nor a CSS selector`,
      suggestion: null,
    };
  }
  if (componentPath(e, isComponent, true) !== null) return checkPath(e.split(".").slice(0, -1), names, e);
  if (isSelector(e)) return null;
  return unknown();
}

/**
 * @param {string[]} components the component names of a path (head already known)
 * @param {ReadonlySet<string>} names
 * @param {string} expr
 * @returns {{ message: string, suggestion: string | null } | null}
 */
function checkPath(components, names, expr) {
  const missing = components.find((n) => !names.has(n));
  if (missing === undefined) return null;
  return { message: `extract ${JSON.stringify(expr)} names no component ${JSON.stringify(missing)}`, suggestion: null };
}

/**
 * Checks one `transform:` value (authoring spec §6). Returns `null` when valid, else the
 * `property-transform-invalid` message and a suggested transform (or `null`).
 * @param {string} transform
 * @returns {{ message: string, suggestion: string | null } | null}
 */
export function checkTransform(transform) {
  const t = transform.trim();
  if (TRANSFORMS.includes(t)) return null;
  if (t.startsWith("match:")) {
    const source = t.slice(6);
    if (source === "") return { message: `transform "match:" needs a regular expression`, suggestion: null };
    try {
      new RegExp(source);
      return null;
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return { message: `transform ${JSON.stringify(t)} has an invalid regular expression: ${why}`, suggestion: null };
    }
  }
  const best = didYouMean(t, TRANSFORMS)[0] ?? null;
  return {
    message: `unknown transform ${JSON.stringify(t)} (accepted: ${TRANSFORMS.join(", ")}, match:REGEX)`,
    suggestion: best,
  };
}
