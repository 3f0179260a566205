/**
 * The session daemon's devtools HTTP API: paths, payloads and the record shapes `mapper console|network` read.
 * Bound to `127.0.0.1` only, on the same port as the corpus server (`/mapper`, `/mapper/version`,
 * `/mapper/diagnostics`).
 *
 * Access (`_guard.ts`, one guard in front of every route): `Host` must be exactly `127.0.0.1:<port>`; every path
 * but the public corpus ones needs no `Origin` other than the bundled extension's and, but for the corpus health,
 * `Authorization: Bearer <secret>` (the secret is in the 0600 session file). Refusals are 403
 * `forbidden_host|forbidden_origin|forbidden_secret`, decided before any work.
 *
 * Every JSON answer carries `"schema": 1` (bumped on any incompatible change). Errors are
 * `{"schema":1,"error":"<one line>","code":"<machine code>", ...}` with a 4xx/5xx status.
 *
 * | Method + path | Answer |
 * |---|---|
 * | `GET /devtools/session` | {@linkcode SessionPayload}: the handshake (who this daemon is) |
 * | `POST /devtools/shutdown` | 202 `{"schema":1,"stopping":true}`; the daemon then stops Chromium and exits |
 * | `GET /devtools/status` | {@linkcode StatusPayload} |
 * | `GET /devtools/console?level=a,b&tab=ID&limit=N` | {@linkcode ListPayload} of {@linkcode ConsoleEntry}; with `&format=text` the list as `mapper console list` prints it (`text/plain`, the count in `X-Mapper-Entries`) |
 * | `GET /devtools/console/<index>` | {@linkcode EntryPayload} of {@linkcode ConsoleEntry}; 404 `not_buffered` with `first`/`last` |
 * | `GET /devtools/network?type=T&url=TEXT&tab=ID&limit=N` | {@linkcode ListPayload} of {@linkcode NetworkEntry} (without headers); `&format=text` as for the console |
 * | `GET /devtools/network/<index>?secrets=1` | {@linkcode EntryPayload} of {@linkcode NetworkEntry} with headers; secret header values redacted unless `secrets=1` |
 * | `GET /devtools/network/<index>/body?kind=response\|request` | 200 raw bytes (`Content-Type` as recorded, `X-Mapper-Body-Size`); 404 `not_buffered`; 410 `body_unavailable` with `reason` |
 * | `POST /devtools/tabs?url=URL[&allow=SCHEME…]` | opens a tab (`Target.createTarget`): `{"schema":1,"tab":"<targetId>"}`; a URL of another scheme than http(s) or `about:blank` is refused (403 `scheme_refused`) unless `allow` names it |
 *
 * Filters (server side): `level` is a comma list of exact levels; `tab` matches the full tab id or any unique
 * prefix of it (e.g. the 8-character id lists show); `type` is exact, case-insensitive; `url` is a case-insensitive
 * substring; `limit` keeps the most recent N after filtering. `dropped` is the cumulative eviction count of the
 * stream, unfiltered.
 *
 * @module
 */

/** Version of every JSON payload on this API and of the `--json` output of the devtools commands. */
export const API_SCHEMA = 1;

/** Console levels, in the order the CLI documents them. */
export const LEVELS = ["log", "debug", "info", "warn", "error", "exception"] as const;
/** One console level. */
export type Level = typeof LEVELS[number];

/** A stack frame, 1-based line and column (as DevTools shows them). */
export interface Frame {
  /** Function name of the frame. */
  function: string;
  /** Script URL of the frame. */
  url: string;
  /** Line number in the script. */
  line: number;
  /** Column number in the script. */
  column: number;
}

/** One captured console message. */
export interface ConsoleEntry {
  /** Position in the session's console buffer. */
  index: number;
  /** Console level of the message. */
  level: Level;
  /** The rendered message text. */
  text: string;
  /** Target id of the tab (top-level page) it came from; workers and iframes report their page's id. */
  tab: string;
  /** Unix milliseconds. */
  ts: number;
  /** `console` (console API), `exception` (uncaught), or the browser `Log` source (`network`, `violation`, …). */
  source: string;
  /** Top stack frame, when known. */
  frame?: Frame;
  /** URL of the page, worker or iframe that logged it. */
  origin?: string;
  /** Names of the corpus `messages:` it matched, in corpus order. */
  matches: string[];
  /** Properties the first matched message declares, extracted (`src/browser/fields.ts`); absent when none. */
  properties?: Record<string, string>;
}

/** A header as sent or received. */
export interface Header {
  /** Header name. */
  name: string;
  /** Header value. */
  value: string;
}

/** One captured request. */
export interface NetworkEntry {
  /** Position in the session's network buffer. */
  index: number;
  /** Tab the request came from. */
  tab: string;
  /** HTTP method. */
  method: string;
  /** Request URL. */
  url: string;
  /** `pending` (no response yet), `complete` (a response arrived; redirect hops too), `failed`. */
  state: "pending" | "complete" | "failed";
  /** HTTP status; `null` while pending or when it failed before a response. */
  status: number | null;
  /** HTTP status text of the response. */
  statusText: string;
  /** `net::ERR_…` text when {@linkcode state} is `failed`. */
  failure?: string;
  /** Chromium's resource type of the request. */
  resourceType: string;
  /** MIME type of the response, when known. */
  mimeType?: string;
  /** Start, Unix milliseconds. */
  ts: number;
  /** Start to response headers, ms. */
  responseMs?: number;
  /** Start to finished/failed, ms. */
  durationMs?: number;
  /** Bytes received on the wire, when finished. */
  encodedBytes?: number;
  /** Whether this entry is a redirect hop (a `3xx` answered by another request). */
  redirected?: boolean;
  /** Whether a request body exists. */
  hasRequestBody: boolean;
  /** Response body retention: `retained` (kept by the collector), `live` (fetch from Chromium on demand), `none`. */
  responseBody: "retained" | "live" | "none";
  /** Only on `GET /devtools/network/<index>`. */
  requestHeaders?: Header[];
  /** Only on `GET /devtools/network/<index>`. */
  responseHeaders?: Header[];
  /** Names of the corpus `requests:` it matched, in corpus order. */
  matches: string[];
  /** Properties the first matched request declaring any defines, extracted (`src/browser/fields.ts`). */
  properties?: Record<string, string>;
}

/** Answer of the list endpoints. */
export interface ListPayload<T> {
  /** Payload format version. */
  schema: number;
  /** Cumulative entries evicted from this stream's ring buffer. */
  dropped: number;
  /** Index range currently buffered (`first` > `last` when empty). */
  first: number;
  /** Index of the last entry in the buffer. */
  last: number;
  /** The listed entries. */
  entries: T[];
}

/** Answer of the single-entry endpoints. */
export interface EntryPayload<T> {
  /** Payload format version. */
  schema: number;
  /** The requested entry. */
  entry: T;
}

/** Answer of `GET /devtools/status`. */
export interface StatusPayload {
  /** Payload format version. */
  schema: number;
  /** mapper version of the daemon. */
  version: string;
  /** Process id of the daemon. */
  daemonPid: number;
  /** Process id of Chromium. */
  chromiumPid: number;
  /** Port the daemon listens on. */
  port: number;
  /** Open tabs. */
  tabs: Array<{ id: string; url: string; title: string }>;
  /** Console buffer counts. */
  console: { buffered: number; dropped: number };
  /** Network buffer counts. */
  network: { buffered: number; dropped: number };
  /** Retained response bodies. */
  bodies: { retained: number; bytes: number; dropped: number };
}

/** Answer of `GET /devtools/session`: the daemon's identity, checked against the session file. */
export interface SessionPayload {
  /** Payload format version. */
  schema: number;
  /** Identifier of the session. */
  sessionId: string;
  /** Process id of the daemon. */
  daemonPid: number;
  /** Process id of Chromium. */
  chromiumPid: number;
  /** Port the daemon listens on. */
  port: number;
  /** mapper version of the daemon. */
  version: string;
}

/** Headers whose values the daemon (and the CLI) redacts unless secrets are asked for. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
]);

/** Replaces secret header values (see {@linkcode SECRET_HEADERS}) by a marker naming their size, unless `show`. */
export function redactHeaders(headers: readonly Header[], show: boolean): Header[] {
  return headers.map((h) =>
    !show && SECRET_HEADERS.has(h.name.toLowerCase())
      ? { name: h.name, value: `<redacted, ${new TextEncoder().encode(h.value).length} bytes — use --show-secrets>` }
      : h
  );
}

/** An error answer. */
export interface ErrorPayload {
  /** Payload format version. */
  schema: number;
  /** What went wrong. */
  error: string;
  /** Machine-readable error code. */
  code: string;
  /** First buffered index (with `not_buffered`). */
  first?: number;
  /** Last buffered index (with `not_buffered`). */
  last?: number;
  /** Why the body is unavailable (with `body_unavailable`). */
  reason?: string;
  /** What to do (with `scheme_refused`). */
  hint?: string;
}

type Shape = Record<string, unknown>;
const isObject = (v: unknown): v is Shape => v !== null && typeof v === "object" && !Array.isArray(v);
const isStrings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");
const isHeaders = (v: unknown) =>
  v === undefined ||
  Array.isArray(v) && v.every((h) => isObject(h) && typeof h.name === "string" && typeof h.value === "string");

/** Whether `v` has the shape of a {@linkcode ConsoleEntry} (what the formatters read). */
export function isConsoleEntry(v: unknown): v is ConsoleEntry {
  if (!isObject(v)) return false;
  const f = v.frame;
  return typeof v.index === "number" && typeof v.level === "string" && typeof v.text === "string" &&
    typeof v.tab === "string" && typeof v.ts === "number" && isStrings(v.matches) &&
    (f === undefined ||
      isObject(f) && typeof f.url === "string" && typeof f.function === "string" && typeof f.line === "number" &&
        typeof f.column === "number");
}

/** Whether `v` has the shape of a {@linkcode NetworkEntry} (what the formatters read). */
export function isNetworkEntry(v: unknown): v is NetworkEntry {
  return isObject(v) && typeof v.index === "number" && typeof v.tab === "string" && typeof v.method === "string" &&
    typeof v.url === "string" && typeof v.state === "string" && (v.status === null || typeof v.status === "number") &&
    typeof v.statusText === "string" && typeof v.resourceType === "string" && isStrings(v.matches) &&
    (v.failure === undefined || typeof v.failure === "string") && isHeaders(v.requestHeaders) &&
    isHeaders(v.responseHeaders);
}

/** Whether `v` is a {@linkcode ListPayload} whose entries pass `entry`. */
export function isListPayload(v: unknown, entry: (e: unknown) => boolean): boolean {
  return isObject(v) && typeof v.dropped === "number" && typeof v.first === "number" &&
    typeof v.last === "number" && Array.isArray(v.entries) && v.entries.every(entry);
}

/** Whether `v` is an {@linkcode EntryPayload} whose entry passes `entry`. */
export function isEntryPayload(v: unknown, entry: (e: unknown) => boolean): boolean {
  return isObject(v) && entry(v.entry);
}
