/**
 * `mapper gap`: the orphaned interactive nodes (T3: visible, interactive, no component owns them or an ancestor),
 * grouped into clusters (`clusters.ts`), each with up to three ranked selector candidates (`candidates.ts`) counted
 * on the tree and then counted again on the live page in one call, so every printed count is what the browser
 * finds. `--scope COMPONENT`: the T2 nodes inside that component that no component claims themselves.
 *
 * @module
 */
import { PageError } from "../see/page_api.ts";
import type { OfflineElement } from "../offline/mod.ts";
import { didYouMean } from "../../assets/extension/resolver.js";
import { type Candidate, candidatesFor } from "./candidates.ts";
import { clusterNodes } from "./clusters.ts";
import { describeElement, type KitPage } from "./page.ts";

/** A counted, live-verified candidate. */
export interface CheckedCandidate {
  /** The selector. */
  selector: string;
  /** Members of the cluster it matches. */
  covers: number;
  /** Other elements it matches. */
  extra: number;
  /** Live matches (`null`: the browser refused it). */
  live: number | null;
  /** The live matches are the offline ones. */
  verified: boolean;
  /** Rests on `:nth-child`: nothing stable was exact. */
  positional: boolean;
}

/** One cluster as `gap` reports it. */
export interface GapCluster {
  /** Members. */
  count: number;
  /** Their role. */
  role: string;
  /** Their accessible names (up to 5). */
  names: string[];
  /** The nearest hooked ancestor: id, element, hook, its owner; `null` when none. */
  ancestor: { id: number; element: string; hook: string; owner: string | null } | null;
  /** `shadow` / `frame` when the members are inside one. */
  boundary: "shadow" | "frame" | null;
  /** Member ids. */
  nodes: number[];
  /** Up to three candidates, exact ones first. */
  candidates: CheckedCandidate[];
}

/** The `--json` payload of `gap`. */
export interface GapResult {
  /** Tab id. */
  tab: string;
  /** Page URL. */
  url: string;
  /** View name. */
  view: string | null;
  /** `--scope`. */
  scope: string | null;
  /** Orphans found. */
  orphans: number;
  /** Visible interactive nodes on the page. */
  interactive: number;
  /** Whether only global components claim anything (a map with no view of this page). */
  onlyGlobals: boolean;
  /** The clusters, largest first. */
  clusters: GapCluster[];
}

/** Options of {@linkcode gap}. */
export interface GapOptions {
  /** A component: report its unclaimed interactive descendants (T2) instead of the page's orphans. */
  scope?: string | undefined;
  /** Hidden interactive nodes too. */
  includeHidden?: boolean;
  /** At most this many clusters (default 20). */
  maxClusters?: number;
  /** The components that are global (to tell "only globals claim anything"). */
  globals?: ReadonlySet<string>;
}

/** Counts candidates live and attaches the result. */
export async function checkCandidates(
  page: KitPage,
  lists: readonly (readonly Candidate[])[],
): Promise<CheckedCandidate[][]> {
  const verified = await page.verify(lists.flat().map((c) => c.selector));
  return lists.map((list) =>
    list.map((c) => {
      const v = verified.get(c.selector)!;
      return {
        selector: c.selector,
        covers: c.covers,
        extra: c.extra,
        live: v.live,
        verified: v.agrees,
        positional: c.positional,
      };
    })
  );
}

/** Runs `gap` on a page. Throws `unknown_component` (with did-you-mean) for a `--scope` the map does not have. */
export async function gap(page: KitPage, opts: GapOptions = {}): Promise<GapResult> {
  const includeHidden = opts.includeHidden === true;
  let nodes: OfflineElement[];
  if (opts.scope !== undefined) {
    const names = page.source.components.map((c) => c.name);
    if (!names.includes(opts.scope)) {
      const close = didYouMean(opts.scope, names);
      throw new PageError("unknown_component", `no component "${opts.scope}" is active on this page`, {
        hint: close.length ? `did you mean ${close.join(", ")}?` : "run 'mapper snapshot' to see the components here",
      });
    }
    const hosts = page.doc.elements.filter((el) => page.componentOf(el) === opts.scope);
    if (hosts.length === 0) {
      throw new PageError("absent_component", `component "${opts.scope}" is declared but matches nothing here`, {
        hint: `probe its selector: mapper probe '<selector of ${opts.scope}>'`,
      });
    }
    nodes = page.doc.elements.filter((el) => {
      if (el.node.interactive !== true || (!includeHidden && el.node.visible !== true)) return false;
      const own = page.ownership(el);
      return own.tier === 2 && own.component === opts.scope;
    });
  } else {
    nodes = page.orphans(includeHidden);
  }
  const interactive = page.doc.elements.filter((el) => el.node.interactive === true && el.node.visible === true);
  const clusters = clusterNodes(nodes).sort((a, b) => b.nodes.length - a.nodes.length)
    .slice(0, opts.maxClusters ?? 20);
  const lists = clusters.map((c) => candidatesFor(page.doc, c.nodes, page.engine));
  const checked = await checkCandidates(page, lists);
  const claimedNames = new Set([...page.owner.values()].map((i) => page.source.components[i]?.name));
  return {
    tab: page.source.tab,
    url: page.url,
    view: page.view,
    scope: opts.scope ?? null,
    orphans: nodes.length,
    interactive: interactive.length,
    onlyGlobals: opts.globals !== undefined && claimedNames.size > 0 &&
      [...claimedNames].every((n) => n !== undefined && opts.globals!.has(n)),
    clusters: clusters.map((c, i) => ({
      count: c.nodes.length,
      role: c.role,
      names: [...new Set(c.nodes.map((n) => n.node.name).filter((n) => n !== ""))].slice(0, 5),
      ancestor: c.ancestor === null ? null : {
        id: Number(c.ancestor.node.id),
        element: describeElement(c.ancestor),
        hook: c.ancestorHook!,
        owner: page.ownership(c.ancestor).component,
      },
      boundary: c.boundary,
      nodes: c.nodes.map((n) => Number(n.node.id)),
      candidates: checked[i]!,
    })),
  };
}

/** One candidate's line: `→ footer a   covers 2/2 · live 2 ✓`. */
export function candidateLine(c: CheckedCandidate, of: number): string {
  const live = c.live === null ? "live ✗ (the browser refuses it)" : `live ${c.live} ${c.verified ? "✓" : "✗"}`;
  const extra = c.extra > 0 ? ` +${c.extra} other${c.extra === 1 ? "" : "s"}` : "";
  const pos = c.positional ? " · positional: breaks when siblings change" : "";
  return `${c.selector}   covers ${c.covers}/${of}${extra} · ${live}${pos}`;
}

/** `gap`'s text. */
export function formatGap(r: GapResult): string {
  const where = `${r.view ?? "no view"} (${r.url})`;
  if (r.orphans === 0) {
    const what = r.scope
      ? `every interactive node in ${r.scope} is claimed`
      : "every visible interactive node is claimed";
    const warn = r.onlyGlobals ? "\n⚠ only global components claim anything here: give this page a view" : "";
    return `[Gap] ${where}\n✓ ${what}${warn}\n`;
  }
  const lines = [
    `[Gap] ${where} — ${r.orphans} ${
      r.scope ? `unclaimed interactive nodes in ${r.scope}` : "orphaned interactive nodes"
    } in ${r.clusters.length} cluster${r.clusters.length === 1 ? "" : "s"}`,
  ];
  for (const c of r.clusters) {
    const names = c.names.map((n) => JSON.stringify(n.length > 30 ? `${n.slice(0, 29)}…` : n)).join(", ");
    const inside = c.ancestor
      ? ` in ${c.ancestor.hook}${
        c.boundary ? ` (${c.boundary === "shadow" ? "shadow root" : "same-origin frame"})` : ""
      }${c.ancestor.owner ? ` ‹ ${c.ancestor.owner}` : ""}`
      : "";
    lines.push(
      `  ${c.count}× ${c.role} ${names}${inside}   ids ${c.nodes.slice(0, 8).join(" ")}${
        c.nodes.length > 8 ? " …" : ""
      }`,
    );
    if (c.candidates.length === 0) lines.push("     (no candidate: nothing the engine can count tells them apart)");
    for (const cand of c.candidates) lines.push(`     → ${candidateLine(cand, c.count)}`);
  }
  return lines.join("\n") + "\n";
}
