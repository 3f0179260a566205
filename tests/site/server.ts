/**
 * The test site for the browser tests: the pages in this folder plus `/api/*` endpoints (JSON, echo, redirect
 * chain, 500, 204, a download, a 10400-byte body, a PNG, a cookie, a request that never answers, numbered endpoints for bursts),
 * and the test shop (`/shop/**` → `shop.html` + `shop.js`, a single-page app; `POST /api/cart` →
 * `{ok, product_id, count}`, `POST /api/checkout` → 401 `{ok: false, error: "login required"}`).
 * One loopback server; `http://127.0.0.1:<port>` and `http://localhost:<port>` are two origins of it.
 *
 * @module
 */
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";

const DIR = dirname(fileURLToPath(import.meta.url));

/** A 1×1 PNG. */
export const PNG: Uint8Array = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

/** The body of `/api/big`: 10400 bytes of text. */
export const BIG: string = Array.from({ length: 400 }, (_, i) => `line ${String(i).padStart(4, "0")} of the big body\n`)
  .join("").slice(0, 10400).padEnd(10400, ".");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** A running test site. */
export interface Site extends AsyncDisposable {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** `http://localhost:<port>`: a second origin of the same server. */
  readonly altOrigin: string;
  /** How many requests to `/api/hang` the client gave up on (closed before the answer). */
  hangsAbandoned(): number;
}

/** Starts the site on a free loopback port; dispose to stop it (hanging requests are released). */
export function startSite(): Site {
  const release = new AbortController();
  const json = (body: unknown, init: ResponseInit = {}) =>
    new Response(JSON.stringify(body), {
      ...init,
      headers: { "content-type": "application/json", "x-test-marker": "mapper", ...(init.headers ?? {}) },
    });
  let cart = 0;
  let abandoned = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const p = url.pathname;
    if (p === "/shop" || p.startsWith("/shop/")) {
      return new Response(await Deno.readFile(join(DIR, "shop.html")), {
        headers: { "content-type": TYPES[".html"]! },
      });
    }
    if (p === "/api/cart" && req.method === "POST") {
      const body = await req.json().catch(() => ({}));
      return json({ ok: true, product_id: body.product_id ?? null, count: ++cart });
    }
    if (p === "/api/checkout") return json({ ok: false, error: "login required" }, { status: 401 });
    if (p === "/api/data") return json({ ok: true, via: url.searchParams.get("via") });
    if (p === "/api/echo") {
      const body = await req.text();
      return json({ received: body }, { status: 201 });
    }
    if (p === "/api/redirect") return new Response(null, { status: 302, headers: { location: "/api/redirect2" } });
    if (p === "/api/redirect2") {
      return new Response(null, { status: 301, headers: { location: "/api/data?via=redirect" } });
    }
    if (p.startsWith("/api/status/")) return json({ error: "boom" }, { status: Number(p.slice(12)) || 500 });
    if (p === "/api/empty") return new Response(null, { status: 204 });
    if (p === "/api/download") {
      return new Response("a file, not a page\n", {
        headers: { "content-type": "application/octet-stream", "content-disposition": 'attachment; filename="x.bin"' },
      });
    }
    if (p === "/api/big") return new Response(BIG, { headers: { "content-type": "text/plain; charset=utf-8" } });
    if (p === "/api/binary" || p === "/img.png") {
      return new Response(PNG.slice(), { headers: { "content-type": "image/png" } });
    }
    if (p === "/font.woff2") return new Response(new Uint8Array(64), { headers: { "content-type": "font/woff2" } });
    if (p === "/api/cookie") {
      return json({ cookie: true }, { headers: { "set-cookie": "session=t0p-s3cret; Path=/" } });
    }
    if (p === "/api/hang") {
      await new Promise<void>((resolve) => {
        release.signal.addEventListener("abort", () => resolve(), { once: true });
        req.signal.addEventListener("abort", () => resolve(), { once: true });
      });
      if (req.signal.aborted && !release.signal.aborted) abandoned++;
      return new Response("released");
    }
    if (p.startsWith("/api/n/")) return new Response(p.slice(7), { headers: { "content-type": "text/plain" } });
    const file = p === "/" ? "index.html" : p.slice(1);
    if (/^[\w.-]+$/.test(file) && file !== "server.ts") {
      try {
        const body = await Deno.readFile(join(DIR, file));
        return new Response(body, { headers: { "content-type": TYPES[extname(file)] ?? "application/octet-stream" } });
      } catch {
        // fall through
      }
    }
    return new Response("not found", { status: 404, headers: { "content-type": "text/plain" } });
  });
  const port = server.addr.port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    altOrigin: `http://localhost:${port}`,
    hangsAbandoned: () => abandoned,
    async [Symbol.asyncDispose]() {
      release.abort();
      await server.shutdown();
    },
  };
}
