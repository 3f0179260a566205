/**
 * The text and JSON layouts of `mapper snapshot` (docs/snapshot.md): `[View: …]` with route and memory, `[Blocked]`,
 * `[Guide]`, the annotated tree, `[Warnings]`, `[Conflicts]`, `[Coverage]`. Pure: formats a
 * {@linkcode SnapshotPayload} the daemon answered.
 *
 * @module
 */
import { escapeControls } from "../terminal.ts";
import type { SeeNode, SnapshotPayload, SnapshotPrint } from "./page_api.ts";
import { jsonText } from "./output.ts";

/** How the tree is cut. */
export interface TreeOptions {
  /** Only interactive nodes and their matched ancestors. */
  interactive?: boolean | undefined;
  /** Deepest level printed (0 = top-level nodes only). */
  depth?: number | undefined;
}

/** Longest value or name printed, in characters. */
const MAX_SHOWN = 80;

function q(v: string): string {
  const cut = v.length > MAX_SHOWN ? `${v.slice(0, MAX_SHOWN - 1)}…` : v;
  return `"${escapeControls(cut.replace(/\\/g, "\\\\").replace(/"/g, '\\"'))}"`;
}

/** Punctuation around a word: anything but a letter or a digit, at either end. */
const EDGES = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
/** The same for ASCII text, whose only letters and digits are these: a class far cheaper to match than `\p{L}`. */
const ASCII_EDGES = /^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g;
const ASCII = /^[^\u0080-\uffff]*$/;

/** The words of `s` without the punctuation around them ("Lovelace," is "Lovelace"); punctuation alone becomes "". */
function wordsOf(s: string): string[] {
  const edges = ASCII.test(s) ? ASCII_EDGES : EDGES;
  return s.split(/\s+/).filter(Boolean).map((w) => w.replace(edges, ""));
}

/**
 * Whether an accessible name says nothing the property values do not: it is one of them, or made only of them
 * (whole words, each value used once, in any order) and punctuation — a grid row named by its cells' text, every
 * cell a property. A name with a word of its own is kept whole.
 */
export function nameCarried(name: string, values: readonly string[]): boolean {
  if (values.includes(name)) return true;
  const words = wordsOf(name);
  const used = words.map((w) => w === "");
  const sorted = values.map((v) => wordsOf(v).filter(Boolean)).filter((w) => w.length > 0)
    .sort((a, b) => b.length - a.length);
  for (const value of sorted) {
    for (let i = 0; i + value.length <= words.length; i++) {
      if (value.every((w, j) => !used[i + j] && words[i + j] === w)) {
        value.forEach((_, j) => (used[i + j] = true));
        break;
      }
    }
  }
  return words.some((w) => w !== "") && used.every(Boolean);
}

/** What a tree line may leave off because something printed elsewhere already says it. */
export interface LineContext {
  /** Property values of the nearest component around the node: a name made only of them is not repeated. */
  around?: readonly string[] | undefined;
  /** The name the `[Guide]` says once for every line of this component: not repeated on the line. */
  guideName?: string | undefined;
}

/**
 * The accessible name a line prints: none when the node's own properties or those of the component around it say it
 * (a card's link named by the card's `name`, a grid row named by its cells), else the name.
 */
function shownName(n: SeeNode, around: readonly string[] = []): string {
  if (!n.name) return "";
  return nameCarried(n.name, [...(n.props ?? []).map(([, v]) => v), ...around]) ? "" : n.name;
}

/**
 * One tree line's content (no id, no indent): `[Component k="v" "name" state…]` or `role "name" state…`. The name is
 * left off when the properties (the node's or, given `ctx.around`, its component's) say it, or the `[Guide]` does.
 */
export function nodeText(n: SeeNode, ctx: LineContext = {}): string {
  const props = [...(n.props ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const values = new Set(props.map(([, v]) => v));
  const bits: string[] = [];
  for (const [k, v] of props) bits.push(`${k}=${q(v)}`);
  const name = shownName(n, ctx.around);
  if (name && name !== ctx.guideName) bits.push(q(name));
  bits.push(...(n.states ?? []));
  if (n.value !== undefined && n.value !== "" && !values.has(n.value)) bits.push(`value=${q(n.value)}`);
  if (n.hidden) bits.push("hidden");
  // Roles come from the page (a `role` attribute): escaped like every other page text.
  if (n.component !== undefined) return `[${[escapeControls(n.component), ...bits].join(" ")}]`;
  return [escapeControls(n.role), ...bits].join(" ");
}

/** Cuts a tree: `--interactive` keeps interactive nodes and their matched ancestors; `--depth` cuts levels. */
export function cutTree(tree: readonly SeeNode[], opts: TreeOptions): SeeNode[] {
  const walk = (nodes: readonly SeeNode[], depth: number): SeeNode[] => {
    const out: SeeNode[] = [];
    for (const n of nodes) {
      const kids = opts.depth !== undefined && depth >= opts.depth ? [] : walk(n.children ?? [], depth + 1);
      if (opts.interactive && !n.interactive && !(n.component !== undefined && kids.length > 0)) {
        out.push(...kids);
        continue;
      }
      const copy: SeeNode = { ...n };
      delete copy.children;
      if (kids.length) copy.children = kids;
      out.push(copy);
    }
    return out;
  };
  return walk(tree, 0);
}

/** A node of the printed tree with its depth and the property values of the component around it. */
interface Placed {
  node: SeeNode;
  depth: number;
  /** Values that may stand for the node's name: empty unless the node is the only one of its kind around them. */
  around: readonly string[];
}

/**
 * The printed tree in line order. A node's name may be left to the properties of the nearest component around it
 * only when it is the only node of its kind (its component, else its role) in that component: a card's one link, a
 * filter's one checkbox. Of two tabs in `[Tabs selected="Settings"]`, neither gives its name up, so which one is
 * "Settings" stays on its line.
 */
function place(tree: readonly SeeNode[]): Placed[] {
  const out: Array<Placed & { scope: number }> = [];
  const kinds = new Map<string, number>();
  const kind = (scope: number, n: SeeNode) => `${scope}\u0000${n.component ?? `role\u0000${n.role}`}`;
  const values: Array<readonly string[]> = [[]];
  const walk = (nodes: readonly SeeNode[], depth: number, scope: number) => {
    for (const node of nodes) {
      out.push({ node, depth, around: values[scope]!, scope });
      kinds.set(kind(scope, node), (kinds.get(kind(scope, node)) ?? 0) + 1);
      let inner = scope;
      if (node.component !== undefined) {
        inner = values.length;
        values.push((node.props ?? []).map(([, v]) => v));
      }
      if (node.children) walk(node.children, depth + 1, inner);
    }
  };
  walk(tree, 0, 0);
  return out.map(({ node, depth, around, scope }) => ({
    node,
    depth,
    around: kinds.get(kind(scope, node)) === 1 ? around : [],
  }));
}

/**
 * The names the `[Guide]` says once: a component printed at least twice whose every line would print the same name
 * (24 "Add to cart" buttons), by component.
 */
function sharedNames(placed: readonly Placed[]): Map<string, string> {
  const seen = new Map<string, { name: string; lines: number }>();
  const mixed = new Set<string>();
  for (const { node, around } of placed) {
    if (node.component === undefined || mixed.has(node.component)) continue;
    const name = shownName(node, around);
    const had = seen.get(node.component);
    if (name === "" || (had && had.name !== name)) {
      mixed.add(node.component);
      seen.delete(node.component);
    } else {
      seen.set(node.component, { name, lines: (had?.lines ?? 0) + 1 });
    }
  }
  return new Map([...seen].filter(([, s]) => s.lines > 1).map(([c, s]) => [c, s.name]));
}

function treeLines(placed: readonly Placed[], names: ReadonlyMap<string, string>): string[] {
  return placed.map(({ node, depth, around }) =>
    `${" ".repeat(depth)}${node.id} ${
      nodeText(node, { around, guideName: node.component === undefined ? undefined : names.get(node.component) })
    }`
  );
}

/**
 * The `[Guide]` lines: only what the tree below does not say. A component is listed with its count when the tree
 * shows fewer of its (visible) instances than the page has (`--depth`, `--interactive`), and with the name every line
 * of it shares, said here once instead of on each line.
 */
function guideLines(counts: Readonly<Record<string, number>>, placed: readonly Placed[], names: Map<string, string>) {
  const shown = new Map<string, number>();
  for (const { node } of placed) {
    if (node.component !== undefined && !node.hidden) shown.set(node.component, (shown.get(node.component) ?? 0) + 1);
  }
  const listed = guide(counts).filter(([c, n]) => names.has(c) || (shown.get(c) ?? 0) < n);
  for (const c of names.keys()) if (counts[c] === undefined) listed.push([c, 0]);
  if (!listed.length) return [];
  const width = Math.max(...listed.map(([c]) => c.length));
  return [
    "",
    "[Guide]",
    ...listed.map(([c, n]) => {
      const name = names.get(c);
      return `${c.padEnd(width)} ${n}${name === undefined ? "" : ` ${q(name)}`}`;
    }),
  ];
}

/** The `[Guide]` counts: most frequent first, ties by name. */
export function guide(counts: Readonly<Record<string, number>>): Array<[string, number]> {
  return Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
}

/** The `[Coverage]` line: the visible interactive elements, and how many of them are in each tier. */
export function coverageLine(c: SnapshotPayload["page"]["coverage"]): string {
  if (c.interactive === 0) return "[Coverage] 0 interactive ∅";
  return `[Coverage] ${c.interactive} interactive: ${c.t1} T1 direct · ${c.t2} T2 scoped · ${c.t3} T3 orphaned ${
    c.t3 === 0 ? "✓" : "✗"
  }`;
}

function head(p: SnapshotPayload): string[] {
  const lines: string[] = [];
  if (p.view) {
    lines.push(`[View: ${p.view.name}]`, `route: ${p.view.route}`);
    if (p.view.memory.length) lines.push("memory:", ...p.view.memory.map((m) => `  - ${escapeControls(m)}`));
  } else if (p.corpus) {
    lines.push(`[No view matched] ${escapeControls(p.url)}`);
  } else {
    lines.push(
      `[No corpus] ${escapeControls(p.url)} — roles and names only; describe the site in .mapper/ to see components`,
    );
  }
  if (!p.settled) {
    lines.push(
      "",
      "[Unsettled] the page was still changing after the wait; run 'mapper snapshot' again if something is missing",
    );
  }
  const b = p.page.blocked;
  if (b) {
    const role = escapeControls(b.role);
    const what = b.component
      ? `${b.component} (${role}${b.name ? ` ${q(b.name)}` : ""})`
      : `${role}${b.name ? ` ${q(b.name)}` : ""}`;
    lines.push("", `[Blocked] ${what} covers the page; accept or dismiss it first (id ${b.id})`);
  }
  return lines;
}

/** A `[Warnings]` line: a component this page shows nothing of (`matched nothing`, or only hidden elements). */
function warning(u: SnapshotPayload["unmatched"][number]): string {
  const what = u.hidden ? `matched only hidden elements (${u.hidden})` : "matched nothing";
  return `${u.name}: ${u.view === null ? "global" : "declared for this view"}, ${what}`;
}

function tail(p: SnapshotPayload): string[] {
  const lines: string[] = [];
  if (p.unmatched.length) {
    // One line per kind, not per component: `matched nothing: A, B; global: C`, `matched only hidden elements: D (3)`.
    const names = (list: SnapshotPayload["unmatched"]) =>
      list.map((u) => `${escapeControls(u.name)}${u.hidden ? ` (${u.hidden})` : ""}`).join(", ");
    const kind = (list: SnapshotPayload["unmatched"]) => {
      const here = list.filter((u) => u.view !== null);
      const global = list.filter((u) => u.view === null);
      return [names(here), global.length ? `global: ${names(global)}` : ""].filter(Boolean).join("; ");
    };
    const nothing = kind(p.unmatched.filter((u) => !u.hidden));
    const hidden = kind(p.unmatched.filter((u) => u.hidden));
    lines.push("", "[Warnings]");
    if (nothing) lines.push(`  matched nothing: ${nothing}`);
    if (hidden) lines.push(`  matched only hidden elements: ${hidden}`);
  }
  const conflicts = [
    ...p.viewConflicts.map((v) => `view ${v} is as specific as ${p.view?.name} for this URL; ${p.view?.name} wins`),
    ...p.page.conflicts,
  ];
  if (conflicts.length) lines.push("", "[Conflicts]", ...conflicts.map((c) => `  ${escapeControls(c)}`));
  lines.push("", coverageLine(p.page.coverage));
  return lines;
}

/** The whole text snapshot. */
export function formatSnapshot(
  p: SnapshotPayload,
  opts: TreeOptions & { coverage?: boolean | undefined } = {},
): string {
  const lines = head(p);
  if (opts.coverage) {
    // A property that extracted nothing is left off its node's line: here it is said, with the extract to fix.
    const empty = p.page.coverage.empty ?? [];
    if (empty.length) {
      lines.push("", "[Empty properties] (visible matches whose extract found nothing)");
      for (const e of empty) {
        lines.push(
          `  ${escapeControls(`${e.component}.${e.property}`)} (empty) on ${e.count} of ${e.of} — ` +
            `extract ${q(e.extract)}`,
        );
      }
    }
    lines.push(...tail(p));
    // Orphans grouped by the selector that would cover them, biggest group first.
    const clusters = new Map<string, Array<{ role: string; name: string }>>();
    for (const o of p.page.coverage.orphans) clusters.set(o.suggestion, [...(clusters.get(o.suggestion) ?? []), o]);
    for (const [sel, list] of [...clusters].sort((a, b) => b[1].length - a[1].length)) {
      const roles = escapeControls([...new Set(list.map((o) => o.role))].join("/"));
      const names = [...new Set(list.map((o) => o.name).filter(Boolean))];
      const shown = names.length === 0
        ? "(no text)"
        : names.slice(0, 3).map(q).join(", ") + (names.length > 3 ? ", …" : "");
      lines.push(`  ${list.length}× ${roles} ${shown} → ${escapeControls(sel)}`);
    }
    return lines.join("\n") + "\n";
  }
  const placed = place(cutTree(p.page.tree.children ?? [], opts));
  const names = sharedNames(placed);
  lines.push(...guideLines(p.page.counts, placed, names));
  lines.push("", "--- component tree ---", ...treeLines(placed, names));
  lines.push(...tail(p));
  return lines.join("\n") + "\n";
}

function nodeJson(n: SeeNode): Record<string, unknown> {
  const out: Record<string, unknown> = { id: n.id, role: n.role, name: n.name };
  if (n.component !== undefined) out.component = n.component;
  if (n.props?.length) out.props = Object.fromEntries(n.props);
  if (n.states?.length) out.states = n.states;
  if (n.value !== undefined) out.value = n.value;
  if (n.interactive) out.interactive = true;
  if (n.hidden) out.hidden = true;
  if (n.bounds) out.bounds = { x: n.bounds[0], y: n.bounds[1], width: n.bounds[2], height: n.bounds[3] };
  out.inViewport = n.inViewport;
  if (n.children?.length) out.children = n.children.map(nodeJson);
  return out;
}

/**
 * The `--json` object (documented field names). `tree` is one node: the page itself (`role: "document"`, `name`:
 * the title, `id`: the document element's), whose `children` are the top-level nodes, cut by `--interactive` and
 * `--depth` as the text tree is.
 */
export function snapshotJson(p: SnapshotPayload, opts: TreeOptions = {}): Record<string, unknown> {
  return {
    schema: 1,
    tab: p.tab,
    url: p.url,
    title: p.title,
    view: p.view ? { name: p.view.name, route: p.view.route, memory: p.view.memory } : null,
    settled: p.settled,
    blocked: p.page.blocked,
    guide: Object.fromEntries(guide(p.page.counts)),
    tree: nodeJson({ ...p.page.tree, children: cutTree(p.page.tree.children ?? [], opts) }),
    coverage: p.page.coverage,
    warnings: p.unmatched.map(warning),
    conflicts: [...p.viewConflicts.map((v) => `view ${v} is as specific as ${p.view?.name}`), ...p.page.conflicts],
  };
}

/**
 * The snapshot exactly as `mapper snapshot` writes it: the text layout, or with `form: "json"` the `--json` document.
 * The daemon answers this (`print` in the request), so a short-lived CLI process never lays out a page itself.
 */
export function printSnapshot(p: SnapshotPayload, print: SnapshotPrint = {}): string {
  const tree = { interactive: print.interactive, depth: print.depth };
  return print.form === "json"
    ? jsonText(snapshotJson(p, tree))
    : formatSnapshot(p, { ...tree, coverage: print.coverage });
}
