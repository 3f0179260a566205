// Corpus benchmarks: compile time (largest real corpus, all gallery corpora, a 2.4 MB corpus), edit-to-new-version
// latency, `/mapper` requests per second with wrk, and peak RSS of `serve-mapper` on the 2.4 MB corpus.
//
//   deno bench -A bench/corpus_bench.ts
//
// Real corpora come from ../shared/data/atlas-gallery when present (MAPPER_GALLERY overrides); otherwise the
// benches use the shop fixture replicated to a similar size. wrk figures are printed, not asserted.
import { join } from "node:path";
import { compile, load, startCorpusService } from "../src/corpus/mod.ts";
import { baseEnv, mapperCommand, ROOT } from "../tests/_helpers.ts";
import { sized } from "./_smoke.ts";
import { wrkInstalled } from "./_wrk.ts";

const GALLERY = Deno.env.get("MAPPER_GALLERY") ?? join(ROOT, "..", "shared", "data", "atlas-gallery", "entries");
const FIXTURE = join(ROOT, "tests", "fixtures", "corpus", "shop");

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name));
    else if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

async function treeBytes(dir: string): Promise<number> {
  let n = 0;
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) n += await treeBytes(join(dir, e.name));
    else if (e.isFile) n += (await Deno.stat(join(dir, e.name))).size;
  }
  return n;
}

/** The corpus directories of the gallery (or the fixture), largest first. */
async function sources(): Promise<string[]> {
  if (!(await exists(GALLERY))) return [FIXTURE];
  const dirs: Array<[string, number]> = [];
  for await (const e of Deno.readDir(GALLERY)) {
    const dir = join(GALLERY, e.name, ".mapper");
    if (await exists(dir)) dirs.push([dir, await treeBytes(dir)]);
  }
  return dirs.sort((a, b) => b[1] - a[1]).map(([d]) => d);
}

const work = await Deno.makeTempDir({ prefix: "mapper-corpus-bench-" });
globalThis.addEventListener("unload", () => Deno.removeSync(work, { recursive: true }));

const corpora = await sources();
const largest = join(work, "largest", ".mapper");
await copyTree(corpora[0]!, largest);
const all = join(work, "all", ".mapper");
for (const [i, dir] of corpora.entries()) await copyTree(dir, join(all, `c${i}`));
const allBytes = await treeBytes(all);
// Replicate "all" until the corpus is about 2.4 MB.
const big = join(work, "big", ".mapper");
const copies = Math.max(1, Math.round(sized(2_400_000, 50_000) / allBytes));
for (let i = 0; i < copies; i++) await copyTree(all, join(big, `r${i}`));
const bigBytes = await treeBytes(big);

// deno-lint-ignore no-console
console.log(
  `corpora: largest ${(await treeBytes(largest)) / 1000} KB (${corpora[0]}), all ${corpora.length} = ${
    allBytes / 1000
  } KB, big = ${bigBytes / 1e6} MB (${copies} copies)`,
);

async function compileOnce(dir: string): Promise<number> {
  const { corpus } = await load(dir);
  return JSON.stringify(compile(corpus, { site: "bench", version: Date.now() })).length;
}

Deno.bench("compile - largest real corpus (load + compile + JSON)", { group: "compile", baseline: true }, async () => {
  await compileOnce(largest);
});

Deno.bench("compile - all gallery corpora together", { group: "compile" }, async () => {
  await compileOnce(all);
});

Deno.bench("compile - 2.4 MB corpus", { group: "compile", n: 20, warmup: 2 }, async () => {
  await compileOnce(big);
});

// Edit → new version visible through the service (includes the 200 ms debounce).
type Service = Awaited<ReturnType<typeof startCorpusService>>;
const services: Service[] = [];
function editBench(label: string, source: string, n: number): void {
  const dir = join(work, `edit-${services.length}-${label.replace(/\W+/g, "-")}`, ".mapper");
  let service: Service | undefined;
  let counter = 0;
  Deno.bench(
    `edit to new version - ${label} (200 ms debounce included)`,
    { group: "edit", n, warmup: 1 },
    async (b) => {
      if (!service) {
        await copyTree(source, dir);
        service = await startCorpusService({ dir, site: "bench", log: () => {} });
        services.push(service);
      }
      const next = service.nextVersion();
      b.start();
      await Deno.writeTextFile(join(dir, "bench-edit.yaml"), `version: 1\nmemory: ["edit ${counter++}"]\n`);
      await next;
      b.end();
    },
  );
}
editBench("largest corpus", corpora[0]!, 15);
editBench("2.4 MB corpus", big, 10);

/** Starts `mapper serve-mapper --port 0` on a corpus and returns its URL and process. */
async function serve(dir: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: mapperCommand(["serve-mapper", "--port", "0", "--dir", dir]),
    cwd: work,
    env: baseEnv(work),
    clearEnv: true,
    stdout: "piped",
    stderr: "null",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("serve-mapper exited before serving");
    text += value;
  }
  reader.releaseLock();
  void child.stdout.cancel().catch(() => {});
  const url = /on (http:\/\/\S+)/.exec(text)?.[1];
  if (!url) throw new Error(`no URL in ${text}`);
  return { url, child };
}

async function wrk(url: string): Promise<string> {
  const out = await new Deno.Command("wrk", { args: ["-t2", "-c8", "-d5s", url], stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? "?";
  const lat = /Latency\s+(\S+)\s+(\S+)\s+(\S+)/.exec(text);
  return `${rps} req/s (latency avg ${lat?.[1] ?? "?"}, max ${lat?.[3] ?? "?"})`;
}

function peakRss(pid: number): string {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return /VmHWM:\s+(\d+ kB)/.exec(status)?.[1] ?? "?";
  } catch {
    return "? (no /proc)";
  }
}

let measured = false;
const haveWrk = await wrkInstalled();
if (!haveWrk) {
  // deno-lint-ignore no-console
  console.log("wrk not found: the requests-per-second and peak RSS bench is skipped (install wrk to run it)");
}

Deno.bench("serve - wrk -t2 -c8 -d5s on /mapper (largest corpus) and peak RSS with the 2.4 MB corpus", {
  n: 1,
  warmup: 0,
  ignore: !haveWrk,
}, async () => {
  if (measured) return; // one measurement is enough (and takes ~15 s)
  measured = true;
  const small = await serve(largest);
  const size = (await (await fetch(small.url, { headers: { "accept-encoding": "identity" } })).arrayBuffer())
    .byteLength;
  const smallRps = await wrk(small.url);
  const versionRps = await wrk(`${small.url}/version`);
  small.child.kill("SIGTERM");
  await small.child.status;
  const large = await serve(big);
  const largeSize = (await (await fetch(large.url, { headers: { "accept-encoding": "identity" } })).arrayBuffer())
    .byteLength;
  const rssAfterStart = peakRss(large.child.pid);
  const largeRps = await wrk(large.url);
  const rssAfterLoad = peakRss(large.child.pid);
  large.child.kill("SIGTERM");
  await large.child.status;
  // deno-lint-ignore no-console
  console.log(
    [
      `/mapper (${(size / 1000).toFixed(1)} KB body): ${smallRps}`,
      `/mapper/version: ${versionRps}`,
      `/mapper (${(largeSize / 1e6).toFixed(2)} MB body): ${largeRps}`,
      `serve-mapper peak RSS with the ${
        (bigBytes / 1e6).toFixed(1)
      } MB corpus: ${rssAfterStart} after start, ${rssAfterLoad} after the wrk run`,
    ].join("\n"),
  );
});

globalThis.addEventListener("unload", () => {
  for (const service of services) void service[Symbol.asyncDispose]();
});
