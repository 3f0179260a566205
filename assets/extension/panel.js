// DevTools "Mapper" panel: status, hover line, the components active on the inspected page with their match
// counts, and the event log of the inspected tab.
import { clock, connectWorker, copyText, el, renderStatus } from "./ui.js";

const MAX_EVENTS = 200;
const tabId = chrome.devtools.inspectedWindow.tabId;
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
let paused = false;

connectWorker("devtools-panel", (message) => {
  if (message.type === "status") {
    renderStatus($("dot"), $("status"), message.status);
    refresh();
  } else if (message.tabId !== tabId) {
    return;
  } else if (message.type === "page") {
    refresh();
  } else if (message.type === "hover") {
    $("hover").textContent = message.formatted || "(no component here)";
    $("hover").classList.toggle("orphan", !message.formatted);
  } else if (message.type === "event" && !paused) {
    addEvent(message.event);
  }
}, (connected) => {
  if (!connected) renderStatus($("dot"), $("status"), null);
});

async function refresh() {
  const answer = await chrome.runtime.sendMessage({ type: "inspect", tabId }).catch(() => null);
  const views = $("views");
  const body = $("components");
  if (!answer?.loaded) {
    views.replaceChildren(el("span", "empty", "no corpus on this page yet (reload it if the extension is new)"));
    body.replaceChildren();
    return;
  }
  views.replaceChildren(
    answer.view
      ? `Active view: ${answer.view.name} (${answer.view.route})`
      : el("span", "empty", `no view matches this page${answer.components.length ? " (globals only)" : ""}`),
  );
  if (answer.components.length === 0) {
    const row = el("tr");
    const cell = el("td", "empty", "no component is active on this page");
    cell.setAttribute("colspan", "4");
    row.append(cell);
    body.replaceChildren(row);
    return;
  }
  body.replaceChildren(...answer.components.map((/** @type {any} */ c) => {
    const row = el("tr");
    const count = el("td", `count${c.count <= 0 ? " zero" : ""}`, c.count < 0 ? "invalid" : String(c.count));
    row.append(el("td", "name", c.name), el("td", "key", c.view ?? "global"), el("td", "mono", c.selector), count);
    return row;
  }));
}

/** @param {any} event */
function addEvent(event) {
  const list = $("events");
  list.querySelector(".empty")?.remove();
  const card = el("details", "event");
  const summary = el("summary", "meta");
  const copy = el("button", "", "copy");
  copy.addEventListener("click", (e) => {
    e.preventDefault();
    copyText(event.formatted);
  });
  summary.append(el("span", "", clock(event.timestamp)), el("span", "type", event.type));
  summary.append(el("span", `path${event.path.length ? "" : " orphan"}`, event.formatted.slice(event.type.length + 1)));
  summary.append(copy);
  const detail = { url: event.url, element: event.element, path: event.path };
  card.append(summary, el("pre", "", JSON.stringify(detail, null, 2)));
  list.prepend(card);
  while (list.children.length > MAX_EVENTS) list.lastElementChild?.remove();
}

$("refresh").addEventListener("click", () => refresh());
$("pause").addEventListener("click", () => {
  paused = !paused;
  $("pause").textContent = paused ? "Resume" : "Pause";
});
$("clear").addEventListener("click", () => {
  $("events").replaceChildren(el("span", "empty", "click or type on the page"));
});
chrome.devtools.network.onNavigated.addListener(() => setTimeout(refresh, 500));
setInterval(() => document.visibilityState === "visible" && refresh(), 3000);
refresh();
