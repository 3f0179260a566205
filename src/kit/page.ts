/**
 * One live page as the authoring commands see it: the captured tree of one pass of the page engine (same ids as
 * the snapshot), indexed for the offline engine, with the shared claim run over it (which component owns what),
 * and a function that counts selectors on the live page (one `querySelectorAll` per root, by snapshot id), used
 * once per command to verify what it prints. Pure apart from that injected call, so every command is tested over
 * hand-made trees.
 *
 * @module
 */
import {
  type CapturedTree,
  type ClaimComponent,
  claimElements,
  indexTree,
  isFrame,
  isNode,
  isShadow,
  type MapperTree,
  type OfflineDocument,
  type OfflineElement,
  type OfflineEngine,
  type TreeChild,
  type TreeNode,
} from "../offline/mod.ts";
import { isGenerated, stableClasses } from "./candidates.ts";
import { cssString } from "./escape.ts";

/** A live answer for one selector: the snapshot ids it matches (all roots), or the browser's error. */
export type LiveAnswer = { ids: number[] } | { error: string };

/** What a kit command needs of the live page. */
export interface KitSource {
  /** The captured tree of the page (one pass of the engine). */
  tree: MapperTree;
  /** The tab it was read from. */
  tab: string;
  /** The active components at its URL (globals + view), in declaration order. */
  components: readonly ClaimComponent[];
  /** Counts selectors on the live page: one call, every selector, all roots. */
  live(selectors: readonly string[]): Promise<LiveAnswer[]>;
}

/** Where an element stands in the map. */
export interface Ownership {
  /** 1: a component itself; 2: inside one; 3: no component owns it or an ancestor. */
  tier: 1 | 2 | 3;
  /** The component that owns it or its nearest owned ancestor. */
  component: string | null;
  /** The element that component owns (itself at T1). */
  element: OfflineElement | null;
  /** Owning components, outermost first. */
  chain: string[];
}

/** A live page, indexed and claimed. */
export class KitPage {
  /** The tree as indexed. */
  readonly doc: OfflineDocument;
  #byId: Map<number, OfflineElement> | undefined;
  /** Each claimed element → index into {@linkcode KitSource.components}. */
  readonly owner: Map<OfflineElement, number>;
  /** Components whose selector the tree could not answer. */
  readonly unknown: Array<{ index: number; reason: string }>;

  /** Indexes and claims `source` with `engine`. */
  constructor(readonly source: KitSource, readonly engine: OfflineEngine) {
    const captured: CapturedTree = {
      file: "(live page)",
      format: "mapper",
      tree: source.tree,
      recorded: { states: true, text: true },
    };
    this.doc = indexTree(captured);
    const claim = claimElements(source.components, engine.claimDom(this.doc));
    this.owner = claim.owner;
    this.unknown = claim.unknown;
  }

  /** The element of each snapshot id (built on first use: the offline commands re-match many captures without it). */
  get byId(): Map<number, OfflineElement> {
    if (this.#byId === undefined) {
      this.#byId = new Map();
      for (const el of this.doc.elements) if (typeof el.node.id === "number") this.#byId.set(el.node.id, el);
    }
    return this.#byId;
  }

  /** The page URL. */
  get url(): string {
    return this.source.tree.url;
  }

  /** The view's name, `null` when none. */
  get view(): string | null {
    return this.source.tree.view?.name ?? null;
  }

  /** The component owning `el` itself, or `undefined`. */
  componentOf(el: OfflineElement): string | undefined {
    const i = this.owner.get(el);
    return i === undefined ? undefined : this.source.components[i]?.name;
  }

  /** Tier and owner of an element (the claim's parent walk: across shadow hosts, never out of a frame). */
  ownership(el: OfflineElement): Ownership {
    const chain: string[] = [];
    let first: OfflineElement | null = null;
    for (
      let p: OfflineElement | null = el;
      p !== null;
      p = p.parent ?? (p.root.kind === "shadow" ? p.root.host : null)
    ) {
      const c = this.componentOf(p);
      if (c !== undefined) {
        chain.unshift(c);
        first ??= p;
      }
    }
    if (first === null) return { tier: 3, component: null, element: null, chain };
    return { tier: first === el ? 1 : 2, component: this.componentOf(first)!, element: first, chain };
  }

  /** Elements matching `selector` on the tree (all roots); throws when the offline engine cannot answer. */
  query(selector: string): readonly OfflineElement[] {
    return this.engine.query(this.doc, selector).all;
  }

  /** Every visible interactive element no component owns (or an ancestor of it): the T3 orphans. */
  orphans(includeHidden = false): OfflineElement[] {
    return this.doc.elements.filter((el) =>
      el.node.interactive === true && (includeHidden || el.node.visible === true) && this.ownership(el).tier === 3
    );
  }

  /**
   * Counts `selectors` live in one call and compares each with the tree: `live` (count, `null` when the browser
   * refused it) and whether the live ids are the tree's.
   */
  async verify(selectors: readonly string[]): Promise<Map<string, Verified>> {
    const unique = [...new Set(selectors)];
    const answers = unique.length === 0 ? [] : await this.source.live(unique);
    const out = new Map<string, Verified>();
    unique.forEach((selector, i) => {
      const a = answers[i];
      if (a === undefined || "error" in a) {
        out.set(selector, { live: null, agrees: false, ids: [] });
        return;
      }
      let offline: number[] | null;
      try {
        offline = this.query(selector).map((e) => Number(e.node.id));
      } catch {
        offline = null;
      }
      const agrees = offline !== null && sameIds(offline, a.ids);
      out.set(selector, { live: a.ids.length, agrees, ids: a.ids });
    });
    return out;
  }
}

/** Whether two id lists hold the same ids (order aside: roots may be listed in another order). */
export function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  return x.every((v, i) => v === y[i]);
}

/** A selector counted live. */
export interface Verified {
  /** Live matches; `null` when the browser refused the selector. */
  live: number | null;
  /** The live ids are exactly the offline ones. */
  agrees: boolean;
  /** Live ids. */
  ids: number[];
}

/** Visibility as the probe prints it. */
export function visibility(el: OfflineElement): "visible" | "hidden" | "boxless" {
  return el.node.visible === true ? "visible" : el.node.visible === "boxless" ? "boxless" : "hidden";
}

const KEY_ATTRS =
  /^(data-testid|data-test-id|data-test|data-qa|data-cy|data-component|name|type|role|aria-label|href)$/;

/**
 * An element written short: `tag#id.class.class[key="value"]` — stable classes (a generated one marked `~`), the
 * hook attributes and up to two other `data-*`, values cut at 30 characters.
 */
export function describeElement(el: OfflineElement, opts: { allAttrs?: boolean } = {}): string {
  return describeNode(el.node, opts);
}

/** {@linkcode describeElement} on a tree node. */
export function describeNode(node: TreeNode, opts: { allAttrs?: boolean } = {}): string {
  const a = node.attrs;
  let out = node.tag;
  if (a["id"]) out += `#${a["id"]}${isGenerated(a["id"]) ? "~" : ""}`;
  const stable = stableClasses(node);
  for (const cls of stable.slice(0, 3)) out += `.${cls}`;
  const generated = (a["class"] ?? "").split(/\s+/).filter((c) => c !== "" && !stable.includes(c));
  for (const cls of generated.slice(0, 1)) out += `.${cls}~`;
  let data = 0;
  for (const [name, value] of Object.entries(a)) {
    if (name === "id" || name === "class" || name === "style") continue;
    const key = KEY_ATTRS.test(name);
    if (!key && !opts.allAttrs && !(name.startsWith("data-") && data++ < 2)) continue;
    if (name === "href" && node.tag !== "a") continue;
    const v = value.length > 30 ? `${value.slice(0, 29)}…` : value;
    out += value === "" ? `[${name}]` : `[${name}=${cssString(v)}]`;
  }
  return out;
}

/** The text of an element (its light DOM and open shadow roots), whitespace collapsed. */
export function textOf(el: OfflineElement, max = 80): string {
  let out = "";
  const stack: TreeChild[] = [el.node];
  while (stack.length > 0 && out.length < max * 4) {
    const c = stack.pop()!;
    if (typeof c === "string") out += c;
    else if (isFrame(c)) continue;
    else if (isNode(c) || isShadow(c)) {
      out += " ";
      for (let i = c.children.length - 1; i >= 0; i--) stack.push(c.children[i]!);
    }
  }
  const text = out.replace(/\s+/g, " ").trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
