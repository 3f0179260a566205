/**
 * Atlas client benchmarks:
 * - `find` over a generated 10,000-entry catalog served from the cache: the whole process (`deno run main.ts`) and
 *   the in-process search alone (and decode + search);
 * - `add` of a ~4 MiB, 500-file archive from a loopback HTTPS server: in-process wall time, and a subprocess run
 *   whose peak RSS is reported once (via `/usr/bin/time -f %M` when available).
 *
 * Run: `deno bench -A bench/atlas_bench.ts`
 *
 * @module
 */
import { join } from "node:path";
import { decodeCatalogValue } from "../src/atlas/catalog.ts";
import { search } from "../src/atlas/search.ts";
import { runAdd } from "../src/atlas/install.ts";
import { testIo } from "../src/io.ts";
import { baseEnv, mapperCommand } from "../tests/_helpers.ts";
import { httpsServer } from "../tests/_https.ts";
import { type Member, tarGz } from "../tests/fixtures/atlas/archive.ts";
import { sized } from "./_smoke.ts";

const CATEGORIES = ["commerce", "pos", "saas", "devtools", "docs", "finance", "travel", "media", "social", "other"];

function generateCatalog(n: number): { schema_version: number; entries: unknown[] } {
  const entries = [];
  for (let i = 0; i < n; i++) {
    const slug = `site-${String(i).padStart(5, "0")}`;
    entries.push({
      slug,
      name: `Site ${i}`,
      site_url: `https://${slug}.example.com/`,
      domains: [`${slug}.example.com`, `www.${slug}.example.com`],
      description: `Generated entry ${i}: a storefront with search, product pages, a cart and a checkout.`,
      categories: [CATEGORIES[i % CATEGORIES.length], CATEGORIES[(i * 7) % CATEGORIES.length]],
      last_verified: "2026-08-08",
      stats: { views: 5, components: 40 + (i % 20), requests: 10, properties: 3, memory: 4 },
      files: [".mapper/config.yaml", ".mapper/views.yaml"],
    });
  }
  return { schema_version: 1, entries };
}

const home = await Deno.makeTempDir({ prefix: "mapper-bench-atlas-" });
globalThis.addEventListener("unload", () => Deno.removeSync(home, { recursive: true }));
const SOURCE = "https://atlas.bench.invalid/index.json";
const doc = generateCatalog(sized(10_000, 100));
await Deno.mkdir(join(home, ".mapper", "atlas"), { recursive: true });
await Deno.writeTextFile(
  join(home, ".mapper", "atlas", "index.json"),
  JSON.stringify({ source: SOURCE, fetched_at: new Date(Date.now() + 3600_000).toISOString(), index: doc }),
);
const catalog = decodeCatalogValue(doc);

Deno.bench("atlas find - in-process search of 10,000 entries (query 'shop')", { group: "find" }, () => {
  search(catalog.entries, "shop");
});
Deno.bench("atlas find - in-process search by URL (exact domain)", { group: "find" }, () => {
  search(catalog.entries, "https://www.site-09999.example.com/cart");
});
Deno.bench("atlas find - in-process decode + search of 10,000 entries", { group: "find" }, () => {
  search(decodeCatalogValue(doc).entries, "checkout");
});
Deno.bench(
  "atlas find - whole process, cached 10,000-entry catalog",
  { group: "process", n: 8, warmup: 1 },
  async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: mapperCommand(["atlas", "find", "site-0999", "--index", SOURCE, "--limit", "3"]),
      env: baseEnv(home),
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
  },
);

// ---- add --------------------------------------------------------------------------------------------------------

/** `n` characters of incompressible base64 text, so the archive is about as large as its content. */
function noise(n: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil((n * 3) / 4)));
  return btoa(String.fromCharCode(...bytes)).slice(0, n);
}
const members: Member[] = [{ name: ".mapper/config.yaml", data: "site: bench.example.com\n" }];
for (let i = 1; i < sized(500, 5); i++) {
  members.push({
    name: `.mapper/views/v${String(i).padStart(3, "0")}.yaml`,
    data: `views:\n  - name: View${i}\n    route: /v/${i}\n    # ${noise(8300)}\n`,
  });
}
const archive = await tarGz(members);
const contentBytes = members.reduce((n, m) => n + (typeof m.data === "string" ? m.data.length : 0), 0);
const srv = await httpsServer(() => new Response(archive as Uint8Array<ArrayBuffer>));
globalThis.addEventListener("unload", () => srv.client.close());
let k = 0;
Deno.bench(
  `atlas add - 500 files, ${(contentBytes / 1048576).toFixed(1)} MiB (${
    (archive.length / 1048576).toFixed(1)
  } MiB gz) over loopback HTTPS`,
  { group: "add", n: 20, warmup: 2 },
  async () => {
    const cwd = join(home, `add-${k++}`);
    await Deno.mkdir(cwd);
    const io = testIo({ cwd, home, fetch: srv.fetch });
    await runAdd({ slug: "bench", target: ".mapper", source: `${srv.url}{slug}.tar.gz` }, io);
    await Deno.remove(cwd, { recursive: true });
  },
);

// Peak memory of a whole `mapper atlas add` process, reported once (GNU time's maximum resident set size).
{
  const cwd = join(home, "peak");
  await Deno.mkdir(cwd);
  const argv = mapperCommand(["atlas", "add", "bench", "--source", `${srv.url}{slug}.tar.gz`], ["--cert", srv.caFile]);
  const child = new Deno.Command("/usr/bin/time", {
    args: ["-f", "peak-rss-kib=%M wall=%e", Deno.execPath(), ...argv],
    cwd,
    env: baseEnv(home),
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  });
  const out = await child.output().catch(() => undefined);
  const line = out ? new TextDecoder().decode(out.stderr).trim().split("\n").pop() : "(/usr/bin/time unavailable)";
  // deno-lint-ignore no-console
  console.log(`atlas add subprocess (${(archive.length / 1048576).toFixed(1)} MiB archive, 500 files): ${line}`);
}
