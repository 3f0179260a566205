// @ts-check
// Pure logic of the Mapper Overlay extension besides the resolver: server discovery and event formatting. Route
// matching, view resolution, corpus normalisation, element resolution and property extraction live in
// `resolver.js` (the one implementation the CLI shares) and are re-exported here so existing imports keep working.
// No `chrome.*` and no DOM globals, so this module runs unchanged in the content script, the panels and Deno tests.

export {
  activeComponents,
  cleanValue,
  countMatches,
  extractProperties,
  extractValue,
  matchRoute,
  MAX_VALUE,
  normalizeCorpus,
  resolvePath,
  resolveView,
} from "./resolver.js";
/** @typedef {import("./resolver.js").Property} Property */
/** @typedef {import("./resolver.js").Component} Component */
/** @typedef {import("./resolver.js").View} View */
/** @typedef {import("./resolver.js").Corpus} Corpus */
/** @typedef {import("./resolver.js").ActiveView} ActiveView */
/**
 * @template E
 * @typedef {import("./resolver.js").PathEntry<E>} PathEntry
 */
/**
 * @template E
 * @typedef {import("./resolver.js").Dom<E>} Dom
 */

/** Longest value shown in a formatted path, in characters. */
export const MAX_FORMATTED_VALUE = 50;

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
