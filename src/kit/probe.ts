/**
 * `mapper probe SELECTOR`: what a selector matches on the live page — counted live (one `querySelectorAll` per
 * root) and by the offline engine on the tree of the same pass, which must agree — and for each match its snapshot
 * id, element, role, name, text, visibility, states and owner. Zero matches come with near-miss hints (the scope
 * part matches but nothing inside it; the leaf sits in a shadow root the selector cannot cross).
 *
 * @module
 */
import { PageError } from "../see/page_api.ts";
import type { OfflineElement } from "../offline/mod.ts";
import { describeElement, type KitPage, sameIds, textOf, visibility } from "./page.ts";

/** What the kit says of any node: the facts `probe` and `explain` both print. */
export interface NodeFacts {
  /** Snapshot id. */
  id: number;
  /** `tag#id.class[key="value"]`. */
  element: string;
  /** ARIA role. */
  role: string;
  /** Accessible name. */
  name: string;
  /** Text, cut at 80 characters. */
  text: string;
  /** `visible`, `hidden` or `boxless`. */
  visibility: string;
  /** Recorded states (`disabled`, `checked`, …), the ordinary ones (`enabled`, `valid`, …) left out. */
  states: string[];
}

/** One match as `probe` reports it. */
export interface ProbeMatch extends NodeFacts {
  /** `T1 Name`, `T2 Name` (nearest claimed ancestor) or `T3`. */
  owner: string;
  /** Owning components, outermost first. */
  chain: string[];
}

/** The `--json` payload of `probe` (and what the daemon answers). */
export interface ProbeResult {
  /** The selector as given. */
  selector: string;
  /** Tab id. */
  tab: string;
  /** Page URL. */
  url: string;
  /** View name, `null` when none. */
  view: string | null;
  /** Live matches, every root. */
  live: number;
  /** The offline engine's count on the tree of the same pass; `null` when it cannot answer (why: `offlineNote`). */
  offline: number | null;
  /** Why the offline engine cannot answer. */
  offlineNote?: string;
  /** Live and offline found the same elements. */
  agrees: boolean;
  /** Live ids (when they disagree, to compare). */
  liveIds?: number[];
  /** Offline ids (when they disagree). */
  offlineIds?: number[];
  /** Matches by the component that owns each itself (`null`: unclaimed). */
  claimed: Array<{ component: string | null; count: number }>;
  /** Visible matches. */
  visible: number;
  /** The first `max` matches. */
  matches: ProbeMatch[];
  /** Near-miss hints when nothing matched. */
  hints: string[];
}

/** A match, described. */
export function probeMatch(page: KitPage, el: OfflineElement): ProbeMatch {
  const own = page.ownership(el);
  return {
    id: Number(el.node.id),
    element: describeElement(el),
    role: el.node.role,
    name: el.node.name.slice(0, 80),
    text: textOf(el),
    visibility: visibility(el),
    states: el.node.states?.filter((s) => !["enabled", "optional", "valid"].includes(s)) ?? [],
    owner: own.tier === 3 ? "T3" : `T${own.tier} ${own.component}`,
    chain: own.chain,
  };
}

/**
 * Probes `selector` on the page. Throws {@linkcode PageError} `bad_selector` (400) when the browser refuses it.
 */
export async function probe(page: KitPage, selector: string, opts: { max?: number } = {}): Promise<ProbeResult> {
  const { ids: liveIds, elements } = await liveElements(page, selector);
  let offline: readonly OfflineElement[] | null = null;
  let offlineNote: string | undefined;
  try {
    offline = page.query(selector);
  } catch (err: unknown) {
    offlineNote = err instanceof Error ? err.message : String(err);
  }
  const offlineIds = offline?.map((e) => Number(e.node.id)) ?? null;
  const agrees = offlineIds !== null && sameIds(liveIds, offlineIds);
  const claimed = new Map<string | null, number>();
  for (const el of elements) {
    const c = page.componentOf(el) ?? null;
    claimed.set(c, (claimed.get(c) ?? 0) + 1);
  }
  const result: ProbeResult = {
    selector,
    tab: page.source.tab,
    url: page.url,
    view: page.view,
    live: liveIds.length,
    offline: offlineIds?.length ?? null,
    agrees,
    claimed: [...claimed].map(([component, count]) => ({ component, count })),
    visible: elements.filter((e) => e.node.visible === true).length,
    matches: elements.slice(0, opts.max ?? 10).map((el) => probeMatch(page, el)),
    hints: liveIds.length === 0 ? await nearMisses(page, selector) : [],
  };
  if (offlineNote !== undefined) result.offlineNote = offlineNote;
  if (!agrees && offlineIds !== null) {
    result.liveIds = liveIds;
    result.offlineIds = offlineIds;
  }
  return result;
}

/**
 * The live matches of a selector (ids, and their tree elements: the live ones, so a disagreement with the offline
 * engine never hides what the browser found). Throws `bad_selector` (400) when the browser refuses it, with the
 * parser's position when it has one.
 */
export async function liveElements(
  page: KitPage,
  selector: string,
): Promise<{ ids: number[]; elements: OfflineElement[] }> {
  if (selector.trim() === "") throw badSelector("the selector is empty");
  const [answer] = await page.source.live([selector]);
  if (answer === undefined || "error" in answer) {
    let where = "";
    try {
      page.engine.compile(selector);
    } catch (err: unknown) {
      const pos = (err as { position?: number }).position;
      if (typeof pos === "number") where = ` (position ${pos}: ${err instanceof Error ? err.message : ""})`;
    }
    throw badSelector(`the browser rejects the selector ${JSON.stringify(selector)}${where}`);
  }
  const elements = answer.ids.map((id) => page.byId.get(id)).filter((e): e is OfflineElement => e !== undefined);
  return { ids: answer.ids, elements };
}

function badSelector(message: string): PageError {
  return new PageError("bad_selector", message, {
    hint: "fix the CSS (quote attribute values, close brackets) and probe it again",
    status: 400,
  });
}

/** Splits a selector at its last top-level descendant or child combinator: `[scope, leaf]`, or `null`. */
export function splitLeaf(selector: string): [string, string] | null {
  let depth = 0;
  let quote = "";
  let cut = -1;
  let leafStart = -1;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "\\") i++;
    else if (c === "[" || c === "(") depth++;
    else if (c === "]" || c === ")") depth--;
    else if (c === ",") return null;
    else if (depth === 0 && (c === " " || c === ">" || c === "+" || c === "~")) {
      if (cut === -1 || leafStart !== -1) cut = i;
      leafStart = -1;
      continue;
    }
    if (cut !== -1 && leafStart === -1 && !/[\s>+~]/.test(c)) leafStart = i;
  }
  if (cut === -1 || leafStart === -1) return null;
  return [selector.slice(0, cut).trim(), selector.slice(leafStart).trim()];
}

/** Why a selector may have found nothing: its scope matched but nothing inside, or the leaf is behind a boundary. */
async function nearMisses(page: KitPage, selector: string): Promise<string[]> {
  const parts = splitLeaf(selector);
  if (parts === null) return [];
  const [scope, leaf] = parts;
  const [s, l] = await page.source.live([scope, leaf]);
  if (!s || !l || "error" in s || "error" in l) return [];
  const hints: string[] = [];
  hints.push(`'${scope}' matches ${s.ids.length}, '${leaf}' matches ${l.ids.length}, none inside`);
  const leaves = l.ids.map((id) => page.byId.get(id)).filter((e): e is OfflineElement => e !== undefined);
  const scopes = new Set(s.ids.map((id) => page.byId.get(id)));
  const behind = leaves.filter((el) => {
    for (let r = el.root; r.host !== null; r = r.host.root) if (scopes.has(r.host)) return true;
    return false;
  });
  if (behind.length > 0) {
    const kind = behind[0]!.root.kind === "frame" ? "a frame's document" : "a shadow root";
    hints.push(
      `${behind.length} '${leaf}' ${behind.length === 1 ? "is" : "are"} in ${kind} of '${scope}'; selectors do not ` +
        `cross it — '${leaf}' alone (live ${l.ids.length})`,
    );
  }
  return hints;
}

/** `probe`'s text. */
export function formatProbe(r: ProbeResult): string {
  const lines: string[] = [];
  lines.push(`${r.selector} — ${r.view ? `view ${r.view}` : "no view"} (${r.url}) — tab ${r.tab.slice(0, 8)}`);
  const offline = r.offline === null
    ? `offline ? (${r.offlineNote ?? "cannot answer"})`
    : `offline ${r.offline} ${r.agrees ? "✓" : "✗ (a mapper bug: please report it)"}`;
  const claimed = r.claimed.map((c) => c.component === null ? `${c.count} unclaimed` : `${c.count} by ${c.component}`);
  lines.push(
    `live ${r.live} (${r.visible} visible) · ${offline}${claimed.length ? ` · claimed ${claimed.join(", ")}` : ""}`,
  );
  if (!r.agrees && r.liveIds && r.offlineIds) {
    lines.push(`  live ids ${r.liveIds.join(" ")}`, `  offline ids ${r.offlineIds.join(" ")}`);
  }
  if (r.matches.length > 0) {
    const rows = r.matches.map((m, i) => [
      String(i + 1),
      String(m.id),
      m.element,
      m.role,
      JSON.stringify(m.name || m.text),
      [m.visibility === "visible" ? "" : m.visibility, ...m.states].filter(Boolean).join(" "),
      m.owner,
    ]);
    lines.push(...table([["#", "id", "element", "role", "name / text", "state", "owner"], ...rows]));
    if (r.live > r.matches.length) lines.push(`… ${r.live - r.matches.length} more (--max ${r.live})`);
  }
  for (const h of r.hints) lines.push(`hint: ${h}`);
  return lines.join("\n") + "\n";
}

/** Rows as aligned columns (one space of margin, two between). */
export function table(rows: readonly string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, [...c].length)));
  return rows.map((row) =>
    " " + row.map((c, i) => i === row.length - 1 ? c : c.padEnd(widths[i]!)).join("  ").trimEnd()
  );
}
