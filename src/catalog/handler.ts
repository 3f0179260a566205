/**
 * The HTTP semantics of the catalog: routing into a {@linkcode Snapshot}, GET/HEAD only, CORS on the API,
 * ETag/304, gzip and brotli for text, JSON errors. Pure request → response over an immutable snapshot; no file
 * system access at request time, so no path can reach outside the snapshot.
 *
 * @module
 */
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { chooseEncoding, ifNoneMatchHits } from "../http_cache.ts";
import { CACHE_ERROR, HTML_CSP, type Resource, type Snapshot } from "./snapshot.ts";

/** The methods the catalog answers. */
export const ALLOW = "GET, HEAD";

/** Encoded bodies, computed on first request and kept for the life of the snapshot. */
const encoded = new WeakMap<Resource, { gzip?: Bytes | null; br?: Bytes | null }>();
type Bytes = Uint8Array<ArrayBuffer>;

/** Bodies smaller than this are sent as they are: compression would not pay for its header. */
const MIN_COMPRESS = 512;

function encodedBody(resource: Resource, coding: "gzip" | "br"): Bytes | null {
  let memo = encoded.get(resource);
  if (!memo) encoded.set(resource, memo = {});
  let body = memo[coding];
  if (body === undefined) {
    const large = resource.body.length > 64 * 1024;
    const out = coding === "gzip"
      ? gzipSync(resource.body, { level: large ? 6 : 9 })
      : brotliCompressSync(resource.body, {
        params: {
          // Quality 11 costs ~1 s per MiB; large bodies (index.json of a big gallery) use 5, far faster.
          [zlib.BROTLI_PARAM_QUALITY]: large ? 5 : 11,
          [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
          [zlib.BROTLI_PARAM_SIZE_HINT]: resource.body.length,
        },
      });
    body = out.length < resource.body.length ? new Uint8Array(out) : null;
    memo[coding] = body;
  }
  return body;
}

/** Whether a path belongs to the JSON API (CORS, JSON errors, preflight). */
export function isApiPath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/") || path === "/openapi.json";
}

/** The request path with trailing slashes removed (`/` stays `/`). The query string is never consulted. */
export function normalizePath(pathname: string): string {
  const stripped = pathname.replace(/\/+$/, "");
  return stripped === "" ? "/" : stripped;
}

/** Builds the JSON Error envelope (`{error: {code, message}}`) as a response. */
export function errorResponse(
  snapshot: Pick<Snapshot, "baseUrl">,
  status: 404 | 405,
  path: string,
  method: string,
  head: boolean,
): Response {
  const base = snapshot.baseUrl;
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  const body = status === 404
    ? {
      error: {
        code: "not_found",
        message: /^\/api\/atlas\/[^/]+$/.test(path)
          ? `No atlas entry is published at ${shown}.`
          : `No mapper atlas resource at ${shown}.`,
        hint:
          `See ${base}/llms.txt for the site index and published entries, or ${base}/openapi.json for the HTTP API.`,
        status,
      },
    }
    : {
      error: {
        code: "method_not_allowed",
        message: `${method.slice(0, 20)} is not allowed on ${shown}.`,
        hint: `This API is read-only: use GET or HEAD. See ${base}/openapi.json for the HTTP API.`,
        status,
      },
    };
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const headers = new Headers({
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": CACHE_ERROR,
    // Outside the API a browser gets the HTML page for the same miss: the answer depends on Accept there.
    "Vary": isApiPath(path) ? "Accept-Encoding" : "Accept, Accept-Encoding",
    "X-Content-Type-Options": "nosniff",
  });
  if (isApiPath(path)) headers.set("Access-Control-Allow-Origin", "*");
  if (status === 405) headers.set("Allow", ALLOW);
  if (head) {
    headers.set("Content-Length", String(bytes.length));
    return new Response(null, { status, headers });
  }
  return new Response(bytes, { status, headers });
}

/** Whether a client prefers HTML (a browser's navigation), so a miss gets a page rather than JSON. */
export function wantsHtml(accept: string | null): boolean {
  return accept !== null && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}

/** The 404 page for browsers, with the pages' own security headers. */
function htmlNotFound(snapshot: Pick<Snapshot, "notFoundHtml">, head: boolean): Response {
  const headers = new Headers({
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": CACHE_ERROR,
    "Content-Security-Policy": HTML_CSP,
    "Vary": "Accept, Accept-Encoding",
    "X-Content-Type-Options": "nosniff",
  });
  if (head) {
    headers.set("Content-Length", String(snapshot.notFoundHtml.length));
    return new Response(null, { status: 404, headers });
  }
  return new Response(snapshot.notFoundHtml, { status: 404, headers });
}

/** The ETag of an encoded variant: the identity tag with the coding appended inside the quotes. */
function variantTag(etag: string, coding: "gzip" | "br"): string {
  return `${etag.slice(0, -1)}-${coding}"`;
}

/** Answers one request from the snapshot. Never throws for any request. */
export function handle(snapshot: Snapshot, request: Request): Response {
  const url = new URL(request.url);
  const path = normalizePath(url.pathname);
  const method = request.method.toUpperCase();
  const api = isApiPath(path);
  if (method === "OPTIONS" && api) {
    return new Response(null, {
      status: 204,
      headers: {
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
        "Access-Control-Allow-Headers": request.headers.get("Access-Control-Request-Headers") ?? "*",
        "Access-Control-Max-Age": "86400",
        "Allow": ALLOW,
        "Cache-Control": "public, max-age=86400",
        "Vary": "Access-Control-Request-Headers",
      },
    });
  }
  const head = method === "HEAD";
  if (method !== "GET" && !head) return errorResponse(snapshot, 405, path, method, false);
  const resource = snapshot.resources.get(path) ?? snapshot.files.get(path);
  if (!resource) {
    if (!api && wantsHtml(request.headers.get("Accept"))) return htmlNotFound(snapshot, head);
    return errorResponse(snapshot, 404, path, method, head);
  }

  const headers = new Headers({
    "Content-Type": resource.type,
    "Cache-Control": resource.cacheControl,
    "X-Content-Type-Options": "nosniff",
    ...resource.headers,
  });
  if (resource.cors) headers.set("Access-Control-Allow-Origin", "*");
  if (resource.compressible) headers.set("Vary", "Accept-Encoding");

  let body: Bytes = resource.body;
  let etag = resource.etag;
  const coding = resource.compressible && resource.body.length >= MIN_COMPRESS
    ? chooseEncoding(request.headers.get("Accept-Encoding"))
    : undefined;
  if (coding) {
    const encodedBytes = encodedBody(resource, coding);
    if (encodedBytes) {
      body = encodedBytes;
      etag = variantTag(resource.etag, coding);
      headers.set("Content-Encoding", coding);
    }
  }
  headers.set("ETag", etag);
  const tags = [resource.etag, variantTag(resource.etag, "gzip"), variantTag(resource.etag, "br")];
  if (ifNoneMatchHits(request.headers.get("If-None-Match"), tags)) {
    headers.delete("Content-Encoding");
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }
  if (head) {
    headers.set("Content-Length", String(body.length));
    return new Response(null, { status: 200, headers });
  }
  return new Response(body, { status: 200, headers });
}
