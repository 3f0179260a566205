/**
 * A tiny fake DOM for the resolver's unit tests: tags, ids, classes, attributes, text; selectors are compounds
 * (`tag.class#id[attr="v"]`) joined by spaces, in comma lists. An invalid selector throws like `querySelector`.
 *
 * @module
 */
import type { Dom } from "../assets/extension/resolver.js";

/** A fake element. */
export interface Node {
  tag: string;
  attrs: Record<string, string>;
  text: string;
  children: Node[];
  parent: Node | null;
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

function textOf(n: Node): string {
  return n.text + n.children.map(textOf).join("");
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
  if (n.tag === "img" || n.tag === "svg" || n.attrs.alt !== undefined) return "";
  return n.text + n.children.map(textOnlyOf).join("");
}

function htmlOf(n: Node): string {
  const child = (c: Node) => {
    const attrs = Object.entries(c.attrs).map(([k, v]) => ` ${k}="${v}"`).join("");
    return `<${c.tag}${attrs}>${htmlOf(c)}</${c.tag}>`;
  };
  return n.text + n.children.map(child).join("");
}

/** The fake DOM callbacks: `innerText` joins element texts with newlines, `textOnly` skips images, SVG, `[alt]`. */
export const dom: Dom<Node> = {
  closest: (el, sel) => {
    for (let p: Node | null = el; p; p = p.parent) if (matches(p, sel)) return p;
    return null;
  },
  contains: (a, el) => {
    for (let p: Node | null = el; p; p = p.parent) if (p === a) return true;
    return false;
  },
  depth: (el) => (el.parent ? 1 + dom.depth(el.parent) : 0),
  querySelector: (el, sel) => descendants(el).find((d) => matches(d, sel)) ?? null,
  text: textOf,
  attr: (el, name) => el.attrs[name] ?? null,
  innerText: innerTextOf,
  textOnly: textOnlyOf,
  innerHtml: htmlOf,
};
