// @ts-check
/// <reference lib="dom" />
// Side panel: status and corpus problems, the active view of the current tab, its component table (match counts,
// first-match values, zero-match and invalid selectors marked; a click outlines every match), the hover path and
// the event log.
import { shortValue } from "./core.js";
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
    refreshViews(); // a new page or view: its component table too
  } else if (message.type === "hover" && message.cleared) {
    // The page navigated (or a fresh one loaded): what was hovered is gone.
    $("hover").replaceChildren(el("span", "empty", "hover the page"));
    $("hover").title = "";
    $("hover").dataset.formatted = "";
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

/**
 * @typedef {{ name: string, view: string | null, selector: string, count: number, properties: string[],
 *   values: Array<[string, string]> }} ComponentRow
 */

/** The component whose matches are outlined on the page (by name), or null. */
/** @type {string | null} */
let outlined = null;

async function refreshViews() {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  if (tab?.id !== activeTabId) outlined = null;
  activeTabId = tab?.id;
  if (activeTabId === undefined) {
    showComponents(null);
    return showViews(null);
  }
  const answer = await chrome.runtime.sendMessage({ type: "inspect", tabId: activeTabId }).catch(() => null);
  showViews(answer?.loaded ? { ...answer, componentCount: answer.components.length } : null);
  showComponents(answer?.loaded ? answer.components : null);
}

/**
 * The component table: one row per active component (globals first, then the view's), with its match count, the
 * values of its first match, and marks for zero matches and invalid selectors. A click outlines every match.
 * @param {ComponentRow[] | null} rows
 */
function showComponents(rows) {
  const body = /** @type {HTMLTableSectionElement} */ ($("components").querySelector("tbody"));
  $("unoutline").hidden = outlined === null;
  /** @param {string} text */
  const only = (text) => {
    const row = el("tr");
    const cell = el("td", "empty", text);
    cell.setAttribute("colspan", "3");
    row.append(cell);
    return row;
  };
  if (rows === null) return body.replaceChildren(only("no corpus on this tab"));
  if (rows.length === 0) return body.replaceChildren(only("no component is active on this page"));
  body.replaceChildren(...rows.map((c) => {
    const invalid = c.count < 0;
    const zero = c.count === 0;
    const row = el(
      "tr",
      `component${invalid ? " invalid" : zero ? " zero" : ""}${outlined === c.name ? " outlined" : ""}`,
    );
    row.dataset.name = c.name;
    row.title = `${c.selector}${
      invalid ? "\ninvalid selector: the browser rejects it" : ""
    }\nclick to outline every match`;
    const name = el("td", "name");
    name.append(el("span", "", c.name), " ", el("span", "key", c.view ?? "global"));
    const count = el("td", "count", invalid ? "invalid" : zero ? "0 ✗" : String(c.count));
    const values = el("td", "values");
    if (invalid) values.append(el("span", "bad", `selector ${c.selector} does not parse`));
    else if (zero) values.append(el("span", "empty", "no match on this page"));
    else if (c.properties.length === 0) values.append(el("span", "empty", "(no properties)"));
    else {
      for (const p of c.properties) {
        const v = c.values.find(([k]) => k === p)?.[1];
        const line = el("div");
        line.append(
          el("span", "key", `${p}=`),
          v === undefined ? el("span", "empty", "(empty)") : `"${shortValue(v, 40)}"`,
        );
        values.append(line);
      }
    }
    row.append(name, count, values);
    row.addEventListener("click", () => outline(c.name === outlined ? null : c));
    return row;
  }));
}

/**
 * Outlines every match of a component on the page (null: removes the outlines).
 * @param {ComponentRow | null} c
 */
async function outline(c) {
  if (activeTabId === undefined) return;
  outlined = c?.name ?? null;
  // Mark the row at once (the table is redrawn after the page answered).
  for (const row of $("components").querySelectorAll("tr.component")) {
    if (row instanceof HTMLElement) row.classList.toggle("outlined", row.dataset.name === outlined);
  }
  $("unoutline").hidden = outlined === null;
  const message = c ? { type: "outline", name: c.name, selector: c.selector } : { type: "outline", selector: null };
  await chrome.tabs.sendMessage(activeTabId, message).catch(() => null);
  await refreshViews();
}
$("unoutline").addEventListener("click", () => outline(null));
// Values change as the page does: refresh the table while the panel is visible.
setInterval(() => document.visibilityState === "visible" && refreshViews(), 2000);
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
  if (typeof event.value === "string") card.append(el("div", "value", `value="${shortValue(event.value, 60)}"`));
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
