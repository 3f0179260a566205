// Test helpers: captured trees written compactly. `h("ul", {class: "x"}, h("li"), "text")` is an element node;
// `tree(root)` numbers the nodes without an explicit id 1, 2, 3… in document order; `shadow(...)` is an open
// shadow root, `frame(url, html)` a same-origin frame document.
import type { CapturedTree, MapperTree, TreeChild, TreeNode } from "./tree.ts";

/** Options of an element besides its attributes: `ns`, `states`, `visible`, `cut`, `id`. */
export interface NodeExtra {
  ns?: string;
  states?: string[];
  visible?: boolean | "boxless";
  cut?: string[];
  id?: number | string;
  role?: string;
  name?: string;
}

/** An element node. `attrs` may carry `$` for the extra fields. */
export function h(tag: string, attrs: { [name: string]: string | NodeExtra } = {}, ...children: TreeChild[]): TreeNode {
  const { $: given, ...plain } = attrs;
  const extra = (given ?? {}) as NodeExtra;
  const node: TreeNode = {
    id: extra.id ?? UNNUMBERED,
    tag,
    attrs: plain as Record<string, string>,
    role: extra.role ?? "generic",
    name: extra.name ?? "",
    visible: extra.visible ?? true,
    children,
  };
  if (extra.ns !== undefined) node.ns = extra.ns;
  if (extra.states !== undefined) node.states = extra.states;
  if (extra.cut !== undefined) node.cut = extra.cut;
  return node;
}

/** An open shadow root entry. */
export function shadow(...children: TreeChild[]): TreeChild {
  return { shadow: "open", children };
}

/** A same-origin frame document entry. */
export function frame(url: string, html: TreeNode): TreeChild {
  return { frame: "same-origin", url, children: [html] };
}

/** The SVG namespace. */
export const SVG = "http://www.w3.org/2000/svg";

const UNNUMBERED = -1;

/** Numbers the nodes without an explicit id in document order (shadow and frame contents where they sit). */
function number(root: TreeNode): void {
  let next = 1;
  const visit = (child: TreeChild) => {
    if (typeof child === "string") return;
    if ("tag" in child && child.id === UNNUMBERED) child.id = next++;
    child.children.forEach(visit);
  };
  visit(root);
}

/** A captured tree of mapper's format around `root` (see the module comment for ids). */
export function tree(root: TreeNode, url = "https://shop.test/"): CapturedTree {
  number(root);
  const t: MapperTree = {
    schema: 1,
    kind: "mapper-tree",
    mapper: "0.0.0-test",
    url,
    title: "Test",
    view: null,
    capturedAt: "2026-06-07T19:30:00.000Z",
    viewport: { width: 1280, height: 800, dpr: 1 },
    settled: true,
    coverage: null,
    root,
  };
  return { file: "test.snap.tree.json", format: "mapper", tree: t, recorded: { states: true, text: true } };
}
