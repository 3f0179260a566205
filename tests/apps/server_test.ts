import assert from "node:assert/strict";
import { APP_PAGES, startApps } from "./server.ts";

Deno.test("app pages - every page and every package file it links is served", async () => {
  await using apps = await startApps();
  for (const page of Object.values(APP_PAGES)) {
    const res = await fetch(apps.origin + page);
    assert.equal(res.status, 200, page);
    const html = await res.text();
    const links = [...html.matchAll(/(?:src|href)="(\/npm\/[^"]+)"/g)].map((m) => m[1]!);
    // A page loading ES modules by bare name: each module it imports, resolved through its import map.
    const map = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html);
    if (map) {
      const imports: Record<string, string> = JSON.parse(map[1]!).imports;
      for (const [, spec] of html.matchAll(/^\s*import "([^"]+)";$/gm)) {
        const prefix = Object.keys(imports).filter((k) => k === spec || (k.endsWith("/") && spec!.startsWith(k)))
          .sort((a, b) => b.length - a.length)[0];
        assert.ok(prefix, `${page}: the import map resolves no "${spec}"`);
        links.push(imports[prefix] + spec!.slice(prefix.length));
      }
      links.push(...Object.values(imports).filter((url) => !url.endsWith("/")));
    }
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
