/**
 * A generated gallery for the catalog benchmarks: `n` entries, each with a README and a three-file corpus.
 *
 * @module
 */
import { join } from "node:path";

/** Writes a gallery of `n` generated entries into `dir`. */
export async function generateGallery(dir: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const slug = `site-${String(i).padStart(4, "0")}`;
    const entry = join(dir, "entries", slug);
    await Deno.mkdir(join(entry, ".mapper"), { recursive: true });
    const day = String(1 + (i % 28)).padStart(2, "0");
    await Deno.writeTextFile(
      join(entry, "README.md"),
      `---
name: Site ${i}
slug: ${slug}
site_url: https://${slug}.example.com/
domains: [${slug}.example.com, www.${slug}.example.com]
description: Generated entry ${i} — a storefront with search, product pages and a cart.
categories: [commerce]
author: bench-bot
created: 2026-01-${day}
updated: 2026-02-${day}
last_verified: 2026-02-${day}
cli_version: 0.1.0
spec_version: 1
method: browser
auth: none
---

# Site ${i}

${"A generated paragraph describing how this site is mapped, which selectors are stable and why. ".repeat(12)}

| View | Route |
|---|---|
| Home | / |
| Product | /p/:id |
`,
    );
    await Deno.writeTextFile(join(entry, ".mapper", "config.yaml"), "version: 1\n");
    await Deno.writeTextFile(
      join(entry, ".mapper", "shared.yaml"),
      `version: 1\nmemory:\n  - Generated.\ncomponents:\n  - name: Header\n    selector: header\n    children:\n      - name: Cart\n        selector: '[data-cart]'\n`,
    );
    const views = Array.from({ length: 5 }, (_, v) =>
      `  - name: View${v}
    route: /v${v}/:id
    components:
${
        Array.from({ length: 8 }, (_, c) =>
          `      - name: C${v}x${c}
        selector: '[data-c="${v}-${c}"]'
        properties:
          - name: text
            extract: text`).join("\n")
      }
    requests:
      - name: R${v}
        route: /api/v${v}
        method: GET`).join("\n");
    await Deno.writeTextFile(join(entry, ".mapper", "views.yaml"), `version: 1\nviews:\n${views}\n`);
  }
  await Deno.writeTextFile(join(dir, "removed.yaml"), "[]\n");
}
