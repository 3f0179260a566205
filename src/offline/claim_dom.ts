/**
 * What the claim (which component owns which element) needs of a DOM, and nothing more, so ONE claim can run on
 * the live page (the page engine's document) and on a captured tree (the offline engine) and give the same answer.
 *
 * The rules the claim applies over it: components in declaration order, the first declaration wins an element; a
 * component with a parent chain claims an element only when an ancestor of it (walking {@linkcode ClaimDom.parent},
 * which crosses from a shadow tree to its host) is owned by its nearest parent component that is active. Selectors
 * are evaluated one root at a time, as `root.querySelectorAll(selector)` would be.
 *
 * Implementations:
 * - live (page engine): `roots()` = the document, every open shadow root, every same-origin iframe document
 *   (recursively); `queryAll` = `root.querySelectorAll`; `parent` = `parentElement`, else the shadow host, else
 *   `null` (an iframe document's element has no parent: maps never scope across frames);
 * - offline (`tree_dom.ts`, through the engine's `claimDom`): the same three over a captured tree, and property
 *   extraction's members too.
 *
 * @module
 */

/**
 * DOM access for the claim. `E` is an element, `R` a root (a document, a shadow root, a frame's document).
 *
 * @template E an element
 * @template R a root `querySelectorAll` runs on
 */
export interface ClaimDom<E, R> {
  /** Every root to query, the top document first. */
  roots(): Iterable<R>;
  /**
   * The elements of `root` that match `selector`, in document order, as `root.querySelectorAll(selector)` finds
   * them (never crossing into a shadow root or a frame). Throws when the selector cannot be answered: invalid CSS
   * (the browser's `SyntaxError`), or, offline, something the capture did not record (`:hover`, a cut attribute
   * value, a state flag the file lacks); the message says why. The claim then records the component as unknown.
   */
  queryAll(root: R, selector: string): Iterable<E>;
  /** The element's parent element; at the top of a shadow tree its host; `null` at the top of a document. */
  parent(element: E): E | null;
}

/** A component as the claim sees it: the wire format's fields it needs. */
export interface ClaimComponent {
  /** Component name. */
  readonly name: string;
  /** The selector as compiled (alternatives joined with `", "`; a child's already composed with its parents'). */
  readonly selector: string;
  /**
   * A child's own selectors, uncomposed (the wire's `ownSelector`): what it is looked for by inside its parent's
   * element, open shadow roots included, where a composed selector cannot reach.
   */
  readonly ownSelector?: string;
  /** Names of its ancestor components, root first. */
  readonly parentChain: readonly string[];
}

/** What the claim found. */
export interface ClaimResult<E> {
  /** Each claimed element → the index (in the components given) of the component that owns it. */
  readonly owner: Map<E, number>;
  /**
   * Elements two components both matched, one line per pair (`A and B both match 3 elements; A (declared first)
   * wins`), in the order the pairs were first seen.
   */
  readonly conflicts: string[];
  /**
   * Components whose selector could not be answered (see {@linkcode ClaimDom.queryAll}), with the reason. Later
   * components' claims may be wrong where such a component would have won: callers show these as unknown, never as
   * "matched nothing".
   */
  readonly unknown: Array<{ readonly index: number; readonly reason: string }>;
}
