// @ts-check
/// <reference lib="dom" />
// Service worker: the only part of the extension that talks to the mapper server. It finds the server, fetches
// `/mapper`, polls `/mapper/version` (one cheap request per tick for the whole browser, not per tab), pushes the
// corpus to every content script, and relays status, page, hover and event messages to the open panels.
import { announcedPort, candidatePorts, normalizeCorpus } from "./core.js";
import { isDiagnosticsReport, summarizeDiagnostics } from "./diagnostics.js";

const POLL_MS = 2000;
const PROBE_TIMEOUT_MS = 400;
const FETCH_TIMEOUT_MS = 5000;

/** @type {{ state: "searching" | "loading" | "loaded" | "offline", base?: string, port?: number, site?: string,
 *   version?: number, componentCount?: number, viewCount?: number, error?: string, announced?: number | null,
 *   diagnostics?: import("./diagnostics.js").DiagnosticsSummary }} */
let status = { state: "searching" };
/** @type {number | null} the port `mapper browser start` announced (the only one used when set) */
let announced = null;
/** @type {string | null} base URL of the server in use, e.g. `http://127.0.0.1:7891` */
let base = null;
/** @type {unknown} the last good `/mapper` payload, as served */
let wire = null;
/** @type {number | null} */
let version = null;
/** @type {string | null} the ETag of the last `/mapper/version` answer, when the server sends one */
let etag = null;
/** @type {string | null} the ETag of the last `/mapper/diagnostics` answer */
let diagEtag = null;
/** Whether the server in use has `/mapper/diagnostics` (older servers answer 404). */
let diagSupported = true;

/** @type {Set<chrome.runtime.Port>} */
const contentPorts = new Set();
/** @type {Set<chrome.runtime.Port>} */
const panelPorts = new Set();
/** @type {Map<number, unknown>} last `page` report per tab */
const pages = new Map();

const overlayVisible = () => panelPorts.size > 0;

/** @param {Set<chrome.runtime.Port>} ports @param {unknown} message */
function broadcast(ports, message) {
  for (const p of ports) {
    try {
      p.postMessage(message);
    } catch {
      ports.delete(p);
    }
  }
}

/** @param {typeof status} next */
function setStatus(next) {
  status = { ...next, announced };
  broadcast(panelPorts, { type: "status", status });
  const loaded = next.state === "loaded";
  // Green ✓ for a healthy corpus, amber with the warning count, red with the error count (or ! for a failed
  // recompile), so a stale or broken map shows without opening the panel.
  const health = next.diagnostics;
  const level = !loaded ? "error" : health?.level ?? "ok";
  const text = !loaded
    ? next.state === "offline" ? "!" : ""
    : level === "error"
    ? String(health?.errors || "!")
    : level === "warn"
    ? String(health?.warnings ?? "")
    : "✓";
  chrome.action.setBadgeText({ text }).catch(() => {});
  const color = level === "ok" ? "#4CAF50" : level === "warn" ? "#FFA000" : "#F44336";
  chrome.action.setBadgeBackgroundColor({ color }).catch(() => {});
}

/** @param {string} url @param {number} ms @param {RequestInit} [init] */
async function get(url, ms, init = {}) {
  return await fetch(url, { cache: "no-store", ...init, signal: AbortSignal.timeout(ms) });
}

/**
 * Ports to try: only the one `mapper browser start` stored (the extension stays on that project's server and says
 * when it went away), or 7891–7900 when none was announced.
 */
async function candidates() {
  const { serverPort } = await chrome.storage.local.get("serverPort");
  announced = announcedPort(serverPort);
  return candidatePorts(serverPort);
}

/** The first port whose `/mapper/version` answers with a version, or null. */
async function discover() {
  for (const port of await candidates()) {
    const url = `http://127.0.0.1:${port}`;
    try {
      const res = await get(`${url}/mapper/version`, PROBE_TIMEOUT_MS);
      if (!res.ok) continue;
      const body = await res.json();
      if (Number.isFinite(Number(body?.version))) return { url, port };
    } catch {
      // closed port, timeout or not a mapper server: try the next one
    }
  }
  return null;
}

/**
 * Fetches `/mapper` from `from` and makes it current, unless the server was switched meanwhile.
 * @param {string} from @param {number} gen
 */
async function loadCorpus(from, gen) {
  const res = await get(`${from}/mapper`, FETCH_TIMEOUT_MS);
  if (!res.ok) throw new Error(`GET ${from}/mapper answered ${res.status}`);
  const body = await res.json();
  const corpus = normalizeCorpus(body);
  if (corpus === null) throw new Error(`GET ${from}/mapper did not return a corpus`);
  if (gen !== generation) return;
  wire = body;
  version = corpus.version;
  setStatus({
    state: "loaded",
    base: from,
    port: Number(new URL(from).port),
    site: corpus.site,
    version: corpus.version,
    componentCount: corpus.componentCount,
    viewCount: corpus.views.length,
    ...(status.diagnostics ? { diagnostics: status.diagnostics } : {}),
  });
  broadcast(contentPorts, { type: "corpus", corpus: wire });
}

/**
 * One poll: discover when needed, else one conditional `/mapper/version` request, refetching on change. Results
 * that arrive after the server was switched (`generation` moved on) are dropped.
 */
async function tick() {
  const gen = generation;
  if (base === null) {
    const found = await discover();
    if (gen !== generation) return;
    if (found === null) {
      if (status.state !== "searching" && status.state !== "offline") setStatus({ state: "searching" });
      else if (status.announced !== announced) setStatus(status);
      return;
    }
    base = found.url;
    etag = null;
    diagEtag = null;
    diagSupported = true;
    if (status.state !== "offline" || version === null) setStatus({ ...status, state: "loading" });
    await loadCorpus(found.url, gen);
    await refreshDiagnostics(found.url, gen);
    return;
  }
  const from = base;
  /** @type {Record<string, string>} */
  const headers = etag ? { "If-None-Match": etag } : {};
  const res = await get(`${from}/mapper/version`, FETCH_TIMEOUT_MS, { headers });
  if (gen !== generation) return;
  if (res.status !== 304) {
    if (!res.ok) throw new Error(`GET ${from}/mapper/version answered ${res.status}`);
    const tag = res.headers.get("ETag");
    const body = await res.json();
    if (Number(body?.version) !== version || status.state !== "loaded") await loadCorpus(from, gen);
    if (gen === generation) etag = tag;
  }
  // A failed recompile leaves /mapper/version unchanged: the diagnostics are polled on their own (304 when same).
  await refreshDiagnostics(from, gen);
}

/**
 * One conditional `GET /mapper/diagnostics`; a changed report updates the status (dot colour, problem list).
 * @param {string} from @param {number} gen
 */
async function refreshDiagnostics(from, gen) {
  if (!diagSupported) return;
  /** @type {Record<string, string>} */
  const headers = diagEtag ? { "If-None-Match": diagEtag } : {};
  const res = await get(`${from}/mapper/diagnostics`, FETCH_TIMEOUT_MS, { headers });
  if (gen !== generation || res.status === 304) return;
  if (res.status === 404) {
    diagSupported = false; // an older server: keep the plain loaded state
    return;
  }
  if (!res.ok) throw new Error(`GET ${from}/mapper/diagnostics answered ${res.status}`);
  const body = await res.json();
  if (gen !== generation || !isDiagnosticsReport(body)) return;
  diagEtag = res.headers.get("ETag");
  setStatus({ ...status, diagnostics: summarizeDiagnostics(body) });
}

let generation = 0;
let running = false;
let again = false;
async function loop() {
  if (running) {
    again = true; // a switch or a panel asked for a poll while one was in flight: run once more after it
    return;
  }
  running = true;
  // An extension API call resets the worker's 30 s idle timer: stay alive (and polling) while a tab or a panel
  // is connected; with nobody connected the worker may sleep, and the next connection wakes it.
  if (contentPorts.size + panelPorts.size > 0) chrome.runtime.getPlatformInfo().catch(() => {});
  const gen = generation;
  try {
    await tick();
  } catch (e) {
    // The server went away (or restarted elsewhere): keep showing the last corpus, search again next tick.
    if (gen === generation) {
      base = null;
      etag = null;
      setStatus({ ...status, state: version === null ? "searching" : "offline", error: String(e) });
    }
  } finally {
    running = false;
    if (again) {
      again = false;
      loop();
    }
  }
}
loop();
setInterval(loop, POLL_MS);

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "local" && "serverPort" in changes) {
    // Switch to the announced server right away, dropping whatever an in-flight poll brings back.
    generation++;
    base = null;
    etag = null;
    diagEtag = null;
    loop();
  }
});

chrome.runtime.onInstalled.addListener(() => chrome.action.setBadgeText({ text: "" }));
chrome.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});

chrome.runtime.onConnect.addListener((port) => {
  if (port.name === "content") {
    contentPorts.add(port);
    port.postMessage({ type: "state", corpus: wire, overlay: overlayVisible() });
    port.onMessage.addListener((message) => {
      const tabId = port.sender?.tab?.id;
      if (tabId === undefined) return;
      if (message?.type === "page") {
        const page = { ...message, tabId };
        pages.set(tabId, page);
        broadcast(panelPorts, page);
      } else if (message?.type === "hover" || message?.type === "event") {
        broadcast(panelPorts, { ...message, tabId });
      }
    });
    port.onDisconnect.addListener(() => {
      contentPorts.delete(port);
      const tabId = port.sender?.tab?.id;
      if (tabId !== undefined) pages.delete(tabId);
    });
    return;
  }
  if (port.name === "side-panel" || port.name === "devtools-panel") {
    const wasVisible = overlayVisible();
    panelPorts.add(port);
    port.postMessage({ type: "status", status });
    for (const page of pages.values()) port.postMessage(page);
    if (!wasVisible) broadcast(contentPorts, { type: "overlay", overlay: true });
    if (status.state === "searching") loop();
    port.onDisconnect.addListener(() => {
      panelPorts.delete(port);
      if (!overlayVisible()) broadcast(contentPorts, { type: "overlay", overlay: false });
    });
  }
});

chrome.runtime.onMessage.addListener((message, _sender, reply) => {
  if (message?.type === "ping") {
    reply({ type: "pong", version: chrome.runtime.getManifest().version, status });
    return false;
  }
  if (message?.type === "status") {
    reply({ status });
    return false;
  }
  if (message?.type === "inspect" && typeof message.tabId === "number") {
    // Ask the tab's content script for its live picture (active views, match counts).
    chrome.tabs.sendMessage(message.tabId, { type: "inspect" })
      .then((answer) => reply(answer ?? null), () => reply(null));
    return true;
  }
  return false;
});
