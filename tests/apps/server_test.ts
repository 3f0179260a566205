import assert from "node:assert/strict";
import { APP_PAGES, startApps } from "./server.ts";

Deno.test("app pages - every page and every package file it links is served", async () => {
  await using apps = await startApps();
  for (const page of Object.values(APP_PAGES)) {
    const res = await fetch(apps.origin + page);
    assert.equal(res.status, 200, page);
    const html = await res.text();
    const links = [...html.matchAll(/(?:src|href)="(\/npm\/[^"]+)"/g)].map((m) => m[1]!);
    assert.equal(links.length > 0, true, `${page} links no package file`);
    for (const link of links) {
      const file = await fetch(apps.origin + link);
      await file.body?.cancel();
      assert.equal(file.status, 200, `${page} → ${link}`);
    }
  }
});

Deno.test("app pages - the package route serves only pinned packages and never leaves their folder", async () => {
  await using apps = await startApps();
  for (
    const path of [
      "/npm/tom-select@2.6.2/..%2fregistry.json",
      "/npm/tom-select@2.6.2/dist/..%2f..%2f..%2ftabulator-tables%2f6.5.3%2fpackage.json",
      "/npm/tom-select@2.6.2/%2e%2e/%2e%2e/registry.json",
      "/npm/tom-select@2.5.0/package.json",
      "/npm/is-number@7.0.0/package.json",
      "/npm/tom-select@2.6.2/dist",
      "/server.ts",
    ]
  ) {
    const res = await fetch(apps.origin + path);
    await res.body?.cancel();
    assert.equal(res.status, 404, path);
  }
});
