/**
 * Query resolution over one collected page (`page.js` `collect`): match → select, with the two errors agents
 * need — zero matches naming what is there (the same component's values, or the closest component names and
 * where the corpus declares a name), and several matches listing each candidate with what tells them apart.
 * Pure: the engine feeds it the page it just collected, so looking and acting happen on the same extraction.
 *
 * @module
 */
import type { SeeCollect, SeeComponent, SeeNode } from "../page/page.js";
import { formatPart, type QueryPart, type Target, testPredicate } from "./query.ts";
import { PageError, type ResolvedSummary } from "../page_api.ts";
import { escapeControls } from "../../terminal.ts";
import { nameCarried } from "../snapshot.ts";

/** A matched node with its matched ancestors (outermost first). */
export interface MatchedNode {
  /** The matched node. */
  node: SeeNode;
  /** Its ancestors. */
  ancestors: SeeNode[];
}

/** A tree as collected (one root node) or a list of top-level nodes. */
export type Tree = SeeNode | readonly SeeNode[];

function topNodes(tree: Tree): readonly SeeNode[] {
  return Array.isArray(tree) ? tree : [tree as SeeNode];
}

/** Every matched (component) node of a tree in document order, with its matched ancestors. */
export function matchedNodes(tree: Tree): MatchedNode[] {
  const out: MatchedNode[] = [];
  const walk = (nodes: readonly SeeNode[], above: SeeNode[]) => {
    for (const n of nodes) {
      if (n.component !== undefined) out.push({ node: n, ancestors: above });
      if (n.children) walk(n.children, n.component !== undefined ? [...above, n] : above);
    }
  };
  walk(topNodes(tree), []);
  return out;
}

/** Finds a node by id anywhere in a tree. */
export function findNode(tree: Tree, id: number): { node: SeeNode; ancestors: SeeNode[] } | undefined {
  const walk = (nodes: readonly SeeNode[], above: SeeNode[]): { node: SeeNode; ancestors: SeeNode[] } | undefined => {
    for (const n of nodes) {
      if (n.id === id) return { node: n, ancestors: above };
      if (n.children) {
        const hit = walk(n.children, n.component !== undefined ? [...above, n] : above);
        if (hit) return hit;
      }
    }
    return undefined;
  };
  return walk(topNodes(tree), []);
}

function partMatches(part: QueryPart, n: SeeNode): boolean {
  if (n.component !== part.name) return false;
  const props = new Map(n.props ?? []);
  return part.predicates.every((p) => testPredicate(p, props.get(p.prop)));
}

/** Whether a matched node satisfies a whole query (last part on the node, earlier parts on ancestors in order). */
export function queryMatches(parts: readonly QueryPart[], m: MatchedNode): boolean {
  const last = parts[parts.length - 1];
  if (!last || !partMatches(last, m.node)) return false;
  let a = 0;
  for (const part of parts.slice(0, -1)) {
    while (a < m.ancestors.length && !partMatches(part, m.ancestors[a]!)) a++;
    if (a === m.ancestors.length) return false;
    a++;
  }
  return true;
}

/** Levenshtein distance, case-insensitive (names differ mostly by a letter or by case). */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[y.length]!;
}

/**
 * A page value in a message. Escaped like the snapshot's values: these messages keep their own newlines (a candidate
 * list is several lines), so a newline or escape sequence from the page must not reach them as one.
 */
function quote(v: string, max = 50): string {
  const cut = v.length > max ? `${v.slice(0, max - 1)}…` : v;
  return `"${escapeControls(cut.replace(/\\/g, "\\\\").replace(/"/g, '\\"'))}"`;
}

/** `Name k="v" …` with only the given property names (all when `keys` is undefined). */
function describeNode(n: SeeNode, keys?: ReadonlySet<string>): string {
  const props = (n.props ?? []).filter(([k]) => keys === undefined || keys.has(k));
  return [n.component ?? n.role, ...props.map(([k, v]) => `${k}=${quote(v)}`)].join(" ");
}

/** Candidates as lines that tell them apart: `#0  id=452  ProductCard name="…" › AddToCartButton disabled`. */
export function candidateLines(cands: readonly MatchedNode[], max = 12): string[] {
  // Keep the properties whose values differ between candidates (or that some lack); when none differ, show all.
  const varying = new Set<string>();
  const seen = new Map<string, string[]>();
  cands.forEach((c) => {
    const own = new Map<string, string>();
    for (const n of [...c.ancestors, c.node]) {
      for (const [k, v] of n.props ?? []) own.set(`${n.component}.${k}`, v);
    }
    for (const key of new Set([...seen.keys(), ...own.keys()])) {
      const list = seen.get(key) ?? [];
      list.push(own.get(key) ?? "\u0000");
      seen.set(key, list);
    }
  });
  for (const [key, list] of seen) {
    if (list.length < cands.length || new Set(list).size > 1) varying.add(key);
  }
  const lines = cands.slice(0, max).map((c, i) => {
    const chain = [...c.ancestors, c.node].map((n) => {
      const keys = new Set(
        (n.props ?? []).map(([k]) => k).filter((k) => varying.size === 0 || varying.has(`${n.component}.${k}`)),
      );
      return describeNode(n, keys);
    }).join(" › ");
    const extra = [
      c.node.name && !nameCarried(c.node.name, (c.node.props ?? []).map(([, v]) => v)) ? quote(c.node.name) : "",
      ...(c.node.states ?? []),
      c.node.hidden ? "hidden" : "",
    ].filter(Boolean).join(" ");
    return `#${i}  id=${c.node.id}  ${chain}${extra ? ` ${extra}` : ""}`;
  });
  if (cands.length > max) lines.push(`… and ${cands.length - max} more (add [prop=value] or #N)`);
  return lines;
}

/** The outcome of resolving a target on one collected page. */
export interface Resolved {
  /** The resolved node. */
  node: SeeNode;
  /** Its ancestors. */
  ancestors: SeeNode[];
}

/** Where the corpus declares each component name (`null` = global), for "exists only in another view". */
export type Declared = ReadonlyMap<string, ReadonlyArray<string | null>>;

/** The page's view and active components, so a no-match error says what is true of this page. */
export interface Here {
  /** The view the page resolves to (`null`: none). */
  view: string | null;
  /** The components looked for on it (globals, then the view's). */
  components: readonly SeeComponent[];
}

/**
 * Resolves a target on a collected page, or throws a {@linkcode PageError}: `no_match` (naming what is there),
 * `ambiguous` (listing candidates), `index_out_of_range`, `stale_id`.
 */
export function resolveTarget(
  page: SeeCollect,
  target: Target,
  declared: Declared = new Map(),
  here?: Here,
): Resolved {
  if (target.kind === "id") {
    const hit = findNode(page.tree, target.id);
    if (!hit) {
      throw new PageError("stale_id", `id ${target.id} is no longer on the page`, {
        hint: "run 'mapper snapshot' again or use a component query",
        status: 404,
      });
    }
    return hit;
  }
  const all = matchedNodes(page.tree);
  const cands = all.filter((m) => queryMatches(target.parts, m));
  if (target.index !== undefined) {
    const pick = cands[target.index];
    if (!pick) {
      throw new PageError(
        "index_out_of_range",
        `query '${target.text}': #${target.index} is past the end; ${cands.length} element${
          cands.length === 1 ? "" : "s"
        } matched`,
        { hint: cands.length ? `use #0 to #${cands.length - 1}` : "run 'mapper snapshot' to see what is there" },
      );
    }
    return pick;
  }
  if (cands.length === 1) return cands[0]!;
  if (cands.length > 1) {
    throw new PageError(
      "ambiguous",
      `query '${target.text}' matched ${cands.length} elements:\n${
        candidateLines(cands).map((l) => `  ${l}`).join("\n")
      }`,
      { hint: "add [prop=value] from the list, a parent ('Parent Child'), or #N" },
    );
  }
  throw new PageError(
    "no_match",
    `query '${target.text}' matched nothing; ${whyNoMatch(page, target.parts, declared, here)}`,
    {
      hint: "run 'mapper snapshot' to see the page through the map",
    },
  );
}

/**
 * Why a query matches nothing on a collected page, naming what is there: the same component's values, the parent
 * it was looked for in, the closest component names, where the corpus declares the name. Also what `wait-for
 * --component` says when it times out.
 */
export function whyNoMatch(page: SeeCollect, parts: readonly QueryPart[], declared: Declared, here?: Here): string {
  const all = matchedNodes(page.tree);
  const last = parts[parts.length - 1]!;
  const same = all.filter((m) => m.node.component === last.name);
  if (same.length > 0) {
    const count = `${last.name} is on the page ${same.length} time${same.length === 1 ? "" : "s"}`;
    const failing = last.predicates.find((p) =>
      !same.some((m) => partMatches({ name: last.name, predicates: [p] }, m.node))
    );
    if (failing) {
      const values = [
        ...new Set(same.map((m) => new Map(m.node.props ?? []).get(failing.prop)).filter((v) => v !== undefined)),
      ]
        .sort();
      const shown = values.slice(0, 8).map((v) => quote(v!)).join(", ");
      const more = values.length > 8 ? `, … (${values.length} in all)` : "";
      return values.length
        ? `${count}; ${failing.prop} values: ${shown}${more}`
        : `${count}, none with a ${failing.prop} property (${
          [...new Set(same.flatMap((m) => (m.node.props ?? []).map(([k]) => k)))].join(", ") || "no properties"
        })`;
    }
    if (parts.length > 1) {
      const within = same.map((m) => m.ancestors.map((a) => a.component).join(" ") || "(top level)");
      return `${count}, but not inside ${parts.slice(0, -1).map(formatPart).join(" ")} (inside: ${
        [...new Set(within)].slice(0, 5).join("; ")
      })`;
    }
    return `${count}, but no single one satisfies all of ${formatPart(last)}`;
  }
  const present = [...new Set(all.map((m) => m.node.component!))];
  const close = present.map((n) => ({ n, d: editDistance(n, last.name) }))
    .filter((x) =>
      x.d <= Math.max(3, Math.ceil(last.name.length / 2.5)) || x.n.toLowerCase().includes(last.name.toLowerCase())
    )
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n)).slice(0, 5).map((x) => x.n);
  const suggestion = close.length ? `; did you mean ${close.join(", ")}?` : "";
  const listing = present.length
    ? `; on the page: ${present.sort().slice(0, 12).join(", ")}${present.length > 12 ? ", …" : ""}`
    : "; no component is on the page";
  return `${corpusNote(page, last.name, declared, here)}${suggestion}${close.length ? "" : listing}`;
}

/** What the corpus says of a component the page does not show: not declared, declared elsewhere, or looked for here. */
function corpusNote(page: SeeCollect, name: string, declared: Declared, here?: Here): string {
  const where = declared.get(name);
  if (where === undefined) return `${name} is not in the corpus`;
  const declaredIn = where.map((v) => (v === null ? "globally" : `in view ${v}`)).join(", ");
  const active = here?.components.find((c) => c.name === name);
  if (here === undefined) return `${name} is declared ${declaredIn} but not on this page`;
  if (active === undefined) {
    return `${name} is declared ${declaredIn}, not ${
      here.view === null ? "for this page (it matches no view)" : `in this page's view ${here.view}`
    }`;
  }
  const scope = active.view === null ? "declared globally" : `declared in view ${active.view}`;
  const parent = [...active.parentChain].reverse().find((p) => here.components.some((c) => c.name === p));
  if (parent === undefined) return `${name} (${scope}) matched nothing on this page`;
  const n = page.matched[parent] ?? 0;
  if (n === 0) return `${name} (${scope}) matched nothing on this page, nor did its parent ${parent}`;
  return `${name} (${scope}) matched nothing on this page: its parent ${parent} is on it ${n} time${
    n === 1 ? "" : "s"
  }, but none holds an element matching ${quote(active.ownSelector ?? active.selector, 80)}`;
}

/** The API summary of a resolved node. */
export function summarize(r: Resolved): ResolvedSummary {
  return {
    id: r.node.id,
    component: r.node.component ?? null,
    props: r.node.props ?? [],
    ancestors: r.ancestors.map((a) => ({ component: a.component ?? a.role, props: a.props ?? [] })),
    role: r.node.role,
    name: r.node.name,
    states: r.node.states ?? [],
    hidden: r.node.hidden === true,
  };
}
