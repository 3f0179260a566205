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
 * @module
 */
import { DataError } from "../errors.ts";

/** Where a problem is: the file path as walked (corpus dir joined with the relative path), 1-based line/column. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** A problem found while loading. `error` diagnostics from {@linkcode load} are non-fatal (the entry was dropped). */
export interface Diagnostic {
  /** Stable machine code, e.g. `missing-name`, `ref-unresolved`, `unknown-field`, `yaml-syntax`. */
  code: string;
  severity: "error" | "warning";
  message: string;
  location: SourceLocation;
}

/** The load failed: unreadable file, YAML syntax error, wrong types. Lists every problem, not just the first. */
export class CorpusLoadError extends DataError {
  /** Every fatal problem, in file order. */
  readonly problems: readonly Diagnostic[];
  /** Creates the error; the message summarises, `problems` carries the detail. */
  constructor(problems: readonly Diagnostic[], options: { hint?: string } = {}) {
    const first = problems[0];
    const where = first
      ? `${first.location.file}:${first.location.line}:${first.location.column}: ${first.message}`
      : "";
    super(
      problems.length === 1 ? where : `${problems.length} problems, first: ${where}`,
      options.hint === undefined ? {} : { hint: options.hint },
    );
    this.problems = problems;
  }
}

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
  /** Recompile delay after the last event in ms (default 200). */
  debounceMs?: number;
  /** Log prefix, default `[serve-mapper]`. */
  logPrefix?: string;
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

export { compile, load, startCorpusService, stats } from "./_pending.ts";
