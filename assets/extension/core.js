// @ts-check
// Pure logic of the Mapper Overlay extension: route matching, corpus normalisation, element resolution, property
// extraction and event formatting. No `chrome.*` and no DOM globals: every DOM access goes through a `Dom` object
// of callbacks, so this module runs unchanged in the content script, the panels and the Deno unit tests.

/**
 * One component property declaration as served on `/mapper`.
 * @typedef {{ name: string, extract: string }} Property
 */

/**
 * A flattened component as the extension uses it.
 * @typedef {{ name: string, selector: string, parentChain: string[], properties: Property[], view: string | null }} Component
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
 * A matched view with the parameters its route captured.
 * @typedef {{ name: string, route: string, params: Record<string, string> }} ActiveView
 */

/**
 * One entry of a resolved component path (outermost first).
 * @template E
 * @typedef {{ name: string, element: E, component: Component, properties: Array<[string, string]> }} PathEntry
 */

/**
 * DOM access, injected. `closest` must include the element itself and may throw on an invalid selector;
 * `querySelector` searches strictly inside the element.
 * @template E
 * @typedef {{
 *   closest: (element: E, selector: string) => E | null,
 *   contains: (ancestor: E, element: E) => boolean,
 *   depth: (element: E) => number,
 *   querySelector: (element: E, selector: string) => E | null,
 *   text: (element: E) => string,
 *   attr: (element: E, name: string) => string | null,
 * }} Dom
 */

/** Longest property value kept, in characters. */
export const MAX_VALUE = 120;
/** Longest value shown in a formatted path, in characters. */
export const MAX_FORMATTED_VALUE = 50;

// ---- Routes --------------------------------------------------------------------------------------------------

/**
 * The path part of a route or URL: drops scheme and host, query and fragment; ensures a leading slash.
 * @param {string} route
 * @returns {string}
 */
function pathOf(route) {
  let path = route.trim().replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
  path = path.replace(/[?#].*$/, "");
  return path.startsWith("/") ? path : `/${path}`;
}

/**
 * @param {string} path
 * @returns {string[]}
 */
function segmentsOf(path) {
  return pathOf(path).split("/").filter((s) => s !== "").map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
}

/**
 * Compiles one route segment: `:name` captures a whole segment, `*` inside a segment matches any run of characters
 * but `/`, a lone `*` matches exactly one (non-empty) segment, everything else is literal.
 * @param {string} segment
 * @returns {{ re: RegExp, names: string[] }}
 */
function compileSegment(segment) {
  /** @type {string[]} */
  const names = [];
  if (segment === "*") return { re: /^.+$/s, names };
  const source = segment.replace(/:([A-Za-z_][A-Za-z0-9_]*)|\*|[.+?^${}()|[\]\\]/g, (m, name) => {
    if (name !== undefined) {
      names.push(name);
      return "(.+?)";
    }
    return m === "*" ? ".*" : `\\${m}`;
  });
  return { re: new RegExp(`^${source}$`, "s"), names };
}

/**
 * Matches a view route against a location pathname. Understands `:param` (one segment, captured), `*` (one segment),
 * `**` (any number of segments, including none), and ignores trailing slashes, repeated slashes, query and fragment.
 * Returns the captured parameters, or `null` when the route does not match.
 * @param {string} route
 * @param {string} pathname
 * @returns {Record<string, string> | null}
 */
export function matchRoute(route, pathname) {
  const pattern = segmentsOf(route);
  const path = segmentsOf(pathname);
  const compiled = pattern.map((s) => (s === "**" ? null : compileSegment(s)));
  /** @type {Record<string, string>} */
  const params = {};
  /**
   * @param {number} i
   * @param {number} j
   * @returns {boolean}
   */
  const walk = (i, j) => {
    if (i === compiled.length) return j === path.length;
    const seg = compiled[i];
    if (seg === undefined) return false;
    if (seg === null) {
      for (let k = j; k <= path.length; k++) if (walk(i + 1, k)) return true;
      return false;
    }
    const value = path[j];
    if (value === undefined) return false;
    const m = seg.re.exec(value);
    if (!m) return false;
    if (!walk(i + 1, j + 1)) return false;
    seg.names.forEach((name, n) => (params[name] = m[n + 1] ?? ""));
    return true;
  };
  return walk(0, 0) ? params : null;
}

// ---- Server discovery ----------------------------------------------------------------------------------------

/** First port of the default range a mapper server listens on. */
export const FIRST_PORT = 7891;
/** Last port of the default range. */
export const LAST_PORT = 7900;

/**
 * Ports to probe, in order: the announced one (`chrome.storage.local.serverPort`, set by `mapper browser start`)
 * when it is a valid port, then 7891–7900 without repeating it.
 * @param {unknown} hint
 * @returns {number[]}
 */
export function candidatePorts(hint) {
  const port = Number(hint);
  const ports = Number.isInteger(port) && port > 0 && port < 65536 ? [port] : [];
  for (let p = FIRST_PORT; p <= LAST_PORT; p++) if (p !== port) ports.push(p);
  return ports;
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
    ? raw.properties.filter(isObject).filter((p) => typeof p.name === "string" && typeof p.extract === "string")
      .map((p) => ({ name: String(p.name), extract: String(p.extract) }))
    : [];
  return { name: raw.name, selector: selector.trim(), parentChain, properties, view };
}

/**
 * Turns the `/mapper` payload into the extension's corpus. Accepts mapper's wire (`selector` string, integer
 * `version`) and, leniently, the reference wire (`selectors` arrays, string `version`, fields under `corpus`).
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

/**
 * The views whose route matches the pathname (all of them, in corpus order) and the components active there:
 * globals first, then each matching view's components; a later component with the same name replaces an earlier
 * one in place, so a view can refine a global.
 * @param {Corpus} corpus
 * @param {string} pathname
 * @returns {{ views: ActiveView[], components: Component[] }}
 */
export function activeComponents(corpus, pathname) {
  /** @type {ActiveView[]} */
  const views = [];
  /** @type {Map<string, Component>} */
  const byName = new Map();
  for (const c of corpus.globals) byName.set(c.name, c);
  for (const view of corpus.views) {
    if (view.route === null) continue;
    const params = matchRoute(view.route, pathname);
    if (params === null) continue;
    views.push({ name: view.name, route: view.route, params });
    for (const c of view.components) byName.set(c.name, c);
  }
  return { views, components: [...byName.values()] };
}

// ---- Resolution ----------------------------------------------------------------------------------------------

/**
 * `dom.closest` that treats an invalid or empty selector as "no match".
 * @template E
 * @param {Dom<E>} dom
 * @param {E} element
 * @param {string} selector
 * @returns {E | null}
 */
function safeClosest(dom, element, selector) {
  if (selector === "") return null;
  try {
    return dom.closest(element, selector);
  } catch {
    return null;
  }
}

/**
 * Resolves a target element (hovered, clicked, typed into) to the path of components it is inside, outermost first.
 * Each active component matches at the nearest ancestor-or-self that matches its selector; a component with a
 * `parentChain` only counts when every ancestor named in the chain encloses it (found by `closest` from the
 * child when the ancestor did not already match around it).
 * @template E
 * @param {E} target
 * @param {Component[]} components active components, in order
 * @param {Dom<E>} dom
 * @returns {{ path: PathEntry<E>[], tier: 1 | 2 | 3 }} tier 1: the target itself is the innermost component;
 *   2: the target is inside it; 3: no component matched
 */
export function resolvePath(target, components, dom) {
  /** @type {Map<string, Component>} */
  const byName = new Map(components.map((c) => [c.name, c]));
  /** @type {Map<string, E>} */
  const matched = new Map();
  /** @type {Array<{ component: Component, element: E, order: number }>} */
  const hits = [];
  components.forEach((component, order) => {
    const element = safeClosest(dom, target, component.selector);
    if (element === null) return;
    /** @type {Array<[string, E]>} */
    const ancestors = [];
    let inner = element;
    for (const parentName of [...component.parentChain].reverse()) {
      const parent = byName.get(parentName);
      if (parent === undefined) continue; // not active here: nothing to check against
      const known = matched.get(parentName);
      const found = known !== undefined && dom.contains(known, inner)
        ? known
        : safeClosest(dom, inner, parent.selector);
      if (found === null) return;
      ancestors.push([parentName, found]);
      inner = found;
    }
    for (const [name, el] of ancestors) {
      if (matched.get(name) !== el) {
        matched.set(name, el);
        const hit = hits.find((h) => h.component.name === name);
        if (hit) hit.element = el;
      }
    }
    matched.set(component.name, element);
    hits.push({ component, element, order });
  });
  const sorted = hits.map((h) => ({ ...h, depth: dom.depth(h.element) }))
    .sort((a, b) => a.depth - b.depth || a.order - b.order);
  const path = sorted.map((h) => ({
    name: h.component.name,
    element: h.element,
    component: h.component,
    properties: extractProperties(h.element, h.component, byName, dom),
  }));
  const innermost = path[path.length - 1];
  const tier = innermost === undefined ? 3 : innermost.element === target ? 1 : 2;
  return { path, tier };
}

/**
 * Counts how many elements each component matches, given a `querySelectorAll`-like counter (invalid selector: -1).
 * @param {Component[]} components
 * @param {(selector: string) => number} count
 * @returns {Array<{ name: string, view: string | null, selector: string, count: number }>}
 */
export function countMatches(components, count) {
  return components.map((c) => {
    let n = 0;
    if (c.selector !== "") {
      try {
        n = count(c.selector);
      } catch {
        n = -1;
      }
    }
    return { name: c.name, view: c.view, selector: c.selector, count: n };
  });
}

// ---- Properties ----------------------------------------------------------------------------------------------

/**
 * Trims, collapses internal whitespace and cuts to {@linkcode MAX_VALUE} characters.
 * @param {unknown} value
 * @returns {string}
 */
export function cleanValue(value) {
  const text = String(value ?? "").replace(/\s+/g, " ").trim();
  return text.length > MAX_VALUE ? text.slice(0, MAX_VALUE) : text;
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
    /** @type {E | null} */
    let next = null;
    try {
      next = dom.querySelector(current, component.selector);
    } catch {
      return null;
    }
    if (next === null) return null;
    at = { element: next, component };
    current = next;
  }
  return at;
}

/**
 * Evaluates one extract expression on an element: `text`, `raw_text`, `attr=NAME`, `exists:Child` (or
 * `exists:<css>` when no such component), `Child.prop` (dotted component names ending in a property of the last
 * one, or in a plain extract such as `text`). Returns `""` when there is no value.
 * @template E
 * @param {E} element
 * @param {string} extract
 * @param {Map<string, Component>} byName
 * @param {Dom<E>} dom
 * @param {number} [depth]
 * @returns {string}
 */
export function extractValue(element, extract, byName, dom, depth = 0) {
  if (depth > 8) return "";
  const expr = extract.trim();
  if (expr === "text" || expr === "raw_text" || expr === "inner_text") return dom.text(element);
  if (expr.startsWith("attr=")) return dom.attr(element, expr.slice(5).trim()) ?? "";
  if (expr.startsWith("exists:")) {
    const path = expr.slice(7).trim();
    const names = path.split(".");
    if (names.every((n) => byName.has(n))) return descend(element, names, byName, dom) ? "true" : "";
    try {
      return dom.querySelector(element, path) === null ? "" : "true";
    } catch {
      return "";
    }
  }
  const names = expr.split(".");
  const prop = names.pop();
  if (prop === undefined || names.length === 0 || !names.every((n) => byName.has(n))) return "";
  const found = descend(element, names, byName, dom);
  if (found === null) return "";
  const declared = found.component.properties.find((p) => p.name === prop);
  return extractValue(found.element, declared ? declared.extract : prop, byName, dom, depth + 1);
}

/**
 * Extracts a component's declared properties on its element, in declaration order, cleaned; empty values omitted.
 * @template E
 * @param {E} element
 * @param {Component} component
 * @param {Map<string, Component>} byName
 * @param {Dom<E>} dom
 * @returns {Array<[string, string]>}
 */
export function extractProperties(element, component, byName, dom) {
  /** @type {Array<[string, string]>} */
  const out = [];
  for (const p of component.properties) {
    let value = "";
    try {
      value = cleanValue(extractValue(element, p.extract, byName, dom));
    } catch {
      value = "";
    }
    if (value !== "") out.push([p.name, value]);
  }
  return out;
}

// ---- Formatting ----------------------------------------------------------------------------------------------

/**
 * A value as shown in a formatted path: cut to 47 characters plus `…` when longer than 50, quotes escaped.
 * @param {string} value
 * @param {number} [max]
 * @returns {string}
 */
export function shortValue(value, max = MAX_FORMATTED_VALUE) {
  const cut = value.length > max ? `${value.slice(0, max - 3)}…` : value;
  return cut.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
}

/**
 * One path entry as `[Name key="value" …]`.
 * @param {{ name: string, properties: Array<[string, string]> }} entry
 * @param {number} [max]
 * @returns {string}
 */
export function formatEntry(entry, max = MAX_FORMATTED_VALUE) {
  const props = entry.properties.map(([k, v]) => ` ${k}="${shortValue(v, max)}"`).join("");
  return `[${entry.name}${props}]`;
}

/**
 * A component path as `[A key="value"] > [B]`; `""` for an empty path.
 * @param {Array<{ name: string, properties: Array<[string, string]> }>} path
 * @returns {string}
 */
export function formatPath(path) {
  return path.map((e) => formatEntry(e)).join(" > ");
}

/**
 * The one-line form of an event: `click [A k="v"] > [B]`, or `click (orphaned) button "Buy"` when no component
 * matched (role and accessible name, name cut to 60 characters).
 * @param {string} type
 * @param {Array<{ name: string, properties: Array<[string, string]> }>} path
 * @param {{ role: string, name: string }} element
 * @returns {string}
 */
export function formatEvent(type, path, element) {
  if (path.length > 0) return `${type} ${formatPath(path)}`;
  const name = element.name.length > 60 ? `${element.name.slice(0, 59)}…` : element.name;
  return `${type} (orphaned) ${element.role || "element"}${name ? ` "${shortValue(name, 61)}"` : ""}`;
}

/**
 * The status line every panel shows: `github · 46 components · v1795297721289`, `github · empty corpus · v…`.
 * @param {{ state: string, site?: string, componentCount?: number, version?: number, port?: number }} status
 * @returns {string}
 */
export function statusLine(status) {
  if (status.state === "searching") return "waiting for a mapper server on 127.0.0.1:7891–7900…";
  if (status.version === undefined) return status.state === "offline" ? "server went away, searching…" : "loading…";
  const n = status.componentCount ?? 0;
  const count = n === 0 ? "empty corpus (0 components)" : `${n} component${n === 1 ? "" : "s"}`;
  const line = `${status.site || "(unnamed)"} · ${count} · v${status.version}`;
  return status.state === "offline" ? `${line} · server offline` : line;
}

/**
 * Role of an element for orphaned events: explicit `role`, else implied by the tag (`a[href]` → link, inputs by
 * type), else the lower-case tag name.
 * @param {string} tag
 * @param {{ role?: string | null, type?: string | null, href?: boolean }} attrs
 * @returns {string}
 */
export function roleOf(tag, attrs) {
  if (attrs.role) return attrs.role;
  const t = tag.toLowerCase();
  if (t === "a") return attrs.href ? "link" : "a";
  if (t === "button") return "button";
  if (t === "select") return "combobox";
  if (t === "textarea") return "textbox";
  if (t === "input") {
    const type = (attrs.type ?? "text").toLowerCase();
    if (type === "checkbox" || type === "radio") return type;
    if (type === "submit" || type === "button" || type === "reset") return "button";
    return type === "search" ? "searchbox" : "textbox";
  }
  if (/^h[1-6]$/.test(t)) return "heading";
  return t;
}
