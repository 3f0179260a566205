/**
 * A captured tree indexed for selector matching: every element linked to its parent and siblings, split into the
 * roots a browser's `querySelectorAll` runs on one at a time — the document, each open shadow root, each
 * same-origin frame document. Inside a root the DOM's rules hold: a shadow root's top elements have no parent
 * element (the host is outside that tree); a host's children are its light DOM; an `<iframe>` has no element
 * children (its document is a root of its own). Pure data, no selector engine: `engine.ts` matches on it.
 *
 * @module
 */
import { type CapturedTree, HTML_NAMESPACE, isFrame, isShadow, type TreeChild, type TreeNode } from "./tree.ts";

/** An element of an {@linkcode OfflineDocument}. */
export interface OfflineElement {
  /** Tells an element from a text node. */
  readonly kind: "element";
  /** The node as captured. */
  readonly node: TreeNode;
  /** The tag as selectors compare it: lower case (the browser matches type selectors case-insensitively). */
  readonly name: string;
  /** Whether it is an HTML element (case-insensitive attribute values apply only to those). */
  readonly html: boolean;
  /** Attributes by lower-cased name (selectors match attribute names case-insensitively in HTML documents). */
  readonly attrs: Readonly<Record<string, string>>;
  /** Lower-cased names of the attributes whose value was cut. */
  readonly cut: ReadonlySet<string> | undefined;
  /** Recorded state flags. */
  readonly states: ReadonlySet<string> | undefined;
  /** Its parent element inside its root; `null` at the top of a root. */
  readonly parent: OfflineElement | null;
  /** The list it sits in (its parent's children, or its root's top nodes), itself included. */
  readonly siblings: readonly OfflineNode[];
  /** Its light-DOM children (elements and text). */
  readonly children: OfflineNode[];
  /** The root it belongs to. */
  readonly root: OfflineRoot;
}

/** A text node. */
export interface OfflineText {
  /** Tells a text node from an element. */
  readonly kind: "text";
  /** Its data. */
  readonly text: string;
  /** Its parent element; `null` at the top of a root. */
  readonly parent: OfflineElement | null;
  /** The list it sits in. */
  readonly siblings: readonly OfflineNode[];
}

/** An element or a text node. */
export type OfflineNode = OfflineElement | OfflineText;

/** One scope `querySelectorAll` runs on: a document, an open shadow root or a same-origin frame document. */
export interface OfflineRoot {
  /** Which kind of root. */
  readonly kind: "document" | "shadow" | "frame";
  /** The shadow host or the `<iframe>`; `null` for the top document. */
  readonly host: OfflineElement | null;
  /** A frame document's URL. */
  readonly url?: string;
  /** Its top-level nodes. */
  readonly children: OfflineNode[];
  /** Every element in it, in document order (what `querySelectorAll` on it tests). */
  readonly elements: OfflineElement[];
}

/** A captured tree, indexed. */
export interface OfflineDocument {
  /** The tree as read. */
  readonly tree: CapturedTree;
  /** Every root, the top document first, then in document order of their hosts. */
  readonly roots: readonly OfflineRoot[];
  /** Every element in document order (a host's shadow tree before its light children). */
  readonly elements: readonly OfflineElement[];
}

const EMPTY: readonly OfflineNode[] = Object.freeze([]);

/** Attribute lookup keyed by lower-cased names; the captured object itself when its names already are. */
/**
 * The attributes of an SVG or MathML element that an un-namespaced attribute selector can see: the HTML parser puts
 * `xmlns`, `xmlns:*`, `xlink:*` and `xml:*` on foreign elements in their namespaces, so `[xmlns]` or
 * `[xlink:href]`-style tests never match them in the browser (seen by the differential test: `[xmlns*="http://www."]`
 * matched two `<svg>` offline, none live).
 */
function unNamespaced(attrs: Record<string, string>): Record<string, string> {
  const NAMESPACED = /^(xmlns(:|$)|xlink:|xml:)/;
  if (!Object.keys(attrs).some((k) => NAMESPACED.test(k))) return attrs;
  return Object.fromEntries(Object.entries(attrs).filter(([k]) => !NAMESPACED.test(k)));
}

function lowerKeys(attrs: Record<string, string>): Record<string, string> {
  let lower = true;
  for (const key in attrs) {
    if (key !== key.toLowerCase()) {
      lower = false;
      break;
    }
  }
  if (lower) return attrs;
  const out: Record<string, string> = Object.create(null);
  for (const key in attrs) out[key.toLowerCase()] ??= attrs[key]!;
  return out;
}

/** Indexes a captured tree (linear in its size). */
export function indexTree(tree: CapturedTree): OfflineDocument {
  const roots: OfflineRoot[] = [];
  const elements: OfflineElement[] = [];
  const top: OfflineRoot = { kind: "document", host: null, children: [], elements: [] };
  roots.push(top);
  // Depth first with an explicit stack (a deep page must not exhaust the call stack): each frame adds one list of
  // child entries to `into`, under `parent`, in `root`; an element's own entries are a frame pushed on top, so
  // `elements` and `roots` come out in document order.
  type Frame = {
    entries: readonly TreeChild[];
    next: number;
    into: OfflineNode[];
    parent: OfflineElement | null;
    root: OfflineRoot;
  };
  const stack: Frame[] = [{ entries: [tree.tree.root], next: 0, into: top.children, parent: null, root: top }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.entries.length) {
      stack.pop();
      continue;
    }
    const entry = frame.entries[frame.next++]!;
    const { into, parent, root } = frame;
    if (typeof entry === "string") {
      into.push({ kind: "text", text: entry, parent, siblings: into });
      continue;
    }
    if (isShadow(entry) || isFrame(entry)) {
      if (parent === null || (isFrame(entry) && entry.frame !== "same-origin")) continue;
      const sub: OfflineRoot = isShadow(entry)
        ? { kind: "shadow", host: parent, children: [], elements: [] }
        : { kind: "frame", host: parent, url: entry.url, children: [], elements: [] };
      roots.push(sub);
      stack.push({ entries: entry.children, next: 0, into: sub.children, parent: null, root: sub });
      continue;
    }
    const node = entry;
    const html = node.ns === undefined || node.ns === HTML_NAMESPACE;
    const el: OfflineElement = {
      kind: "element",
      node,
      name: node.tag.toLowerCase(),
      html,
      // The HTML parser and setAttribute lower-case an HTML element's attribute names already.
      attrs: html ? node.attrs : unNamespaced(lowerKeys(node.attrs)),
      cut: node.cut && node.cut.length > 0 ? new Set(node.cut.map((c) => c.toLowerCase())) : undefined,
      states: node.states && node.states.length > 0 ? new Set(node.states) : undefined,
      parent,
      siblings: into,
      children: node.children.length > 0 ? [] : EMPTY as OfflineNode[],
      root,
    };
    into.push(el);
    elements.push(el);
    root.elements.push(el);
    if (node.children.length > 0) {
      stack.push({ entries: node.children, next: 0, into: el.children, parent: el, root });
    }
  }
  return { tree, roots, elements };
}
