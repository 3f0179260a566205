import assert from "node:assert/strict";
import { join } from "node:path";
import { cachePath, writeCache } from "./cache.ts";

Deno.test({
  name: "catalog cache - ~/.mapper/atlas is private: directory 0700, cache file 0600",
  ignore: Deno.build.os === "windows",
  async fn() {
    const home = await Deno.makeTempDir({ prefix: "mapper-cache-" });
    try {
      await writeCache(home, "https://example.test/index.json", 0, '{"version":1,"entries":[]}');
      assert.equal(((await Deno.stat(join(home, ".mapper", "atlas"))).mode ?? 0) & 0o777, 0o700);
      assert.equal(((await Deno.stat(join(home, ".mapper"))).mode ?? 0) & 0o777, 0o700);
      assert.equal(((await Deno.stat(cachePath(home))).mode ?? 0) & 0o777, 0o600);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});
