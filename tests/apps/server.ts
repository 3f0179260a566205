/**
 * Pages built from real front-end packages nobody here wrote, for the browser tests and benches: a Shoelace web-component
 * sign-up form (`/signup.html`), a Tom Select form (`/typeahead.html`), a 25-row Tabulator grid (`/grid.html`) and
 * Swagger UI on a small API description (`/api-console.html`) and a Material Web settings form (`/material.html`: Lit
 * components, form-associated, a menu in the top layer). The packages' own files are served from Deno's npm
 * cache under `/npm/<name>@<version>/…` (`tests/_npm.ts`, pinned exactly); the pages live beside this file, their
 * corpora under `corpora/<page>/` ({@linkcode appCorpus}). One loopback server; dispose to stop it.
 *
 * @module
 */
import { dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { npmPackageDir, PACKAGES } from "../_npm.ts";

const DIR = dirname(fileURLToPath(import.meta.url));

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};

/**
 * The corpus of one page (`signup`, `typeahead`, `grid`, `api-console`, `material`), written the natural way: a component is
 * the element the page author wrote, children for its inner parts. Shared by every test on these pages.
 */
export function appCorpus(page: "signup" | "typeahead" | "grid" | "api-console" | "material"): string {
  return join(DIR, "corpora", page);
}

/** The pages this server offers, by path. */
export const APP_PAGES = {
  signup: "/signup.html",
  typeahead: "/typeahead.html",
  grid: "/grid.html",
  apiConsole: "/api-console.html",
  material: "/material.html",
} as const;

/** The API description Swagger UI renders on `/api-console.html` (and `GET /api/pets` answers for "Try it out"). */
export const OPENAPI = {
  openapi: "3.0.3",
  info: { title: "Pet Store", version: "1.0.0", description: "A small API for the API console page." },
  paths: {
    "/api/pets": {
      get: {
        operationId: "listPets",
        summary: "List all pets",
        tags: ["pets"],
        parameters: [{ name: "limit", in: "query", required: false, schema: { type: "integer" } }],
        responses: { "200": { description: "The pets" } },
      },
      post: {
        operationId: "createPet",
        summary: "Create a pet",
        tags: ["pets"],
        requestBody: {
          content: { "application/json": { schema: { type: "object", properties: { name: { type: "string" } } } } },
        },
        responses: { "201": { description: "Created" } },
      },
    },
    "/api/pets/{petId}": {
      get: {
        operationId: "showPetById",
        summary: "Info for a specific pet",
        tags: ["pets"],
        parameters: [{ name: "petId", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "The pet" } },
      },
    },
    "/api/owners": {
      get: {
        operationId: "listOwners",
        summary: "List all owners",
        tags: ["owners"],
        responses: { "200": { description: "The owners" } },
      },
    },
  },
};

/** A running app server. */
export interface AppServer extends AsyncDisposable {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
}

const PINNED = new Map<string, string>(Object.values(PACKAGES).map((spec) => [spec, spec]));

/** `/npm/@scope/name@1.2.3/rest` → [spec, rest], only for a pinned package. */
function npmPath(path: string): [string, string] | undefined {
  const m = /^\/npm\/((?:@[^/]+\/)?[^/@]+@\d+\.\d+\.\d+)\/(.+)$/.exec(path);
  if (!m || !PINNED.has(m[1]!)) return undefined;
  return [m[1]!, m[2]!];
}

/** A file under `root`, or undefined when the path leaves it or names no regular file. */
async function fileUnder(root: string, rest: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const full = normalize(join(root, decodeURIComponent(rest)));
  if (!full.startsWith(root + sep)) return undefined;
  try {
    const info = await Deno.lstat(full);
    return info.isFile ? await Deno.readFile(full) : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the app server on a free loopback port (the packages are fetched into Deno's npm cache first if needed). */
export async function startApps(): Promise<AppServer> {
  const roots = new Map<string, string>();
  for (const spec of PINNED.keys()) roots.set(spec, await npmPackageDir(spec));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const p = new URL(req.url).pathname;
    const type = (file: string) => ({ "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    const npm = npmPath(p);
    if (npm) {
      const body = await fileUnder(roots.get(npm[0])!, npm[1]);
      if (body) return new Response(body, { headers: { ...type(npm[1]), "cache-control": "max-age=3600" } });
    } else if (p === "/api/openapi.json") {
      return Response.json(OPENAPI);
    } else if (p === "/api/pets" && req.method === "GET") {
      return Response.json([{ id: "1", name: "Rex" }, { id: "2", name: "Tom" }]);
    } else if (p === "/api/pets" && req.method === "POST") {
      return Response.json({ id: "3", ...(await req.json().catch(() => ({}))) }, { status: 201 });
    } else if (/^\/[\w.-]+\.(html|js|css)$/.test(p)) {
      const body = await fileUnder(DIR, p.slice(1));
      if (body) return new Response(body, { headers: type(p) });
    }
    return new Response("not found", { status: 404, headers: { "content-type": "text/plain" } });
  });
  const port = server.addr.port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

if (import.meta.main) {
  const apps = await startApps();
  // deno-lint-ignore no-console
  console.log(`app pages on ${apps.origin}: ${Object.values(APP_PAGES).join(" ")}`);
}
