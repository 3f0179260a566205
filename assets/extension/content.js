// @ts-check
/// <reference lib="dom" />
// Content script. Chromium runs content scripts as classic scripts only, and a classic script can load modules only
// from files the extension makes web-accessible, which any page could then fetch to detect a mapper browser. So this
// file is written as a module and shipped linked: `mapper browser start` links it with the modules it imports
// (core.js, live_dom.js, and theirs) into the one classic script the manifest names (`src/browser/extension.ts`, by
// the linker the page engine uses), and the extension exposes no file to pages.
// Gets the corpus from the service worker (which alone talks to the mapper server), resolves the one active view of
// location.pathname with the shared resolver (resolver.js, re-exported by core.js), finds which component owns each
// element with the same claim the page engine runs (open shadow roots included), resolves hovered/clicked/typed-into
// elements to component paths, draws the hover overlay while a Mapper panel is open, and reports events to the worker.
// deno-lint-ignore-file no-console
import {
  activeComponents,
  claimElements,
  cleanValue,
  extractProperties,
  formatEvent,
  formatPath,
  isSecretField,
  MASKED,
  normalizeCorpus,
  ownerPath,
} from "./core.js";
import { liveDom, nameOf, roleOf } from "./live_dom.js";

/** @type {import("./core.js").Corpus | null} */
let corpus = null;
let overlayVisible = false;
/** @type {chrome.runtime.Port | null} */
let port = null;
/** @type {{ pathname: string, version: number, active: ReturnType<typeof activeComponents> } | null} */
let activeCache = null;

// The page as the resolver reads it (claim and property extraction): the same adapter the page engine uses.
const dom = liveDom(document);

function active() {
  if (corpus === null) return { view: null, components: [] };
  const pathname = location.pathname;
  if (activeCache?.pathname !== pathname || activeCache.version !== corpus.version) {
    activeCache = { pathname, version: corpus.version, active: activeComponents(corpus, pathname) };
    reportPage();
  }
  return activeCache.active;
}

function reportPage() {
  if (corpus === null || activeCache === null) return;
  post({
    type: "page",
    url: location.href,
    view: activeCache.active.view,
    componentCount: activeCache.active.components.length,
  });
}

/** @param {unknown} message */
function post(message) {
  try {
    port?.postMessage(message);
  } catch {
    port = null;
  }
}

// Which component owns each element, by the shared claim; computed again only after the page changed (a mutation
// in the document or in a shadow root or frame the last claim searched) or the active components did.
let pageChanges = 0;
/**
 * @type {{ changes: number, components: import("./core.js").Component[], owner: Map<Element, number>,
 *   unknown: Set<number> } | null}
 */
let claimed = null;
const changes = new MutationObserver((records) => {
  if (records.some((r) => r.target !== overlay?.host)) {
    pageChanges++;
    scheduleRender();
  }
});
const WATCH = { childList: true, subtree: true, attributes: true, characterData: true };
changes.observe(document.documentElement, WATCH);

function owners() {
  const { components } = active();
  if (claimed?.changes === pageChanges && claimed.components === components) return claimed;
  const roots = [...dom.roots()];
  const { owner, unknown } = claimElements(components, { ...dom, roots: () => roots });
  for (const root of roots) if (root !== document) changes.observe(root, WATCH);
  claimed = { changes: pageChanges, components, owner, unknown: new Set(unknown.map((u) => u.index)) };
  return claimed;
}

/** @param {Element} target */
function resolve(target) {
  const { owner, components } = owners();
  return ownerPath(target, owner, components, dom);
}

/** @param {Element} el */
function describeElement(el) {
  return { role: roleOf(el), name: nameOf(el).slice(0, 80) };
}

/** @param {{ path: import("./core.js").PathEntry<Element>[] }} resolved */
function plainPath(resolved) {
  return resolved.path.map((e) => ({ name: e.name, view: e.component.view, properties: e.properties }));
}

// ---- Overlay (in a closed shadow root, so page styles and page mutation observers leave it alone) ------------

/** @type {{ host: HTMLElement, boxes: HTMLElement, outlines: HTMLElement, tip: HTMLElement } | null} */
let overlay = null;
const TIER_COLOURS = { 1: "#4CAF50", 2: "#2196F3", 3: "#F44336" };
const ANCESTOR_COLOUR = "#7C4DFF";
const OUTLINE_COLOUR = "#FF6D00";

function ensureOverlay() {
  if (overlay?.host.isConnected) return overlay;
  const host = document.createElement("mapper-overlay");
  host.id = "__mapper-overlay";
  host.style.cssText = "all:initial;position:fixed;inset:0;pointer-events:none;z-index:2147483646;";
  const root = host.attachShadow({ mode: "closed" });
  // Ancestors: a dashed 2px outline in their own colour with the component's name on a tab, so the nesting reads
  // at a glance; the innermost component: solid, in its tier colour. Labels sit above the box, or inside it when
  // the box touches the top of the viewport.
  root.innerHTML = `<style>
    .box{position:fixed;box-sizing:border-box;pointer-events:none;border:2px dashed ${ANCESTOR_COLOUR}}
    .box.inner{border-style:solid}
    .box.match{border:2px solid ${OUTLINE_COLOUR};background:${OUTLINE_COLOUR}14}
    .label{position:absolute;left:-2px;bottom:100%;padding:0 5px;border-radius:3px 3px 0 0;color:#fff;
      font:600 11px/16px ui-monospace,Menlo,Consolas,monospace;white-space:nowrap;background:${ANCESTOR_COLOUR}}
    .label.inside{bottom:auto;top:0;border-radius:0 0 3px 0}
    .tip{position:fixed;max-width:460px;padding:4px 7px;border-radius:4px;background:#1e1e1e;color:#eee;
      font:12px/1.4 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;word-break:break-word;
      box-shadow:0 2px 8px rgba(0,0,0,.35);pointer-events:none}
    .tip.orphan{color:#ff8a80}</style><div class="outlines"></div><div class="boxes"></div>
    <div class="tip" id="tip" hidden></div>`;
  document.documentElement.appendChild(host);
  overlay = {
    host,
    boxes: /** @type {HTMLElement} */ (root.querySelector(".boxes")),
    outlines: /** @type {HTMLElement} */ (root.querySelector(".outlines")),
    tip: /** @type {HTMLElement} */ (root.querySelector(".tip")),
  };
  return overlay;
}

/**
 * One labelled box over an element's border box.
 * @param {DOMRect} r
 * @param {string} className
 * @param {string} label
 * @param {string} [colour] border and label colour (default: the class's)
 */
function labelledBox(r, className, label, colour) {
  const box = document.createElement("div");
  box.className = className;
  box.style.cssText = `left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${r.height}px;` +
    (colour ? `border-color:${colour};background:${colour}1a;` : "");
  const tag = document.createElement("span");
  tag.className = r.top < 18 ? "label inside" : "label";
  tag.textContent = label;
  if (colour) tag.style.background = colour;
  box.append(tag);
  return box;
}

function hideOverlay() {
  if (!overlay) return;
  overlay.boxes.replaceChildren();
  overlay.tip.hidden = true;
}

/**
 * Where the tooltip goes: above, below, right of or left of the avoided box (first that fits inside the viewport),
 * so it never covers the hovered target; tried first around the innermost component, then around the hovered
 * element alone. Only a target bigger than the viewport leaves no such place: then the corner farthest from it.
 * @param {DOMRect[]} avoid boxes to keep clear, best first
 * @param {{ width: number, height: number }} tip
 * @returns {{ left: number, top: number }}
 */
function placeTip(avoid, tip) {
  const gap = 6;
  const margin = 4;
  const fits = (/** @type {number} */ left, /** @type {number} */ top) =>
    left >= margin && top >= margin && left + tip.width <= innerWidth - margin &&
    top + tip.height <= innerHeight - margin;
  const clampX = (/** @type {number} */ x) => Math.max(margin, Math.min(x, innerWidth - tip.width - margin));
  const clampY = (/** @type {number} */ y) => Math.max(margin, Math.min(y, innerHeight - tip.height - margin));
  for (const r of avoid) {
    const spots = [
      { left: clampX(r.left), top: r.top - tip.height - gap },
      { left: clampX(r.left), top: r.bottom + gap },
      { left: r.right + gap, top: clampY(r.top) },
      { left: r.left - tip.width - gap, top: clampY(r.top) },
    ];
    const spot = spots.find((p) => fits(p.left, p.top));
    if (spot) return spot;
  }
  const r = avoid[avoid.length - 1];
  const right = r !== undefined && r.left + r.width / 2 < innerWidth / 2;
  const bottom = r !== undefined && r.top + r.height / 2 < innerHeight / 2;
  return {
    left: right ? innerWidth - tip.width - margin : margin,
    top: bottom ? innerHeight - tip.height - margin : margin,
  };
}

/** @type {Element | null} */
let hovered = null;
let lastHover = "";
let frame = 0;

function scheduleRender() {
  if (frame || !overlayVisible || (hovered === null && outlined === null)) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    render();
    renderOutlines();
  });
}

function render() {
  if (!overlayVisible || corpus === null || hovered === null || !hovered.isConnected) return hideOverlay();
  const resolved = resolve(hovered);
  const o = ensureOverlay();
  const boxes = resolved.path.map((entry, i) => {
    const innermost = i === resolved.path.length - 1;
    const r = entry.element.getBoundingClientRect();
    return innermost
      ? labelledBox(r, "box inner", entry.name, TIER_COLOURS[resolved.tier])
      : labelledBox(r, "box", entry.name);
  });
  o.boxes.replaceChildren(...boxes);
  const formatted = formatPath(resolved.path);
  o.tip.textContent = formatted || "(no component)";
  o.tip.classList.toggle("orphan", formatted === "");
  o.tip.hidden = false;
  // Keep clear of the innermost component with its label tab (drawn above its box), else of the hovered element.
  const inner = resolved.path[resolved.path.length - 1]?.element;
  const labelled = (/** @type {DOMRect} */ r) => new DOMRect(r.x, r.y - 18, r.width, r.height + 18);
  const avoid = [...(inner ? [labelled(inner.getBoundingClientRect())] : []), hovered.getBoundingClientRect()];
  const spot = placeTip(avoid, o.tip.getBoundingClientRect());
  o.tip.style.left = `${spot.left}px`;
  o.tip.style.top = `${spot.top}px`;
  if (formatted !== lastHover) {
    lastHover = formatted;
    post({ type: "hover", url: location.href, path: plainPath(resolved), formatted, tier: resolved.tier });
  }
}

/** Forgets the hovered element (navigation, pointer left): overlay hidden, panels told the path is gone. */
function clearHover() {
  hovered = null;
  hideOverlay();
  if (lastHover !== "" || overlayVisible) {
    post({ type: "hover", url: location.href, path: [], formatted: "", cleared: true });
  }
  lastHover = "";
}

// ---- Outlines of every match of one component (the side panel's component table asks for them) ---------------

/** @type {{ name: string, selector: string } | null} */
let outlined = null;

function renderOutlines() {
  if (outlined === null) {
    overlay?.outlines.replaceChildren();
    return;
  }
  const o = ensureOverlay();
  const label = outlined.name;
  const { owner, components } = owners();
  /** @type {Element[]} */
  let matches = [];
  if (components.some((c) => c.name === label)) {
    for (const [el, index] of owner) if (components[index]?.name === label) matches.push(el);
  } else {
    try {
      matches = [...document.querySelectorAll(outlined.selector)];
    } catch {
      matches = [];
    }
  }
  o.outlines.replaceChildren(
    ...matches.map((el, i) =>
      labelledBox(el.getBoundingClientRect(), "box match", `${label} ${i + 1}`, OUTLINE_COLOUR)
    ),
  );
}

/**
 * The innermost element an event happened on, inside open shadow roots too (`event.target` is retargeted to the
 * outermost shadow host).
 * @param {Event} e
 */
const eventTarget = (e) => {
  const inner = e.composedPath()[0];
  return inner instanceof Element ? inner : e.target instanceof Element ? e.target : null;
};

document.addEventListener("mousemove", (e) => {
  const target = eventTarget(e);
  if (target === hovered) return;
  hovered = target;
  scheduleRender();
}, { capture: true, passive: true });
document.documentElement.addEventListener("mouseleave", () => clearHover());
addEventListener("scroll", scheduleRender, { capture: true, passive: true });
addEventListener("resize", scheduleRender, { passive: true });

// ---- Events ---------------------------------------------------------------------------------------------------

/**
 * @param {string} type
 * @param {Element} target
 * @param {string} [value] what a field holds after typing or a fill (already masked when secret)
 */
function emit(type, target, value) {
  if (corpus === null) return;
  const resolved = resolve(target);
  const element = { ...describeElement(target), tier: resolved.tier };
  const path = plainPath(resolved);
  const formatted = formatEvent(type, resolved.path, element, value);
  console.log(`[mapper] ${formatted}`);
  const event = { type, timestamp: Date.now(), url: location.href, path, formatted, element };
  post({ type: "event", event: value === undefined ? event : { ...event, value } });
}

/**
 * The value a field shows after typing: text, the chosen option, a box's checked state, or the edited text of a
 * contenteditable element; passwords and card numbers masked.
 * @param {Element} el
 * @returns {string | undefined}
 */
function typedValue(el) {
  if (el instanceof HTMLInputElement) {
    if (el.type === "checkbox" || el.type === "radio") return el.checked ? "checked" : "unchecked";
    if (isSecretField({ type: el.type, autocomplete: el.getAttribute("autocomplete") })) return MASKED;
    return el.value;
  }
  if (el instanceof HTMLTextAreaElement) {
    return isSecretField({ autocomplete: el.getAttribute("autocomplete") }) ? MASKED : el.value;
  }
  if (el instanceof HTMLSelectElement) return [...el.selectedOptions].map((o) => o.label).join(", ");
  if (el instanceof HTMLElement && el.isContentEditable) return cleanValue(el.innerText);
  return undefined;
}

document.addEventListener("click", (e) => {
  const target = eventTarget(e);
  if (target) emit("click", target);
}, { capture: true, passive: true });

// One "input" event per field once typing pauses, not one per keystroke.
/** @type {Map<Element, ReturnType<typeof setTimeout>>} */
const pendingInput = new Map();
document.addEventListener("input", (e) => {
  const target = eventTarget(e);
  if (target === null) return;
  clearTimeout(pendingInput.get(target));
  pendingInput.set(
    target,
    setTimeout(() => {
      pendingInput.delete(target);
      emit("input", target, typedValue(target));
    }, 400),
  );
}, { capture: true, passive: true });

// Navigation: the hovered element belongs to the page that was left, so the hover is cleared, and the active view
// is re-evaluated. Single-page apps change the URL with pushState/replaceState (the Navigation API reports those;
// popstate and hashchange cover back/forward and anchors); a full load runs a fresh copy of this script, which
// clears the panels' hover on connect, and pagehide clears it as the old page goes.
let lastUrl = location.href;
const onNavigate = () =>
  setTimeout(() => {
    if (location.href === lastUrl) return;
    lastUrl = location.href;
    clearHover();
    if (outlined) scheduleRender();
    if (corpus) active();
  }, 0);
addEventListener("popstate", onNavigate);
addEventListener("hashchange", onNavigate);
/** @type {EventTarget | undefined} the Navigation API (Chromium 102+; not in every lib.dom) */
const navigation = /** @type {any} */ (globalThis).navigation;
navigation?.addEventListener("currententrychange", onNavigate);
navigation?.addEventListener("navigatesuccess", onNavigate);
addEventListener("pagehide", () => clearHover());

// ---- Worker connection ----------------------------------------------------------------------------------------

/** @param {any} message */
function onMessage(message) {
  if (message?.type === "corpus" || message?.type === "state") {
    const next = message.corpus ? normalizeCorpus(message.corpus) : null;
    if (next && (next.version !== corpus?.version || next.site !== corpus.site)) {
      const previous = corpus;
      corpus = next;
      activeCache = null;
      const what = `${next.componentCount} component${next.componentCount === 1 ? "" : "s"}`;
      console.log(
        previous
          ? `[mapper] corpus updated v${previous.version} → v${next.version}: ${what} from ${next.site}`
          : `[mapper] loaded ${what} from ${next.site} v${next.version}`,
      );
      const { view } = active();
      console.log(`[mapper] active view on ${location.pathname}: ${view ? view.name : "(none)"}`);
    }
  }
  if (typeof message?.overlay === "boolean" && message.overlay !== overlayVisible) {
    overlayVisible = message.overlay;
    lastHover = "";
    if (overlayVisible) scheduleRender();
    else {
      outlined = null; // the panel that asked for outlines closed
      renderOutlines();
      hideOverlay();
    }
  }
}

function connect() {
  if (!chrome.runtime?.id) return; // the extension was reloaded or removed: this script is orphaned
  try {
    port = chrome.runtime.connect({ name: "content" });
  } catch {
    return;
  }
  port.onMessage.addListener(onMessage);
  port.onDisconnect.addListener(() => {
    port = null;
    setTimeout(connect, 1000); // the worker was stopped; reconnecting wakes it
  });
  // A fresh page (a full load runs a fresh copy of this script): whatever the panels showed as hovered is gone.
  post({ type: "hover", url: location.href, path: [], formatted: "", cleared: true });
  reportPage();
}
connect();

// DevTools panel and side panel ask for the live picture of this tab: every active component with its match
// count (-1: invalid selector) and the property values of its first match; the side panel's table asks for the
// matches of one component to be outlined (or for the outlines to go).
chrome.runtime.onMessage.addListener((message, _sender, reply) => {
  if (message?.type === "outline") {
    outlined = typeof message.selector === "string"
      ? { name: String(message.name ?? ""), selector: message.selector }
      : null;
    renderOutlines();
    reply({ outlined: outlined === null ? 0 : overlay?.outlines.childElementCount ?? 0 });
    return false;
  }
  if (message?.type !== "inspect") return false;
  const { view } = active();
  const { owner, components, unknown } = owners();
  const byName = new Map(components.map((c) => [c.name, c]));
  /** @type {Element[][]} each component's elements, in the order the claim found them */
  const owned = components.map(() => []);
  for (const [el, index] of owner) owned[index]?.push(el);
  reply({
    url: location.href,
    loaded: corpus !== null,
    version: corpus?.version ?? null,
    view,
    components: components.map((c, i) => {
      const els = owned[i] ?? [];
      return {
        name: c.name,
        view: c.view,
        selector: c.selector,
        count: unknown.has(i) ? -1 : els.length,
        properties: c.properties.map((p) => p.name),
        values: els[0] ? extractProperties(els[0], c, byName, dom) : [],
        // Every element it owns (the first 100), with its properties: what the page engine's snapshot shows.
        matches: els.slice(0, 100).map((el) => extractProperties(el, c, byName, dom)),
      };
    }),
    outlined: outlined?.name ?? null,
  });
  return false;
});
