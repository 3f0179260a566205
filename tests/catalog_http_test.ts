/**
 * The catalog HTTP API through a real server on loopback: every endpoint, status, header and error, the OpenAPI
 * document and the bodies it describes, archives, takedowns, hostile input, the static export and `--watch`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Validator } from "@seriousme/openapi-schema-validator";
import { parse as parseYaml } from "yaml";
import {
  type CatalogServer,
  CorpusChangedError,
  loaderStats,
  readCatalogGallery,
  type Snapshot,
  startCatalogServer,
  writeSnapshot,
} from "../src/catalog/mod.ts";
import { copyTree, listFiles, ROOT, tempDir } from "./_helpers.ts";
import { testCertificates } from "./_https.ts";

const FIXTURE = join(ROOT, "tests", "fixtures", "catalog", "gallery");
/** 2026-11-21T12:00:00Z */
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const PUBLISHED = ["beta", "alpha", "gamma", "hostile"]; // updated desc, then slug

/**
 * Replaces a file in one step (write beside, then rename), as editors do: a watcher never sees it half-written, so
 * a rebuild never reads a truncated file between two events.
 */
async function writeAtomically(path: string, text: string): Promise<void> {
  const scratch = await Deno.makeTempFile({ prefix: "mapper-edit-" });
  await Deno.writeTextFile(scratch, text);
  await Deno.rename(scratch, path);
}

interface Started extends AsyncDisposable {
  server: CatalogServer;
  gallery: string;
  logs: string[];
  get(path: string, init?: RequestInit): Promise<Response>;
}

/** Copies the fixture gallery (then lets the test alter it) and serves it on 127.0.0.1:0. */
async function serveFixture(
  options: { alter?: (gallery: string) => Promise<void>; watch?: boolean; strict?: boolean; baseUrl?: string } = {},
): Promise<Started> {
  const tmp = await tempDir("mapper-catalog-");
  const gallery = tmp.join("gallery");
  await copyTree(FIXTURE, gallery);
  await options.alter?.(gallery);
  const logs: string[] = [];
  let server: CatalogServer;
  try {
    server = await startCatalogServer({
      gallery,
      port: 0,
      host: "127.0.0.1",
      now: () => NOW,
      git: false,
      watch: options.watch ?? false,
      strict: options.strict ?? false,
      debounceMs: 50,
      log: (line) => logs.push(line),
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    });
  } catch (err) {
    await tmp[Symbol.asyncDispose]();
    throw err;
  }
  return {
    server,
    gallery,
    logs,
    get: (path, init) => fetch(new URL(path, server.url), init),
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await tmp[Symbol.asyncDispose]();
    },
  };
}

async function json(res: Response): Promise<Record<string, unknown>> {
  assert.match(res.headers.get("content-type") ?? "", /^application\/json; charset=utf-8$/);
  return await res.json();
}

/** Compiles the OpenAPI document's component schemas with ajv 2020 (the document's own schemas). */
function schemaValidators(doc: Record<string, unknown>) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat("uri", (s: string) => URL.canParse(s));
  ajv.addSchema({ ...doc, $id: "https://mapper.invalid/openapi.json" });
  const compile = (name: string) =>
    ajv.compile({ $ref: `https://mapper.invalid/openapi.json#/components/schemas/${name}` });
  const v = { Error: compile("Error"), AtlasEntry: compile("AtlasEntry"), AtlasCatalog: compile("AtlasCatalog") };
  return (name: keyof typeof v, body: unknown) => {
    const ok = v[name](body);
    assert.ok(ok, `${name}: ${JSON.stringify(v[name].errors)} in ${JSON.stringify(body).slice(0, 300)}`);
  };
}

Deno.test("atlas serve - /api/atlas lists accepted entries, updated desc then slug, compact, cached 300 s, CORS", async () => {
  await using s = await serveFixture({ baseUrl: "https://atlas.example.org/" });
  const res = await s.get("/api/atlas");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "public, max-age=300");
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.match(res.headers.get("etag") ?? "", /^"[A-Za-z0-9_-]+"$/);
  const text = await res.clone().text();
  assert.ok(!text.includes("\n"), "compact JSON");
  const body = await json(res);
  assert.deepEqual(Object.keys(body), ["schema_version", "entries"]);
  assert.equal(body.schema_version, 1);
  const entries = body.entries as Array<Record<string, unknown>>;
  assert.deepEqual(entries.map((e) => e.slug), PUBLISHED);
  assert.deepEqual(Object.keys(entries[0]!), [
    "slug",
    "name",
    "site_url",
    "domains",
    "description",
    "categories",
    "updated",
    "last_verified",
    "stats",
    "html",
    "markdown",
    "archive",
  ]);
  assert.equal(entries[0]!.html, "https://atlas.example.org/atlas/beta");
  assert.equal(entries[0]!.markdown, "https://atlas.example.org/atlas/beta.md");
  assert.equal(entries[0]!.archive, "https://atlas.example.org/atlas/beta.tar.gz");
});

Deno.test("atlas serve - /api/atlas/{slug} answers the AtlasEntry with twin URLs from the listening URL by default", async () => {
  await using s = await serveFixture();
  const base = s.server.url.replace(/\/$/, "");
  const body = await json(await s.get("/api/atlas/alpha"));
  assert.deepEqual(body, {
    slug: "alpha",
    name: "Alpha",
    site_url: "https://alpha.example.com/",
    domains: ["alpha.example.com"],
    description: "Alpha fixture: one view, one global, one request.",
    categories: ["devtools"],
    updated: "2026-03-01",
    last_verified: "2026-01-02",
    stats: { views: 1, components: 2, requests: 1, messages: 0, properties: 1, memory: 0 },
    html: `${base}/atlas/alpha`,
    markdown: `${base}/atlas/alpha.md`,
    archive: `${base}/atlas/alpha.tar.gz`,
  });
});

Deno.test("atlas serve - /atlas/index.json is the full gallery record in fixed key order, slug order", async () => {
  await using s = await serveFixture();
  const res = await s.get("/atlas/index.json");
  assert.equal(res.headers.get("cache-control"), "public, max-age=0, must-revalidate");
  assert.equal(res.headers.get("access-control-allow-origin"), null);
  const text = await res.text();
  assert.ok(text.endsWith("}\n") && text.includes('\n  "entries": ['), "2-space JSON with a trailing newline");
  const body = JSON.parse(text);
  assert.deepEqual(Object.keys(body), ["schema_version", "generated_at", "entries"]);
  assert.equal(body.generated_at, "2026-11-21T12:00:00Z");
  assert.deepEqual(body.entries.map((e: { slug: string }) => e.slug), ["alpha", "beta", "gamma", "hostile"]);
  const beta = body.entries[1];
  assert.deepEqual(Object.keys(beta), [
    "slug",
    "name",
    "site_url",
    "domains",
    "description",
    "categories",
    "author",
    "created",
    "updated",
    "last_verified",
    "cli_version",
    "spec_version",
    "method",
    "auth",
    "stats",
    "per_view",
    "screenshots",
    "files",
    "commit",
  ]);
  assert.deepEqual(beta.files, [
    ".mapper/config.yaml",
    ".mapper/home.yaml",
    ".mapper/shared.yaml",
    ".mapper/shared/nav.yaml",
  ]);
  assert.deepEqual(beta.screenshots, ["screenshots/01-home.png"]);
  assert.deepEqual(beta.per_view, [
    { name: "Home", route: "/", components: 1, requests: 1 },
    { name: "Docs", route: "/docs/:page", components: 1, requests: 0 },
  ]);
  assert.deepEqual(beta.stats, { views: 2, components: 4, requests: 1, messages: 0, properties: 1, memory: 0 });
  assert.equal(beta.commit, null);
});

Deno.test("atlas serve - the twins: HTML page, verbatim markdown, archive without Content-Encoding, screenshots", async () => {
  await using s = await serveFixture();
  const html = await s.get("/atlas/beta");
  assert.equal(html.status, 200);
  assert.equal(html.headers.get("content-type"), "text/html; charset=utf-8");
  assert.match(html.headers.get("content-security-policy") ?? "", /default-src 'none'/);
  const page = await html.text();
  assert.match(
    page,
    /<code>mapper atlas add beta --index https?:\/\/[^<\s]+\/atlas\/index\.json<\/code>/,
    "install command",
  );
  assert.ok(page.includes("<td>Docs</td><td><code>/docs/:page</code></td><td>1</td><td>0</td>"), "per-view table");
  assert.ok(page.includes("<dt>Author</dt><dd>fixture-author</dd>"), "metadata");
  assert.ok(page.includes('<img src="/atlas/screenshots/beta/01-home.png"'), "screenshot");
  assert.ok(page.includes('<link rel="alternate" type="text/markdown"'), "markdown alternate");

  const md = await s.get("/atlas/beta.md");
  assert.equal(md.headers.get("content-type"), "text/markdown; charset=utf-8");
  assert.deepEqual(
    new Uint8Array(await md.arrayBuffer()),
    await Deno.readFile(join(s.gallery, "entries/beta/README.md")),
  );

  const tgz = await s.get("/atlas/beta.tar.gz", { headers: { "Accept-Encoding": "gzip, br" } });
  assert.equal(tgz.status, 200);
  assert.equal(tgz.headers.get("content-type"), "application/gzip");
  assert.equal(tgz.headers.get("content-encoding"), null);
  assert.equal(tgz.headers.get("vary"), null, "one representation: never re-encoded");
  assert.equal(s.server.current().resources.get("/atlas/beta.tar.gz")?.compressible, false);
  const bytes = new Uint8Array(await tgz.arrayBuffer());
  assert.deepEqual([...bytes.subarray(0, 10)], [0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0x02, 0x03]);
  const tar = gunzipSync(bytes);
  const names: string[] = [];
  for (let at = 0; at + 512 <= tar.length; at += 512) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = new TextDecoder().decode(header.subarray(0, 100)).replace(/\0+$/, "");
    const size = parseInt(new TextDecoder().decode(header.subarray(124, 135)), 8);
    assert.equal(new TextDecoder().decode(header.subarray(100, 107)), "0000644");
    assert.equal(new TextDecoder().decode(header.subarray(136, 147)), "00000000000");
    assert.equal(String.fromCharCode(header[156]!), "0");
    names.push(name);
    at += Math.ceil(size / 512) * 512;
  }
  // Per-directory walk: shared/ sorts before shared.yaml.
  assert.deepEqual(names, [
    ".mapper/config.yaml",
    ".mapper/home.yaml",
    ".mapper/shared/nav.yaml",
    ".mapper/shared.yaml",
  ]);

  const shot = await s.get("/atlas/screenshots/beta/01-home.png");
  assert.equal(shot.status, 200);
  assert.equal(shot.headers.get("content-type"), "image/png");
  assert.deepEqual(
    new Uint8Array(await shot.arrayBuffer()),
    await Deno.readFile(join(s.gallery, "entries/beta/screenshots/01-home.png")),
  );
});

Deno.test("atlas serve - the OpenAPI document is valid OpenAPI 3.1, the same in JSON and YAML, served from the base URL", async () => {
  await using s = await serveFixture({ baseUrl: "https://atlas.example.org" });
  const res = await s.get("/openapi.json");
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  const doc = await json(res);
  const result = await new Validator().validate(doc);
  assert.deepEqual(result, { valid: true });
  assert.equal(doc.openapi, "3.1.0");
  assert.equal((doc.info as { version: string }).version, "1.0.0");
  assert.equal((doc.servers as Array<{ url: string }>)[0]!.url, "https://atlas.example.org");
  assert.deepEqual(Object.keys(doc.paths as object), [
    "/openapi.json",
    "/api/openapi.yaml",
    "/api/atlas",
    "/api/atlas/{slug}",
    "/llms.txt",
    "/atlas/index.json",
  ]);
  const schemas = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
  assert.equal(schemas.Error!.additionalProperties, false);
  assert.deepEqual(schemas.Error!.required, ["error"]);
  assert.deepEqual(schemas.AtlasEntry!.required, ["slug", "name", "domains", "html", "markdown", "archive"]);
  assert.deepEqual(schemas.AtlasCatalog!.required, ["schema_version", "entries"]);

  const yaml = await s.get("/api/openapi.yaml");
  assert.equal(yaml.headers.get("content-type"), "application/yaml; charset=utf-8");
  assert.equal(yaml.headers.get("access-control-allow-origin"), "*");
  assert.deepEqual(parseYaml(await yaml.text()), doc);
});

Deno.test("atlas serve - every 200, 404 and 405 body matches the OpenAPI document's own schemas", async () => {
  await using s = await serveFixture();
  const check = schemaValidators(await (await s.get("/openapi.json")).json());
  check("AtlasCatalog", await (await s.get("/api/atlas")).json());
  for (const slug of PUBLISHED) check("AtlasEntry", await (await s.get(`/api/atlas/${slug}`)).json());
  for (const path of ["/api/atlas/nope", "/api/nothing", "/api", "/atlas/nope.tar.gz", "/nope"]) {
    const res = await s.get(path);
    assert.equal(res.status, 404, path);
    check("Error", await res.json());
  }
  for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
    const res = await s.get("/api/atlas", { method, body: method === "DELETE" ? null : "{}" });
    assert.equal(res.status, 405, method);
    check("Error", await res.json());
  }
});

Deno.test("atlas serve - unknown API paths and slugs are 404 not_found naming /llms.txt and /openapi.json, no-store", async () => {
  await using s = await serveFixture({ baseUrl: "https://atlas.example.org" });
  for (const path of ["/api/atlas/nope", "/api/atlas/alpha/extra", "/api/whatever", "/api/atlas/bad-schema"]) {
    const res = await s.get(path);
    assert.equal(res.status, 404, path);
    assert.equal(res.headers.get("cache-control"), "no-store");
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.equal(res.headers.get("etag"), null);
    const body = await json(res);
    const error = body.error as Record<string, unknown>;
    assert.deepEqual(Object.keys(error), ["code", "message", "hint", "status"]);
    assert.equal(error.code, "not_found");
    assert.equal(error.status, 404);
    assert.ok(String(error.message).includes(path), `message names ${path}`);
    assert.match(String(error.hint), /https:\/\/atlas\.example\.org\/llms\.txt/);
    assert.match(String(error.hint), /https:\/\/atlas\.example\.org\/openapi\.json/);
  }
});

Deno.test("atlas serve - a browser's miss outside the API is an HTML 404 page linking home; API clients keep JSON", async () => {
  await using s = await serveFixture({ baseUrl: "https://atlas.example.org/mirror" });
  const browser = { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } };
  for (const path of ["/atlas/nope", "/atlas/taken-down", "/nothing/here"]) {
    const res = await s.get(path, browser);
    assert.equal(res.status, 404, path);
    assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8", path);
    assert.equal(res.headers.get("cache-control"), "no-store");
    assert.match(res.headers.get("content-security-policy") ?? "", /default-src 'none'/);
    assert.match(res.headers.get("vary") ?? "", /Accept,/);
    const page = await res.text();
    assert.match(page, /<h1>Not found<\/h1>/);
    assert.ok(page.includes('<a href="/mirror/atlas">Browse the mapper atlas</a>'), "links home under the base path");
  }
  // Without text/html (curl, fetch, agents) and anywhere under the API: the JSON error, as before.
  for (const [path, init] of [["/atlas/nope", {}], ["/api/atlas/nope", browser]] as const) {
    const res = await s.get(path, init);
    assert.equal(res.status, 404, path);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/, path);
    assert.equal((await json(res) as { error: { code: string } }).error.code, "not_found");
  }
});

Deno.test("atlas serve - the listing shows one short install command per entry and the catalog setting once", async () => {
  await using s = await serveFixture({ baseUrl: "https://mirror.example.org" });
  const page = await (await s.get("/atlas")).text();
  for (const slug of PUBLISHED) assert.ok(page.includes(`<code>mapper atlas add ${slug}</code>`), slug);
  assert.equal(page.split("--index").length - 1, 0, "no --index repeated per entry");
  assert.equal(
    page.split("export MAPPER_ATLAS_INDEX=https://mirror.example.org/atlas/index.json").length - 1,
    1,
    "the catalog is named once",
  );
  assert.match(page, /<input id="q" type="search"/);
  assert.match(page, /<script src="\/atlas\/filter\.js" defer><\/script>/);
  const script = await s.get("/atlas/filter.js");
  assert.equal(script.status, 200);
  assert.equal(script.headers.get("content-type"), "text/javascript; charset=utf-8");
  assert.match(await script.text(), /addEventListener\("input"/);
  // The entry page says "1 request", not "1 requests".
  const entry = await (await s.get("/atlas/alpha")).text();
  assert.match(
    entry,
    /<dt>Totals<\/dt><dd>1 view, 2 components, 1 request, 0 messages, 1 property, 0 memory notes<\/dd>/,
  );
});

Deno.test("atlas serve - other methods are 405 method_not_allowed with Allow: GET, HEAD; OPTIONS preflights the API", async () => {
  await using s = await serveFixture();
  for (const path of ["/api/atlas", "/atlas/alpha", "/llms.txt", "/atlas/alpha.tar.gz"]) {
    const res = await s.get(path, { method: "POST", body: "x" });
    assert.equal(res.status, 405, path);
    assert.equal(res.headers.get("allow"), "GET, HEAD");
    assert.equal(res.headers.get("cache-control"), "no-store");
    const body = await json(res);
    assert.equal((body.error as { code: string }).code, "method_not_allowed");
    assert.equal((body.error as { status: number }).status, 405);
  }
  for (const path of ["/api/atlas", "/api/atlas/alpha", "/openapi.json", "/api/openapi.yaml"]) {
    const res = await s.get(path, {
      method: "OPTIONS",
      headers: { Origin: "https://agent.example", "Access-Control-Request-Method": "GET" },
    });
    assert.equal(res.status, 204, path);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.match(res.headers.get("access-control-allow-methods") ?? "", /GET, HEAD/);
    await res.body?.cancel();
  }
  const page = await s.get("/atlas/alpha", { method: "OPTIONS" });
  assert.equal(page.status, 405);
  await page.body?.cancel();
});

Deno.test("atlas serve - trailing slashes and query strings are ignored; HEAD sends headers only", async () => {
  await using s = await serveFixture();
  const plain = await (await s.get("/api/atlas/alpha")).text();
  for (const path of ["/api/atlas/alpha/", "/api/atlas/alpha?x=1&y", "/api/atlas/alpha/?q=2"]) {
    const res = await s.get(path);
    assert.equal(res.status, 200, path);
    assert.equal(await res.text(), plain);
  }
  assert.equal((await s.get("/api/atlas/?page=2")).status, 200);
  const identity = { "Accept-Encoding": "identity" };
  const get = await s.get("/llms.txt", { headers: identity });
  const body = new Uint8Array(await get.arrayBuffer());
  const head = await s.get("/llms.txt", { method: "HEAD", headers: identity });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-type"), "text/plain; charset=utf-8");
  assert.equal(head.headers.get("etag"), get.headers.get("etag"));
  assert.equal(head.headers.get("content-length"), String(body.length));
  assert.equal((await head.arrayBuffer()).byteLength, 0);
  const missing = await s.get("/api/atlas/nope", { method: "HEAD" });
  assert.equal(missing.status, 404);
  assert.equal((await missing.arrayBuffer()).byteLength, 0);
});

Deno.test("atlas serve - ETag on every 200 and 304 on If-None-Match, for identity and encoded variants", async () => {
  await using s = await serveFixture();
  for (
    const path of [
      "/api/atlas",
      "/api/atlas/beta",
      "/atlas/index.json",
      "/atlas/beta",
      "/atlas/beta.md",
      "/atlas/beta.tar.gz",
      "/llms.txt",
      "/openapi.json",
      "/api/openapi.yaml",
      "/atlas/screenshots/beta/01-home.png",
      "/",
    ]
  ) {
    const res = await s.get(path);
    assert.equal(res.status, 200, path);
    await res.body?.cancel();
    const etag = res.headers.get("etag");
    assert.ok(etag, `ETag on ${path}`);
    const again = await s.get(path, { headers: { "If-None-Match": etag } });
    assert.equal(again.status, 304, path);
    assert.equal(again.headers.get("etag"), etag);
    assert.equal((await again.arrayBuffer()).byteLength, 0);
  }
  const br = await s.get("/atlas/index.json", { headers: { "Accept-Encoding": "br" } });
  await br.body?.cancel();
  const notModified = await s.get("/atlas/index.json", {
    headers: { "Accept-Encoding": "br", "If-None-Match": `W/${br.headers.get("etag")}` },
  });
  assert.equal(notModified.status, 304);
  await notModified.body?.cancel();
  const changed = await s.get("/atlas/index.json", { headers: { "If-None-Match": '"something-else"' } });
  assert.equal(changed.status, 200);
  await changed.body?.cancel();
});

Deno.test("atlas serve - text bodies are gzip or brotli encoded when asked, byte-identical once decoded", async () => {
  await using s = await serveFixture();
  const identity = new Uint8Array(
    await (await s.get("/atlas/index.json", { headers: { "Accept-Encoding": "identity" } })).arrayBuffer(),
  );
  for (const coding of ["gzip", "br"] as const) {
    const res = await s.get("/atlas/index.json", { headers: { "Accept-Encoding": coding } });
    assert.equal(res.headers.get("content-encoding"), coding);
    assert.equal(res.headers.get("vary"), "Accept-Encoding");
    assert.notEqual(res.headers.get("etag"), null);
    // fetch decodes gzip and br transparently: the decoded body equals the identity body.
    assert.deepEqual(new Uint8Array(await res.arrayBuffer()), identity);
  }
  const refused = await s.get("/atlas/index.json", { headers: { "Accept-Encoding": "br;q=0, gzip;q=0" } });
  assert.equal(refused.headers.get("content-encoding"), null);
  await refused.body?.cancel();
});

/** Sends one raw HTTP/1.1 request line and returns the status line. */
async function rawStatus(port: number, target: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(
      new TextEncoder().encode(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(4096);
    while (true) {
      const n = await conn.read(buf);
      if (n === null) break;
      chunks.push(buf.slice(0, n));
    }
    const text = new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])));
    return text.split("\r\n")[0] ?? "";
  } finally {
    conn.close();
  }
}

Deno.test("atlas serve - path traversal attempts are 404, never a file outside the snapshot", async () => {
  await using s = await serveFixture();
  for (
    const path of [
      "/atlas/../../etc/passwd",
      "/atlas/%2e%2e/%2e%2e/etc/passwd",
      "/atlas/..%2f..%2fetc%2fpasswd",
      "/atlas/screenshots/beta/..%2f..%2f..%2fREADME.md",
      "/atlas/alpha/../../../../etc/hosts",
      "/atlas/%2e%2e%5c%2e%2e%5cetc%5cpasswd",
      "/atlas/%252e%252e/%252e%252e/etc/passwd",
      "/atlas/%252e%252e%252f%252e%252e%252fetc%252fpasswd",
      "/api/atlas/..%2f..%2fentries%2falpha%2fREADME.md",
      "/atlas/alpha%2f..%2f..%2fremoved.yaml",
    ]
  ) {
    const res = await s.get(path);
    assert.equal(res.status, 404, path);
    assert.ok(!(await res.text()).includes("root:"), path);
  }
  const port = Number(new URL(s.server.url).port);
  for (
    const target of [
      "/../../etc/passwd",
      "/atlas/../../../etc/passwd",
      "/atlas/%2e%2e/%2e%2e/etc/passwd",
      "/atlas/..\\..\\etc\\passwd",
      "/atlas\\..\\..\\removed.yaml",
      "/entries/alpha/README.md",
      "/removed.yaml",
    ]
  ) {
    const status = await rawStatus(port, target);
    assert.match(status, /^HTTP\/1\.1 (404|400)/, `${target}: ${status}`);
  }
});

Deno.test("atlas serve - a hostile README is rendered escaped: no script, no event handlers, no javascript: links", async () => {
  await using s = await serveFixture();
  const page = await (await s.get("/atlas/hostile")).text();
  const article = page.slice(page.indexOf("<article>"), page.indexOf("</article>"));
  assert.ok(!/<script/i.test(article), "no script element");
  assert.ok(article.includes("&lt;script&gt;"), "script tag shown as text");
  assert.ok(!/<img/i.test(article), "no img element from the README");
  assert.ok(!/href="javascript:/i.test(page), "no javascript: link");
  assert.ok(!/href="data:/i.test(page), "no data: link");
  assert.ok(article.includes('<a href="https://example.com/docs" rel="nofollow noopener">ok</a>'), "safe link kept");
  assert.ok(!page.includes('src="https://tracker.example.net'), "off-site images become links");
  assert.ok(!/<(iframe|style|a href="javascript)/i.test(article), "raw HTML escaped");
  assert.ok(article.includes("&lt;iframe"), "raw iframe shown as text");
  const hrefs = [...article.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
  assert.ok(hrefs.length > 0 && hrefs.every((h) => /^https:\/\//.test(h)), hrefs.join(" "));
  assert.ok(article.includes("![pwn](javascript:alert%281%29)"), "an image with a javascript: source stays text");
  // The markdown twin stays verbatim.
  assert.ok((await (await s.get("/atlas/hostile.md")).text()).includes('<script>alert("owned")</script>'));
});

Deno.test("atlas serve - invalid entries are left out of every surface with a warning naming entry and rule", async () => {
  await using s = await serveFixture({
    alter: async (g) => {
      await Deno.mkdir(join(g, "entries", "no-readme", ".mapper"), { recursive: true });
      await Deno.writeTextFile(join(g, "entries", "no-readme", ".mapper", "config.yaml"), "version: 1\n");
      await Deno.mkdir(join(g, "entries", "bad-corpus", ".mapper"), { recursive: true });
      const readme = await Deno.readTextFile(join(g, "entries", "alpha", "README.md"));
      await Deno.writeTextFile(join(g, "entries", "bad-corpus", "README.md"), readme.replaceAll("alpha", "bad-corpus"));
      await Deno.writeTextFile(join(g, "entries", "bad-corpus", ".mapper", "config.yaml"), "version: 1\n");
      await Deno.writeTextFile(join(g, "entries", "bad-corpus", ".mapper", "views.yaml"), "views: [unclosed\n");
      await Deno.mkdir(join(g, "entries", "Wrong_Slug"));
    },
  });
  const warnings = s.server.current().warnings.map((w) => `${w.entry}/${w.rule}`);
  for (
    const expected of ["bad-schema/schema", "no-readme/front-matter", "bad-corpus/corpus", "Wrong_Slug/slug-format"]
  ) {
    assert.ok(warnings.includes(expected), `${expected} in ${warnings.join(", ")}`);
  }
  const index = await (await s.get("/atlas/index.json")).text();
  const llms = await (await s.get("/llms.txt")).text();
  const catalog = await (await s.get("/api/atlas")).text();
  for (const slug of ["bad-schema", "no-readme", "bad-corpus"]) {
    assert.ok(!index.includes(`"slug": "${slug}"`), slug);
    assert.ok(!catalog.includes(`"${slug}"`), slug);
    assert.ok(!llms.includes(`/atlas/${slug}.md`), slug);
    for (const path of [`/api/atlas/${slug}`, `/atlas/${slug}`, `/atlas/${slug}.md`, `/atlas/${slug}.tar.gz`]) {
      const res = await s.get(path);
      assert.equal(res.status, 404, path);
      await res.body?.cancel();
    }
  }
});

Deno.test("atlas serve - a takedown (removed.yaml or deleted directory) vanishes from every surface in one snapshot", async () => {
  await using s = await serveFixture({ watch: true });
  const gone = async (slug: string) => {
    const index = await (await s.get("/atlas/index.json")).text();
    assert.ok(!index.includes(`"slug": "${slug}"`), `${slug} not findable`);
    assert.ok(!(await (await s.get("/api/atlas")).text()).includes(`"slug":"${slug}"`));
    assert.ok(!(await (await s.get("/llms.txt")).text()).includes(`atlas add ${slug}`));
    assert.ok(!(await (await s.get("/")).text()).includes(`/atlas/${slug}"`));
    for (const path of [`/api/atlas/${slug}`, `/atlas/${slug}`, `/atlas/${slug}.md`, `/atlas/${slug}.tar.gz`]) {
      const res = await s.get(path);
      assert.equal(res.status, 404, `${path} not installable or readable`);
      await res.body?.cancel();
    }
  };
  // Tombstoned while its directory lingers.
  assert.deepEqual(s.server.current().withheld, ["taken-down"]);
  await gone("taken-down");

  // Deleting a directory under --watch: the next snapshot drops it everywhere at once.
  const before = s.server.current();
  assert.ok(before.slugs.includes("gamma"));
  const next = s.server.nextRebuild();
  await Deno.remove(join(s.gallery, "entries", "gamma"), { recursive: true });
  const after = await next;
  assert.ok(!after.slugs.includes("gamma"));
  await gone("gamma");
  assert.ok(s.logs.includes("[atlas] rebuilt (3 entries, 1 left out): removed gamma"), s.logs.join("\n"));

  // Adding a slug to removed.yaml takes it down too.
  const next2 = s.server.nextRebuild();
  await writeAtomically(join(s.gallery, "removed.yaml"), "- slug: taken-down\n- slug: alpha\n");
  await next2;
  await gone("alpha");
});

Deno.test("atlas serve - --watch logs what changed and keeps the last good snapshot when a change breaks the gallery", async () => {
  await using s = await serveFixture({ watch: true });
  const readme = join(s.gallery, "entries", "alpha", "README.md");
  const next = s.server.nextRebuild();
  await writeAtomically(readme, (await Deno.readTextFile(readme)).replace("# Alpha", "# Alpha, edited"));
  await next;
  assert.ok(s.logs.includes("[atlas] rebuilt (4 entries, 1 left out): changed alpha"), s.logs.join("\n"));
  assert.ok((await (await s.get("/atlas/alpha.md")).text()).includes("# Alpha, edited"));

  const good = s.server.current();
  const failed = s.server.nextRebuild().then(() => "swapped", () => "failed");
  await writeAtomically(join(s.gallery, "removed.yaml"), "- slug: [unclosed\n");
  assert.equal(await failed, "failed");
  assert.equal(s.server.current(), good);
  assert.ok(s.logs.some((l) => l.startsWith("[atlas] rebuild failed, still serving the last good snapshot")));
  assert.equal((await s.get("/api/atlas/alpha")).status, 200);

  // An entry that turns invalid is left out (not a failed rebuild), and the line says so with the rule.
  const leftOut = s.server.nextRebuild();
  await writeAtomically(join(s.gallery, "removed.yaml"), "- slug: taken-down\n");
  const gamma = join(s.gallery, "entries", "gamma", "README.md");
  await writeAtomically(gamma, (await Deno.readTextFile(gamma)).replace("name: Gamma", "name: ''"));
  await leftOut;
  if (s.server.current().slugs.includes("gamma")) await s.server.nextRebuild(); // the two writes came apart
  assert.ok(s.logs.includes("[atlas] rebuilt (3 entries, 2 left out): left out gamma (schema)"), s.logs.join("\n"));
  assert.ok(
    s.logs.includes('[atlas] warning: entry "gamma" left out (schema): name: must be 1 to 50 characters, found 0'),
  );
});

Deno.test("atlas serve - --watch --strict keeps the last good snapshot when a change leaves an entry out", async () => {
  await using s = await serveFixture({
    watch: true,
    strict: true,
    alter: async (g) => await Deno.remove(join(g, "entries", "bad-schema"), { recursive: true }),
  });
  const good = s.server.current();
  assert.equal(good.warnings.length, 0);
  const failed = s.server.nextRebuild().then(() => "swapped", (err) => String(err));
  const readme = join(s.gallery, "entries", "alpha", "README.md");
  await writeAtomically(readme, (await Deno.readTextFile(readme)).replace("name: Alpha", "name: ''"));
  assert.match(await failed, /--strict: entry "alpha" left out \(schema\)/);
  assert.equal(s.server.current(), good);
  assert.ok(s.logs.some((l) => /^\[atlas\] rebuild failed, still serving the last good snapshot: --strict/.test(l)));
  assert.equal((await s.get("/api/atlas/alpha")).status, 200);
});

Deno.test("atlas serve - archive bytes and stats come from the same corpus: a file changed between reads is read again", async () => {
  await using tmp = await tempDir("mapper-catalog-race-");
  const gallery = tmp.join("gallery");
  await copyTree(FIXTURE, gallery);
  const home = join(gallery, "entries", "alpha", ".mapper", "home.yaml");
  const original = await Deno.readTextFile(home);
  const edited = `${original}\n# edited while the catalog was reading\n`;
  let calls = 0;
  const read = await readCatalogGallery(gallery, {
    git: false,
    stats: async (dir, archived) => {
      // An editor saves between the archive's read and the loader's read, the first time only.
      if (dir.includes("alpha") && calls++ === 0) await Deno.writeTextFile(home, edited);
      return await loaderStats(dir, archived);
    },
  });
  const alpha = read.entries.find((e) => e.front.slug === "alpha");
  assert.ok(alpha, JSON.stringify(read.warnings));
  assert.equal(calls, 2, "alpha read twice");
  const member = alpha.members.find((m) => m.name === ".mapper/home.yaml");
  assert.equal(new TextDecoder().decode(member?.data), edited, "the archive holds the bytes the stats came from");

  const stale = [{ name: ".mapper/config.yaml", data: new TextEncoder().encode("version: 2\n") }];
  await assert.rejects(
    () => loaderStats(join(gallery, "entries", "gamma", ".mapper"), stale),
    CorpusChangedError,
  );
});

Deno.test("atlas serve - archives are deterministic: two builds are byte-identical", async () => {
  await using a = await serveFixture();
  await using b = await serveFixture();
  for (const slug of PUBLISHED) {
    const x = new Uint8Array(await (await a.get(`/atlas/${slug}.tar.gz`)).arrayBuffer());
    const y = new Uint8Array(await (await b.get(`/atlas/${slug}.tar.gz`)).arrayBuffer());
    assert.deepEqual(x, y, slug);
  }
});

Deno.test("atlas serve - an entry whose .mapper/ or README.md is a symbolic link is withheld (nothing outside the gallery is published)", async () => {
  await using s = await serveFixture({
    alter: async (g) => {
      // The real files sit outside the gallery; the entries only link to them.
      const outside = join(g, "..", "outside");
      await Deno.mkdir(outside);
      await Deno.rename(join(g, "entries", "alpha", ".mapper"), join(outside, "corpus"));
      await Deno.symlink(join(outside, "corpus"), join(g, "entries", "alpha", ".mapper"));
      await Deno.rename(join(g, "entries", "gamma", "README.md"), join(outside, "README.md"));
      await Deno.symlink(join(outside, "README.md"), join(g, "entries", "gamma", "README.md"));
    },
  });
  const warnings = s.server.current().warnings;
  assert.ok(
    warnings.some((w) => w.entry === "alpha" && w.rule === "corpus" && w.detail === ".mapper is not a directory"),
    JSON.stringify(warnings),
  );
  assert.ok(
    warnings.some((w) => w.entry === "gamma" && w.rule === "front-matter" && /not a regular file/.test(w.detail)),
    JSON.stringify(warnings),
  );
  for (const slug of ["alpha", "gamma"]) {
    for (const path of [`/atlas/${slug}.tar.gz`, `/atlas/${slug}.md`, `/api/atlas/${slug}`, `/atlas/${slug}`]) {
      const res = await s.get(path);
      assert.equal(res.status, 404, path);
      await res.body?.cancel();
    }
  }
  const beta = await s.get("/atlas/beta.tar.gz");
  assert.equal(beta.status, 200);
  await beta.body?.cancel();
});

Deno.test("atlas serve - hostile corpora (symlinks, oversize files) are withheld from every surface", async () => {
  await using s = await serveFixture({
    alter: async (g) => {
      await Deno.symlink("/etc/passwd", join(g, "entries", "alpha", ".mapper", "passwd.yaml"));
      const big = new Uint8Array(4 * 1024 * 1024 + 1).fill(0x23);
      await Deno.writeFile(join(g, "entries", "gamma", ".mapper", "huge.yaml"), big);
      await Deno.symlink(join(g, "entries", "beta", "screenshots"), join(g, "entries", "hostile", "screenshots"));
    },
  });
  const warnings = s.server.current().warnings;
  assert.ok(warnings.some((w) => w.entry === "hostile" && w.rule === "screenshots"), "symlinked screenshots/");
  const shot = await s.get("/atlas/screenshots/hostile/01-home.png");
  assert.equal(shot.status, 404);
  await shot.body?.cancel();
  assert.ok(warnings.some((w) => w.entry === "alpha" && w.rule === "archive-limits" && /symbolic link/.test(w.detail)));
  assert.ok(warnings.some((w) => w.entry === "gamma" && w.rule === "archive-limits" && /4194304/.test(w.detail)));
  for (const slug of ["alpha", "gamma"]) {
    for (const path of [`/atlas/${slug}.tar.gz`, `/api/atlas/${slug}`, `/atlas/${slug}`]) {
      const res = await s.get(path);
      assert.equal(res.status, 404, path);
      await res.body?.cancel();
    }
    assert.ok(!(await (await s.get("/atlas/index.json")).text()).includes(`"slug": "${slug}"`));
  }
  assert.equal((await s.get("/atlas/beta.tar.gz")).status, 200);
});

Deno.test("atlas build - every server response body equals the exported file byte for byte, with _headers rules", async () => {
  await using s = await serveFixture({ baseUrl: "https://atlas.example.org" });
  await using out = await tempDir("mapper-catalog-out-");
  const snapshot: Snapshot = s.server.current();
  await writeSnapshot(snapshot, out.path);
  const files = await listFiles(out.path);
  assert.ok(files.includes("_headers") && files.includes("_redirects") && files.includes("404.html"));
  const headers = await Deno.readTextFile(out.join("_headers"));
  assert.equal(files.length, snapshot.resources.size + 3);
  assert.deepEqual(await Deno.readFile(out.join("404.html")), snapshot.notFoundHtml);
  for (const resource of snapshot.resources.values()) {
    const res = await s.get(resource.path);
    assert.equal(res.status, 200, resource.path);
    const served = new Uint8Array(await res.arrayBuffer());
    assert.deepEqual(served, await Deno.readFile(out.join(resource.file)), resource.path);
    assert.ok(
      headers.includes(
        `${resource.path}\n  Content-Type: ${res.headers.get("content-type")}\n  Cache-Control: ${
          res.headers.get("cache-control")
        }\n`,
      ),
      `_headers rule for ${resource.path}`,
    );
  }
  assert.ok((await Deno.readTextFile(out.join("_redirects"))).includes("/api/atlas /api/atlas.json 200\n"));
});

Deno.test("atlas serve - llms.txt lists accepted entries linking markdown twins with the mapper install command", async () => {
  await using s = await serveFixture({ baseUrl: "https://atlas.example.org" });
  const res = await s.get("/llms.txt");
  assert.equal(res.headers.get("content-type"), "text/plain; charset=utf-8");
  const text = await res.text();
  assert.ok(text.startsWith("# mapper atlas\n\n> "));
  const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  assert.deepEqual(sections, ["Docs", "mapper developer resources", "Atlas"]);
  assert.ok(text.includes("[OpenAPI specification](https://atlas.example.org/openapi.json)"));
  assert.ok(text.includes("fetch https://atlas.example.org/atlas/index.json and match your hostname"));
  const lines = text.split("\n").filter((l) => l.startsWith("- ["));
  const entryLines = lines.filter((l) => l.includes("/atlas/") && l.includes(".md)"));
  assert.deepEqual(entryLines.map((l) => /\/atlas\/([a-z0-9-]+)\.md\)/.exec(l)?.[1]), PUBLISHED);
  assert.equal(
    entryLines[0],
    "- [Beta](https://atlas.example.org/atlas/beta.md): beta.example.com. Beta fixture with a nested folder in its corpus. " +
      "2 views, 4 components, 1 request. Verified 2026-01-02. " +
      "`mapper atlas add beta --index https://atlas.example.org/atlas/index.json`",
  );
  assert.ok(!/sightmap/.test(text));
  assert.ok(text.endsWith("\n"));
});

Deno.test("atlas serve - HTTPS with --cert/--key serves the same API", async () => {
  const certs = await testCertificates();
  const tmp = await tempDir("mapper-catalog-tls-");
  await using _tmp = tmp;
  await copyTree(FIXTURE, tmp.join("g"));
  await using server = await startCatalogServer({
    gallery: tmp.join("g"),
    port: 0,
    host: "127.0.0.1",
    now: () => NOW,
    git: false,
    tls: { cert: certs.certPem, key: certs.keyPem },
    log: () => {},
  });
  assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+\/$/);
  using client = Deno.createHttpClient({ caCerts: [certs.caPem] });
  const res = await fetch(`${server.url}api/atlas/beta`, { client });
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as { archive: string }).archive, `${server.url}atlas/beta.tar.gz`);
});

Deno.test("atlas serve - the exported file paths answer too (/api/atlas.json, /atlas/<slug>/index.html)", async () => {
  await using s = await serveFixture();
  for (
    const [alias, path] of [["/api/atlas.json", "/api/atlas"], ["/api/atlas/alpha.json", "/api/atlas/alpha"], [
      "/atlas/alpha/index.html",
      "/atlas/alpha",
    ]] as const
  ) {
    const a = await s.get(alias);
    const b = await s.get(path);
    assert.equal(a.status, 200, alias);
    assert.equal(await a.text(), await b.text(), alias);
  }
});

Deno.test("atlas serve - commit is the last git commit touching the entry when the gallery is a git checkout", async () => {
  const git = async (cwd: string, ...args: string[]) => {
    const out = await new Deno.Command("git", {
      args: ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args],
      cwd,
      stdout: "piped",
      stderr: "piped",
      env: { GIT_CONFIG_NOSYSTEM: "1", HOME: cwd },
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout).trim();
  };
  await using tmp = await tempDir("mapper-catalog-git-");
  const repo = tmp.join("repo");
  await copyTree(FIXTURE, join(repo, "gallery"));
  await git(repo, "init", "-q");
  await git(repo, "add", ".");
  await git(repo, "commit", "-q", "-m", "first");
  const first = await git(repo, "rev-parse", "HEAD");
  await Deno.writeTextFile(join(repo, "gallery", "entries", "beta", "README.md"), "\n", { append: true });
  await git(repo, "commit", "-q", "-am", "touch beta");
  const second = await git(repo, "rev-parse", "HEAD");
  await Deno.mkdir(join(repo, "gallery", "entries", "delta"));
  await copyTree(join(repo, "gallery", "entries", "gamma"), join(repo, "gallery", "entries", "delta"));
  const readme = join(repo, "gallery", "entries", "delta", "README.md");
  await Deno.writeTextFile(readme, (await Deno.readTextFile(readme)).replaceAll("gamma", "delta"));

  await using server = await startCatalogServer({
    gallery: join(repo, "gallery"),
    port: 0,
    host: "127.0.0.1",
    now: () => NOW,
    log: () => {},
  });
  const index = await (await fetch(`${server.url}atlas/index.json`)).json();
  const commits = Object.fromEntries(
    index.entries.map((e: { slug: string; commit: string | null }) => [e.slug, e.commit]),
  );
  assert.deepEqual(commits, { alpha: first, beta: second, delta: null, gamma: first, hostile: first });
  const page = await (await fetch(`${server.url}atlas/beta`)).text();
  assert.ok(page.includes(`<code>${second.slice(0, 12)}</code>`));
});
