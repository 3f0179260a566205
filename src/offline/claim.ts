/**
 * The claim over a {@linkcode ClaimDom}: which component owns which element. First declaration wins; a child is
 * claimed only inside an element its nearest active parent component owns (shadow roots of that element included,
 * since {@linkcode ClaimDom.parent} crosses to the host). Pure: the DOM access is injected, so the same function
 * answers for the live page and for a captured tree.
 *
 * @module
 */
import type { ClaimComponent, ClaimDom, ClaimResult } from "./claim_dom.ts";

export type { ClaimComponent, ClaimDom, ClaimResult };

/** Claims elements for `components` (in declaration order) over `dom`. */
export function claimElements<E, R>(components: readonly ClaimComponent[], dom: ClaimDom<E, R>): ClaimResult<E> {
  const owner = new Map<E, number>();
  const clashes = new Map<string, number>();
  const unknown: Array<{ index: number; reason: string }> = [];
  const active = new Set(components.map((c) => c.name));
  const roots = [...dom.roots()];
  components.forEach((c, index) => {
    if (c.selector === "") return;
    const parent = c.parentChain.findLast((p) => active.has(p));
    // The whole selector is answered on every root before anything is claimed: one that cannot be answered on some
    // root claims nothing, rather than part of what it should.
    const found: E[] = [];
    try {
      for (const root of roots) for (const el of dom.queryAll(root, c.selector)) found.push(el);
    } catch (err: unknown) {
      unknown.push({ index, reason: err instanceof Error ? err.message : String(err) });
      return;
    }
    for (const el of found) {
      const prev = owner.get(el);
      if (prev !== undefined) {
        const winner = components[prev]!.name;
        if (winner !== c.name) {
          const key = `${winner}\u0000${c.name}`;
          clashes.set(key, (clashes.get(key) ?? 0) + 1);
        }
        continue;
      }
      if (parent !== undefined && !ownedAbove(el, parent, owner, components, dom)) continue;
      owner.set(el, index);
    }
  });
  const conflicts = [...clashes].map(([key, n]) => {
    const [winner, loser] = key.split("\u0000");
    return `${winner} and ${loser} both match ${n === 1 ? "one element" : `${n} elements`}; ${winner} (declared ` +
      `first) wins`;
  });
  return { owner, conflicts, unknown };
}

/** Whether an ancestor of `el` is owned by the component named `parent`. */
function ownedAbove<E, R>(
  el: E,
  parent: string,
  owner: Map<E, number>,
  components: readonly ClaimComponent[],
  dom: ClaimDom<E, R>,
): boolean {
  for (let p = dom.parent(el); p !== null; p = dom.parent(p)) {
    const o = owner.get(p);
    if (o !== undefined && components[o]!.name === parent) return true;
  }
  return false;
}
