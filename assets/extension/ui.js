// Shared panel code (side panel and DevTools panel): the worker connection and the small renderers.
import { formatEntry, shortValue, statusLine } from "./core.js";

/**
 * Keeps a port to the service worker open, reconnecting every 800 ms while it is down.
 * @param {string} name port name (`side-panel` or `devtools-panel`)
 * @param {(message: any) => void} onMessage
 * @param {(connected: boolean) => void} onConnection
 * @returns {{ post: (message: unknown) => void }}
 */
export function connectWorker(name, onMessage, onConnection) {
  /** @type {chrome.runtime.Port | null} */
  let port = null;
  const connect = () => {
    port = chrome.runtime.connect({ name });
    port.onMessage.addListener(onMessage);
    port.onDisconnect.addListener(() => {
      port = null;
      onConnection(false);
      setTimeout(connect, 800);
    });
    onConnection(true);
  };
  connect();
  return { post: (message) => port?.postMessage(message) };
}

/**
 * Shows the worker status in a dot + text pair.
 * @param {HTMLElement} dot
 * @param {HTMLElement} text
 * @param {any} status
 */
export function renderStatus(dot, text, status) {
  // A loaded corpus with problems is amber (warnings) or red (errors, or a recompile that failed): never green
  // while the map is stale or wrong.
  const health = status?.state === "loaded" ? status.diagnostics : undefined;
  dot.className = `dot ${status?.state ?? ""}${health && health.level !== "ok" ? ` ${health.level}` : ""}`;
  text.textContent = status
    ? `${statusLine(status)}${health && health.level !== "ok" ? ` · ${health.line}` : ""}`
    : "reconnecting to the extension…";
  text.title = status?.base ? `${status.base}${status.error ? ` — ${status.error}` : ""}` : status?.error ?? "";
}

/**
 * Lists the corpus's problems (`file:line:col severity code: message`), errors first; empty when healthy.
 * @param {HTMLElement} box
 * @param {any} status
 */
export function renderProblems(box, status) {
  /** @type {import("./diagnostics.js").DiagnosticsSummary | undefined} */
  const health = status?.diagnostics;
  if (!health || health.level === "ok") {
    box.replaceChildren(el("span", "empty", health ? "no problems (mapper validate agrees)" : "no report yet"));
    return;
  }
  const lines = health.items.map((item) => {
    const line = el("div", item.includes(" error ") ? "problem error" : "problem warning", item);
    line.title = item;
    return line;
  });
  if (health.stale) lines.unshift(el("div", "problem error", health.line));
  if (health.more > 0) lines.push(el("div", "empty", `… and ${health.more} more (run mapper validate)`));
  box.replaceChildren(...lines);
}

/**
 * @param {string} tag
 * @param {string} [className]
 * @param {string} [text]
 */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A path as an indented tree, one `[Name key="value"]` line per component (values cut to 36 characters, the
 * full value in the tooltip).
 * @param {Array<{ name: string, properties: Array<[string, string]> }>} path
 */
export function renderTree(path) {
  const box = el("div", "tree");
  if (path.length === 0) {
    box.append(el("div", "orphan", "(no component here)"));
    return box;
  }
  path.forEach((entry, depth) => {
    const line = el("div");
    line.style.paddingLeft = `${depth * 12}px`;
    line.title = formatEntry(entry, Infinity);
    line.append(el("span", "key", depth === 0 ? "" : "▸ "), "[", el("span", "name", entry.name));
    for (const [k, v] of entry.properties) line.append(" ", el("span", "key", `${k}=`), `"${shortValue(v, 36)}"`);
    line.append("]");
    box.append(line);
  });
  return box;
}

/** @param {string} text */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = el("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}

/** @param {number} ms */
export function clock(ms) {
  return new Date(ms).toLocaleTimeString([], { hour12: false });
}
