/**
 * The atlas client: catalog model, transport policy, cache, search, validate, install and verify. Offline of any
 * browser. Commands call the `run*` functions; other areas may reuse the policy and the catalog decoder.
 *
 * @module
 */
export { DEFAULT_INDEX, DEFAULT_SOURCE, ENV_INDEX, ENV_SOURCE, GALLERY_URL, isUrl } from "./defaults.ts";
export {
  type AtlasEntry,
  type Catalog,
  CatalogFormatError,
  type CatalogStats,
  decodeCatalog,
  SCHEMA_VERSION,
  STAT_KEYS,
} from "./catalog.ts";
export {
  allowedUrl,
  assertAllowed,
  checkUrl,
  download,
  MAX_BODY_BYTES,
  MAX_REDIRECTS,
  policyProblem,
} from "./transport.ts";
export { type Hit, MATCH_KINDS, type MatchKind, normaliseDomain, normaliseQuery, search } from "./search.ts";
export { slugProblem } from "./slug.ts";
export {
  CATEGORIES,
  checkEntry,
  type EntryCheckOptions,
  type EntryProblem,
  FRONT_MATTER_KEYS,
  SLUG_PATTERN,
} from "./entry_rules.ts";
export { type CatalogProblem, validateCatalog } from "./validate.ts";
export { type AtlasLock, LOCK_FILE } from "./lock.ts";
export { type FindOptions, runFind } from "./find.ts";
export { indexLocation } from "./source.ts";
export { runValidate, type ValidateOptions } from "./validate.ts";
export { type AddOptions, archiveLocation, MAX_FILE_BYTES, MAX_MEMBERS, MAX_TOTAL_BYTES, runAdd } from "./install.ts";
export { runVerify, type VerifyOptions } from "./verify.ts";
export type { Downloaded, DownloadOptions } from "./transport.ts";
export type { MatchedOn, Query } from "./search.ts";
export type { Io, Sink } from "../io.ts";
