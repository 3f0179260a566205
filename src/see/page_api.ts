/**
 * The page API of the session daemon: `POST /devtools/page/<command>` with a JSON body, answered with JSON
 * carrying `"schema": 1`. Errors are `{schema, error, code, hint}` with a 4xx/5xx status; the CLI client turns
 * them back into typed errors (400 → usage, exit 2; anything else → exit 1) with the same hint.
 *
 * Every body may carry `tab` (a tab id or unique prefix). Without it: the only content tab (a page that is not
 * `about:blank`), else the only tab; several content tabs are an error listing them (`code: "several_tabs"`).
 *
 * | Command | Body | Answer |
 * |---|---|---|
 * | `tabs` | `{}` | `{schema, tabs: [{id, url, title}]}` |
 * | `snapshot` | {@linkcode SnapshotRequest} | {@linkcode SnapshotPayload}; with `print`, {@linkcode PrintedSnapshot} |
 * | `resolve` | `{tab?, target: "Name[prop=v]" \| "42"}` | `{schema, tab, target: ResolvedSummary}` (queries, for tests and tools) |
 *
 * @module
 */
import { MapperError } from "../errors.ts";
import type { SeeCollect, SeeNode } from "./page/page.js";
import type { MapperTree } from "../offline/mod.ts";

export type { SeeCollect, SeeNode };

/** Version of every page API payload and of the page commands' `--json` output. */
export const PAGE_SCHEMA = 1;

/**
 * How long a click watches for a visible effect before it says there was none (answering at the first one). Long
 * enough for a handler that renders in the next frames; a page that fetches first shows later, so the line says
 * "within 500 ms".
 */
export const EFFECT_WINDOW_MS = 500;

/** A tab as the page commands list it. */
export interface PageTab {
  /** Tab id. */
  id: string;
  /** Tab URL. */
  url: string;
  /** Tab title. */
  title: string;
}

/**
 * A tab's URL as a line shows it: `(opening)` while the browser lists the tab without one (a new tab whose first
 * page is committing).
 */
export function shownTabUrl(url: string): string {
  return url === "" ? "(opening)" : url;
}

/** The view resolved for a tab's URL. */
export interface ViewInfo {
  /** View name. */
  name: string;
  /** URL route pattern. */
  route: string;
  /** Memory notes. */
  memory: string[];
  /** Route parameters matched from the URL. */
  params: Record<string, string>;
}

/** Body of `POST /devtools/page/snapshot`. */
export interface SnapshotRequest {
  /** Tab to read. */
  tab?: string | undefined;
  /** Navigate there first unless the tab is already on it. */
  url?: string | undefined;
  /** Include hidden elements. */
  includeHidden?: boolean | undefined;
  /** Longest wait for the DOM to settle, ms (default 3000). */
  settleMs?: number | undefined;
  /** Also answer the captured tree of the same pass (`tree` in the answer). */
  tree?: boolean | undefined;
  /**
   * Answer the snapshot as `mapper snapshot` prints it instead of the page tree: {@linkcode PrintedSnapshot}. Laid
   * out here, where the code is warm, rather than by every short-lived CLI process (not with `tree`).
   */
  print?: SnapshotPrint | undefined;
}

/** How the daemon lays out a snapshot it prints (`mapper snapshot`'s own flags). */
export interface SnapshotPrint {
  /** `text` (the default) or the `--json` document. */
  form?: "text" | "json" | undefined;
  /** `--interactive`. */
  interactive?: boolean | undefined;
  /** `--depth`. */
  depth?: number | undefined;
  /** `--coverage` (text only). */
  coverage?: boolean | undefined;
}

/** Answer of `POST /devtools/page/snapshot` with `print`: what the command writes, and what it exits by. */
export interface PrintedSnapshot {
  /** Payload format version. */
  schema: number;
  /** Tab id. */
  tab: string;
  /** Page URL. */
  url: string;
  /** Interactive nodes on the page (none: blank or still loading, the command exits 1). */
  interactive: number;
  /** The snapshot as the command prints it, ending in a newline. */
  printed: string;
}

/** Answer of `POST /devtools/page/snapshot`: the page tree plus what the daemon knows (view, corpus). */
export interface SnapshotPayload {
  /** Payload format version. */
  schema: number;
  /** Tab id. */
  tab: string;
  /** Page URL. */
  url: string;
  /** Page title. */
  title: string;
  /** `null` when no view matched (or no corpus); see {@linkcode corpus}. */
  view: ViewInfo | null;
  /** Whether a corpus with at least one component or view is loaded. */
  corpus: boolean;
  /** Views as specific as the chosen one (a conflict). */
  viewConflicts: string[];
  /** Whether the DOM settled before the bound. */
  settled: boolean;
  /** What was collected from the page. */
  page: SeeCollect;
  /**
   * Active components (globals + the view's) with no visible element, with their view (`null` = global) and how
   * many hidden elements they own (absent: none at all).
   */
  unmatched: Array<{ name: string; view: string | null; hidden?: number }>;
  /** The captured tree of the same pass, when the request asked for it. */
  tree?: MapperTree;
}

/** A resolved target as the API reports it. */
export interface ResolvedSummary {
  /** Snapshot node id of the element. */
  id: number;
  /** Component the element belongs to, or `null`. */
  component: string | null;
  /** Component properties. */
  props: Array<[string, string]>;
  /** Matched ancestors, outermost first. */
  ancestors: Array<{ component: string; props: Array<[string, string]> }>;
  /** Accessible role. */
  role: string;
  /** Accessible name. */
  name: string;
  /** Accessibility states. */
  states: string[];
  /** Whether the element is hidden. */
  hidden: boolean;
}

/** An error a page command reports; carries an API code and a hint, and becomes a typed CLI error again. */
export class PageError extends MapperError {
  /** Machine code on the wire (`several_tabs`, `no_match`, `ambiguous`, …). */
  readonly code: string;
  /** HTTP status on the wire (400 for usage errors). */
  readonly status: number;
  /** Creates the error. */
  constructor(code: string, message: string, options: { hint?: string; status?: number } = {}) {
    super(message, options.hint === undefined ? {} : { hint: options.hint });
    this.code = code;
    this.status = options.status ?? 409;
  }
}
