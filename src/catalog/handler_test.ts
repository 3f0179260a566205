import assert from "node:assert/strict";
import { chooseEncoding, isApiPath, normalizePath } from "./handler.ts";

Deno.test("catalog handler - Accept-Encoding prefers br, honours q-values and refusals", () => {
  assert.equal(chooseEncoding(null), undefined);
  assert.equal(chooseEncoding("gzip, deflate, br"), "br");
  assert.equal(chooseEncoding("gzip"), "gzip");
  assert.equal(chooseEncoding("br;q=0.5, gzip;q=0.8"), "gzip");
  assert.equal(chooseEncoding("br;q=0, gzip;q=0"), undefined);
  assert.equal(chooseEncoding("identity"), undefined);
  assert.equal(chooseEncoding("*"), "br");
  assert.equal(chooseEncoding("*;q=0, gzip"), "gzip");
});

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
