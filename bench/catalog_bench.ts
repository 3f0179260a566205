/**
 * Catalog snapshot build time: the shared real gallery (`../shared/data/atlas-gallery` beside the clone, or
 * `MAPPER_GALLERY_ROOT`; skipped when absent) and a generated
 * 1,000-entry gallery. Load figures (req/s, p99, memory) come from `bench/catalog_load.ts` (wrk).
 *
 * Run: `deno bench -A bench/catalog_bench.ts`
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { buildSnapshot } from "../src/catalog/mod.ts";
import { generateGallery } from "./_catalog_gallery.ts";
import { sized } from "./_smoke.ts";

const REAL = Deno.env.get("MAPPER_GALLERY_ROOT") ??
  fileURLToPath(new URL("../../shared/data/atlas-gallery", import.meta.url));
const hasReal = await Deno.stat(REAL).then((s) => s.isDirectory, () => false);

const generated = await Deno.makeTempDir({ prefix: "mapper-bench-gallery-" });
globalThis.addEventListener("unload", () => Deno.removeSync(generated, { recursive: true }));
const ENTRIES = sized(1000, 10);
await generateGallery(generated, ENTRIES);

const options = { baseUrl: "https://atlas.example.org", now: () => 0, git: false };

Deno.bench({
  name: "catalog snapshot build - shared real gallery (10 entries)",
  ignore: !hasReal,
  async fn() {
    const s = await buildSnapshot(REAL, options);
    if (s.slugs.length !== 10) throw new Error(`expected 10 entries, got ${s.slugs.length}`);
  },
});

Deno.bench({
  name: "catalog snapshot build - generated gallery (1,000 entries)",
  n: 3,
  warmup: 1,
  async fn() {
    const s = await buildSnapshot(generated, options);
    if (s.slugs.length !== ENTRIES) {
      throw new Error(`expected ${ENTRIES} entries, got ${s.slugs.length}: ${s.warnings[0]?.detail}`);
    }
  },
});
