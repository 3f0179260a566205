/**
 * The captured tree as the resolver reads a page: the offline counterpart of `assets/extension/live_dom.js`, so the
 * resolver's one claim (`claimElements`) and its one property extraction (`extractProperties` / `propertyValue`:
 * every extract form and transform) run over a capture unchanged.
 *
 * A capture is not the page, so some answers cannot be given. The adapter then answers as if there were nothing and
 * records why ({@linkcode TreeDom.takeDoubt}): a caller that judges a value empty asks first. What it cannot know:
 * - a selector the engine cannot answer on this capture (`:hover`, a cut attribute value, an unrecorded state);
 * - text, when the capture records none (the other implementation's trees);
 * - `inner_text` of text that sits only inside hidden elements, or of a hidden element: hidden (`visible: false`)
 *   covers `display: none` and `visibility: hidden` (no rendered text) as well as `aria-hidden` and `inert`
 *   (rendered), and the computed style that tells them apart is not recorded;
 * - `inner_html` of an element with no recorded child (comments are not recorded).
 *
 * Otherwise it answers as the live adapter: `text` is the resolver's `nodeText` over the light DOM (script and style
 * text are never recorded and never counted), `attr=` the attribute as written in the markup (live form values are
 * not recorded either way: `getAttribute` reads the markup too), a CSS extract's `querySelector` looks strictly
 * inside the element, its light DOM first, then the open shadow roots below, never into a frame.
 *
 * @module
 */
import { type Dom, nodeText, type TextNode } from "../../assets/extension/resolver.js";
import type { ClaimDom } from "./claim_dom.ts";
import type { OfflineDocument, OfflineElement, OfflineNode, OfflineRoot } from "./dom.ts";

/** The elements a selector matched on the tree, per root, in document order. */
export type RootMatches = ReadonlyArray<{ readonly root: OfflineRoot; readonly elements: readonly OfflineElement[] }>;

/**
 * Answers a selector on the tree. Throws when it cannot: `invalid` marks CSS the browser refuses too (the live
 * `querySelector` throws as well, and the resolver treats both as no match); any other throw is a doubt.
 */
export type TreeQuery = (selector: string) => RootMatches;

/** The resolver's view of a captured tree: the claim's three members and property extraction's. */
export interface TreeDom extends ClaimDom<OfflineElement, OfflineRoot>, Dom<OfflineElement> {
  /** Why an answer given since the last call could not be trusted (then cleared); `undefined` when all could. */
  takeDoubt(): string | undefined;
}

/** Whether a thrown query error is the browser's own refusal (invalid CSS), not a capture's limit. */
function invalidCss(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { invalid?: unknown }).invalid === true;
}

/** Subtree extents: each element's position in its root's `elements` and the position of its last descendant. */
interface Extents {
  at: Map<OfflineElement, number>;
  end: Map<OfflineElement, number>;
}

function extentsOf(doc: OfflineDocument): Extents {
  const at = new Map<OfflineElement, number>();
  const end = new Map<OfflineElement, number>();
  // A root's elements are in document order, depth first: an element's descendants follow it contiguously.
  for (const root of doc.roots) {
    root.elements.forEach((el, i) => {
      at.set(el, i);
      end.set(el, i);
      for (let p = el.parent; p !== null; p = p.parent) end.set(p, i);
    });
  }
  return { at, end };
}

/** The first of `sorted` (elements of one root, document order) strictly inside `el`, by binary search. */
function firstInside(sorted: readonly OfflineElement[], el: OfflineElement, x: Extents): OfflineElement | null {
  const from = x.at.get(el)!;
  const to = x.end.get(el)!;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x.at.get(sorted[mid]!)! <= from) lo = mid + 1;
    else hi = mid;
  }
  const found = sorted[lo];
  return found !== undefined && x.at.get(found)! <= to ? found : null;
}

/** The resolver's text-node view of an element: its light-DOM children (a frame's document is not a child). */
function textNode(el: OfflineElement): TextNode & { el: OfflineElement } {
  return {
    el,
    nodeType: 1,
    nodeName: el.name,
    nodeValue: null,
    get childNodes(): TextNode[] {
      return el.children.map((c: OfflineNode) =>
        c.kind === "text" ? { nodeType: 3, nodeName: "#text", nodeValue: c.text, childNodes: [] } : textNode(c)
      );
    },
  };
}

const elementOf = (n: TextNode) => (n as TextNode & { el: OfflineElement }).el;

/** HTML elements serialized without an end tag. */
const VOID = new Set("area base br col embed hr img input link meta source track wbr".split(" "));

/** Markup of an element's recorded children: attribute values and text escaped; script and style text not kept. */
function markup(nodes: readonly OfflineNode[]): string {
  const escape = (s: string, attr: boolean) =>
    s.replace(/&/g, "&amp;").replace(
      attr ? /"/g : /[<>]/g,
      (c) => (c === '"' ? "&quot;" : c === "<" ? "&lt;" : "&gt;"),
    );
  return nodes.map((n) => {
    if (n.kind === "text") return escape(n.text, false);
    const attrs = Object.entries(n.node.attrs).map(([k, v]) => ` ${k}="${escape(v, true)}"`).join("");
    if (n.html && VOID.has(n.name)) return `<${n.node.tag}${attrs}>`;
    return `<${n.node.tag}${attrs}>${markup(n.children)}</${n.node.tag}>`;
  }).join("");
}

/**
 * The resolver's DOM over an indexed tree: `query` answers a selector on it (the offline engine, memoized per tree).
 */
export function treeDom(doc: OfflineDocument, query: TreeQuery): TreeDom {
  let doubt: string | undefined;
  const doubtful = (why: string) => {
    doubt ??= why;
  };
  let extents: Extents | undefined;
  const shadowOf = new Map<OfflineElement, OfflineRoot>();
  for (const r of doc.roots) if (r.kind === "shadow" && r.host !== null) shadowOf.set(r.host, r);
  const noText = () => {
    if (doc.tree.recorded.text) return false;
    doubtful("this capture records no text");
    return true;
  };
  const text = (el: OfflineElement, skip?: (el: OfflineElement) => boolean) =>
    nodeText(textNode(el), skip ? (n) => skip(elementOf(n)) : undefined);

  /** Live `deepQuery`: inside `within` (an element, or a whole shadow root), light DOM first, then shadow roots. */
  const deepFirst = (
    within: OfflineElement | OfflineRoot,
    byRoot: Map<OfflineRoot, readonly OfflineElement[]>,
    x: Extents,
  ): OfflineElement | null => {
    const root = within.kind === "element" ? within.root : within;
    const inside = (el: OfflineElement) => {
      if (within.kind !== "element") return true;
      const i = x.at.get(el)!;
      return i > x.at.get(within)! && i <= x.end.get(within)!;
    };
    const matches = byRoot.get(root) ?? [];
    const light = within.kind === "element" ? firstInside(matches, within, x) : matches[0] ?? null;
    if (light !== null) return light;
    const own = within.kind === "element" ? shadowOf.get(within) : undefined;
    if (own !== undefined) {
      const found = deepFirst(own, byRoot, x);
      if (found !== null) return found;
    }
    for (const [host, shadow] of shadowOf) {
      if (host.root !== root || !inside(host)) continue;
      const found = deepFirst(shadow, byRoot, x);
      if (found !== null) return found;
    }
    return null;
  };

  return {
    roots: () => doc.roots,
    queryAll: (root, selector) => query(selector).find((r) => r.root === root)?.elements ?? [],
    parent: (el) => el.parent ?? (el.root.kind === "shadow" ? el.root.host : null),
    querySelector: (el, selector) => {
      let matches: RootMatches;
      try {
        matches = query(selector);
      } catch (err: unknown) {
        if (!invalidCss(err)) doubtful(err instanceof Error ? err.message : String(err));
        throw err;
      }
      extents ??= extentsOf(doc);
      return deepFirst(el, new Map(matches.map((r) => [r.root, r.elements])), extents);
    },
    text: (el) => (noText() ? "" : text(el)),
    attr: (el, name) => (el.html ? el.node.attrs[name.toLowerCase()] : el.node.attrs[name]) ?? null,
    innerText: (el) => {
      if (noText()) return "";
      const all = text(el);
      if (all.trim() === "") return all;
      if (el.node.visible === false) {
        doubtful(
          `inner_text of a hidden <${el.node.tag}>: whether it renders depends on style a capture does not record`,
        );
        return "";
      }
      const shown = text(el, (e) => e.node.visible === false);
      if (shown.trim() !== "") return shown;
      doubtful("inner_text: the text sits in hidden elements, and whether it renders depends on style not recorded");
      return "";
    },
    textOnly: (el) => {
      if (noText()) return "";
      let inSvg = false;
      for (let p: OfflineElement | null = el; p !== null && !inSvg; p = p.parent) inSvg = p.name === "svg";
      if (inSvg) return "";
      return text(el, (e) => e.name === "img" || e.name === "svg" || Object.hasOwn(e.attrs, "alt"));
    },
    innerHtml: (el) => {
      if (noText()) return "";
      if (el.children.length === 0) {
        doubtful("inner_html of an element without children: comments are not recorded");
        return "";
      }
      return markup(el.children);
    },
    takeDoubt: () => {
      const why = doubt;
      doubt = undefined;
      return why;
    },
  };
}
