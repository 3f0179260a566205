/**
 * A tiny fake DOM for the resolver's unit tests: tags, ids, classes, attributes, text, open shadow roots; selectors
 * are compounds (`tag.class#id[attr="v"]`) joined by spaces, in comma lists, matched within one tree (document or
 * shadow root) as browsers do. An invalid selector throws like `querySelector`.
 *
 * @module
 */
import { type ClaimDom, type Dom, nodeText, type TextNode } from "../assets/extension/resolver.js";

/** A fake element, or a shadow root (`tag` `#shadow-root`, `host` set). */
export interface Node {
  tag: string;
  attrs: Record<string, string>;
  text: string;
  children: Node[];
  parent: Node | null;
  /** Its open shadow root. */
  shadow?: Node;
  /** A shadow root's host. */
  host?: Node;
}

const SHADOW = "#shadow-root";

/** Gives `host` an open shadow root holding `children`; returns the shadow root. */
export function attachShadow(host: Node, ...children: Node[]): Node {
  const root = h(SHADOW, {}, ...children);
  root.host = host;
  host.shadow = root;
  return root;
}

/** Builds a fake element; strings become its own text. */
export function h(tag: string, attrs: Record<string, string> = {}, ...children: Array<Node | string>): Node {
  const node: Node = { tag, attrs, text: "", children: [], parent: null };
  for (const c of children) {
    if (typeof c === "string") node.text += c;
    else {
      c.parent = node;
      node.children.push(c);
    }
  }
  return node;
}

/** The fake element as the DOM-node shape the resolver's {@linkcode nodeText} reads (own text first). */
function asTextNode(n: Node): TextNode & { node: Node } {
  const text: TextNode = { nodeType: 3, nodeName: "#text", nodeValue: n.text, childNodes: [] };
  return { node: n, nodeType: 1, nodeName: n.tag, nodeValue: null, childNodes: [text, ...n.children.map(asTextNode)] };
}

/** `text`: the resolver's one implementation, on the fake tree. */
function textOf(n: Node): string {
  return nodeText(asTextNode(n));
}

function matchesCompound(n: Node, compound: string): boolean {
  const m = /^([a-z0-9-]*|\*)((?:[.#][\w-]+|\[[\w-]+(?:="[^"]*")?\])*)$/i.exec(compound);
  if (!m) throw new SyntaxError(`invalid selector "${compound}"`);
  if (m[1] && m[1] !== "*" && m[1] !== n.tag) return false;
  for (const part of m[2]!.match(/[.#][\w-]+|\[[^\]]+\]/g) ?? []) {
    if (part.startsWith(".") && !(n.attrs.class ?? "").split(" ").includes(part.slice(1))) return false;
    if (part.startsWith("#") && n.attrs.id !== part.slice(1)) return false;
    if (part.startsWith("[")) {
      const [, name, value] = /^\[([\w-]+)(?:="([^"]*)")?\]$/.exec(part)!;
      if (n.attrs[name!] === undefined || (value !== undefined && n.attrs[name!] !== value)) return false;
    }
  }
  return true;
}

function matchesChain(n: Node, compounds: string[]): boolean {
  const last = compounds[compounds.length - 1];
  if (last === undefined) return true;
  if (!matchesCompound(n, last)) return false;
  const rest = compounds.slice(0, -1);
  if (rest.length === 0) return true;
  for (let p = n.parent; p; p = p.parent) if (matchesChain(p, rest)) return true;
  return false;
}

function matches(n: Node, selector: string): boolean {
  return selector.split(",").some((s) => matchesChain(n, s.trim().split(/\s+/)));
}

function descendants(n: Node): Node[] {
  return n.children.flatMap((c) => [c, ...descendants(c)]);
}

function innerTextOf(n: Node): string {
  return [n.text, ...n.children.map(innerTextOf)].filter((t) => t !== "").join("\n");
}

function textOnlyOf(n: Node): string {
  return nodeText(asTextNode(n), (e) => {
    const el = (e as TextNode & { node: Node }).node;
    return el.tag === "img" || el.tag === "svg" || el.attrs.alt !== undefined;
  });
}

function htmlOf(n: Node): string {
  const child = (c: Node) => {
    const attrs = Object.entries(c.attrs).map(([k, v]) => ` ${k}="${v}"`).join("");
    return `<${c.tag}${attrs}>${htmlOf(c)}</${c.tag}>`;
  };
  return n.text + n.children.map(child).join("");
}

/** Every root under (and including) `root`: itself, then each shadow root in tree order, nested ones too. */
function rootsOf(root: Node): Node[] {
  const out = [root];
  for (const d of descendants(root)) if (d.shadow) out.push(...rootsOf(d.shadow));
  return out;
}

/** The first match strictly inside `el`: its light tree, then its own and its descendants' shadow roots. */
function deepQuery(el: Node, sel: string): Node | null {
  const light = descendants(el).find((d) => matches(d, sel));
  if (light) return light;
  for (const host of [el, ...descendants(el)]) {
    const inner = host.shadow ? deepQuery(host.shadow, sel) : null;
    if (inner) return inner;
  }
  return null;
}

/** The fake DOM callbacks: `innerText` joins element texts with newlines, `textOnly` skips images, SVG, `[alt]`. */
export const dom: Dom<Node> = {
  querySelector: deepQuery,
  text: textOf,
  attr: (el, name) => el.attrs[name] ?? null,
  innerText: innerTextOf,
  textOnly: textOnlyOf,
  innerHtml: htmlOf,
};

/** The fake document under `doc` as the resolver's claim reads it (plus the extraction callbacks). */
export function claimDom(doc: Node): ClaimDom<Node, Node> & Dom<Node> {
  return {
    ...dom,
    roots: () => rootsOf(doc),
    queryAll: (root, sel) => descendants(root).filter((d) => matches(d, sel)),
    parent: (el) => (el.parent?.tag === SHADOW ? el.parent.host ?? null : el.parent),
  };
}
