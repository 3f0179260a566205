// The other implementation's component trees (`component-tree.json`, `*.snap.tree.json`): a node is
// `{id, role, name, value, properties, element: {tag, id, classes, attrs}, bounds, isVisible, isInteractive, …,
// children}`. Converted to mapper's tree shape: the element's `id` and `classes` become the `id` and `class`
// attributes (selectors on `[id^=…]` or `[class*=…]` see them, as the browser would), `isVisible` → `visible`,
// `bounds` → `box`. A node without an element is not a DOM element: a `StaticText` one is a text node, any other
// stands for its children (they take its place). The format has no shadow roots, frames, states or text nodes of
// its own, so those stay unknown to the engine (`recorded` says so).
import type { MapperTree, TreeChild, TreeNode } from "./tree.ts";

type Fail = (path: string, what: string) => never;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a JSON value has the shape of a component node (and not of mapper's own element node). */
export function looksLikeComponentNode(value: unknown): value is Record<string, unknown> {
  if (!isObject(value) || "tag" in value) return false;
  const id = value.id;
  if (typeof id !== "string" && typeof id !== "number") return false;
  return isObject(value.element) || Array.isArray(value.children) || typeof value.isVisible === "boolean";
}

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : JSON.stringify(value) ?? typeof value;
}

const text = (v: unknown, fallback = "") => typeof v === "string" ? v : fallback;
/** A field path below `p` (`p` is `""` for a bare top node). */
const under = (p: string, key: string) => p === "" ? key : `${p}.${key}`;

/**
 * Converts a component tree (its top node `top`, found under `key` of the file: `""`, `tree` or `root`) into
 * mapper's tree; `meta` is the object around it (its `url` and `title`, when it has them, are kept).
 */
export function convertComponentTree(
  top: Record<string, unknown>,
  meta: Record<string, unknown>,
  key: string,
  fail: Fail,
): MapperTree {
  const rootPath = key;
  const converted = convertList([top], rootPath, fail, true);
  const root = converted[0];
  if (converted.length !== 1 || typeof root !== "object" || !("tag" in root)) {
    fail(rootPath, "the top node has no element (tag); a tree must start at an element");
  }
  return {
    schema: 1,
    kind: "mapper-tree",
    mapper: "",
    url: text(meta.url),
    title: text(meta.title),
    view: null,
    capturedAt: text(meta.capturedAt),
    viewport: { width: 0, height: 0, dpr: 1 },
    settled: true,
    coverage: null,
    root,
  };
}

/**
 * Converts sibling nodes, depth first with an explicit stack (a deep tree must not exhaust the call stack): a
 * node without an element hands its children to the list it sits in, at its own place.
 */
function convertList(nodes: unknown[], path: string, fail: Fail, top: boolean): TreeChild[] {
  const out: TreeChild[] = [];
  const stack: Array<{ list: unknown[]; next: number; at: (i: number) => string; into: TreeChild[] }> = [{
    list: nodes,
    next: 0,
    at: (i) => top ? path : under(path, `children[${i}]`),
    into: out,
  }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.list.length) {
      stack.pop();
      continue;
    }
    const i = frame.next++;
    const value = frame.list[i];
    const p = frame.at(i);
    if (!isObject(value)) fail(p, `expected a node, found ${kind(value)}`);
    const id = value.id;
    if (!(typeof id === "string" && id !== "") && !(typeof id === "number" && Number.isSafeInteger(id))) {
      fail(under(p, "id"), `expected an id, found ${kind(id)}`);
    }
    const children = value.children ?? [];
    if (!Array.isArray(children)) fail(under(p, "children"), `expected an array, found ${kind(children)}`);
    const at = (j: number) => under(p, `children[${j}]`);
    const element = value.element;
    if (element === undefined || element === null) {
      if (value.role === "StaticText") frame.into.push(text(value.name));
      else stack.push({ list: children, next: 0, at, into: frame.into });
      continue;
    }
    if (!isObject(element)) fail(under(p, "element"), `expected an object, found ${kind(element)}`);
    const node = convertElement(value, element, p, fail);
    frame.into.push(node);
    if (children.length > 0) stack.push({ list: children, next: 0, at, into: node.children });
  }
  return out;
}

function convertElement(
  value: Record<string, unknown>,
  element: Record<string, unknown>,
  p: string,
  fail: Fail,
): TreeNode {
  const tag = element.tag;
  if (typeof tag !== "string" || tag === "") fail(under(p, "element.tag"), `expected a tag name, found ${kind(tag)}`);
  const attrs: Record<string, string> = {};
  const given = element.attrs ?? {};
  if (!isObject(given)) fail(under(p, "element.attrs"), `expected an object of strings, found ${kind(given)}`);
  for (const name in given) {
    const v = given[name];
    if (typeof v !== "string") {
      fail(under(p, `element.attrs[${JSON.stringify(name)}]`), `expected a string, found ${kind(v)}`);
    }
    attrs[name] = v;
  }
  if (element.id !== undefined && element.id !== "") {
    if (typeof element.id !== "string") fail(under(p, "element.id"), `expected a string, found ${kind(element.id)}`);
    attrs.id ??= element.id;
  }
  const classes = element.classes ?? [];
  if (!Array.isArray(classes) || !classes.every((c) => typeof c === "string")) {
    fail(under(p, "element.classes"), `expected a list of strings, found ${kind(classes)}`);
  }
  if (classes.length > 0) attrs.class ??= classes.join(" ");
  const node: TreeNode = {
    id: value.id as string | number,
    tag,
    attrs,
    role: text(value.role, "generic"),
    name: text(value.name),
    visible: value.isVisible !== false,
    children: [],
  };
  if (value.isInteractive === true) node.interactive = true;
  const b = value.bounds;
  if (isObject(b) && [b.x, b.y, b.width, b.height].every((n) => typeof n === "number" && Number.isFinite(n))) {
    node.box = [b.x as number, b.y as number, b.width as number, b.height as number];
  }
  return node;
}
