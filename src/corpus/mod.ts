/**
 * The corpus: load a `.mapper/` directory of YAML files, compile it to the wire format the extension and the
 * browser session read, compute catalog statistics, and serve it live (`/mapper`, `/mapper/version`).
 *
 * This is the public surface other areas import. Pure and offline: no browser, no network (the service only binds
 * a server when asked to).
 *
 * CONTRACT (fixed before implementation; the implementation may add exports but must keep these):
 * - `load(dir)` → `{ corpus, diagnostics }`; throws {@linkcode CorpusLoadError} listing every fatal problem.
 * - `compile(corpus, { site, version })` → {@linkcode WireCorpus} (service description §2.6).
 * - `stats(corpus)` → {@linkcode CorpusStats} (catalog-api.md §3.2 semantics).
 * - `startCorpusService(options)` → a live, watching {@linkcode CorpusService} whose `handle(request)` answers
 *   `/mapper` and `/mapper/version` (and returns `undefined` for any other path, so a host server can route on).
 *
 * Decisions where the reference implementation and the Sightmap spec differ or are silent:
 * - `$ref` to a name declared more than once resolves to the FIRST root declaration in load order (the spec's
 *   rule; the reference lets the last win), with a `ref-ambiguous` warning.
 * - Only the first YAML document of a file is read (as the reference); every further document gets an
 *   `ignored-document` warning. A syntax error in any document is fatal.
 * - Views and messages are never dropped (missing name → `""`, warned); components and requests missing a required
 *   field are dropped with an error diagnostic, subtree included. Nothing is dropped without a diagnostic.
 * - Fatal problem codes: `dir-not-found`, `not-a-directory`, `dir-unreadable`, `file-unreadable`, `file-encoding`,
 *   `yaml-syntax`, `yaml-alias-limit`, `type-mismatch`, `corpus-too-large`. Non-fatal codes: `missing-name`,
 *   `missing-selector`, `missing-route`, `ref-unresolved`, `ref-circular`, `selector-explosion`, `empty-entry`
 *   (errors; `empty-entry` is a warning for an empty item of a string list such as `memory`); `ref-ambiguous`,
 *   `ref-sibling-ignored`, `unknown-field`, `view-field-at-file-root`, `no-views-in-file`, `missing-version`,
 *   `unsupported-version`, `ignored-document`, `yaml-warning` (e.g. an unknown tag), `symlink-dir-skipped`,
 *   `property-missing-name`, `property-missing-extract` (warnings).
 * - Line and column are 1-based; `0` means the problem concerns a whole file or directory.
 *
 * @module
 */
export type { Diagnostic, SourceLocation } from "./diagnostic.ts";
export { CorpusLoadError, formatDiagnostic } from "./diagnostic.ts";
export type { Corpus, CorpusComponent, CorpusMessage, CorpusRequest, CorpusView } from "./model.ts";
export type { LoadOptions, LoadResult } from "./load.ts";
import type { Diagnostic } from "./diagnostic.ts";

// ---- Wire format (what /mapper serves) -----------------------------------------------------------------------

/** A component property declaration (draft extension; passed through as written). */
export interface WireProperty {
  name: string;
  extract: string;
}

/** A request/message property declaration. */
export interface WireFieldProperty {
  name: string;
  source: string;
  field?: string;
  pattern?: string;
}

/** A compiled (flattened) component. */
export interface WireComponent {
  name: string;
  /** Its selectors joined with `", "`: one string for `querySelectorAll`. */
  selector: string;
  /** Names of ancestor components, root first; `[]` for top-level components. */
  parentChain: string[];
  /** Always present, `[]` when none. */
  properties: WireProperty[];
  memory?: string[];
  tags?: string[];
  source?: string;
  stability?: string;
}

/** A request/response payload description. */
export interface WirePayload {
  fields?: Array<{ name: string; type?: string; description?: string }>;
}

/** A named API request. */
export interface WireRequest {
  name: string;
  route: string;
  method?: string;
  description?: string;
  source?: string;
  request?: WirePayload;
  response?: WirePayload;
  headers?: Record<string, string>;
  memory?: string[];
  tags?: string[];
  properties?: WireFieldProperty[];
}

/** A named console message. */
export interface WireMessage {
  name: string;
  level?: string;
  message?: string;
  description?: string;
  source?: string;
  properties?: WireFieldProperty[];
}

/** A compiled view. */
export interface WireView {
  name: string;
  route?: string;
  memory: string[];
  components: WireComponent[];
  requests: WireRequest[];
}

/** The compiled corpus served on `/mapper` (service description §2.6). All top-level keys are always present. */
export interface WireCorpus {
  /** Basename of the directory the server was started in. */
  site: string;
  /** Unix milliseconds of the compile; new at each successful compile. */
  version: number;
  memory: string[];
  globals: WireComponent[];
  views: WireView[];
  requests: WireRequest[];
  messages: WireMessage[];
}

// ---- Stats (catalog) ----------------------------------------------------------------------------------------

/** Per-view counts for the catalog. */
export interface ViewStats {
  name: string;
  route: string;
  components: number;
  requests: number;
}

/** Catalog statistics with the reference's semantics (catalog-api.md §3.2). */
export interface CorpusStats {
  views: number;
  /** Distinct component names corpus-wide. */
  components: number;
  requests: number;
  properties: number;
  memory: number;
  per_view: ViewStats[];
}

// ---- Live service -------------------------------------------------------------------------------------------

/** Options of {@linkcode startCorpusService}. */
export interface CorpusServiceOptions {
  /** Corpus directory (e.g. `.mapper`). */
  dir: string;
  /** The `site` label (basename of the working directory). */
  site: string;
  /** Where log lines go (`[serve-mapper] recompiled (v…)`, compile errors), one call per line, no newline. */
  log: (line: string) => void;
  /** Clock for versions (Unix ms); default `Date.now`. */
  now?: () => number;
  /** Watch the directory and recompile (default true). */
  watch?: boolean;
  /**
   * Scan the tree for changes at this interval (ms) instead of using file-system events (network file systems,
   * exhausted inotify watches). Unset: events, with an automatic 1 s scan when the platform refuses a watcher.
   */
  pollIntervalMs?: number;
  /** Recompile delay after the last event in ms (default 200). */
  debounceMs?: number;
  /** Log prefix, default `[serve-mapper]`. */
  logPrefix?: string;
  /**
   * Start even when the first compile fails (missing directory, broken YAML): log the problems, serve an empty
   * corpus, and recompile once the directory appears or is fixed. Default false (the failure is thrown).
   */
  lenient?: boolean;
}

/** A compiled corpus plus the prebuilt response bytes for it. */
export interface CorpusSnapshot {
  version: number;
  wire: WireCorpus;
  diagnostics: readonly Diagnostic[];
}

/** A running corpus service: current snapshot, HTTP handler, watcher. Dispose to stop watching. */
export interface CorpusService extends AsyncDisposable {
  /** The last good snapshot. */
  current(): CorpusSnapshot;
  /** Answers `/mapper`, `/mapper/version` (and CORS preflight on them); `undefined` for any other path. */
  handle(request: Request): Response | undefined;
  /** Resolves after the next successful recompile (tests and the browser daemon use it). */
  nextVersion(): Promise<CorpusSnapshot>;
}

export { load, LoadCache } from "./load.ts";
export { compile } from "./compile.ts";
export { stats } from "./stats.ts";
export { acceptsGzip, componentCount, MAPPER_PATH, MAPPER_VERSION_PATH, startCorpusService } from "./service.ts";
export { composeSelectors, splitSelectors } from "./selector.ts";
export { LOCK_FILE, OWNED_FILES, ownedFile, SESSION_FILE } from "./owned.ts";
