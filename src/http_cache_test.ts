import assert from "node:assert/strict";
import { chooseEncoding, ifNoneMatchHits } from "./http_cache.ts";

Deno.test("http cache - Accept-Encoding prefers br, honours q-values and refusals", () => {
  assert.equal(chooseEncoding(null), undefined);
  assert.equal(chooseEncoding("gzip, deflate, br"), "br");
  assert.equal(chooseEncoding("gzip"), "gzip");
  assert.equal(chooseEncoding("br;q=0.5, gzip;q=0.8"), "gzip");
  assert.equal(chooseEncoding("br;q=0, gzip;q=0"), undefined);
  assert.equal(chooseEncoding("identity"), undefined);
  assert.equal(chooseEncoding("*"), "br");
  assert.equal(chooseEncoding("*;q=0, gzip"), "gzip");
  assert.equal(chooseEncoding("x-gzip"), "gzip");
});

Deno.test("http cache - only the offered codings are chosen (gzip-only servers never answer br)", () => {
  assert.equal(chooseEncoding("br, gzip;q=0.5", ["gzip"]), "gzip");
  assert.equal(chooseEncoding("br", ["gzip"]), undefined);
  assert.equal(chooseEncoding("*", ["gzip"]), "gzip");
  assert.equal(chooseEncoding("gzip;q=0", ["gzip"]), undefined);
});

Deno.test("http cache - If-None-Match matches strong and weak tags, any tag of a list, and *", () => {
  const tags = ['"7"', '"7-gzip"'];
  assert.ok(ifNoneMatchHits('"7"', tags));
  assert.ok(ifNoneMatchHits('W/"7"', tags));
  assert.ok(ifNoneMatchHits(' "1" , W/"7-gzip"', tags));
  assert.ok(ifNoneMatchHits("*", tags));
  assert.ok(!ifNoneMatchHits(null, tags));
  assert.ok(!ifNoneMatchHits("", tags));
  assert.ok(!ifNoneMatchHits('"8", W/"70"', tags));
  assert.ok(!ifNoneMatchHits("7", tags));
});
