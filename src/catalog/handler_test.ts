import assert from "node:assert/strict";
import { isApiPath, normalizePath } from "./handler.ts";

Deno.test("catalog handler - trailing slashes are stripped; API paths are /api, /api/* and /openapi.json", () => {
  assert.equal(normalizePath("/api/atlas/"), "/api/atlas");
  assert.equal(normalizePath("/api/atlas//"), "/api/atlas");
  assert.equal(normalizePath("/"), "/");
  assert.ok(isApiPath("/api"));
  assert.ok(isApiPath("/api/atlas/x"));
  assert.ok(isApiPath("/openapi.json"));
  assert.ok(!isApiPath("/apix"));
  assert.ok(!isApiPath("/atlas/index.json"));
});
