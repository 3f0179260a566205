/**
 * `mapper inspect`: the raw DOM tree of the live page for selector authoring — every element with its snapshot id,
 * tag, id, stable classes (a generated one marked `~`), hook attributes (`--attributes`: all), role and name,
 * states, visibility and the component that owns it; open shadow roots and frame documents as their own lines.
 * `--json` is the captured tree itself. The daemon answers the tree and the owners; the text is made here.
 *
 * @module
 */
import { isFrame, isNode, isShadow, type MapperTree, type TreeChild, type TreeNode } from "../offline/mod.ts";
import { PageError } from "../see/page_api.ts";
import { describeNode, type KitPage } from "./page.ts";
import { liveElements } from "./probe.ts";

/** What the daemon answers for `inspect`. */
export interface InspectResult {
  /** Tab id. */
  tab: string;
  /** The captured tree (§ the tree format of `src/offline/tree.ts`). */
  tree: MapperTree;
  /** Snapshot id → component that owns the element itself. */
  owners: Record<string, string>;
  /** With `--id`/`--selector`: the ids whose subtrees are shown. */
  selected: number[] | null;
}

/** Options of the text. */
export interface InspectFormat {
  /** Levels below each shown root (default: all). */
  depth?: number | undefined;
  /** Only interactive elements and their ancestors. */
  interactive?: boolean;
  /** Every attribute, not only hooks. */
  attributes?: boolean;
  /** Hidden elements too. */
  includeHidden?: boolean;
}

/** Runs `inspect`'s daemon side: the tree, its owners, and the selection (`stale_id`, `no_match`). */
export async function inspect(page: KitPage, pick: { id?: number; selector?: string }): Promise<InspectResult> {
  const owners: Record<string, string> = {};
  for (const [el, i] of page.owner) {
    const name = page.source.components[i]?.name;
    if (name !== undefined) owners[String(el.node.id)] = name;
  }
  let selected: number[] | null = null;
  if (pick.id !== undefined) {
    if (!page.byId.has(pick.id)) {
      throw new PageError("stale_id", `id ${pick.id} is not on the page`, {
        hint: "ids die with their element: run 'mapper snapshot' again for current ids",
        status: 404,
      });
    }
    selected = [pick.id];
  } else if (pick.selector !== undefined) {
    const { ids } = await liveElements(page, pick.selector);
    if (ids.length === 0) {
      throw new PageError("no_match", `'${pick.selector}' matches nothing on the page`, {
        hint: "probe it: mapper probe '<selector>'",
        status: 404,
      });
    }
    selected = ids;
  }
  return { tab: page.source.tab, tree: page.source.tree, owners, selected };
}

/** Direct text of a node (its own text children), collapsed, cut at 60. */
function directText(node: TreeNode): string {
  const t = node.children.filter((c): c is string => typeof c === "string").join(" ").replace(/\s+/g, " ").trim();
  return t.length > 60 ? `${t.slice(0, 59)}…` : t;
}

/** `inspect`'s text. */
export function formatInspect(r: InspectResult, opts: InspectFormat = {}): string {
  const lines: string[] = [];
  const wanted = new Set(r.selected ?? []);
  // With --interactive: the interactive elements and everything above them.
  const keep = new Set<TreeNode>();
  const mark = (node: TreeNode, up: TreeNode[]): boolean => {
    let any = node.interactive === true;
    for (const c of node.children) {
      if (isNode(c)) any = mark(c, [...up, node]) || any;
      else if (typeof c !== "string") {
        for (const k of c.children) if (isNode(k)) any = mark(k, [...up, node]) || any;
      }
    }
    if (any) keep.add(node);
    return any;
  };
  if (opts.interactive) mark(r.tree.root, []);
  const line = (node: TreeNode, indent: string) => {
    const owner = r.owners[String(node.id)];
    const text = directText(node);
    const parts = [
      `${node.id} ${describeNode(node, { allAttrs: opts.attributes === true })}`,
      text ? JSON.stringify(text) : "",
      node.role !== "generic" && node.role !== "" ? node.role : "",
      node.name && node.name !== text ? `name=${JSON.stringify(node.name.slice(0, 60))}` : "",
      ...(node.states ?? []).filter((s) => !["enabled", "optional", "valid", "read-write"].includes(s)),
      node.visible === false ? "(hidden)" : node.visible === "boxless" ? "(boxless)" : "",
      owner ? `⟨${owner}⟩` : "",
    ];
    lines.push(indent + parts.filter(Boolean).join("  "));
  };
  const walk = (child: TreeChild, indent: string, depth: number) => {
    if (typeof child === "string") return;
    if (isShadow(child)) {
      lines.push(`${indent}#shadow-root (open)`);
      for (const c of child.children) walk(c, indent + "  ", depth);
      return;
    }
    if (isFrame(child)) {
      lines.push(`${indent}#document ${child.url} (${child.frame})`);
      for (const c of child.children) walk(c, indent + "  ", depth);
      return;
    }
    const node = child;
    if (node.visible === false && !opts.includeHidden) return;
    if (opts.interactive && !keep.has(node)) return;
    const skipSelf = node.tag === "html" || node.tag === "head" || node.tag === "body";
    if (node.tag === "head") return;
    if (!skipSelf) line(node, indent);
    if (opts.depth !== undefined && depth >= opts.depth && !skipSelf) {
      if (node.children.some((c) => typeof c !== "string")) lines.push(`${indent}  …`);
      return;
    }
    for (const c of node.children) walk(c, skipSelf ? indent : indent + "  ", skipSelf ? depth : depth + 1);
  };
  if (r.selected === null) walk(r.tree.root, "", 0);
  else {
    const find = (child: TreeChild) => {
      if (typeof child === "string") return;
      if (isNode(child) && wanted.has(Number(child.id))) {
        walk(child, "", 0);
        return;
      }
      for (const c of child.children) find(c);
    };
    find(r.tree.root);
  }
  return lines.join("\n") + "\n";
}
