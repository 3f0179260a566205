/**
 * The corpus: load a `.mapper/` directory of YAML files, compile it to the wire format the extension and the
 * browser session read, compute catalog statistics, and serve it live (`/mapper`, `/mapper/version`).
 *
 * This is the public surface other areas import. Pure and offline: no browser, no network (the service only binds
 * a server when asked to).
 *
 * CONTRACT (fixed before implementation; the implementation may add exports but must keep these):
 * - `load(dir)` → `{ corpus, diagnostics }`; throws {@linkcode CorpusLoadError} listing every fatal problem.
 * - `compile(corpus, { site, version })` → {@linkcode WireCorpus}.
 * - `stats(corpus)` → {@linkcode CorpusStats} (as the atlas catalog publishes them).
 * - `startCorpusService(options)` → a live, watching {@linkcode CorpusService} whose `handle(request)` answers
 *   `/mapper` and `/mapper/version` (and returns `undefined` for any other path, so a host server can route on).
 *
 * Decisions where the Sightmap format is silent or its other implementations differ:
 * - `$ref` to a name declared more than once resolves to the FIRST root declaration in load order (the spec's
 *   rule; other implementations let the last win), with a `ref-ambiguous` warning.
 * - Only the first YAML document of a file is read (as other implementations do); every further document gets an
 *   `ignored-document` warning. A syntax error in any document is fatal.
 * - Views and messages are never dropped (missing name → `""`, warned); components and requests missing a required
 *   field are dropped with an error diagnostic, subtree included. Nothing is dropped without a diagnostic.
 * - Fatal problem codes: `dir-not-found`, `not-a-directory`, `dir-unreadable`, `file-unreadable`, `file-encoding`,
 *   `yaml-syntax`, `yaml-alias-limit`, `type-mismatch`, `corpus-too-large`. Non-fatal codes: `missing-name`,
 *   `missing-selector`, `missing-route`, `ref-unresolved`, `ref-circular`, `selector-explosion`, `empty-entry`,
 *   `symlink-outside-corpus` (errors; `empty-entry` is a warning for an empty item of a string list such as `memory`); `ref-ambiguous`,
 *   `ref-sibling-ignored`, `unknown-field`, `view-field-at-file-root`, `no-views-in-file`, `missing-version`,
 *   `unsupported-version`, `ignored-document`, `yaml-warning` (e.g. an unknown tag), `symlink-dir-skipped`,
 *   `property-missing-name`, `property-missing-extract` (warnings).
 * - Line and column are 1-based; `0` means the problem concerns a whole file or directory.
 *
 * @module
 */
export type { Diagnostic, EnvelopeDiagnostic, FieldLocations, SourceLocation } from "./diagnostic.ts";
export { CorpusLoadError, formatDiagnostic, sortByLocation, toEnvelopeDiagnostic } from "./diagnostic.ts";
export type { Corpus, CorpusComponent, CorpusMessage, CorpusRequest, CorpusView } from "./model.ts";
export type { LoadOptions, LoadResult } from "./load.ts";
export type * from "./wire.ts";

export { load, LoadCache } from "./load.ts";
export { compile } from "./compile.ts";
export { type CorpusStats, stats, type ViewStats } from "./catalog_stats.ts";
export {
  componentCount,
  type CorpusService,
  type CorpusServiceOptions,
  type CorpusSnapshot,
  type DiagnosticsReport,
  MAPPER_DIAGNOSTICS_PATH,
  MAPPER_PATH,
  MAPPER_VERSION_PATH,
  startCorpusService,
} from "./service.ts";
export { composeSelectors, splitSelectors } from "./selector.ts";
export { loadSelectorCheck, type SelectorProblem } from "./selector_check.ts";
export {
  CORPUS_SCHEMA,
  KEY_ORDER,
  type KeyDecl,
  KEYS_AT,
  type KeyType,
  type Place,
  type PlaceDecl,
  whereKeyBelongs,
} from "./schema.ts";
export { LOCK_FILE, OWNED_FILES, ownedFile, SESSION_FILE } from "./owned.ts";
export {
  DEFAULT_CORPUS_DIR,
  findCorpusDirUp,
  isDirectory,
  SAFE_DIRS_ENV,
  siteName,
  systemTrust,
  trustedCorpusDir,
  type TrustSystem,
  UntrustedCorpusError,
  untrustedReason,
} from "./find.ts";
export type { CacheEntry, FileStamp } from "./load.ts";
export type { WalkedFile } from "./_walk.ts";
export type { DataError, MapperError, PolicyError } from "../errors.ts";
export type { RawComponent, RawDefinition, RawFile, RawMessage, RawRef, RawRequest, RawView } from "./_decode.ts";
