/**
 * The live authoring kit: what helps a person or an agent *make* a map on the live page — `probe`, `gap`,
 * `suggest`, `inspect`, node-first `explain`. Candidate selectors (`candidates.ts`) and orphan clusters
 * (`clusters.ts`) are pure functions over a captured tree (the offline engine counts every candidate on it), so
 * the live commands, `draft` and offline coverage share one implementation. The commands themselves are loaded
 * lazily by the command table.
 *
 * @module
 */
export {
  type Candidate,
  type CandidateOptions,
  candidatesFor,
  type Compound,
  compoundsOf,
  type HookKind,
  hookOf,
  isGenerated,
  isUtilityClass,
  type Matcher,
  stableClasses,
} from "./candidates.ts";
export { type Cluster, clusterNodes, leafShape, nearestHooked, parentAcross } from "./clusters.ts";
export { cssIdent, cssString } from "./escape.ts";
