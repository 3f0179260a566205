// Side panel: status, the active view of the current tab, the hover path and the event log.
import { clock, connectWorker, copyText, el, renderProblems, renderStatus, renderTree } from "./ui.js";

const MAX_EVENTS = 300;
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
let paused = false;
/** @type {number | undefined} */
let activeTabId;

connectWorker("side-panel", (message) => {
  if (message.type === "status") {
    renderStatus($("dot"), $("status"), message.status);
    renderProblems($("problems"), message.status);
    refreshViews();
  } else if (message.type === "page" && message.tabId === activeTabId) {
    showViews(message);
  } else if (message.type === "hover") {
    $("hover").replaceChildren(renderTree(message.path));
    $("hover").title = `${message.formatted || "(no component here)"}\n${message.url}`;
    $("hover").dataset.formatted = message.formatted;
  } else if (message.type === "event" && !paused) {
    addEvent(message.event);
  }
}, (connected) => {
  if (!connected) renderStatus($("dot"), $("status"), null);
});

/**
 * @param {{ view: { name: string, route: string, params: Record<string, string> } | null, componentCount?: number,
 *   components?: unknown[] } | null} page
 */
function showViews(page) {
  const box = $("views");
  if (!page) {
    box.replaceChildren(el("span", "empty", "no corpus on this tab (reload the page?)"));
    return;
  }
  const v = page.view;
  if (!v) {
    const text = page.componentCount === 0
      ? "no view matches this page, and no global components"
      : "no view matches this page (globals only)";
    box.replaceChildren(el("span", "empty", text));
    return;
  }
  const params = Object.entries(v.params).map(([k, val]) => `${k}=${val}`).join(" ");
  const line = el("div");
  line.append(el("span", "name", v.name), " ", el("span", "key", `${v.route}${params ? `  ${params}` : ""}`));
  box.replaceChildren(line);
}

async function refreshViews() {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  activeTabId = tab?.id;
  if (activeTabId === undefined) return showViews(null);
  const answer = await chrome.runtime.sendMessage({ type: "inspect", tabId: activeTabId }).catch(() => null);
  showViews(answer?.loaded ? { ...answer, componentCount: answer.components.length } : null);
}
chrome.tabs.onActivated.addListener(() => refreshViews());
chrome.tabs.onUpdated.addListener((tabId, info) => {
  if (tabId === activeTabId && info.status === "complete") refreshViews();
});

/** @param {any} event */
function addEvent(event) {
  const list = $("events");
  list.querySelector(".empty")?.remove();
  const card = el("div", "event");
  const meta = el("div", "meta");
  const copy = el("button", "", "copy");
  copy.title = "Copy the one-line form";
  copy.addEventListener("click", () => copyText(event.formatted));
  meta.append(el("span", "", clock(event.timestamp)), el("span", "type", event.type), copy);
  card.title = event.url;
  card.append(
    meta,
    event.path.length
      ? renderTree(event.path)
      : el("div", "path orphan", `(orphaned) ${event.element.role} "${event.element.name}"`),
  );
  card.dataset.formatted = event.formatted;
  list.prepend(card);
  while (list.children.length > MAX_EVENTS) list.lastElementChild?.remove();
}

$("pause").addEventListener("click", () => {
  paused = !paused;
  $("pause").textContent = paused ? "Resume" : "Pause";
});
$("clear").addEventListener("click", () => {
  $("events").replaceChildren(el("span", "empty", "click or type on the page"));
});
refreshViews();
