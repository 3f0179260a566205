/**
 * Orphaned interactive nodes grouped into clusters a single component could claim: same role, same nearest hooked
 * ancestor (by its hook, so the buttons of 24 cards are one cluster, not 24) and same leaf shape (tag, stable
 * classes, `type`, the names — not the values — of its `data-*` hooks). Never by accessible name: two star buttons
 * "1" and "2" are one cluster. Pure over an indexed tree; the candidates for each cluster come from
 * `candidates.ts`.
 *
 * @module
 */
import { isShadow, type OfflineElement } from "../offline/mod.ts";
import { hookOf, isUtilityClass, stableClasses } from "./candidates.ts";

/** One cluster of elements. */
export interface Cluster {
  /** The members' role. */
  readonly role: string;
  /** The leaf shape the members share (`button.star[data-v]`). */
  readonly shape: string;
  /** The nearest ancestor with a hook (of the first member; the others' share its hook), `null` when none. */
  readonly ancestor: OfflineElement | null;
  /** That ancestor's hook (`footer`, `li.card`, `x-rating`), `null` when none. */
  readonly ancestorHook: string | null;
  /** Where the members sit when not in the top document: an open shadow root or a same-origin frame. */
  readonly boundary: "shadow" | "frame" | null;
  /** The members, in the order given (document order when the caller's is). */
  readonly nodes: OfflineElement[];
}

/** The parent element, crossing from a shadow or frame root's top to its host. */
export function parentAcross(el: OfflineElement): OfflineElement | null {
  return el.parent ?? el.root.host;
}

/**
 * The nearest ancestor with a hook (crossing shadow and frame boundaries), and that hook. A shadow host or an
 * `<iframe>` counts as hooked (by its tag when it has nothing better): what is inside one is told apart by it.
 */
export function nearestHooked(el: OfflineElement): { element: OfflineElement; hook: string } | null {
  for (let p = parentAcross(el); p !== null; p = parentAcross(p)) {
    const hook = hookOf(p);
    if (hook) return { element: p, hook: hook.selector };
    if (p.name === "iframe" || p.node.children.some(isShadow)) {
      return { element: p, hook: p.name };
    }
  }
  return null;
}

/**
 * The value-free shape of an element: tag, stable classes (sorted), `[type=…]`, the names of its data hooks. With
 * `classes: false` its structure alone (what a grid's odd and even rows share: they differ by a class).
 */
export function leafShape(el: OfflineElement, opts: { classes?: boolean } = {}): string {
  let shape = el.name;
  const classes = opts.classes === false ? [] : stableClasses(el).filter((c) => !isUtilityClass(c)).sort();
  for (const cls of classes) shape += `.${cls}`;
  const type = el.attrs["type"];
  if (type && (el.name === "input" || el.name === "button")) shape += `[type=${type.toLowerCase()}]`;
  const data = Object.keys(el.attrs).filter((a) => a.startsWith("data-") && !/^data-v-/.test(a)).sort();
  for (const a of data) shape += `[${a}]`;
  if (el.attrs["role"]) shape += `[role=${el.attrs["role"]}]`;
  return shape;
}

/** Groups `nodes` into clusters (see the module documentation), in the order of each cluster's first member. */
export function clusterNodes(nodes: readonly OfflineElement[]): Cluster[] {
  const byKey = new Map<string, Cluster>();
  for (const el of nodes) {
    const anc = nearestHooked(el);
    const shape = leafShape(el);
    const boundary = el.root.kind === "document" ? null : el.root.kind;
    const key = [el.node.role, anc?.hook ?? "", boundary ?? "", shape].join("\u0000");
    let cluster = byKey.get(key);
    if (!cluster) {
      cluster = {
        role: el.node.role,
        shape,
        ancestor: anc?.element ?? null,
        ancestorHook: anc?.hook ?? null,
        boundary,
        nodes: [],
      };
      byKey.set(key, cluster);
    }
    cluster.nodes.push(el);
  }
  return [...byKey.values()];
}
