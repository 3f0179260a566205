/**
 * Node-first `mapper explain --id N | --grep TEXT | --selector CSS`: for each node of the live page, its facts, its
 * tier and owning component, its ranked selector candidates each counted live, and its ancestors' hooks (with their
 * counts and components). `explain NAME` stays the corpus lookup (`src/authoring/explain.ts`).
 *
 * @module
 */
import { PageError } from "../see/page_api.ts";
import type { OfflineElement } from "../offline/mod.ts";
import { candidatesFor, hookOf } from "./candidates.ts";
import { parentAcross } from "./clusters.ts";
import { checkCandidates, type CheckedCandidate } from "./gap.ts";
import { describeElement, type KitPage, textOf, visibility } from "./page.ts";
import { liveElements, type NodeFacts, table } from "./probe.ts";
import { didYouMean } from "../../assets/extension/resolver.js";

/** States nearly every element has: not worth a word. */
const ORDINARY_STATES = new Set(["enabled", "optional", "valid", "read-write"]);

/** Exactly one of these picks the nodes. */
export type ExplainPick = { id: number } | { grep: string } | { selector: string };

/** One node explained. */
export interface ExplainNode extends NodeFacts {
  /** Interactive in the snapshot's sense. */
  interactive: boolean;
  /** 1, 2 or 3. */
  tier: 1 | 2 | 3;
  /** Owning component (itself at T1, nearest owned ancestor at T2). */
  component: string | null;
  /** Owning components, outermost first. */
  chain: string[];
  /** Where it sits: `shadow` / `frame` when inside one. */
  boundary: "shadow" | "frame" | null;
  /** Ranked, live-counted candidates. */
  candidates: CheckedCandidate[];
  /** Up to six ancestors, nearest first, with their best hook and its count. */
  ancestors: Array<
    { id: number; element: string; hook: string | null; count: number | null; component: string | null }
  >;
}

/** The `--json` payload of node-mode `explain`. */
export interface ExplainResult {
  /** Tab id. */
  tab: string;
  /** Page URL. */
  url: string;
  /** View name. */
  view: string | null;
  /** How the nodes were picked. */
  pick: ExplainPick;
  /** Nodes found before `--max`. */
  found: number;
  /** The nodes explained. */
  nodes: ExplainNode[];
  /** When nothing was found by `--grep`: the closest accessible names. */
  closest: string[];
}

function pickNodes(page: KitPage, pick: ExplainPick): Promise<OfflineElement[]> | OfflineElement[] {
  if ("id" in pick) {
    const el = page.byId.get(pick.id);
    if (el === undefined) {
      throw new PageError("stale_id", `id ${pick.id} is not on the page`, {
        hint: "ids die with their element: run 'mapper snapshot' again for current ids",
        status: 404,
      });
    }
    return [el];
  }
  if ("grep" in pick) {
    const want = pick.grep.toLowerCase();
    return page.doc.elements.filter((el) => {
      const n = el.node;
      if (n.name.toLowerCase().includes(want) || n.role.toLowerCase() === want) return true;
      if (Object.values(n.attrs).some((v) => v.toLowerCase().includes(want))) return true;
      // Own text only (not every ancestor's): the node that holds the words.
      return n.children.some((c) => typeof c === "string" && c.toLowerCase().includes(want));
    });
  }
  return liveElements(page, pick.selector).then((r) => r.elements);
}

/** Explains the picked nodes (at most `max`, default 10). */
export async function explainNodes(
  page: KitPage,
  pick: ExplainPick,
  opts: { max?: number } = {},
): Promise<ExplainResult> {
  const all = await pickNodes(page, pick);
  const nodes = all.slice(0, opts.max ?? 10);
  const lists = nodes.map((el) => candidatesFor(page.doc, [el], page.engine, { max: 4 }));
  const checked = await checkCandidates(page, lists);
  const out: ExplainNode[] = nodes.map((el, i) => {
    const own = page.ownership(el);
    const ancestors: ExplainNode["ancestors"] = [];
    for (let p = parentAcross(el); p !== null && ancestors.length < 6; p = parentAcross(p)) {
      if (p.name === "html" || p.name === "body") continue;
      const hook = hookOf(p);
      let count: number | null = null;
      if (hook) {
        try {
          count = page.query(hook.selector).length;
        } catch {
          count = null;
        }
      }
      ancestors.push({
        id: Number(p.node.id),
        element: describeElement(p),
        hook: hook?.selector ?? null,
        count,
        component: page.componentOf(p) ?? null,
      });
    }
    return {
      id: Number(el.node.id),
      element: describeElement(el, { allAttrs: true }),
      role: el.node.role,
      name: el.node.name,
      text: textOf(el),
      visibility: visibility(el),
      interactive: el.node.interactive === true,
      states: el.node.states?.filter((s) => !ORDINARY_STATES.has(s)) ?? [],
      tier: own.tier,
      component: own.component,
      chain: own.chain,
      boundary: el.root.kind === "document" ? null : el.root.kind,
      candidates: checked[i]!,
      ancestors,
    };
  });
  let closest: string[] = [];
  if (all.length === 0 && "grep" in pick) {
    const names = [...new Set(page.doc.elements.map((e) => e.node.name).filter((n) => n !== ""))];
    closest = didYouMean(pick.grep, names, 3).slice(0, 5);
  }
  return {
    tab: page.source.tab,
    url: page.url,
    view: page.view,
    pick,
    found: all.length,
    nodes: out,
    closest,
  };
}

/** Node-mode `explain`'s text. */
export function formatExplain(r: ExplainResult): string {
  const lines: string[] = [];
  if (r.nodes.length === 0) {
    const what = "id" in r.pick ? `id ${r.pick.id}` : "grep" in r.pick ? `"${r.pick.grep}"` : `'${r.pick.selector}'`;
    lines.push(`no node on the page matches ${what}`);
    if (r.closest.length) lines.push(`closest names: ${r.closest.map((n) => JSON.stringify(n)).join(", ")}`);
    return lines.join("\n") + "\n";
  }
  for (const n of r.nodes) {
    const owner = n.tier === 3 ? "T3 (orphan)" : `T${n.tier} ${[...n.chain].reverse().join(" ‹ ")}`;
    lines.push(`${n.id} ${n.element} ${JSON.stringify(n.name || n.text)}   ${owner}`);
    const facts = [
      `role ${n.role}`,
      n.visibility,
      n.interactive ? "interactive" : "",
      ...n.states,
      n.boundary ? `in a ${n.boundary === "shadow" ? "shadow root" : "same-origin frame"}` : "",
    ].filter(Boolean);
    lines.push(`  ${facts.join(" · ")}`);
    if (n.candidates.length) {
      lines.push("  candidates");
      lines.push(
        ...table(n.candidates.map((c) => [
          `  ${c.selector}`,
          c.live === null ? "✗" : `${c.live}${c.verified ? "" : " ✗"}`,
          c.extra === 0 ? "exact" : `+${c.extra} other${c.extra === 1 ? "" : "s"}`,
          c.positional ? "positional" : "",
        ])).map((l) => ` ${l}`),
      );
    } else lines.push("  candidates: none that the engine can count");
    if (n.ancestors.length) {
      lines.push("  ancestors");
      for (const a of n.ancestors) {
        const hook = a.hook ? `{${a.hook} ${a.count ?? "?"}}` : "";
        lines.push(`    ${a.id} ${a.element}  ${hook}${a.component ? `  ${a.component}` : ""}`.trimEnd());
      }
    }
  }
  if (r.found > r.nodes.length) lines.push(`… ${r.found - r.nodes.length} more (--max ${r.found})`);
  return lines.join("\n") + "\n";
}
