/**
 * How an element of a captured tree is shown to a person: `li.card[data-sku="2"]` — its tag, `#id`, up to three
 * classes and up to three key attributes (test ids first, then other `data-*`, then what names or types it; else
 * the first ones as written), values shortened, every character from the page escaped so none can act on the terminal.
 *
 * @module
 */
import { escapeControls } from "../terminal.ts";
import type { TreeNode } from "./tree.ts";

const TEST_IDS = ["data-testid", "data-test", "data-test-id", "data-qa", "data-cy", "data-component"];
const NAMING = ["name", "type", "role", "aria-label", "href", "for", "placeholder", "title", "slot"];
const PLAIN = new Set(["id", "class", "style"]);
const MAX_VALUE = 30;
const MAX_CLASSES = 3;
const MAX_ATTRS = 3;
const IDENT = /^-?[_a-zA-Z][_a-zA-Z0-9-]*$/;

function shorten(value: string, max: number): string {
  const chars = [...value];
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join("")}…`;
}

/** The attributes worth showing, in the order shown (at most {@linkcode MAX_ATTRS}). */
export function keyAttributes(node: TreeNode): Array<[string, string]> {
  const names = Object.keys(node.attrs);
  const picked: string[] = [];
  const take = (name: string) => {
    if (picked.length < MAX_ATTRS && !picked.includes(name) && Object.hasOwn(node.attrs, name)) picked.push(name);
  };
  for (const n of TEST_IDS) take(n);
  for (const n of names) if (n.startsWith("data-")) take(n);
  for (const n of NAMING) take(n);
  // Nothing telling: the first attributes as written say more than a bare tag (`UIButton[label="Add to Cart"]`).
  if (picked.length === 0) { for (const n of names) if (!PLAIN.has(n)) take(n); }
  return picked.map((n) => [n, node.attrs[n]!]);
}

/** `tag#id.a.b.c[key="value"]`, terminal-safe. */
export function describeElement(node: TreeNode): string {
  let out = node.tag;
  const id = node.attrs.id;
  if (id !== undefined && id !== "") {
    out += IDENT.test(id) ? `#${id}` : `[id=${JSON.stringify(shorten(id, MAX_VALUE))}]`;
  }
  const classes = (node.attrs.class ?? "").split(/\s+/).filter((c) => c !== "");
  for (const c of classes.slice(0, MAX_CLASSES)) out += IDENT.test(c) ? `.${c}` : `[class~=${JSON.stringify(c)}]`;
  if (classes.length > MAX_CLASSES) out += "…";
  for (const [name, value] of keyAttributes(node)) {
    out += value === "" ? `[${name}]` : `[${name}=${JSON.stringify(shorten(value, MAX_VALUE))}]`;
  }
  return escapeControls(out);
}
