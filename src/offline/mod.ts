/**
 * The map checked against what a page looked like, without a browser: the captured tree format and its reader
 * (mapper's own files and the other implementation's component trees), the tree indexed per root, the claim
 * (which component owns which element) over an injected DOM, and the offline selector engine (css-select over the
 * tree; loaded on demand with {@linkcode loadEngine}, since it brings npm packages). The offline commands
 * (`sel-check`, `export`) live here too, loaded lazily by the command table.
 *
 * Offline code never imports browser code: this area reads files and the corpus only.
 *
 * @module
 */
import { lazy } from "../lazy.ts";

export {
  type CapturedTree,
  type FrameEntry,
  HTML_NAMESPACE,
  isFrame,
  isNode,
  isShadow,
  type MapperTree,
  MAX_ATTRIBUTE_CHARS,
  MAX_TEXT_CHARS,
  MAX_TREE_BYTES,
  type ShadowEntry,
  STATE_PSEUDOS,
  TREE_KIND,
  TREE_SCHEMA,
  type TreeChild,
  type TreeCoverage,
  type TreeFormat,
  type TreeNode,
  type TreeRecorded,
  type TreeView,
  type TreeViewport,
} from "./tree.ts";
export { parseTree, readTreeFile, readTreeFileSync, TreeShapeError } from "./read.ts";
export { type CorpusDir, corpusDir, loadCorpus, type LoadedCorpus } from "./corpus_dir.ts";
export {
  indexTree,
  type OfflineDocument,
  type OfflineElement,
  type OfflineNode,
  type OfflineRoot,
  type OfflineText,
} from "./dom.ts";
export { type ClaimComponent, type ClaimDom, claimElements, type ClaimResult } from "./claim.ts";
export type { TreeDom } from "./tree_dom.ts";
export type {
  CaptureCannotAnswer,
  CompiledSelector,
  OfflineEngine,
  SelectorNotEvaluable,
  TreeMatches,
} from "./engine.ts";

/** Loads the offline selector engine (css-select and the CSS parser `validate` uses) and creates one. */
export async function loadEngine(): Promise<import("./engine.ts").OfflineEngine> {
  const { createEngine } = await lazy<typeof import("./engine.ts")>(new URL("./engine.ts", import.meta.url));
  return await createEngine();
}
