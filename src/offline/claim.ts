/**
 * The claim over a {@linkcode ClaimDom}: which component owns which element. First declaration wins; a child is
 * claimed only inside an element its nearest active parent component owns (shadow roots of that element included,
 * since {@linkcode ClaimDom.parent} crosses to the host), looked for by its own selector. The one implementation the
 * page engine and the extension run too (`claimElements` in `assets/extension/resolver.js`), over this engine's
 * adapter: the same function answers for the live page and for a captured tree.
 *
 * @module
 */
import type { ClaimComponent, ClaimDom, ClaimResult } from "./claim_dom.ts";
import { claimElements as claimShared } from "../../assets/extension/resolver.js";

export type { ClaimComponent, ClaimDom, ClaimResult };

/** Claims elements for `components` (in declaration order) over `dom`. */
export function claimElements<E, R>(components: readonly ClaimComponent[], dom: ClaimDom<E, R>): ClaimResult<E> {
  return claimShared(components, dom);
}
