/**
 * The text and JSON layouts of `mapper snapshot` (docs/snapshot.md): `[View: …]` with route and memory, `[Blocked]`,
 * `[Guide]`, the annotated tree, `[Warnings]`, `[Conflicts]`, `[Coverage]`. Pure: formats a
 * {@linkcode SnapshotPayload} the daemon answered.
 *
 * @module
 */
import { escapeControls } from "../terminal.ts";
import type { SeeNode, SnapshotPayload } from "./api.ts";

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
  return `"${escapeControls(cut.replace(/\\/g, "\\\\").replace(/"/g, '\\"'), { bidi: true })}"`;
}

/**
 * Whether an accessible name says nothing the property values do not: it is one of them, or made only of them
 * (whole words, each value used once, in any order) and punctuation — a grid row named by its cells' text, every
 * cell a property. A name with a word of its own is kept whole.
 */
export function nameCarried(name: string, values: readonly string[]): boolean {
  if (values.includes(name)) return true;
  // Words without the punctuation around them ("Lovelace," is "Lovelace"); punctuation alone becomes "".
  const wordsOf = (s: string) =>
    s.split(/\s+/).filter(Boolean).map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""));
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

/** One tree line's content (no id, no indent): `[Component k="v" "name" state…]` or `role "name" state…`. */
export function nodeText(n: SeeNode): string {
  const props = [...(n.props ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const values = new Set(props.map(([, v]) => v));
  const bits: string[] = [];
  for (const [k, v] of props) bits.push(`${k}=${q(v)}`);
  if (n.name && !nameCarried(n.name, [...values])) bits.push(q(n.name));
  bits.push(...(n.states ?? []));
  if (n.value !== undefined && n.value !== "" && !values.has(n.value)) bits.push(`value=${q(n.value)}`);
  if (n.hidden) bits.push("hidden");
  // Roles come from the page (a `role` attribute): escaped like every other page text.
  if (n.component !== undefined) return `[${[escapeControls(n.component, { bidi: true }), ...bits].join(" ")}]`;
  return [escapeControls(n.role, { bidi: true }), ...bits].join(" ");
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

function treeLines(tree: readonly SeeNode[]): string[] {
  const lines: string[] = [];
  const walk = (nodes: readonly SeeNode[], depth: number) => {
    for (const n of nodes) {
      lines.push(`${"  ".repeat(depth)}${n.id} ${nodeText(n)}`);
      if (n.children) walk(n.children, depth + 1);
    }
  };
  walk(tree, 0);
  return lines;
}

/** The `[Guide]` counts: most frequent first, ties by name. */
export function guide(counts: Readonly<Record<string, number>>): Array<[string, number]> {
  return Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
}

function pct(n: number, of: number): string {
  return `${of === 0 ? 0 : Math.round((n * 100) / of)}%`;
}

/** The `[Coverage]` line. */
export function coverageLine(c: SnapshotPayload["page"]["coverage"]): string {
  if (c.interactive === 0) return "0 interactive ∅";
  return `${c.interactive} interactive · ${c.t1} direct T1 (${pct(c.t1, c.interactive)}) · ${c.t2} scoped T2 (${
    pct(c.t2, c.interactive)
  }) · ${c.t3} orphaned T3 ${c.t3 === 0 ? "✓" : "✗"}`;
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
    const what = b.component
      ? `${b.component} (${b.role}${b.name ? ` ${q(b.name)}` : ""})`
      : `${b.role}${b.name ? ` ${q(b.name)}` : ""}`;
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
    lines.push("", "[Warnings]");
    for (const u of p.unmatched) lines.push(`  ${warning(u)}`);
  }
  const conflicts = [
    ...p.viewConflicts.map((v) => `view ${v} is as specific as ${p.view?.name} for this URL; ${p.view?.name} wins`),
    ...p.page.conflicts,
  ];
  if (conflicts.length) lines.push("", "[Conflicts]", ...conflicts.map((c) => `  ${c}`));
  lines.push("", "[Coverage] (visible only)", coverageLine(p.page.coverage));
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
          `  ${escapeControls(`${e.component}.${e.property}`, { bidi: true })} (empty) on ${e.count} of ${e.of} — ` +
            `extract ${q(e.extract)}`,
        );
      }
    }
    lines.push(...tail(p));
    // Orphans grouped by the selector that would cover them, biggest group first.
    const clusters = new Map<string, Array<{ role: string; name: string }>>();
    for (const o of p.page.coverage.orphans) clusters.set(o.suggestion, [...(clusters.get(o.suggestion) ?? []), o]);
    for (const [sel, list] of [...clusters].sort((a, b) => b[1].length - a[1].length)) {
      const roles = escapeControls([...new Set(list.map((o) => o.role))].join("/"), { bidi: true });
      const names = [...new Set(list.map((o) => o.name).filter(Boolean))];
      const shown = names.length === 0
        ? "(no text)"
        : names.slice(0, 3).map(q).join(", ") + (names.length > 3 ? ", …" : "");
      lines.push(`  ${list.length}× ${roles} ${shown} → ${escapeControls(sel)}`);
    }
    return lines.join("\n") + "\n";
  }
  const g = guide(p.page.counts);
  if (g.length) {
    const width = Math.max(...g.map(([n]) => n.length));
    lines.push("", "[Guide]", ...g.map(([n, c]) => `${n.padEnd(width)}  ${String(c).padStart(3)}`));
  }
  lines.push("", "--- component tree ---", ...treeLines(cutTree(p.page.tree.children ?? [], opts)));
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
