/**
 * The devtools HTTP API handler (paths and payloads documented in `daemon_api.ts`). Pure request → response over a
 * collector and a corpus matcher, so it is testable without a server.
 *
 * @module
 */
import { parseAllowSchemes, schemeRefusal } from "./schemes.ts";
import {
  API_SCHEMA,
  type ConsoleEntry,
  type ErrorPayload,
  type ListPayload,
  type NetworkEntry,
  redactHeaders,
  type SessionPayload,
  type StatusPayload,
} from "./daemon_api.ts";
import { BodyUnavailable, type Collector, type NetworkRecord, type Ring } from "./collector.ts";
import type { CorpusMatcher } from "./traffic_match.ts";
import { type FieldDefs, messageFields, requestFields } from "./fields.ts";
import { formatConsoleList, formatNetworkList } from "./format.ts";

/** What the handler needs from the daemon. */
export interface ApiContext {
  collector: Collector;
  /** The matcher of the current corpus (rebuilt by the caller when the corpus changes). */
  matcher(): CorpusMatcher;
  /** Status fields the collector does not know. */
  status(): Omit<StatusPayload, "schema" | "console" | "network" | "bodies" | "tabs">;
  /** Opens a tab; resolves with its target id. */
  openTab(url: string): Promise<string>;
  /** Current tabs. */
  tabs(): Promise<StatusPayload["tabs"]>;
  /** Who this daemon is (the handshake answer). */
  identity(): Omit<SessionPayload, "schema">;
  /** Stops the daemon (after the answer is sent). */
  shutdown(): void;
  /** Request/message property declarations of the current corpus (none when absent). */
  fields?: () => FieldDefs;
  /** The page commands (`/devtools/page/<command>`, see `src/see/daemon/routes.ts`); `rest` follows `page/`. */
  page?: (req: Request, rest: readonly string[]) => Promise<Response>;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body) + "\n", {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/**
 * A list as `mapper console|network list` prints it (`format=text`), rendered here where the code is warm; the number
 * of entries it lists goes in `X-Mapper-Entries` (an empty list filtered by tab makes the CLI check the tab id).
 */
function listText<T>(payload: ListPayload<T>, format: (p: ListPayload<T>) => string): Response {
  return new Response(format(payload), {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-store",
      "x-mapper-entries": String(payload.entries.length),
    },
  });
}

function error(status: number, code: string, message: string, extra: Partial<ErrorPayload> = {}): Response {
  return json({ schema: API_SCHEMA, error: message, code, ...extra }, status);
}

function limitOf(v: string | null): number {
  const n = Number(v);
  return v !== null && Number.isInteger(n) && n > 0 ? n : 0;
}

/** The window of a ring a list answer reports alongside its (filtered) entries. */
interface RingWindow {
  readonly dropped: number;
  readonly first: number;
  readonly last: number;
}

/** A list answer: the most recent `limit` of the filtered entries (all when 0), mapped, with the ring's window. */
function listPayload<R, T>(ring: RingWindow, filtered: R[], limit: number, map: (r: R) => T): ListPayload<T> {
  const shown = limit > 0 ? filtered.slice(-limit) : filtered;
  return { schema: API_SCHEMA, dropped: ring.dropped, first: ring.first, last: ring.last, entries: shown.map(map) };
}

function tabMatcher(tab: string | null): (id: string) => boolean {
  if (!tab) return () => true;
  const t = tab.toUpperCase();
  return (id) => id.toUpperCase().startsWith(t);
}

/** `withHeaders`: include them, secret values redacted unless `"secrets"`. */
function publicNetwork(r: NetworkRecord, withHeaders: false | "redacted" | "secrets", matches: string[]): NetworkEntry {
  const e: NetworkEntry = {
    index: r.index,
    tab: r.tab,
    method: r.method,
    url: r.url,
    state: r.state,
    status: r.status,
    statusText: r.statusText,
    resourceType: r.resourceType,
    ts: r.ts,
    hasRequestBody: r.hasRequestBody,
    responseBody: r.responseBody,
    matches,
  };
  if (r.failure !== undefined) e.failure = r.failure;
  if (r.mimeType !== undefined) e.mimeType = r.mimeType;
  if (r.responseMs !== undefined) e.responseMs = r.responseMs;
  if (r.durationMs !== undefined) e.durationMs = r.durationMs;
  if (r.encodedBytes !== undefined) e.encodedBytes = r.encodedBytes;
  if (r.redirected) e.redirected = true;
  if (withHeaders) {
    e.requestHeaders = redactHeaders(r.requestHeaders, withHeaders === "secrets");
    e.responseHeaders = redactHeaders(r.responseHeaders, withHeaders === "secrets");
  }
  return e;
}

function notBuffered<T extends { index: number }>(ring: Ring<T>, what: string, index: number): Response {
  const first = ring.first;
  const last = ring.last;
  let why: string;
  if (last < first) why = `no ${what}s are buffered yet`;
  else if (index < first) why = `it was dropped when the buffer overflowed; buffered: ${first}–${last}`;
  else why = `it does not exist yet; buffered: ${first}–${last}`;
  return error(404, "not_buffered", `${what} index ${index} is not buffered: ${why}`, { first, last });
}

function contentType(r: NetworkRecord, kind: "request" | "response"): string {
  const headers = kind === "request" ? r.requestHeaders : r.responseHeaders;
  const h = headers.find((x) => x.name.toLowerCase() === "content-type")?.value;
  if (h) return h;
  if (kind === "response" && r.mimeType) return r.mimeType;
  return "application/octet-stream";
}

/** Adds the properties of the first matched request that declares any (bodies read only when needed). */
async function withFields(c: Collector, defs: FieldDefs, e: NetworkEntry): Promise<void> {
  const props = e.matches.map((n) => defs.request(n)).find((p) => p.length > 0);
  if (!props) return;
  const r = c.network.get(e.index);
  if (!r) return;
  const text = async (read: () => Promise<Uint8Array>) => {
    try {
      return new TextDecoder().decode(await read());
    } catch {
      return undefined;
    }
  };
  const values = await requestFields(props, {
    url: r.url,
    requestHeaders: r.requestHeaders,
    responseHeaders: r.responseHeaders,
    requestBody: () => text(() => c.requestBody(r)),
    responseBody: () => r.state === "complete" ? text(() => c.responseBody(r)) : Promise.resolve(undefined),
  });
  if (values.length) e.properties = Object.fromEntries(values);
}

/** Builds the `/devtools/*` handler; returns `undefined` for paths outside `/devtools/`. */
export function devtoolsHandler(ctx: ApiContext): (req: Request) => Promise<Response> | undefined {
  return (req: Request) => {
    const url = new URL(req.url);
    if (!url.pathname.startsWith("/devtools/") && url.pathname !== "/devtools") return undefined;
    return handle(ctx, req, url).catch((err: unknown) =>
      error(500, "internal", err instanceof Error ? err.message : String(err))
    );
  };
}

async function handle(ctx: ApiContext, req: Request, url: URL): Promise<Response> {
  const parts = url.pathname.split("/").filter(Boolean).slice(1);
  const q = url.searchParams;
  const c = ctx.collector;
  const [area, idx, sub] = parts;
  if (area === "session" && parts.length === 1) return json({ schema: API_SCHEMA, ...ctx.identity() });
  if (area === "shutdown" && parts.length === 1) {
    if (req.method !== "POST") return error(405, "method_not_allowed", "use POST to stop the session");
    // Answer first, then stop: the client sees the acknowledgement before the server closes.
    setTimeout(() => ctx.shutdown(), 0);
    return json({ schema: API_SCHEMA, stopping: true }, 202);
  }
  if (area === "status" && parts.length === 1) {
    const payload: StatusPayload = {
      schema: API_SCHEMA,
      ...ctx.status(),
      tabs: await ctx.tabs(),
      console: { buffered: c.console.all().length, dropped: c.console.dropped },
      network: { buffered: c.network.all().length, dropped: c.network.dropped },
      bodies: c.bodyStats(),
    };
    return json(payload);
  }
  if (area === "page" && ctx.page) return await ctx.page(req, parts.slice(1));
  if (area === "tabs" && parts.length === 1) {
    if (req.method !== "POST") return error(405, "method_not_allowed", "use POST to open a tab");
    const url = q.get("url") || "about:blank";
    const refused = schemeRefusal(url, parseAllowSchemes(q.getAll("allow")).schemes);
    if (refused) return error(403, "scheme_refused", refused.message, { hint: refused.hint });
    const id = await ctx.openTab(url);
    return json({ schema: API_SCHEMA, tab: id });
  }
  const defs = ctx.fields?.();
  if (area === "console") {
    const m = ctx.matcher();
    const withMatches = (e: ConsoleEntry): ConsoleEntry => {
      const matches = m.message(e.level, e.text);
      const out: ConsoleEntry = { ...e, matches };
      const props = defs ? matches.map((n) => defs.message(n)).find((p) => p.length > 0) : undefined;
      if (props) {
        const values = messageFields(props, { text: e.text, frame: e.frame });
        if (values.length) out.properties = Object.fromEntries(values);
      }
      return out;
    };
    if (idx === undefined) {
      const levels = (q.get("level") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
      const tab = tabMatcher(q.get("tab"));
      const entries = c.console.all().filter((e) => (levels.length === 0 || levels.includes(e.level)) && tab(e.tab));
      const payload = listPayload(c.console, entries, limitOf(q.get("limit")), withMatches);
      return q.get("format") === "text" ? listText(payload, formatConsoleList) : json(payload);
    }
    const index = Number(idx);
    if (!Number.isInteger(index) || index < 0 || sub !== undefined) {
      return error(400, "bad_index", `bad index "${idx}"`);
    }
    const e = c.console.get(index);
    if (!e) return notBuffered(c.console, "console message", index);
    return json({ schema: API_SCHEMA, entry: withMatches(e) });
  }
  if (area === "network") {
    const m = ctx.matcher();
    if (idx === undefined) {
      const type = (q.get("type") ?? "").toLowerCase();
      const needle = (q.get("url") ?? "").toLowerCase();
      const tab = tabMatcher(q.get("tab"));
      const entries = c.network.all().filter((r) =>
        (!type || r.resourceType.toLowerCase() === type) && (!needle || r.url.toLowerCase().includes(needle)) &&
        tab(r.tab)
      );
      const toPublic = (r: (typeof entries)[number]) => publicNetwork(r, false, m.request(r.method, r.url, r.page));
      const payload = listPayload(c.network, entries, limitOf(q.get("limit")), toPublic);
      if (defs) {
        await Promise.all(payload.entries.map((e) => withFields(c, defs, e)));
      }
      return q.get("format") === "text" ? listText(payload, formatNetworkList) : json(payload);
    }
    const index = Number(idx);
    if (!Number.isInteger(index) || index < 0) return error(400, "bad_index", `bad index "${idx}"`);
    const r = c.network.get(index);
    if (!r) return notBuffered(c.network, "network request", index);
    if (sub === undefined) {
      const headers = q.get("secrets") === "1" ? "secrets" : "redacted";
      const entry = publicNetwork(r, headers, m.request(r.method, r.url, r.page));
      if (defs) await withFields(c, defs, entry);
      return json({ schema: API_SCHEMA, entry });
    }
    if (sub !== "body") return error(404, "not_found", `no such path "${url.pathname}"`);
    const kind = q.get("kind") === "request" ? "request" : "response";
    let bytes: Uint8Array;
    try {
      bytes = kind === "request" ? await c.requestBody(r) : await c.responseBody(r);
    } catch (err: unknown) {
      if (err instanceof BodyUnavailable) {
        return error(410, "body_unavailable", `${kind} body unavailable: ${err.message}`, { reason: err.message });
      }
      throw err;
    }
    return new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        "content-type": contentType(r, kind),
        "x-mapper-body-size": String(bytes.length),
        "cache-control": "no-store",
      },
    });
  }
  return error(404, "not_found", `no such path "${url.pathname}"`);
}
