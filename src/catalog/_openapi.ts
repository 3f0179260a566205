/**
 * The OpenAPI 3.1 description of the catalog API. One object,
 * served as JSON at `/openapi.json` and as YAML (produced by the `yaml` library) at `/api/openapi.yaml`.
 *
 * @module
 */
import { VERSION } from "../version.ts";

const json = (schema: Record<string, unknown>, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errors = {
  "404": { $ref: "#/components/responses/NotFound" },
  "405": { $ref: "#/components/responses/MethodNotAllowed" },
};
const discovery405 = { "405": { $ref: "#/components/responses/MethodNotAllowed" } };

/** Builds the OpenAPI document whose `servers[0].url` is the catalog's public base URL. */
export function openApiDocument(baseUrl: string): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "mapper atlas HTTP API",
      summary: "Public read-only HTTP API for the mapper atlas catalog",
      description: `Machine-readable surface of ${baseUrl}. No authentication. GET and HEAD only. ` +
        "Errors are JSON objects with error.code, error.message, error.hint and error.status.",
      version: "1.0.0",
      "x-mapper-version": VERSION,
    },
    servers: [{ url: baseUrl, description: "This catalog" }],
    tags: [
      { name: "Atlas", description: "Community-contributed corpora of live sites" },
      { name: "Discovery", description: "Site index and API description documents" },
    ],
    paths: {
      "/openapi.json": {
        get: {
          tags: ["Discovery"],
          operationId: "getOpenApi",
          summary: "OpenAPI specification",
          responses: { "200": json({ type: "object" }, "This OpenAPI document"), ...discovery405 },
        },
      },
      "/api/openapi.yaml": {
        get: {
          tags: ["Discovery"],
          operationId: "getOpenApiYaml",
          summary: "OpenAPI specification (YAML)",
          responses: {
            "200": {
              description: "This OpenAPI document in YAML",
              content: { "application/yaml": { schema: { type: "string" } } },
            },
            ...discovery405,
          },
        },
      },
      "/api/atlas": {
        get: {
          tags: ["Atlas"],
          operationId: "listAtlas",
          summary: "List published Atlas entries",
          responses: { "200": json(ref("AtlasCatalog"), "Atlas catalog"), ...errors },
        },
      },
      "/api/atlas/{slug}": {
        get: {
          tags: ["Atlas"],
          operationId: "getAtlasEntry",
          summary: "Get one Atlas entry",
          parameters: [{
            name: "slug",
            in: "path",
            required: true,
            description: "Atlas entry slug, e.g. mapper-demo-shop",
            schema: { type: "string" },
          }],
          responses: { "200": json(ref("AtlasEntry"), "One Atlas entry plus machine-twin URLs"), ...errors },
        },
      },
      "/llms.txt": {
        get: {
          tags: ["Discovery"],
          operationId: "getLlmsTxt",
          summary: "Agent site index (llmstxt.org)",
          responses: {
            "200": { description: "Plain-text site index", content: { "text/plain": { schema: { type: "string" } } } },
            ...discovery405,
          },
        },
      },
      "/atlas/index.json": {
        get: {
          tags: ["Atlas"],
          operationId: "getAtlasIndex",
          summary: "Vendored Atlas index (full gallery record)",
          responses: { "200": json({ type: "object" }, "Full Atlas index.json"), ...discovery405 },
        },
      },
    },
    components: {
      schemas: {
        Error: {
          type: "object",
          additionalProperties: false,
          required: ["error"],
          properties: {
            error: {
              type: "object",
              additionalProperties: false,
              required: ["code", "message", "hint", "status"],
              properties: {
                code: { type: "string", examples: ["not_found", "method_not_allowed"] },
                message: { type: "string" },
                hint: { type: "string", description: "Where an agent should look next to recover." },
                status: { type: "integer" },
              },
            },
          },
        },
        AtlasEntry: {
          type: "object",
          required: ["slug", "name", "domains", "html", "markdown", "archive"],
          properties: {
            slug: { type: "string", description: "Entry identifier used in the path /api/atlas/{slug}" },
            name: { type: "string" },
            site_url: { type: "string", format: "uri" },
            domains: { type: "array", items: { type: "string" } },
            description: { type: "string" },
            categories: { type: "array", items: { type: "string" } },
            updated: { type: "string", description: "YYYY-MM-DD" },
            last_verified: { type: "string", description: "YYYY-MM-DD" },
            stats: {
              type: "object",
              properties: {
                views: { type: "integer" },
                components: { type: "integer" },
                requests: { type: "integer" },
              },
            },
            html: { type: "string", format: "uri", description: "Machine-twin URL: the HTML page" },
            markdown: { type: "string", format: "uri", description: "Machine-twin URL: the README verbatim" },
            archive: { type: "string", format: "uri", description: "Machine-twin URL of the installable archive" },
          },
        },
        AtlasCatalog: {
          type: "object",
          required: ["schema_version", "entries"],
          properties: {
            schema_version: { type: "integer" },
            entries: { type: "array", items: ref("AtlasEntry") },
          },
        },
      },
      responses: {
        NotFound: { description: "Structured JSON error", content: { "application/json": { schema: ref("Error") } } },
        MethodNotAllowed: {
          description: "Structured JSON error: the API is read-only (GET and HEAD)",
          content: { "application/json": { schema: ref("Error") } },
        },
      },
    },
  };
}
