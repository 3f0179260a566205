/**
 * The captured tree: what `mapper capture` keeps of a page (beside the snapshot text) so the map can be checked
 * against it later without a browser. One JSON document per capture, `<stamp>.snap.tree.json`:
 *
 * ```json
 * {"schema": 1, "kind": "mapper-tree", "mapper": "0.1.0", "url": "https://shop.test/", "title": "Shop",
 *  "view": {"name": "Catalog", "route": "/"}, "capturedAt": "2026-06-07T19:30:00.000Z",
 *  "viewport": {"width": 1280, "height": 800, "dpr": 1}, "settled": true,
 *  "coverage": {"interactive": 170, "t1": 120, "t2": 45, "t3": 5},
 *  "root": {"id": 1, "tag": "html", "attrs": {}, "role": "document", "name": "", "visible": true, "children": […]}}
 * ```
 *
 * Every element is a {@linkcode TreeNode}; a node's `children` hold elements, text (a string: the text node's data,
 * whitespace-only nodes included, since `:empty` depends on them), an open shadow root
 * (`{"shadow": "open", "children": […]}`, listed before the host's light children) and, on an `<iframe>`, its
 * document (`{"frame": "same-origin", "url": …, "children": [<html node>]}`; a cross-origin frame has no children).
 * Never recorded: comments, `<template>` contents, script and style text, live form values (markup attributes
 * only), password values, mapper's own overlay.
 *
 * @module
 */

/** The `schema` this version of mapper writes and reads. */
export const TREE_SCHEMA = 1;
/** The `kind` that marks a file as mapper's captured tree. */
export const TREE_KIND = "mapper-tree";
/** Largest tree file read, in bytes (16 MiB): a larger one is refused before it is parsed. */
export const MAX_TREE_BYTES = 16 * 1024 * 1024;
/** Longest attribute value kept, in characters; a longer one is cut and its name listed in the node's `cut`. */
export const MAX_ATTRIBUTE_CHARS = 2048;
/** Longest text node kept, in characters (a longer one is cut; it still reads as non-empty). */
export const MAX_TEXT_CHARS = 1024;
/** The HTML namespace: a node without `ns` is in it. */
export const HTML_NAMESPACE = "http://www.w3.org/1999/xhtml";

/**
 * The state pseudo-classes a capture records, each from `Element.matches(":<name>")` on the live element (not
 * guessed from attributes: `:checked` follows a click, `:disabled` a disabled fieldset). Two hold for nearly every
 * element and are recorded by their opposites, so a node lists only the few that are unusual: `:read-only` is
 * "not `read-write`" and `:defined` is "not `not-defined`" (an unupgraded custom element).
 */
export const STATE_PSEUDOS: readonly string[] = Object.freeze([
  "checked",
  "disabled",
  "enabled",
  "required",
  "optional",
  "read-write",
  "placeholder-shown",
  "indeterminate",
  "default",
  "valid",
  "invalid",
  "open",
  "modal",
  "popover-open",
  "not-defined",
]);

/** The view the captured URL resolved to when it was captured. */
export interface TreeView {
  /** View name. */
  name: string;
  /** Its route pattern as declared. */
  route: string;
}

/** The browser window the page was captured in. */
export interface TreeViewport {
  /** CSS pixels. */
  width: number;
  /** CSS pixels. */
  height: number;
  /** Device pixel ratio. */
  dpr: number;
}

/** The snapshot's coverage line at capture time (further fields, such as the orphans, may follow). */
export interface TreeCoverage {
  /** Interactive elements. */
  interactive: number;
  /** Interactive elements that are a component themselves. */
  t1: number;
  /** Interactive elements inside a component. */
  t2: number;
  /** Interactive elements no component covers. */
  t3: number;
}

/** An open shadow root, as a child entry of its host (before the host's light-DOM children). */
export interface ShadowEntry {
  /** Only open shadow roots are recorded (closed ones cannot be read). */
  shadow: "open";
  /** The shadow tree's top-level nodes. */
  children: TreeChild[];
}

/** The document of an `<iframe>`, as a child entry of the `<iframe>` node. */
export interface FrameEntry {
  /** A cross-origin frame cannot be read: it has no children, and selectors never reach into it. */
  frame: "same-origin" | "cross-origin";
  /** The frame document's URL (query tokens redacted). */
  url: string;
  /** The frame document's element (`<html>`); empty for a cross-origin frame. */
  children: TreeChild[];
}

/** One child entry: an element, a text node's data, a shadow root or a frame document. */
export type TreeChild = TreeNode | string | ShadowEntry | FrameEntry;

/** One element of a captured page. */
export interface TreeNode {
  /**
   * The element's id: the snapshot's number in mapper's trees (stable while the element lived); a string in trees
   * read from the other implementation's files (`"1_5"`).
   */
  id: number | string;
  /** The element's local name as the DOM has it: lower case for HTML, as written for SVG (`foreignObject`). */
  tag: string;
  /** The namespace URI when it is not HTML (`http://www.w3.org/2000/svg`). */
  ns?: string;
  /** Attributes as written in the markup (qualified names); values cut at {@linkcode MAX_ATTRIBUTE_CHARS}. */
  attrs: Record<string, string>;
  /** Attributes whose value was cut: a selector testing such a value cannot be answered offline. */
  cut?: string[];
  /** ARIA role (explicit, else implicit; `generic` when none). */
  role: string;
  /** Accessible name. */
  name: string;
  /** Rendered: `true`, `false` (hidden), or `"boxless"` (`display: contents`: no box, its children render). */
  visible: boolean | "boxless";
  /** The snapshot counts it as interactive. */
  interactive?: true;
  /** The {@linkcode STATE_PSEUDOS} it matched; absent when none. */
  states?: string[];
  /** Generated content of `::before` / `::after`, when there is any. */
  pseudo?: { before?: string; after?: string };
  /** Border box in CSS pixels, relative to the top document's viewport: `[x, y, width, height]`. */
  box?: [number, number, number, number];
  /** Child entries in document order (a shadow root first). */
  children: TreeChild[];
}

/** A captured tree file of mapper's own (see the module documentation). */
export interface MapperTree {
  /** Always {@linkcode TREE_SCHEMA}. */
  schema: 1;
  /** Always {@linkcode TREE_KIND}. */
  kind: "mapper-tree";
  /** The mapper version that wrote it. */
  mapper: string;
  /** The page URL (query tokens redacted). */
  url: string;
  /** The document title. */
  title: string;
  /** The view the URL resolved to at capture time, `null` when none. */
  view: TreeView | null;
  /** When it was captured (ISO 8601, UTC). */
  capturedAt: string;
  /** The browser window. */
  viewport: TreeViewport;
  /** Whether the page had settled (no DOM mutation for a while) when it was captured. */
  settled: boolean;
  /** The coverage line at capture time, `null` when there was no corpus. */
  coverage: TreeCoverage | null;
  /** The document element (`<html>`). */
  root: TreeNode;
}

/** Which implementation wrote a tree file. */
export type TreeFormat = "mapper" | "sightmap";

/** What a capture recorded beyond tags and attributes: what the offline engine may rely on. */
export interface TreeRecorded {
  /** State flags ({@linkcode STATE_PSEUDOS}) are recorded: `:checked` and friends can be answered. */
  states: boolean;
  /** Text nodes are recorded (so `:empty` can be answered). */
  text: boolean;
}

/** A tree file as read: mapper's own, or the other implementation's converted to the same shape. */
export interface CapturedTree {
  /** The file it was read from, as given. */
  file: string;
  /** Who wrote it. */
  format: TreeFormat;
  /** The captured tree (for the other implementation's files: its tree, with empty metadata where it has none). */
  tree: MapperTree;
  /** What it recorded. */
  recorded: TreeRecorded;
}

/** Whether a child entry is an element. */
export function isNode(child: TreeChild): child is TreeNode {
  return typeof child === "object" && "tag" in child;
}

/** Whether a child entry is an open shadow root. */
export function isShadow(child: TreeChild): child is ShadowEntry {
  return typeof child === "object" && "shadow" in child;
}

/** Whether a child entry is a frame document. */
export function isFrame(child: TreeChild): child is FrameEntry {
  return typeof child === "object" && "frame" in child;
}
