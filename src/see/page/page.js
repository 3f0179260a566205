// @ts-check
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The page side of `mapper snapshot` and the page commands: evaluated in an isolated world of the tab (so page
// scripts cannot see or break it), linked with the modules it imports by `daemon/_script.ts`. It claims elements for
// components and extracts their properties with the resolver (the extension runs the same claim), names elements
// with the shared role and accessible-name functions (`live_dom.js`), walks the DOM into a compact tree, and gives
// every element a stable id for as long as it lives (a WeakMap in this world).

import { claimElements, extractProperties } from "../../../assets/extension/resolver.js";
import { liveDom, nameOf, parentOf, roleOf } from "../../../assets/extension/live_dom.js";
import { extractTree, visibilityOf } from "./page_tree.js";

/**
 * A component as the daemon sends it: the globals plus the current view's, in declaration order.
 * @typedef {import("../../../assets/extension/resolver.js").Component} SeeComponent
 */

/**
 * One node of the collected tree.
 * @typedef {{
 *   id: number, role: string, name: string, tag: string,
 *   component?: string, props?: Array<[string, string]>, states?: string[], value?: string,
 *   interactive?: true, hidden?: true, inViewport: boolean, bounds?: [number, number, number, number],
 *   children?: SeeNode[]
 * }} SeeNode
 */

/**
 * What `collect` answers.
 * @typedef {{
 *   url: string, title: string, readyState: string,
 *   tree: SeeNode,
 *   counts: Record<string, number>,
 *   matched: Record<string, number>,
 *   blocked: { id: number, component?: string, role: string, name: string } | null,
 *   coverage: {
 *     interactive: number, t1: number, t2: number, t3: number,
 *     orphans: Array<{ id: number, role: string, name: string, suggestion: string }>,
 *     empty?: Array<{ component: string, property: string, extract: string, count: number, of: number }>,
 *   },
 *   conflicts: string[],
 *   elements: number,
 *   nextId: number,
 *   capture?: import("./page_tree.js").TreeExtract,
 * }} SeeCollect
 */

/**
 * What the browser's accessibility tree says of one element: its role, accessible name, states (`checked`,
 * `selected`, `expanded` / `collapsed`, `disabled`, `required`, `readonly`) and, for a combobox that only picks, the
 * option it shows chosen.
 * @typedef {{ role: string, name: string, states: string[], value?: string }} AxFacts
 */

/** How long after the load event a page must be before it counts as settled (see `settle`). */
const AFTER_LOAD_MS = 500;

const SKIP = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD", "META", "LINK", "TITLE", "BR", "WBR"]);
const LANDMARK_ROLES = new Set([
  "banner",
  "navigation",
  "main",
  "contentinfo",
  "complementary",
  "dialog",
  "alertdialog",
  "form",
  "region",
  "search",
  "group",
  "heading",
  "status",
  "alert",
]);
const INTERACTIVE_ROLES = new Set([
  "button",
  "link",
  "checkbox",
  "radio",
  "textbox",
  "searchbox",
  "combobox",
  "listbox",
  "option",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "slider",
  "spinbutton",
  "switch",
  "tab",
  "treeitem",
]);

/** Builds the page-side API (one per isolated world). */
export function createSee() {
  /** @type {WeakMap<Element, number>} */
  const ids = new WeakMap();
  /** @type {Map<number, WeakRef<Element>>} */
  const byId = new Map();
  let nextId = 1;

  /** @param {Element} el */
  const idOf = (el) => {
    let id = ids.get(el);
    if (id === undefined) {
      id = nextId++;
      ids.set(el, id);
      byId.set(id, new WeakRef(el));
    }
    return id;
  };

  /** @param {number} id */
  const node = (id) => {
    const el = byId.get(id)?.deref();
    if (!el || !el.isConnected) {
      byId.delete(id);
      return null;
    }
    return el;
  };

  const dom = liveDom(document);

  /**
   * The role the snapshot and the captured tree give an element: its ARIA role, except that a frame is shown as
   * one, so what is inside it reads as inside it.
   * @param {Element} el
   */
  const roleFor = (el) => (el.tagName === "IFRAME" ? "iframe" : given.get(el)?.role ?? roleOf(el));

  /**
   * What Chromium's accessibility tree says of the custom elements whose role no script can read (set on their
   * `ElementInternals`: `internals.role = "radio"`, `internals.ariaChecked`), as the daemon read it for this
   * collection ({@link opaqueHosts}): their role, name and states stand in for the markup's.
   * @type {WeakMap<Element, AxFacts>}
   */
  let given = new WeakMap();

  /** The controls a form-associated host may pass its label on to (one of them, alone in its shadow root). */
  const CONTROL = "input:not([type=hidden]), textarea, select, [role=checkbox], [role=switch], [role=radio], " +
    "[role=textbox], [role=combobox], [role=slider], [role=spinbutton], [role=searchbox]";

  /**
   * The text of the label of a form-associated custom element, for the one control in its shadow root that has no
   * name of its own (`<label><md-checkbox></md-checkbox> I agree</label>`: the label names the host, which no
   * accessibility tree passes on to the checkbox inside). The label's text outside the host; `""` when there is none.
   * @param {Element} el
   */
  const hostLabel = (el) => {
    const root = el.getRootNode();
    if (!(root instanceof ShadowRoot) || !el.matches(CONTROL)) return "";
    const host = root.host;
    if (root.querySelectorAll(CONTROL).length !== 1) return "";
    const scope = host.getRootNode();
    const label = host.closest("label") ??
      (host.id && "querySelector" in scope
        ? /** @type {Document | ShadowRoot} */ (scope).querySelector(`label[for="${CSS.escape(host.id)}"]`)
        : null);
    // Only a label that labels the host: a form-associated element is labelable (its `control`), another is not.
    if (!label || /** @type {HTMLLabelElement} */ (label).control !== host) return "";
    let text = "";
    const walk = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) if (!host.contains(n)) text += ` ${n.nodeValue ?? ""}`;
    return text.replace(/\s+/g, " ").trim();
  };

  /**
   * The accessible name, the browser's when it named an element whose role only it knows; for an unnamed control
   * inside a form-associated custom element, its host's label ({@link hostLabel}).
   */
  const nameFor = (/** @type {Element} */ el) => given.get(el)?.name || nameOf(el) || hostLabel(el);

  /**
   * The shown elements whose facts only the browser's accessibility tree has, in every root, which the daemon asks
   * it about before it collects: custom elements with no role in their markup (theirs may live in their
   * `ElementInternals`), and comboboxes that only pick (no text field, no `<select>`), whose chosen option is
   * nowhere but in what they show (a Material select's field).
   * @returns {Element[]}
   */
  const opaqueHosts = () => {
    /** @type {Element[]} */
    const out = [];
    for (const root of dom.roots()) {
      for (const el of root.querySelectorAll("*")) {
        const role = el.getAttribute("role");
        const custom = role === null && el.localName.includes("-") && el.localName !== "mapper-overlay";
        if (!custom && !(role === "combobox" && pickOnly(el))) continue;
        // Hidden from the snapshot anyway: not worth asking about (a ripple or an elevation layer is aria-hidden).
        if (el.checkVisibility() && el.closest("[aria-hidden=true]") === null) out.push(el);
      }
    }
    return out;
  };

  /** @param {Element} el @param {string} role */
  const isInteractive = (el, role) => {
    const t = el.tagName;
    if (t === "A") return el.hasAttribute("href");
    if (t === "BUTTON" || t === "SELECT" || t === "TEXTAREA" || t === "SUMMARY") return true;
    if (t === "INPUT") return /** @type {HTMLInputElement} */ (el).type !== "hidden";
    if (INTERACTIVE_ROLES.has(role)) return true;
    if (/** @type {HTMLElement} */ (el).isContentEditable && !parentOf(el)?.closest("[contenteditable]")) return true;
    const tab = el.getAttribute("tabindex");
    return tab !== null && Number(tab) >= 0;
  };

  /** @param {Element} el */
  const statesOf = (el) => {
    /** @type {string[]} */
    const s = [];
    const any = /** @type {HTMLInputElement} */ (el);
    const ax = given.get(el)?.states ?? [];
    // The rule the actions refuse by (`actionability.js`): `:disabled` (a disabled fieldset included) or inside
    // an `aria-disabled="true"` element.
    if (el.matches(":disabled") || el.closest("[aria-disabled=true]") || ax.includes("disabled")) s.push("disabled");
    if (any.checked === true || el.getAttribute("aria-checked") === "true" || ax.includes("checked")) {
      s.push("checked");
    }
    const exp = el.getAttribute("aria-expanded");
    if (exp === "true" || (exp === null && ax.includes("expanded"))) s.push("expanded");
    else if (exp === "false" || (exp === null && ax.includes("collapsed"))) s.push("collapsed");
    if (
      el.getAttribute("aria-selected") === "true" ||
      (el.tagName === "OPTION" && /** @type {HTMLOptionElement} */ (el).selected) || ax.includes("selected")
    ) {
      s.push("selected");
    }
    if (any.required === true || el.getAttribute("aria-required") === "true" || ax.includes("required")) {
      s.push("required");
    }
    if (any.readOnly === true || el.getAttribute("aria-readonly") === "true" || ax.includes("readonly")) {
      s.push("readonly");
    }
    return s;
  };

  /**
   * Whether a combobox only picks: no field takes text in it (a native `<select>` or text field has a value of its
   * own).
   * @param {Element} el
   */
  const pickOnly = (el) =>
    !["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName) && !(/** @type {HTMLElement} */ (el).isContentEditable);

  /** @param {Element} el */
  const valueOf = (el) => {
    // Tag names, not instanceof: elements of same-origin iframes come from another window's constructors.
    if (el.tagName === "INPUT") {
      const input = /** @type {HTMLInputElement} */ (el);
      if (["checkbox", "radio", "button", "submit", "reset", "hidden", "file", "image"].includes(input.type)) {
        return undefined;
      }
      return input.type === "password" ? (input.value ? "••••" : "") : input.value;
    }
    if (el.tagName === "TEXTAREA") return /** @type {HTMLTextAreaElement} */ (el).value;
    if (el.tagName === "SELECT") return /** @type {HTMLSelectElement} */ (el).selectedOptions[0]?.label ?? "";
    // A combobox that only picks shows its choice the browser's way (`opaqueHosts`).
    return given.get(el)?.value;
  };

  /**
   * Walks the page and builds the tree.
   * With `capture`, the captured tree of the page too (`page_tree.js`), in the same pass: same ids, same DOM.
   * @param {{ components: SeeComponent[], includeHidden?: boolean, internals?: Array<[number, AxFacts]>,
   *   capture?: { states: readonly string[], maxNodes: number } }} args
   * @returns {SeeCollect}
   */
  const collect = (args) => {
    given = new WeakMap();
    for (const [id, facts] of args.internals ?? []) {
      const el = node(id);
      if (el) given.set(el, facts);
    }
    const components = args.components;
    const byName = new Map(components.map((c) => [c.name, c]));
    const { owner, conflicts } = claimElements(components, dom);
    /** @type {Record<string, number>} every element each component owns, hidden ones included */
    const matched = {};
    for (const index of owner.values()) {
      const name = components[index]?.name;
      if (name !== undefined) matched[name] = (matched[name] ?? 0) + 1;
    }
    const vw = innerWidth;
    const vh = innerHeight;
    /** @type {Record<string, number>} */
    const counts = {};
    /** @type {SeeCollect["coverage"]} */
    const coverage = {
      interactive: 0,
      t1: 0,
      t2: 0,
      t3: 0,
      orphans: /** @type {SeeCollect["coverage"]["orphans"]} */ ([]),
    };
    // Properties whose extract found nothing on a visible match (they vanish from the node's line): counted per
    // component and property for `snapshot --coverage`. An `exists:` property's absence is its answer (false).
    /** @type {Map<string, { component: string, property: string, extract: string, count: number, of: number }>} */
    const empties = new Map();
    let elements = 0;

    /**
     * @param {Element} el
     * @param {boolean} hiddenAbove
     * @param {Array<[string, string]> | null} carried property values of the nearest matched ancestor
     * @param {boolean} inComponent
     * @param {string} named the accessible name of the nearest interactive ancestor ("" when none)
     * @returns {SeeNode[]}
     */
    const visit = (el, hiddenAbove, carried, inComponent, named) => {
      elements++;
      if (SKIP.has(el.tagName)) return [];
      // `display: contents` has no box of its own but its children do, and under `visibility: hidden` a child may
      // still be visible: neither drops its children.
      const vis = visibilityOf(el, hiddenAbove);
      const hidden = vis === "hidden";
      const boxless = vis === "boxless" || vis === "invisible";
      if (hidden && !args.includeHidden) return [];
      const compIndex = owner.get(el);
      const component = compIndex === undefined ? undefined : components[compIndex];
      const role = roleFor(el);
      const interactive = isInteractive(el, role);
      /** @type {Array<[string, string]> | undefined} */
      let props;
      if (component) {
        props = extractProperties(el, component, byName, dom);
        if (!hidden) {
          counts[component.name] = (counts[component.name] ?? 0) + 1;
          for (const p of component.properties) {
            if (p.extract.startsWith("exists:") || props.some(([n]) => n === p.name)) continue;
            const key = `${component.name}\u0000${p.name}`;
            const e = empties.get(key) ??
              { component: component.name, property: p.name, extract: p.extract, count: 0, of: 0 };
            e.count++;
            empties.set(key, e);
          }
        }
      }
      const childCarried = props ?? carried;
      const ownName = interactive || component ? nameFor(el) : "";
      const childNamed = interactive ? ownName : named;
      /** @type {SeeNode[]} */
      const kids = [];
      const kidRoot = el.shadowRoot ?? el;
      for (let c = kidRoot.firstElementChild; c; c = c.nextElementSibling) {
        kids.push(...visit(c, hidden, childCarried, inComponent || component !== undefined, childNamed));
      }
      if (el.shadowRoot) {
        for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
          if (c.assignedSlot) {
            kids.push(...visit(c, hidden, childCarried, inComponent || component !== undefined, childNamed));
          }
        }
      }
      if (el.tagName === "IFRAME") {
        try {
          const body = /** @type {HTMLIFrameElement} */ (el).contentDocument?.body;
          if (body) kids.push(...visit(body, hidden, childCarried, inComponent, childNamed));
        } catch {
          // cross-origin: not ours to read
        }
      }
      const visibleSelf = !hidden && !boxless;
      if (interactive && visibleSelf) {
        coverage.interactive++;
        if (component) coverage.t1++;
        else if (inComponent) coverage.t2++;
        else {
          coverage.t3++;
          if (coverage.orphans.length < 200) {
            coverage.orphans.push({ id: idOf(el), role, name: nameFor(el).slice(0, 80), suggestion: suggest(el) });
          }
        }
      }
      const heading = role === "heading";
      let keep = component !== undefined || (interactive && !boxless) || (role === "iframe" && !boxless) ||
        ((LANDMARK_ROLES.has(role) || heading) && !boxless);
      // A status or alert region says what just happened (a form's result, an error) in its content, which is no part
      // of its accessible name: shown as its name when it has none and nothing inside is shown on its own. Its
      // rendered text: a message it keeps hidden (a "Saving…" beside "Saved") is neither seen nor read out.
      const spoken = keep && !interactive && !component && kids.length === 0 && (role === "status" || role === "alert");
      const said = () => (dom.innerText?.(el) ?? "").replace(/\s+/g, " ").trim();
      const name = interactive || component ? ownName : keep ? nameFor(el) || (spoken ? said() : "") : "";
      if (keep && !component && !interactive) {
        // Sections and forms are landmarks only when named; a generic group needs a name to say anything.
        if ((role === "region" || role === "form" || role === "group") && !name) keep = false;
        // Text a matched ancestor already carries as a property is not repeated.
        if (carried && name && carried.some(([, v]) => v.includes(name))) keep = false;
        // Text that is the content of an interactive ancestor's name (a heading inside a link) is that name.
        if (named && name && named.includes(name)) keep = false;
      }
      if (!keep) return kids;
      /** @type {SeeNode} */
      const n = { id: idOf(el), role, name: name.slice(0, 200), tag: el.tagName.toLowerCase(), inViewport: false };
      if (component) {
        n.component = component.name;
        if (props && props.length) n.props = props;
      }
      if (interactive) n.interactive = true;
      if (hidden) n.hidden = true;
      const states = statesOf(el);
      if (states.length) n.states = states;
      const value = valueOf(el);
      if (value !== undefined) n.value = value.slice(0, 200);
      const r = el.getBoundingClientRect();
      n.bounds = [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
      n.inViewport = r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < vw && r.top < vh;
      if (kids.length) n.children = kids;
      return [n];
    };

    const top = document.body ? visit(document.body, false, null, false, "") : [];
    // One root: the page itself (the document element's id, numbered after the page's own elements), its children
    // the top-level nodes.
    /** @type {SeeNode} */
    const tree = {
      id: idOf(document.documentElement),
      role: "document",
      name: document.title.replace(/\s+/g, " ").trim().slice(0, 200),
      tag: "html",
      inViewport: true,
    };
    if (top.length) tree.children = top;
    const blocked = blocker(owner, components);
    if (empties.size > 0) {
      coverage.empty = [...empties.values()].map((e) => ({ ...e, of: counts[e.component] ?? e.count }));
    }
    const capture = args.capture
      ? extractTree({ idOf, roleFor, nameFor, interactive: isInteractive }, args.capture)
      : undefined;
    return {
      ...(capture ? { capture } : {}),
      url: location.href,
      title: document.title,
      readyState: document.readyState,
      tree,
      counts,
      matched,
      blocked,
      coverage,
      conflicts,
      elements: document.getElementsByTagName("*").length,
      // After every id this collection handed out: the engine starts the tab's next document here (`idsFrom`).
      nextId,
    };
  };

  /**
   * A suggested selector for an orphan: its tag (and type) inside the nearest ancestor with an id, a test id or a
   * class.
   * @param {Element} el
   */
  const suggest = (el) => {
    const own = el.tagName.toLowerCase() + (el.getAttribute("type") ? `[type="${el.getAttribute("type")}"]` : "");
    for (let p = parentOf(el); p && p !== document.body; p = parentOf(p)) {
      const testid = p.getAttribute("data-testid");
      if (testid) return `[data-testid="${testid}"] ${own}`;
      if (p.id) return `#${CSS.escape(p.id)} ${own}`;
      const cls = [...p.classList][0];
      if (cls) return `${p.tagName.toLowerCase()}.${CSS.escape(cls)} ${own}`;
    }
    return own;
  };

  /**
   * A modal dialog, or an element covering the viewport centre and most of the page.
   * @param {Map<Element, number>} owner
   * @param {SeeComponent[]} components
   */
  const blocker = (owner, components) => {
    /** @param {Element} el */
    const describe = (el) => {
      const role = roleOf(el);
      /** @type {{ id: number, component?: string, role: string, name: string }} */
      const b = { id: idOf(el), role, name: nameFor(el) };
      for (let p = /** @type {Element | null} */ (el); p; p = parentOf(p)) {
        const o = owner.get(p);
        if (o !== undefined) {
          const c = components[o];
          if (c) b.component = c.name;
          break;
        }
      }
      return b;
    };
    // A modal dialog anywhere, open shadow roots included (a design system's dialog keeps its panel there).
    for (const root of dom.roots()) {
      for (const modal of root.querySelectorAll("dialog[open]:modal, [aria-modal='true']")) {
        if (modal.getAttribute("aria-hidden") === "true" || !modal.checkVisibility()) continue;
        const r = modal.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) return describe(modal);
      }
    }
    // Else what covers the viewport centre: the innermost element there (hit-tested through open shadow roots),
    // then its first fixed or sticky ancestor covering at least half the viewport.
    const cx = innerWidth / 2;
    const cy = innerHeight / 2;
    let top = document.elementFromPoint(cx, cy);
    for (let depth = 0; top?.shadowRoot && depth < 32; depth++) {
      const inner = top.shadowRoot.elementFromPoint(cx, cy);
      if (!inner || inner === top) break;
      top = inner;
    }
    for (let p = top; p && p !== document.body && p !== document.documentElement; p = parentOf(p)) {
      const style = getComputedStyle(p);
      if (style.position !== "fixed" && style.position !== "sticky") continue;
      const r = p.getBoundingClientRect();
      if (r.width * r.height >= 0.5 * innerWidth * innerHeight) return describe(p);
    }
    return null;
  };

  // When the DOM last changed: watched from install on, so a page that has been quiet for a while settles at once.
  let lastChange = performance.now();
  new MutationObserver(() => (lastChange = performance.now())).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });

  /**
   * Resolves when the document has loaded and the DOM has not changed for `quietMs`, or after `maxMs`.
   * @param {number} quietMs
   * @param {number} maxMs
   * @returns {Promise<{ settled: boolean, url: string }>}
   */
  const settle = (quietMs, maxMs) =>
    new Promise((resolve) => {
      const deadline = performance.now() + maxMs;
      const check = () => {
        const now = performance.now();
        const quietFor = now - lastChange;
        // Pages commonly render data a few hundred ms after load (a fetch, a timer): a fresh load must be at
        // least AFTER_LOAD_MS old as well as quiet. A page loaded long ago settles as soon as it is quiet.
        const nav =
          /** @type {PerformanceNavigationTiming | undefined} */ (performance.getEntriesByType("navigation")[0]);
        const sinceLoad = nav && nav.loadEventEnd > 0 ? now - nav.loadEventEnd : Infinity;
        if (document.readyState === "complete" && quietFor >= quietMs && sinceLoad >= AFTER_LOAD_MS) {
          return resolve({ settled: true, url: location.href });
        }
        if (now >= deadline) return resolve({ settled: false, url: location.href });
        const wait = document.readyState === "complete" ? Math.max(quietMs - quietFor, AFTER_LOAD_MS - sinceLoad) : 20;
        setTimeout(check, Math.max(5, Math.min(wait, deadline - now)));
      };
      check();
    });

  /**
   * Numbers new elements from `first` on (never lowers the counter). The engine calls it when it installs this
   * script in a tab's new document, with the tab's next unused id: ids are this world's, so without it a new
   * document would count from 1 again and an id from a snapshot of the page the tab left would silently name an
   * element of this one instead of being stale.
   * @param {number} first
   */
  const idsFrom = (first) => {
    if (Number.isSafeInteger(first) && first > nextId) nextId = first;
    return nextId;
  };

  // `roleOf` and `nameOf` for the acting functions (`actionability.js`), which run in this world: one role and
  // one accessible name for every surface.
  /** Whether an element is one a user operates (the snapshot's rule), for the action engine's inner controls. */
  const interactive = (/** @type {Element} */ el) => isInteractive(el, roleOf(el));

  /**
   * Each selector's matches on the live page, as the offline engine answers them on a captured tree: one
   * `querySelectorAll` per root (the document, every open shadow root, every same-origin frame document), ids in
   * document order of the roots; an invalid selector answers the browser's error.
   * @param {readonly string[]} selectors
   * @returns {Array<{ ids: number[] } | { error: string }>}
   */
  const queryAll = (selectors) =>
    selectors.map((selector) => {
      try {
        const roots = dom.roots();
        /** @type {number[]} */
        const ids = [];
        for (const root of roots) {
          for (const el of root.querySelectorAll(selector)) if (el.localName !== "mapper-overlay") ids.push(idOf(el));
        }
        return { ids };
      } catch (err) {
        return { error: err instanceof Error ? err.message : String(err) };
      }
    });

  /**
   * What the browser's accessibility tree said of an element at the last collection (or since, `give`): the action
   * engine reads a state only it knows there (a Material radio's `checked`), before and after a press.
   * @param {Element} el
   */
  const axOf = (el) => given.get(el);

  /**
   * Records what the browser's accessibility tree says of an element now (read after a press), or forgets it.
   * @param {Element} el
   * @param {AxFacts | null} facts
   */
  const give = (el, facts) => {
    if (facts) given.set(el, facts);
    else given.delete(el);
  };

  return {
    collect,
    settle,
    node,
    idOf,
    idsFrom,
    roleOf,
    nameOf,
    interactive,
    queryAll,
    opaqueHosts,
    axOf,
    give,
    version: 1,
  };
}
