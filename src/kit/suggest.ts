/**
 * `mapper suggest`: candidate components for the page — landmarks, hooks (test ids, `data-component`, custom
 * elements), forms and their named fields, repeated structures (the same shape three or more times under one
 * parent: cards, rows, list items) with a per-instance discriminator, and the identical controls inside repeated
 * ones. Each with a proposed name and a selector from `candidates.ts`, counted on the tree and again live (one call
 * for all), and `--yaml` prints them ready to paste under `components:`.
 *
 * @module
 */
import type { OfflineElement } from "../offline/mod.ts";
import { candidatesFor, compoundsOf, TEST_IDS } from "./candidates.ts";
import { leafShape, parentAcross } from "./clusters.ts";
import type { KitPage } from "./page.ts";
import { textOf } from "./page.ts";

/** The kinds of candidate. */
export type SuggestKind = "landmark" | "hook" | "form" | "field" | "repeated" | "control";

/** What `--kind` takes. */
export type SuggestKindGroup = "hooks" | "landmarks" | "repeated" | "controls";

/** The kinds each `--kind` value keeps. */
export const KIND_GROUPS: Record<SuggestKindGroup, readonly SuggestKind[]> = {
  hooks: ["hook"],
  landmarks: ["landmark"],
  repeated: ["repeated"],
  controls: ["control", "form", "field"],
};

/** A property proposed for a component: its extract form and how many distinct values it gives. */
export interface SuggestProperty {
  /** Property name. */
  name: string;
  /** Extract form (`attr=data-sku`, `h3`, `text`). */
  extract: string;
  /** Distinct non-empty values over the instances. */
  distinct: number;
  /** Instances. */
  of: number;
}

/** One candidate component. */
export interface Suggestion {
  /** What kind of structure it is. */
  kind: SuggestKind;
  /** Proposed name (PascalCase, unique on the page). */
  name: string;
  /** The selector. */
  selector: string;
  /** Elements it is meant for. */
  instances: number;
  /** Live matches (`null`: the browser refused it). */
  count: number | null;
  /** Live matches are the offline ones, and exactly the instances. */
  verified: boolean;
  /** The suggestion it belongs inside (a control's repeated container, a field's form), else `null`. */
  parent: string | null;
  /** With `--group`: the nearest claimed ancestor's component. */
  group?: string | null;
  /** Per-instance properties (for repeated ones: the discriminator first). */
  properties: SuggestProperty[];
  /** Every instance is already claimed by a component. */
  known: boolean;
  /** Instance ids. */
  ids: number[];
}

/** The `--json` payload of `suggest`. */
export interface SuggestResult {
  /** Tab id. */
  tab: string;
  /** Page URL. */
  url: string;
  /** View name. */
  view: string | null;
  /** Candidates dropped by `--exclude-known`. */
  excluded: number;
  /** The candidates. */
  candidates: Suggestion[];
}

/** Options of {@linkcode suggest}. */
export interface SuggestOptions {
  /** Drop candidates whose instances are all claimed. */
  excludeKnown?: boolean;
  /** Give each candidate its nearest claimed ancestor's component. */
  group?: boolean;
  /** At most this many (default 20). */
  max?: number;
  /** Only candidates with at least this many instances (default 1). */
  minCount?: number;
  /** Only this group of kinds (`--kind`). */
  kind?: SuggestKindGroup | undefined;
  /** Hidden elements too. */
  includeHidden?: boolean;
}

const LANDMARK_NAMES: Record<string, string> = {
  banner: "SiteHeader",
  navigation: "MainNav",
  main: "MainContent",
  complementary: "Sidebar",
  contentinfo: "SiteFooter",
  search: "SiteSearch",
  dialog: "Dialog",
};
const INLINE = new Set([
  "span",
  "b",
  "i",
  "em",
  "strong",
  "small",
  "br",
  "img",
  "svg",
  "path",
  "option",
  "source",
  "script",
]);

/** `product-card_title` → `ProductCardTitle`; `""` when nothing is left. */
export function pascal(text: string): string {
  return text.replace(/([a-z])([A-Z])/g, "$1 $2").split(/[^A-Za-z0-9]+/).filter(Boolean).slice(0, 4)
    .map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase()).join("").replace(/^\d+/, "");
}

/** The value of an extract form on each element, offline (what the resolver would give on the live page). */
function extractOffline(els: readonly OfflineElement[], extract: string, page: KitPage): string[] {
  if (extract === "text") return els.map((el) => textOf(el, 200));
  if (extract.startsWith("attr=")) return els.map((el) => el.attrs[extract.slice(5)] ?? "");
  // A CSS selector: the first match inside each element (document order: the first one seen going up wins).
  const wanted = new Set(els);
  const first = new Map<OfflineElement, OfflineElement>();
  try {
    for (const d of page.engine.query(page.doc, extract).all) {
      for (let p = d.parent; p !== null; p = p.parent) if (wanted.has(p) && !first.has(p)) first.set(p, d);
    }
  } catch {
    return els.map(() => "");
  }
  return els.map((el) => {
    const d = first.get(el);
    return d ? textOf(d, 200) : "";
  });
}

/** The first extract form whose values are non-empty and distinct over all instances, and a name for it. */
export function discriminator(page: KitPage, instances: readonly OfflineElement[]): SuggestProperty | null {
  const first = instances[0]!;
  const forms: Array<[string, string]> = [];
  // Data attributes first, test ids last among them (a test id names the test's hook, not the thing).
  const data = Object.keys(first.attrs).filter((a) => a.startsWith("data-") && !/^data-v-/.test(a));
  const testIds = data.filter((a) => /^data-(testid|test-id|test|qa|cy)$/.test(a));
  for (const attr of [...data.filter((a) => !testIds.includes(a)), ...testIds]) {
    forms.push([pascalLower(attr.slice(5)), `attr=${attr}`]);
  }
  if (first.name === "a") forms.push(["href", "attr=href"]);
  forms.push(["label", "attr=aria-label"]);
  // A form control's own name, placeholder or tooltip, before text it does not have.
  for (const attr of ["name", "placeholder", "title"]) forms.push([attr, `attr=${attr}`]);
  for (const h of ["h1", "h2", "h3", "h4", "h5", "h6", "a", "[class*=title]", "[class*=name]"]) forms.push(["name", h]);
  forms.push(["text", "text"]);
  for (const [name, extract] of forms) {
    const values = extractOffline(instances, extract, page).map((v) => v.trim());
    if (values.some((v) => v === "")) continue;
    const distinct = new Set(values).size;
    if (distinct === instances.length) return { name, extract, distinct, of: instances.length };
  }
  return null;
}

function pascalLower(s: string): string {
  const p = pascal(s);
  return p ? p[0]!.toLowerCase() + p.slice(1) : s;
}

/** A candidate before it is counted live: its elements on the tree. */
export type Proposal = Omit<Suggestion, "count" | "verified" | "known"> & { els: OfflineElement[] };

/**
 * The candidate components of a page, on its tree (nothing counted live yet): landmarks, repeated structures and
 * the controls inside them, forms and their fields, hooks — each with the best exact selector of `candidates.ts`.
 * `suggest` lists them; `draft` builds a view from them.
 */
export function proposals(page: KitPage, opts: { includeHidden?: boolean } = {}): Proposal[] {
  const shown = (el: OfflineElement) => opts.includeHidden === true || el.node.visible !== false;
  const elements = page.doc.elements.filter(shown);
  type Draft = Proposal;
  const drafts: Draft[] = [];
  const names = new Set<string>();
  const unique = (name: string) => {
    let n = name || "Component";
    for (let i = 2; names.has(n); i++) n = `${name}${i}`;
    names.add(n);
    return n;
  };
  const add = (
    kind: SuggestKind,
    name: string,
    els: OfflineElement[],
    parent: string | null,
    props: SuggestProperty[],
  ) => {
    const [best] = candidatesFor(page.doc, els, page.engine, { max: 1 });
    if (!best || !best.exact) return null;
    const draft: Draft = {
      kind,
      name: unique(name),
      selector: best.selector,
      instances: els.length,
      parent,
      properties: props,
      ids: els.map((e) => Number(e.node.id)),
      els,
    };
    drafts.push(draft);
    return draft;
  };
  const taken = new Set<OfflineElement>();

  // Landmarks.
  for (const el of elements) {
    const base = LANDMARK_NAMES[el.node.role];
    if (base === undefined) continue;
    const label = el.attrs["aria-label"];
    const name = el.node.role === "navigation" && label
      ? `${pascal(label)}Nav`
      : el.node.role === "dialog" && el.node.name
      ? `${pascal(el.node.name)}Dialog`
      : base;
    if (add("landmark", name, [el], null, [])) taken.add(el);
  }

  // Repeated structures: siblings of one structure (tag, role, type, data hooks), three or more, with content. Their
  // classes may differ (a grid's `row-odd`/`row-even`, a list's `active` item): one component when a selector takes
  // them all and a property tells them apart, else one per class shape, as before.
  const groups = new Map<string, OfflineElement[]>();
  for (const el of elements) {
    if (INLINE.has(el.name) || el.parent === null) continue;
    const key = `${parentKey(el)}\u0000${leafShape(el, { classes: false })}`;
    const list = groups.get(key) ?? [];
    list.push(el);
    groups.set(key, list);
  }
  const repeatable = (list: readonly OfflineElement[]) =>
    list.length >= 3 && list.every((el) => el.children.length > 0 && textOf(el, 20) !== "") && similar(list);
  const repeatedSets: OfflineElement[][] = [];
  for (const list of groups.values()) {
    const byClass = new Map<string, OfflineElement[]>();
    for (const el of list) {
      const shape = leafShape(el);
      const same = byClass.get(shape);
      if (same) same.push(el);
      else byClass.set(shape, [el]);
    }
    if (byClass.size > 1 && repeatable(list) && discriminator(page, list) !== null) {
      const [best] = candidatesFor(page.doc, list, page.engine, { max: 1 });
      if (best?.exact) {
        repeatedSets.push(list);
        continue;
      }
    }
    repeatedSets.push(...byClass.values());
  }
  for (const list of repeatedSets) {
    if (!repeatable(list)) continue;
    const base = nameOf(list);
    const disc = discriminator(page, list);
    const draft = add("repeated", base, list, null, disc ? [disc] : []);
    if (!draft) continue;
    list.forEach((el) => taken.add(el));
    // Controls: an interactive shape present once in every instance.
    const byShape = new Map<string, OfflineElement[]>();
    for (const inst of list) {
      const seen = new Map<string, OfflineElement[]>();
      for (const d of descendants(inst)) {
        if (d.node.interactive !== true) continue;
        const s = `${d.node.role}\u0000${leafShape(d)}`;
        seen.set(s, [...(seen.get(s) ?? []), d]);
      }
      for (const [s, els] of seen) if (els.length === 1) byShape.set(s, [...(byShape.get(s) ?? []), els[0]!]);
    }
    for (const els of byShape.values()) {
      if (els.length !== list.length) continue;
      const names = new Set(els.map((e) => e.node.name));
      const role = els[0]!.node.role;
      const label = names.size === 1 ? pascal([...names][0]!) : "";
      add("control", `${label || draft.name}${pascal(role)}`, els, draft.name, []);
      els.forEach((e) => taken.add(e));
    }
  }

  // Forms and their named fields.
  for (const form of elements.filter((el) => el.name === "form")) {
    const label = form.attrs["aria-label"] ?? form.attrs["name"] ?? form.attrs["id"] ?? "";
    // A search landmark is already proposed: its fields go under it.
    const draft = taken.has(form)
      ? drafts.find((d) => d.els.length === 1 && d.els[0] === form)
      : add("form", `${pascal(label)}Form`, [form], null, []);
    if (!draft) continue;
    taken.add(form);
    for (const field of descendants(form)) {
      if (!/^(input|select|textarea)$/.test(field.name) || field.attrs["type"] === "hidden" || !shown(field)) continue;
      const what = field.node.name || field.attrs["name"] || field.attrs["placeholder"] || "";
      if (!what) continue;
      if (add("field", `${pascal(what)}Field`, [field], draft.name, [])) taken.add(field);
    }
  }

  // Hooks: test ids, data-component, custom elements not already proposed.
  for (const el of elements) {
    if (taken.has(el)) continue;
    const hook = compoundsOf(el).find((c) => c.kind === "testid" || c.kind === "component" || c.kind === "custom");
    if (!hook) continue;
    const name = hookName(hook.selector) || `${pascal(el.node.name)}${roleWord(el.node.role)}`;
    if (add("hook", name, [el], null, [])) taken.add(el);
  }
  return drafts;
}

/** Runs `suggest` on a page. */
export async function suggest(page: KitPage, opts: SuggestOptions = {}): Promise<SuggestResult> {
  type Draft = Proposal;
  const drafts = proposals(page, { includeHidden: opts.includeHidden === true });
  // Filters, then one live call for everything kept.
  let list = drafts.filter((d) => d.instances >= (opts.minCount ?? 1));
  if (opts.kind) list = list.filter((d) => KIND_GROUPS[opts.kind!].includes(d.kind));
  const known = (d: Draft) => d.els.every((el) => page.componentOf(el) !== undefined);
  const before = list.length;
  if (opts.excludeKnown) list = list.filter((d) => !known(d));
  const excluded = before - list.length;
  list = list.slice(0, opts.max ?? 20);
  const verified = await page.verify(list.map((d) => d.selector));
  return {
    tab: page.source.tab,
    url: page.url,
    view: page.view,
    excluded,
    candidates: list.map(({ els, ...d }) => {
      const v = verified.get(d.selector)!;
      const s: Suggestion = {
        ...d,
        count: v.live,
        verified: v.agrees && v.live === d.instances,
        known: known({ ...d, els }),
      };
      if (opts.group) {
        let g: string | null = null;
        for (let p = parentAcross(els[0]!); p !== null && g === null; p = parentAcross(p)) {
          g = page.componentOf(p) ?? null;
        }
        s.group = g;
      }
      return s;
    }),
  };
}

/** A name for repeated elements: from a test id, component, custom tag, class or id they share, else their role. */
function nameOf(list: readonly OfflineElement[]): string {
  const el = list[0]!;
  const shared = (selector: string) => list.every((e) => compoundsOf(e).some((c) => c.selector === selector));
  const named = compoundsOf(el).find((c) =>
    ["testid", "component", "custom", "class", "id"].includes(c.kind) && shared(c.selector)
  );
  // A test id on each, all different (`fruit-apple`, `fruit-pear`): the words they start with name them.
  const presence = named && PRESENCE.exec(named.selector)?.[1];
  const name = named ? hookName(named.selector) || pascal(sharedLead(list.map((e) => e.attrs[presence!] ?? ""))) : "";
  if (name) return name;
  const word = el.node.role === "generic" ? pascal(el.name) : roleWord(el.node.role);
  return word.endsWith("Item") ? word : `${word}Item`;
}

/**
 * The leading words all `values` share while each keeps a word of its own (`fruit-apple`, `fruit-pear` → `fruit`),
 * or `""`.
 */
export function sharedLead(values: readonly string[]): string {
  const words = values.map((v) => v.split(/[^A-Za-z0-9]+/).filter(Boolean));
  const lead: string[] = [];
  for (let i = 0; words.length > 0; i++) {
    const w = words[0]![i];
    if (w === undefined || words.some((ws) => ws[i] !== w || ws.length === i + 1)) break;
    lead.push(w);
  }
  return lead.join("-");
}

function parentKey(el: OfflineElement): string {
  return el.parent ? `${el.parent.node.id}` : `root:${el.root.host?.node.id ?? "doc"}`;
}

/** The elements inside `el` (light DOM, then its open shadow root's), depth first. */
function descendants(el: OfflineElement): OfflineElement[] {
  const out: OfflineElement[] = [];
  const stack: OfflineElement[] = [el];
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (e !== el) out.push(e);
    for (let i = e.children.length - 1; i >= 0; i--) {
      const c = e.children[i]!;
      if (c.kind === "element") stack.push(c);
    }
  }
  return out;
}

/** Whether instances have similar subtrees: the same child tags for most of them. */
function similar(list: readonly OfflineElement[]): boolean {
  const sig = (el: OfflineElement) =>
    el.children.filter((c) => c.kind === "element").map((c) => (c as OfflineElement).name).join(",");
  const counts = new Map<string, number>();
  for (const el of list) counts.set(sig(el), (counts.get(sig(el)) ?? 0) + 1);
  return Math.max(...counts.values()) >= Math.ceil(list.length * 0.6);
}

/** The word a component name gives a role (`textbox` → `Input`), else the role in PascalCase. */
const ROLE_WORDS: Record<string, string> = {
  textbox: "Input",
  searchbox: "SearchInput",
  combobox: "Combobox",
  link: "Link",
  button: "Button",
  checkbox: "Checkbox",
  radio: "Radio",
  tab: "Tab",
  menuitem: "MenuItem",
  option: "Option",
  switch: "Switch",
  slider: "Slider",
  spinbutton: "NumberInput",
  columnheader: "ColumnHeader",
  gridcell: "Cell",
  row: "Row",
  treeitem: "TreeItem",
  listitem: "ListItem",
  article: "Article",
};

/** The word for elements of `role`, as a component name ends in it. */
export function roleWord(role: string): string {
  return ROLE_WORDS[role] ?? pascal(role);
}

/** A presence selector, `li[data-testid]`: the attribute every instance has, with a value of its own each. */
const PRESENCE = /^[A-Za-z][\w-]*\[([\w-]+)\]$/;

/**
 * A name from a hook selector: `[data-testid^="product-card-"]` → `ProductCard`, `li.card` → `Card`,
 * `div[data-product]` → `Product`. A test id's mere presence (`li[data-testid]`) says nothing: `""`.
 */
export function hookName(selector: string): string {
  const presence = PRESENCE.exec(selector)?.[1];
  if (presence !== undefined) return TEST_IDS.includes(presence) ? "" : pascal(presence.replace(/^data-/, ""));
  const value = /="((?:[^"\\]|\\.)*)"\]$/.exec(selector)?.[1];
  // A counter's number is the instance's, not the component's: `product-card-7` names ProductCard.
  if (value !== undefined) return pascal(value.replace(/[-_]?\d+$/, "")) || "Component";
  const cls = /\.([A-Za-z0-9_-]+)$/.exec(selector)?.[1];
  if (cls) return pascal(cls);
  return pascal(selector.replace(/[[\]#.]/g, " ")) || "Component";
}

/** `suggest`'s text. */
export function formatSuggest(r: SuggestResult): string {
  const lines = [
    `[Suggest] ${r.view ?? "no view"} (${r.url}) — ${r.candidates.length} candidate${
      r.candidates.length === 1 ? "" : "s"
    }${r.excluded ? ` (--exclude-known: ${r.excluded} hidden)` : ""}`,
  ];
  if (r.candidates.length === 0) return lines.concat("no candidates").join("\n") + "\n";
  const rows = r.candidates.map((c) => [
    c.kind,
    c.name,
    c.selector,
    `${c.count ?? "✗"} ${c.verified ? "✓" : "✗"}`,
    [
      c.properties[0]
        ? `${c.properties[0].name} ← ${c.properties[0].extract} (${c.properties[0].distinct} distinct)`
        : "",
      c.parent ? `child of ${c.parent}` : "",
      c.group !== undefined ? `in ${c.group ?? "(page)"}` : "",
      c.known ? "known" : "",
    ].filter(Boolean).join(" · "),
  ]);
  const widths = [0, 0, 0, 0];
  for (const row of [["kind", "name", "selector", "count"], ...rows]) {
    row.slice(0, 4).forEach((c, i) => widths[i] = Math.max(widths[i]!, c.length));
  }
  for (const row of [["kind", "name", "selector", "count", "note"], ...rows]) {
    lines.push(" " + row.map((c, i) => i < 4 ? c.padEnd(widths[i]!) : c).join("  ").trimEnd());
  }
  return lines.join("\n") + "\n";
}

/** The candidates as YAML to paste under a view's `components:` (controls and fields nested under their parent). */
export function suggestYaml(r: SuggestResult): string {
  const out = ["components:"];
  // Single-quoted YAML keeps a selector's double quotes readable; JSON's form when it holds a single quote.
  const q = (s: string) => s.includes("'") || [...s].some((c) => c < " ") ? JSON.stringify(s) : `'${s}'`;
  const emit = (c: Suggestion, indent: string, parent: Suggestion | null) => {
    // A child's selector is looked for inside its parent's element: the parent's part is left out.
    const own = parent && c.selector.startsWith(`${parent.selector} `)
      ? c.selector.slice(parent.selector.length + 1)
      : c.selector;
    out.push(`${indent}- name: ${c.name}`, `${indent}  selector: ${q(own)}`);
    if (c.properties.length) {
      out.push(`${indent}  properties:`);
      for (const p of c.properties) {
        out.push(`${indent}    - name: ${p.name}`, `${indent}      extract: ${q(p.extract)}`);
      }
    }
    const kids = r.candidates.filter((k) => k.parent === c.name);
    if (kids.length) {
      out.push(`${indent}  children:`);
      for (const k of kids) emit(k, `${indent}    `, c);
    }
  };
  for (const c of r.candidates) {
    if (c.parent === null || !r.candidates.some((p) => p.name === c.parent)) emit(c, "  ", null);
  }
  return out.join("\n") + "\n";
}
