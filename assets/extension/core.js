// @ts-check
// Pure logic of the Mapper Overlay extension besides the resolver: server discovery and event formatting. Route
// matching, view resolution, corpus normalisation, which component owns each element (`claimElements`, `ownerPath`) and
// property extraction live in `resolver.js` (the one implementation the CLI shares) and are re-exported here; roles
// and accessible names of live elements live in `live_dom.js` (shared with the page engine).
// No `chrome.*` and no DOM globals, so this module runs unchanged in the content script, the panels and Deno tests.

export {
  activeComponents,
  claimElements,
  cleanValue,
  extractProperties,
  extractValue,
  matchRoute,
  MAX_VALUE,
  nodeText,
  normalizeCorpus,
  ownerPath,
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
/**
 * @template E, R
 * @typedef {import("./resolver.js").ClaimDom<E, R>} ClaimDom
 */

/** Longest value shown in a formatted path, in characters. */
export const MAX_FORMATTED_VALUE = 50;

// ---- Server discovery ----------------------------------------------------------------------------------------

/** First port of the default range a mapper server listens on. */
export const FIRST_PORT = 7891;
/** Last port of the default range. */
export const LAST_PORT = 7900;

/**
 * Ports to probe: only the announced one (`chrome.storage.local.serverPort`, set by `mapper browser start`) when it
 * is a valid port, so the extension stays on that project's server even when it stops (another project's server on
 * the default range must never take its place); 7891–7900 only when nothing was announced.
 * @param {unknown} hint
 * @returns {number[]}
 */
export function candidatePorts(hint) {
  const port = announcedPort(hint);
  if (port !== null) return [port];
  const ports = [];
  for (let p = FIRST_PORT; p <= LAST_PORT; p++) ports.push(p);
  return ports;
}

/**
 * The announced server port, or null when the stored value is no valid port.
 * @param {unknown} hint
 * @returns {number | null}
 */
export function announcedPort(hint) {
  if (hint === undefined || hint === null || hint === "") return null;
  const port = Number(hint);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
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

/** What a typed value is logged as when it must not be shown (passwords, card numbers): never its length. */
export const MASKED = "••••••";

/**
 * The one-line form of an event: `click [A k="v"] > [B]`, or `click (orphaned) button "Buy"` when no component
 * matched (role and accessible name, name cut to 60 characters). Typing and fills add the value the field holds:
 * `input [Search] value="shoes"` (masked for passwords by the caller, cut like any shown value).
 * @param {string} type
 * @param {Array<{ name: string, properties: Array<[string, string]> }>} path
 * @param {{ role: string, name: string }} element
 * @param {string} [value]
 * @returns {string}
 */
export function formatEvent(type, path, element, value) {
  const typed = value === undefined ? "" : ` value="${shortValue(value)}"`;
  if (path.length > 0) return `${type} ${formatPath(path)}${typed}`;
  const name = element.name.length > 60 ? `${element.name.slice(0, 59)}…` : element.name;
  return `${type} (orphaned) ${element.role || "element"}${name ? ` "${shortValue(name, 61)}"` : ""}${typed}`;
}

/**
 * Whether a field's value must be masked in logs: password inputs, and fields the page marks as card numbers,
 * security codes or one-time codes.
 * @param {{ type?: string | null, autocomplete?: string | null }} attrs
 * @returns {boolean}
 */
export function isSecretField(attrs) {
  if ((attrs.type ?? "").toLowerCase() === "password") return true;
  return /\b(?:current-password|new-password|one-time-code|cc-number|cc-csc)\b/i.test(attrs.autocomplete ?? "");
}

/**
 * The status line every panel shows: `github · 46 components · v1795297721289`, `github · empty corpus · v…`; when
 * the announced server stopped: `… · server on 127.0.0.1:7893 went away`.
 * @param {{ state: string, site?: string, componentCount?: number, version?: number, port?: number,
 *   announced?: number | null }} status
 * @returns {string}
 */
export function statusLine(status) {
  const where = status.announced ? `127.0.0.1:${status.announced}` : status.port ? `127.0.0.1:${status.port}` : "";
  const gone = where ? `server on ${where} went away` : "server went away";
  if (status.state === "searching") {
    return status.announced
      ? `waiting for the mapper server on ${where} (announced by mapper browser start)…`
      : "waiting for a mapper server on 127.0.0.1:7891–7900…";
  }
  if (status.version === undefined) return status.state === "offline" ? `${gone}; retrying…` : "loading…";
  const n = status.componentCount ?? 0;
  const count = n === 0 ? "empty corpus (0 components)" : `${n} component${n === 1 ? "" : "s"}`;
  const line = `${status.site || "(unnamed)"} · ${count} · v${status.version}`;
  return status.state === "offline" ? `${line} · ${gone}` : line;
}
