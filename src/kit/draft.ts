/**
 * `mapper draft`: a first view for the page, built from what the kit already finds — `suggest`'s proposals
 * (landmarks, repeated structures with a discriminator and the controls inside them, forms and fields, hooks), then
 * one component per cluster of the interactive nodes still not a component themselves (`gap`'s clusters), each with
 * the best exact selector of `candidates.ts`. Proposals whose elements the corpus already claims are left to the
 * corpus; a proposal is nested under the nearest proposal holding all its elements (at most three levels). Every
 * selector is counted live in one call, the claim is run again with the draft added to give the coverage after it,
 * and each interactive node the draft could not give a stable selector is listed with why.
 *
 * Never a positional selector: the linter rejects them, so a node only `:nth-child` would reach is given up on and
 * listed (with that selector, to write by hand when nothing better can be added to the page).
 *
 * @module
 */
import { parseRoute } from "../../assets/extension/resolver.js";
import type { ClaimComponent, OfflineElement } from "../offline/mod.ts";
import { candidatesFor, compoundsOf } from "./candidates.ts";
import { clusterNodes, parentAcross } from "./clusters.ts";
import { describeElement, KitPage, textOf } from "./page.ts";
import {
  discriminator,
  hookName,
  pascal,
  type Proposal,
  proposals,
  roleWord,
  type SuggestProperty,
} from "./suggest.ts";

/** T1/T2/T3 of the visible interactive nodes (the snapshot's `[Coverage]` counts). */
export interface Tiers {
  /** Visible interactive nodes. */
  interactive: number;
  /** A component themselves. */
  t1: number;
  /** Inside a component. */
  t2: number;
  /** Orphaned. */
  t3: number;
}

/** One component of the draft. */
export interface DraftComponent {
  /** Its name (PascalCase, unique on the page and in the corpus). */
  name: string;
  /** The parent component in the draft, `null` at the top of the view. */
  parent: string | null;
  /** What it was proposed as (`suggest`'s kinds, `cluster` for the interactive nodes left). */
  kind: string;
  /** A selector matching exactly its elements on the whole page (every root): what `probe` counts. */
  selector: string;
  /** The selector as written in the file (inside its parent's element; the parent's part left out). */
  written: string;
  /** Elements it is meant for. */
  intended: number;
  /** Live matches of {@linkcode selector} (`null`: the browser refused it). */
  live: number | null;
  /** The live matches are the offline ones. */
  offline: boolean;
  /** Elements the claim gives it with the draft added to the corpus. */
  claimed: number;
  /** Properties (a repeated one's discriminator first). */
  properties: SuggestProperty[];
}

/** An interactive node the draft gave up on. */
export interface GaveUp {
  /** Snapshot id. */
  id: number;
  /** `tag#id.class[hooks]`. */
  element: string;
  /** Role and accessible name. */
  role: string;
  /** Accessible name. */
  name: string;
  /** Why. */
  why: string;
}

/** The `--json` payload of `draft` (besides the CLI's `written`). */
export interface DraftResult {
  /** Tab id. */
  tab: string;
  /** Page URL. */
  url: string;
  /** The view drafted (or extended). */
  view: { name: string; route: string };
  /** The view that serves the URL already (`null`: none). */
  existingView: string | null;
  /**
   * The view this draft adds to (`null`: a new view): the one serving the URL, unless its route is a catch-all
   * (`**`), which swallows structurally different pages; those get a view of their own.
   */
  extends: { name: string; route: string } | null;
  /** The file's text, or with {@linkcode extends} the components to add under that view's `components:`. */
  yaml: string;
  /** Its components, in declaration order. */
  components: DraftComponent[];
  /** Proposals left out because the corpus already claims their elements: `name → corpus component`. */
  known: Array<{ name: string; by: string }>;
  /** Coverage of the visible interactive nodes before and after the draft. */
  coverage: { before: Tiers; after: Tiers };
  /** The visible interactive nodes still not a component themselves, and why. */
  gaveUp: GaveUp[];
  /** Hard checks, each a list of what broke it (empty: ✓). */
  checks: { exact: string[]; distinct: string[] };
}

/** Options of {@linkcode draft}. */
export interface DraftOptions {
  /** The view's name (default: from the page's `h1`, else its title). */
  view?: string | undefined;
  /** The view's route (default: the URL's path, ids and slugs folded to `:id`). */
  route?: string | undefined;
  /** Names the corpus already uses (components and views): never reused. */
  taken?: readonly string[];
}

const MAX_DEPTH = 3;

/** A component being drafted: a proposal of `suggest`'s, or a cluster (`kind: "cluster"`). */
type Part = Omit<Proposal, "kind"> & { kind: string; generic?: boolean };

/** Whether a route is a catch-all: a `**` segment, which swallows structurally different pages. */
export function isCatchAll(route: string): boolean {
  return parseRoute(route).some((s: { kind: string }) => s.kind === "globstar");
}

/** A URL's path with ids folded: digits, UUIDs, hex runs of eight or more, slugs holding a digit → `:id`. */
export function routeOf(url: string): string {
  const path = new URL(url).pathname;
  const folded = path.split("/").map((seg) => {
    if (seg === "") return seg;
    const s = decodeURIComponent(seg);
    const id = /^\d+$/.test(s) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s) ||
      /^[0-9a-f]{8,}$/i.test(s) || (/\d/.test(s) && /^[a-z0-9]+(?:[-_][a-z0-9]+)+$/i.test(s));
    return id ? ":id" : seg;
  });
  return folded.join("/") || "/";
}

/** Counts the visible interactive nodes of a page by tier. */
export function tiersOf(page: KitPage): Tiers {
  const t: Tiers = { interactive: 0, t1: 0, t2: 0, t3: 0 };
  for (const el of page.doc.elements) {
    if (el.node.interactive !== true || el.node.visible !== true) continue;
    t.interactive++;
    const tier = page.ownership(el).tier;
    if (tier === 1) t.t1++;
    else if (tier === 2) t.t2++;
    else t.t3++;
  }
  return t;
}

/** The view's name: the page's first `h1`, else its title, in PascalCase. */
function viewName(page: KitPage): string {
  const h1 = page.doc.elements.find((el) => el.name === "h1" && el.node.visible === true);
  const fromH1 = h1 ? pascal(textOf(h1, 60)) : "";
  return fromH1 || pascal(page.source.tree.title.split(/\s[—|·-]\s/)[0] ?? "") || "Page";
}

/** Builds the draft on a page (one live call counts every selector). */
export async function draft(page: KitPage, opts: DraftOptions = {}): Promise<DraftResult> {
  const before = tiersOf(page);
  const taken = new Set(opts.taken ?? []);
  const unique = (name: string) => {
    const base = name || "Component";
    let n = base;
    for (let i = 2; taken.has(n); i++) n = `${base}${i}`;
    taken.add(n);
    return n;
  };
  // A URL a view serves already (not by a catch-all) gets additions to that view, never a second view.
  const served = page.source.tree.view;
  const extending = served && !isCatchAll(served.route) ? served : null;
  const view = extending ? extending.name : unique(opts.view ?? viewName(page));
  const route = extending ? extending.route : opts.route ?? routeOf(page.url);

  // 1. What suggest proposes, less what the corpus claims already and anything positional.
  const known: Array<{ name: string; by: string }> = [];
  const kept: Part[] = [];
  const renamed = new Map<string, string>();
  const all = proposals(page);
  // A structure repeated inside one instance of a repeated component (a card's list of details) is that
  // instance's alone: as a component it would be one per instance, named by the instance's value. Left out.
  const repeated = all.filter((p) => p.kind === "repeated").map((p) => new Set(p.els));
  const perInstance = (p: Proposal) =>
    p.kind === "repeated" && repeated.some((outer) => {
      const inside = p.els.map((el) => {
        for (let b = parentAcross(el); b !== null; b = parentAcross(b)) if (outer.has(b)) return b;
        return null;
      });
      return inside[0] !== null && inside.every((b) => b === inside[0]);
    });
  for (const p of all) {
    if (/:nth-/.test(p.selector) || perInstance(p)) continue;
    const owners = p.els.map((el) => page.componentOf(el));
    if (owners.every((o) => o !== undefined)) {
      known.push({ name: p.name, by: owners[0]! });
      continue;
    }
    // Partly the corpus's: its selector would take elements the corpus claims first; the rest go to the clusters.
    if (owners.some((o) => o !== undefined)) continue;
    const name = unique(p.name);
    renamed.set(p.name, name);
    kept.push({ ...p, name });
  }
  for (const p of kept) if (p.parent !== null) p.parent = renamed.get(p.parent) ?? null;

  // 2. One component per cluster of the visible interactive nodes that are no component themselves yet.
  const claimedBy = new Set<OfflineElement>();
  for (const p of kept) for (const el of p.els) claimedBy.add(el);
  const rest = page.doc.elements.filter((el) =>
    el.node.interactive === true && el.node.visible === true && !claimedBy.has(el) &&
    page.componentOf(el) === undefined
  );
  const gaveUp: GaveUp[] = [];
  for (const cluster of clusterNodes(rest)) {
    const candidates = candidatesFor(page.doc, cluster.nodes, page.engine, { max: 3 });
    const best = candidates.find((c) => c.exact && !c.positional);
    if (!best) {
      const positional = candidates.find((c) => c.exact);
      for (const el of cluster.nodes) {
        gaveUp.push({
          id: Number(el.node.id),
          element: describeElement(el),
          role: el.node.role,
          name: el.node.name,
          why: positional
            ? `only its position tells it apart (${positional.selector}); give it a hook (data-testid, aria-label)`
            : "no selector matches exactly these elements; give them a hook (data-testid, aria-label)",
        });
      }
      continue;
    }
    const els = cluster.nodes;
    const names = new Set(els.map((e) => e.node.name));
    const word = roleWord(cluster.role);
    const hook = compoundsOf(els[0]!).find((c) => c.kind === "testid" || c.kind === "component");
    const one = names.size === 1 ? pascal([...names][0]!) : "";
    const around = cluster.ancestorHook ? hookName(cluster.ancestorHook) : "";
    // A hook that names nothing (a test id's mere presence) leaves the name to the elements' text and role.
    let name = (hook && hookName(hook.selector)) ||
      (one ? `${one}${word.endsWith(one) ? "" : word}` : `${around}${word}`);
    if (name === one && !name.endsWith(word)) name = `${name}${word}`;
    // A search box named "Search" is a `SearchInput`, not a `SearchSearchInput`.
    if (one !== "" && name === `${one}${word}` && word.startsWith(one)) name = word;
    kept.push({
      kind: "cluster",
      generic: !hook && !one,
      name: unique(name),
      selector: best.selector,
      instances: els.length,
      parent: null,
      properties: [],
      ids: els.map((e) => Number(e.node.id)),
      els,
    });
    for (const el of els) claimedBy.add(el);
  }

  // 3. Properties: a discriminator for every component of several elements (lint asks one of a broad selector).
  // Without one, their text when they have any; never a property that has no value on any of them (an agent would
  // query by it and find nothing).
  const texts = (els: readonly OfflineElement[]) => els.map((el) => textOf(el, 200).trim());
  for (const p of kept) {
    if (p.els.length < 2 || p.properties.length > 0) continue;
    const disc = discriminator(page, p.els);
    const values = disc === null ? texts(p.els) : [];
    const distinct = new Set(values.filter(Boolean)).size;
    if (disc !== null) p.properties = [disc];
    else if (distinct > 0) p.properties = [{ name: "label", extract: "text", distinct, of: p.els.length }];
  }

  // 4. Nesting: under the nearest proposal holding every element, at most three levels deep.
  const order = new Map(page.doc.elements.map((el, i) => [el, i]));
  const byEl = new Map<OfflineElement, Part>();
  for (const p of kept) for (const el of p.els) if (!byEl.has(el)) byEl.set(el, p);
  const byName = new Map(kept.map((p) => [p.name, p]));
  const holder = (p: Part): Part | null => {
    for (let a = parentAcross(p.els[0]!); a !== null; a = parentAcross(a)) {
      const q = byEl.get(a);
      if (q === undefined || q === p) continue;
      const qs = new Set(q.els);
      const all = p.els.every((el) => {
        for (let b = parentAcross(el); b !== null; b = parentAcross(b)) if (qs.has(b)) return true;
        return false;
      });
      if (all) return q;
    }
    return null;
  };
  for (const p of kept) {
    const declared = p.parent !== null ? byName.get(p.parent) : undefined;
    p.parent = (declared ?? holder(p))?.name ?? null;
  }
  // Names a role gave (`LinkItem`) read better from where they are: `MainNav` + `Link`.
  for (const p of kept) {
    const fromRole = p.kind === "repeated" && /^[A-Z][a-z]+Item$/.test(p.name.replace(/\d+$/, ""));
    if (p.parent === null || !(fromRole || p.generic === true)) continue;
    const role = p.els[0]!.node.role;
    taken.delete(p.name);
    const renamedTo = unique(`${p.parent}${roleWord(role)}`);
    byName.delete(p.name);
    for (const k of kept) if (k.parent === p.name) k.parent = renamedTo;
    p.name = renamedTo;
    byName.set(renamedTo, p);
  }
  const depth = (p: Part): number => p.parent === null ? 1 : 1 + depth(byName.get(p.parent)!);
  for (const p of kept) {
    while (depth(p) > MAX_DEPTH) p.parent = byName.get(p.parent!)!.parent;
  }
  // A lone component of a bare tag at the top of the view reads as "every such element": say what tells it apart.
  for (const p of kept) {
    if (p.kind === "landmark" || p.kind === "form") continue;
    if (
      p.parent === null && p.properties.length === 0 && /^[a-z][a-z0-9-]*(\.[\w-]+)*$/.test(p.selector) &&
      texts(p.els).some(Boolean)
    ) {
      p.properties = [{ name: "label", extract: "text", distinct: p.els.length, of: p.els.length }];
    }
  }
  const first = (p: Part) => Math.min(...p.els.map((el) => order.get(el) ?? 0));
  kept.sort((a, b) => first(a) - first(b));

  // 5. Written selectors: a child's own, without its parent's part.
  const written = new Map<Part, string>();
  for (const p of kept) {
    const parent = p.parent === null ? undefined : byName.get(p.parent);
    const prefix = parent ? `${written.get(parent) ?? parent.selector} ` : undefined;
    written.set(p, prefix && p.selector.startsWith(prefix) ? p.selector.slice(prefix.length) : p.selector);
  }
  // Declaration order: depth first, parents before their children, each level in document order.
  const ordered: Part[] = [];
  const visit = (parent: string | null) => {
    for (const p of kept) {
      if (p.parent !== parent) continue;
      ordered.push(p);
      visit(p.name);
    }
  };
  visit(null);

  // 6. The claim again, with the draft after the corpus's components.
  const chain = (p: Part): string[] => p.parent === null ? [] : [...chain(byName.get(p.parent)!), p.parent];
  const added: ClaimComponent[] = ordered.map((p) => ({
    name: p.name,
    selector: p.selector,
    ownSelector: written.get(p)!,
    parentChain: chain(p),
  }));
  const after = new KitPage({ ...page.source, components: [...page.source.components, ...added] }, page.engine);
  const claimedCount = new Map<string, number>();
  for (const el of after.doc.elements) {
    const c = after.componentOf(el);
    if (c !== undefined) claimedCount.set(c, (claimedCount.get(c) ?? 0) + 1);
  }
  for (const el of after.doc.elements) {
    if (el.node.interactive !== true || el.node.visible !== true) continue;
    if (after.ownership(el).tier === 1) continue;
    const id = Number(el.node.id);
    if (gaveUp.some((g) => g.id === id)) continue;
    gaveUp.push({
      id,
      element: describeElement(el),
      role: el.node.role,
      name: el.node.name,
      why: "no component of the draft claims it (another one claims it first, or it was left out)",
    });
  }
  gaveUp.sort((a, b) => a.id - b.id);

  // 7. One live call for every selector.
  const verified = await page.verify(ordered.map((p) => p.selector));
  const components: DraftComponent[] = ordered.map((p) => {
    const v = verified.get(p.selector)!;
    return {
      name: p.name,
      parent: p.parent,
      kind: p.kind,
      selector: p.selector,
      written: written.get(p)!,
      intended: p.els.length,
      live: v.live,
      offline: v.agrees,
      claimed: claimedCount.get(p.name) ?? 0,
      properties: p.properties,
    };
  });
  const exact = components.filter((c) => c.live !== c.intended || !c.offline || c.claimed !== c.intended)
    .map((c) => `${c.name} (${c.selector}): intended ${c.intended}, live ${c.live ?? "✗"}, claimed ${c.claimed}`);
  const distinct = ordered.filter((p) => p.kind === "repeated")
    .filter((p) => p.properties[0] === undefined || p.properties[0].distinct !== p.els.length)
    .map((p) => `${p.name}: no property tells its ${p.els.length} instances apart`);
  const existing = page.view;
  return {
    tab: page.source.tab,
    url: page.url,
    view: { name: view, route },
    existingView: existing,
    extends: extending ? { name: extending.name, route: extending.route } : null,
    yaml: extending ? componentsYaml(components) : draftYaml({ name: view, route, url: page.url }, components),
    components,
    known,
    coverage: { before, after: tiersOf(after) },
    gaveUp,
    checks: { exact, distinct },
  };
}

/** YAML's single-quoted form (readable with a selector's double quotes), JSON's when it holds `'` or controls. */
function q(s: string): string {
  return s.includes("'") || [...s].some((c) => c < " ") ? JSON.stringify(s) : `'${s}'`;
}

/** A word YAML reads as a boolean or null when plain (any reader, 1.1 or 1.2): `Null` is a name, not null. */
const KEYWORD = /^(?:true|false|yes|no|on|off|y|n|null)$/i;

/** A name as written: plain when it reads back as itself (`MainNav`), else quoted (`--view` takes any text). */
function nameText(s: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !KEYWORD.test(s) ? s : q(s);
}

/** The view file: one view, its components nested under their parents. */
export function draftYaml(
  view: { name: string; route: string; url: string },
  components: readonly DraftComponent[],
): string {
  const out = ["version: 1", "", "views:", `  - name: ${nameText(view.name)}`, `    route: ${q(view.route)}`];
  out.push(`    url: ${q(view.url)}`);
  if (components.some((c) => c.parent === null)) {
    out.push("    components:", componentsYaml(components, "      ").trimEnd());
  }
  return out.join("\n") + "\n";
}

/** The top components as a YAML list (at `indent`), each followed by its children. */
export function componentsYaml(components: readonly DraftComponent[], indent = ""): string {
  const out: string[] = [];
  const emit = (c: DraftComponent, indent: string) => {
    out.push(`${indent}- name: ${nameText(c.name)}`, `${indent}  selector: ${q(c.written)}`);
    if (c.properties.length) {
      out.push(`${indent}  properties:`);
      for (const p of c.properties) {
        out.push(`${indent}    - name: ${nameText(p.name)}`, `${indent}      extract: ${q(p.extract)}`);
      }
    }
    const kids = components.filter((k) => k.parent === c.name);
    if (kids.length) {
      out.push(`${indent}  children:`);
      for (const k of kids) emit(k, `${indent}    `);
    }
  };
  for (const c of components) if (c.parent === null) emit(c, indent);
  return out.length ? out.join("\n") + "\n" : "";
}

/** `draft`'s report (the YAML goes to stdout or the file; this to stderr or after it). */
export function formatDraftReport(r: DraftResult, written: string | null): string {
  const pct = (n: number, of: number) => `${of === 0 ? 0 : Math.round((n * 100) / of)}%`;
  const cov = (t: Tiers) =>
    `${t.interactive} interactive · T1 ${t.t1} (${pct(t.t1, t.interactive)}) · T2 ${t.t2} · T3 ${t.t3}${
      t.t3 === 0 ? " ✓" : ""
    }`;
  const probed = r.components.length - r.checks.exact.length;
  const lines = [
    r.extends
      ? `draft: additions to view ${r.extends.name} (${r.extends.route}), which serves ${r.url}`
      : `draft: view ${r.view.name} (${r.view.route}) from ${r.url}${
        r.existingView ? ` (served now only by catch-all view ${r.existingView})` : ""
      }`,
    `  ${r.components.length} components · probed ${probed}/${r.components.length} exact${
      r.known.length ? ` · ${r.known.length} left to the corpus (${r.known.map((k) => k.by).join(", ")})` : ""
    }`,
    `  coverage before: ${cov(r.coverage.before)}`,
    `  coverage after:  ${cov(r.coverage.after)}`,
  ];
  for (const e of [...r.checks.exact, ...r.checks.distinct]) lines.push(`  ✗ ${e}`);
  if (r.gaveUp.length) {
    lines.push(`  gave up on ${r.gaveUp.length} interactive node${r.gaveUp.length === 1 ? "" : "s"}:`);
    for (const g of r.gaveUp.slice(0, 20)) {
      lines.push(`    #${g.id} ${g.role} ${JSON.stringify(g.name)} ${g.element} — ${g.why}`);
    }
    if (r.gaveUp.length > 20) lines.push(`    … ${r.gaveUp.length - 20} more (--json lists them all)`);
  }
  if (written) lines.push(`  wrote ${written}`);
  return lines.join("\n") + "\n";
}
