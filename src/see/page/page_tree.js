// @ts-check
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The page side of the captured tree (`mapper snapshot --tree-out`, `mapper capture`): every element of the page —
// the document, its open shadow roots and its same-origin frame documents — with its tag, markup attributes, the
// snapshot's id, role, accessible name, visibility and state pseudo-classes, so selectors can be answered later on
// the tree exactly as `querySelectorAll` answers them on the page. Linked into the page script beside `page.js`
// (whose ids, role and interactive rule it is handed), in the same isolated world. Only functions: nothing runs
// when the module loads. The daemon adds the metadata and redacts URLs in what this answers.

/**
 * One element as the tree records it (the offline area's `TreeNode`).
 * @typedef {{
 *   id: number, tag: string, ns?: string, attrs: Record<string, string>, cut?: string[], role: string, name: string,
 *   visible: boolean | "boxless", interactive?: true, states?: string[], pseudo?: { before?: string, after?: string },
 *   box?: [number, number, number, number], children: TreeChildJs[]
 * }} TreeNodeJs
 */
/**
 * A child entry: an element, a text node's data, an open shadow root or a frame document.
 * @typedef {TreeNodeJs | string | { shadow: "open", children: TreeChildJs[] }
 *   | { frame: "same-origin" | "cross-origin", url: string, children: TreeChildJs[] }} TreeChildJs
 */
/**
 * What {@link extractTree} is handed by `page.js`: its ids, role, accessible name and interactive rule, so the tree
 * and the snapshot say the same about every element (a role and name only the browser's accessibility tree knows
 * included).
 * @typedef {{
 *   idOf: (el: Element) => number,
 *   roleFor: (el: Element) => string,
 *   nameFor: (el: Element) => string,
 *   interactive: (el: Element, role: string) => boolean,
 * }} TreeSee
 */
/**
 * What {@link extractTree} answers: the document element's node, or why there is none.
 * @typedef {{ root: TreeNodeJs, nodes: number, viewport: { width: number, height: number, dpr: number } }
 *   | { tooLarge: number }} TreeExtract
 */

/** Longest attribute value kept (characters); a longer one is cut and listed in the node's `cut`. */
const MAX_ATTRIBUTE = 2048;
/** Longest text node kept (characters). */
const MAX_TEXT = 1024;
/** Deepest element nesting walked (the HTML parser stops nesting at 512; scripts can go deeper). */
const MAX_DEPTH = 2000;
const HTML_NS = "http://www.w3.org/1999/xhtml";
/** Elements whose text is code, never page content: recorded without it. */
const CODE_TEXT = new Set(["script", "style"]);
/** The extension's overlay host: mapper's own, never part of the page. */
const OVERLAY_TAG = "mapper-overlay";

/**
 * How an element renders, by the snapshot's rule: `hidden` (it and everything below: `display: none`,
 * `aria-hidden="true"`, `inert`), `boxless` (`display: contents`: no box, its children render), `invisible`
 * (`visibility: hidden`: not shown, but a child may be) or `visible`.
 * @param {Element} el
 * @param {boolean} hiddenAbove an ancestor is `hidden`
 * @returns {"hidden" | "boxless" | "invisible" | "visible"}
 */
export function visibilityOf(el, hiddenAbove) {
  if (hiddenAbove) return "hidden";
  if (el.getAttribute("aria-hidden") === "true" || el.hasAttribute("inert")) return "hidden";
  if (el.checkVisibility({ visibilityProperty: true })) return "visible";
  const style = getComputedStyle(el);
  if (style.display === "contents") return "boxless";
  if (style.display === "none" || !el.checkVisibility()) return "hidden";
  return "invisible";
}

/**
 * The state pseudo-classes this browser knows among `names` (`not-defined` stands for `:not(:defined)`), each with
 * the selector that tests it, and one selector testing any of them (most elements match none: one test then).
 * @param {readonly string[]} names
 */
function stateTests(names) {
  /** @type {Array<[string, string]>} */
  const tests = [];
  const probe = document.createElement("div");
  for (const name of names) {
    const selector = name === "not-defined" ? ":not(:defined)" : `:${name}`;
    try {
      probe.matches(selector);
      tests.push([name, selector]);
    } catch {
      // not supported by this browser: never recorded
    }
  }
  return { tests, any: tests.map(([, s]) => s).join(", ") };
}

/**
 * Generated `::before` / `::after` text: the `content` of each when it is a string (`"→ "`, quotes removed).
 * @param {Element} el
 */
function pseudoOf(el) {
  /** @type {{ before?: string, after?: string }} */
  const out = {};
  for (const which of /** @type {const} */ (["before", "after"])) {
    const content = getComputedStyle(el, `::${which}`).content;
    if (!content || content === "none" || content === "normal") continue;
    const text = content.startsWith('"') ? content.slice(1, -1).replace(/\\(.)/g, "$1") : content;
    if (text !== "") out[which] = text.slice(0, MAX_TEXT);
  }
  return out.before === undefined && out.after === undefined ? undefined : out;
}

/**
 * Walks the whole page into the captured tree (see the module comment). Names are computed where a role may carry
 * one: for a `generic` element only when it is labelled (`aria-label`, `aria-labelledby`, `title`), since its
 * content never names it and the accessible-name computation is the costly part of the walk.
 * @param {TreeSee} see
 * @param {{ states: readonly string[], maxNodes: number }} args
 * @returns {TreeExtract}
 */
export function extractTree(see, args) {
  const { tests, any } = stateTests(args.states);
  let nodes = 0;
  let tooLarge = false;

  /**
   * @param {Element} el
   * @param {boolean} hiddenAbove
   * @param {number} dx offset of this document's viewport in the top one
   * @param {number} dy
   * @param {number} depth
   * @returns {TreeNodeJs | null}
   */
  const visit = (el, hiddenAbove, dx, dy, depth) => {
    if (++nodes > args.maxNodes || depth > MAX_DEPTH) {
      tooLarge = true;
      return null;
    }
    const tag = el.localName;
    const vis = visibilityOf(el, hiddenAbove);
    const role = see.roleFor(el);
    /** @type {Record<string, string>} */
    const attrs = {};
    /** @type {string[]} */
    const cut = [];
    for (const a of el.attributes) {
      let value = a.value;
      if (value.length > MAX_ATTRIBUTE) {
        value = value.slice(0, MAX_ATTRIBUTE);
        cut.push(a.name);
      }
      attrs[a.name] = value;
    }
    const labelled = el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby") ||
      el.hasAttribute("title");
    /** @type {TreeNodeJs} */
    const n = {
      id: see.idOf(el),
      tag,
      attrs,
      role,
      name: role === "generic" && !labelled ? "" : see.nameFor(el).slice(0, MAX_TEXT),
      visible: vis === "visible" ? true : vis === "boxless" ? "boxless" : false,
      children: [],
    };
    if (el.namespaceURI !== HTML_NS && el.namespaceURI !== null) n.ns = el.namespaceURI;
    if (cut.length) n.cut = cut;
    if (see.interactive(el, role)) n.interactive = true;
    if (any !== "" && el.matches(any)) n.states = tests.filter(([, s]) => el.matches(s)).map(([name]) => name);
    if (vis !== "hidden") {
      const pseudo = pseudoOf(el);
      if (pseudo) n.pseudo = pseudo;
      const r = el.getBoundingClientRect();
      n.box = [Math.round(r.x + dx), Math.round(r.y + dy), Math.round(r.width), Math.round(r.height)];
    }
    const hidden = vis === "hidden";
    if (el.shadowRoot) {
      n.children.push({ shadow: "open", children: childrenOf(el.shadowRoot, hidden, dx, dy, depth) });
    }
    if (tag === "iframe" || tag === "frame") {
      /** @type {Document | null} */
      let inner = null;
      try {
        inner = /** @type {HTMLIFrameElement} */ (el).contentDocument;
      } catch {
        // cross-origin: not ours to read
      }
      const url = inner?.URL ?? /** @type {HTMLIFrameElement} */ (el).src ?? "";
      if (inner && inner.documentElement) {
        // The frame's viewport starts inside the element's border and padding.
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        const fx = dx + r.x + el.clientLeft + (parseFloat(style.paddingLeft) || 0);
        const fy = dy + r.y + el.clientTop + (parseFloat(style.paddingTop) || 0);
        const top = visit(inner.documentElement, hidden, fx, fy, depth + 1);
        n.children.push({ frame: "same-origin", url, children: top ? [top] : [] });
      } else {
        n.children.push({ frame: "cross-origin", url, children: [] });
      }
    }
    if (CODE_TEXT.has(tag) && el.namespaceURI === HTML_NS) {
      // Code is never recorded; one space stands for it, so `:empty` still answers as on the page.
      if (el.firstChild) n.children.push(el.textContent === "" ? "" : " ");
    } else {
      n.children.push(...childrenOf(el, hidden, dx, dy, depth));
    }
    return n;
  };

  /**
   * The light children of an element or the top nodes of a shadow root: elements and text, no comments.
   * @param {Element | ShadowRoot} parent
   * @param {boolean} hidden
   * @param {number} dx
   * @param {number} dy
   * @param {number} depth
   * @returns {TreeChildJs[]}
   */
  const childrenOf = (parent, hidden, dx, dy, depth) => {
    /** @type {TreeChildJs[]} */
    const out = [];
    for (let c = parent.firstChild; c && !tooLarge; c = c.nextSibling) {
      if (c.nodeType === 3) {
        if (++nodes > args.maxNodes) tooLarge = true;
        const data = /** @type {Text} */ (c).data;
        out.push(data.length > MAX_TEXT ? data.slice(0, MAX_TEXT) : data);
      } else if (c.nodeType === 1) {
        const el = /** @type {Element} */ (c);
        if (el.localName === OVERLAY_TAG) continue;
        const node = visit(el, hidden, dx, dy, depth + 1);
        if (node) out.push(node);
      }
    }
    return out;
  };

  const root = visit(document.documentElement, false, 0, 0, 0);
  if (tooLarge || !root) return { tooLarge: nodes };
  return { root, nodes, viewport: { width: innerWidth, height: innerHeight, dpr: devicePixelRatio } };
}
