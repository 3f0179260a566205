// @ts-check
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The live page as every surface reads it: the page engine (snapshots and actions; `src/see/daemon/_script.ts` links this
// module into the script it runs in an isolated world of the tab) and the extension's content script (which imports
// it, and is shipped linked with it by the same linker). One module, so they cannot drift:
// - the DOM adapter the resolver's `claimElements` (which component owns an element) and property extraction run over:
//   the document, every open shadow root and same-origin frame document; parents are shadow-including;
// - the ARIA role and the accessible name of an element, by dom-accessibility-api (the W3C rules, the implementation
//   Testing Library uses; `vendor/`, shipped with the extension), never a hand-written table.
// Only functions: nothing runs when the module loads.

import { computeAccessibleName, getRole } from "./vendor/dom_accessibility_api.js";
import { nodeText } from "./resolver.js";

/**
 * The shadow-including parent element: the parent element, else a shadow root's host; `null` at the top of a
 * document (a frame's elements do not nest into the frame element: their ids are numbered, not nested).
 * @param {Element} el
 * @returns {Element | null}
 */
export function parentOf(el) {
  if (el.parentElement) return el.parentElement;
  const root = el.parentNode;
  // nodeType, not instanceof: a frame's nodes come from another window's constructors.
  return root && root.nodeType === 11 ? /** @type {ShadowRoot} */ (root).host ?? null : null;
}

/**
 * The open shadow roots and same-origin frame documents directly under one root, and recursively below them, in
 * document order: the root itself first.
 * @param {Document | ShadowRoot} root
 * @returns {Array<Document | ShadowRoot>}
 */
function rootsFrom(root) {
  /** @type {Array<Document | ShadowRoot>} */
  const out = [];
  /** @param {Document | ShadowRoot} r */
  const add = (r) => {
    out.push(r);
    const doc = /** @type {Document} */ (r.nodeType === 9 ? r : r.ownerDocument);
    const walk = doc.createTreeWalker(r, NodeFilter.SHOW_ELEMENT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = /** @type {Element} */ (n);
      if (el.shadowRoot) add(el.shadowRoot);
      if (el.tagName === "IFRAME" || el.tagName === "FRAME") {
        try {
          const inner = /** @type {HTMLIFrameElement} */ (el).contentDocument;
          if (inner) add(inner);
        } catch {
          // cross-origin: not ours to read
        }
      }
    }
  };
  add(root);
  return out;
}

/**
 * The first element strictly inside `el` (its own open shadow root included) matching `selector`: the light DOM
 * first, then the open shadow roots below (`exists:` and CSS extracts see shadow DOM). Throws on an invalid
 * selector, like `querySelector`.
 * @param {Element | ShadowRoot} el
 * @param {string} selector
 * @returns {Element | null}
 */
function deepQuery(el, selector) {
  const found = el.querySelector(selector);
  if (found !== null) return found;
  const own = el.nodeType === 1 ? /** @type {Element} */ (el).shadowRoot : null;
  if (own) {
    const inner = deepQuery(own, selector);
    if (inner !== null) return inner;
  }
  for (const host of el.querySelectorAll("*")) {
    if (!host.shadowRoot) continue;
    const inner = deepQuery(host.shadowRoot, selector);
    if (inner !== null) return inner;
  }
  return null;
}

/**
 * The live document as the resolver reads it: for `claimElements` (roots, queries, shadow-including parents) and for
 * property extraction (`text` is the resolver's `nodeText`; queries look into open shadow roots).
 * @param {Document} [doc]
 * @returns {import("./resolver.js").ClaimDom<Element, Document | ShadowRoot> & import("./resolver.js").Dom<Element>}
 */
export function liveDom(doc = document) {
  return {
    roots: () => rootsFrom(doc),
    queryAll: (root, selector) => root.querySelectorAll(selector),
    parent: parentOf,
    querySelector: deepQuery,
    text: (el) => nodeText(el),
    attr: (el, name) => el.getAttribute(name),
    innerText: (el) => /** @type {HTMLElement} */ (el).innerText ?? el.textContent ?? "",
    textOnly: (el) =>
      nodeText(el, (n) => {
        const e = /** @type {Element} */ (/** @type {unknown} */ (n));
        return e.matches("img, svg, [alt]") || e.closest("svg") !== null;
      }),
    innerHtml: (el) => el.innerHTML,
  };
}

/**
 * The ARIA role of an element: the explicit one (its first token), else the implicit one by the HTML-AAM rules
 * (`input[type=search]` → `searchbox`, `type=number` → `spinbutton`, `a` without `href` → none); `generic` when
 * there is none.
 * @param {Element} el
 * @returns {string}
 */
export function roleOf(el) {
  try {
    return getRole(el) ?? "generic";
  } catch {
    return "generic";
  }
}

/**
 * The accessible name of an element by the W3C accname rules (aria-labelledby, aria-label, labels, alt/title/
 * placeholder, content for roles named from content), whitespace collapsed. Measured against Chromium's own
 * accessibility tree on the 2,000-element shop page: about as fast as a hand-written approximation, while
 * `Accessibility.getFullAXTree` alone took 360–575 ms.
 * @param {Element} el
 * @returns {string}
 */
export function nameOf(el) {
  try {
    return computeAccessibleName(el).replace(/\s+/g, " ").trim();
  } catch {
    return "";
  }
}
