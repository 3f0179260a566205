/**
 * Corpus server start-up, edits and memory, whole process, side by side with the Go reference when it is installed
 * (see `_compare.ts`):
 *
 * - start → first `200` on `/mapper` (`/sightmap`) with a ~2.4 MB corpus: the ten shared gallery corpora (when
 *   `../shared/data/atlas-gallery` exists) plus four corpora from this repository, each copied ten times. mapper is
 *   timed twice: a first start (`--no-cache`: every file decoded), and a restart of the unchanged corpus from the start
 *   cache a previous run left (`src/corpus/start_cache.ts`; a copy of the corpus that is never edited, primed once,
 *   its files older than the 3 s a stat needs to vouch for them). The reference has no such cache: its one start is
 *   the base of both ratios;
 * - the same with an empty corpus directory;
 * - a one-file edit → the new version visible on `/mapper/version` (the 200 ms debounce included);
 * - resident memory (VmRSS) once the first `200` was served, and the CPU time (all threads) used by then: less
 *   noisy than wall time on a shared machine.
 *
 * With a compiled binary (`MAPPER_BIN`, or `dist/mapper/mapper` from `deno task compile`), it is timed too: that is
 * what users run.
 *
 *   deno run -A bench/corpus_compare.ts [runs=5]
 *
 * Prints medians and the ratio mapper / reference; asserts nothing.
 *
 * @module
 */
import { join } from "node:path";
import { findMapperBinary, findReference, load } from "./_compare.ts";
import { baseEnv, mapperCommand, ROOT } from "../tests/_helpers.ts";
import { sized } from "./_smoke.ts";

const runs = Number(Deno.args[0] ?? sized(5, 1));
const reference = await findReference();
const binary = await findMapperBinary(ROOT);
const work = await Deno.makeTempDir({ prefix: "mapper-corpus-compare-" });
const env = baseEnv(work);

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name));
    else if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

async function tree(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) {
      const sub = await tree(join(dir, e.name));
      files += sub.files;
      bytes += sub.bytes;
    } else if (e.isFile && /\.ya?ml$/i.test(e.name)) {
      files++;
      bytes += (await Deno.stat(join(dir, e.name))).size;
    }
  }
  return { files, bytes };
}

/** The source corpora: the shared gallery (when present) and four from this repository. */
async function sources(): Promise<string[]> {
  // Beside the main checkout (`../shared`) or beside a worktree of it (`../../shared`).
  const candidates = [join(ROOT, "..", "shared"), join(ROOT, "..", "..", "shared")]
    .map((shared) => join(shared, "data", "atlas-gallery", "entries"));
  const gallery = Deno.env.get("MAPPER_GALLERY") ??
    candidates.find((dir) => {
      try {
        return Deno.statSync(dir).isDirectory;
      } catch {
        return false;
      }
    }) ?? candidates[0]!;
  const out: string[] = [];
  for (const name of await Array.fromAsync(Deno.readDir(gallery)).catch(() => [])) {
    const dir = join(gallery, name.name, ".mapper");
    if (await Deno.stat(dir).then(() => true, () => false)) out.push(dir);
  }
  if (out.length === 0) {
    // deno-lint-ignore no-console
    console.log(`(shared gallery not found at ${gallery}: the corpus is built from this repository's corpora only)`);
  }
  out.sort();
  // Four more that the reference also loads (it refuses the `shop` fixture, which exercises mapper's lenient rules).
  out.push(
    join(ROOT, "tests", "fixtures", "browser", "corpus"),
    join(ROOT, "assets", "gallery", "entries", "demo-docs", ".mapper"),
    join(ROOT, "assets", "gallery", "entries", "demo-shop", ".mapper"),
    join(ROOT, "tests", "fixtures", "catalog", "gallery", "entries", "beta", ".mapper"),
  );
  return out;
}

const big = join(work, "big");
for (let copy = 0; copy < sized(10, 1); copy++) {
  for (const [i, dir] of (await sources()).entries()) await copyTree(dir, join(big, `copy${copy}`, `c${i}`));
}
// The restarts' corpus: the same files, never edited.
const warm = join(work, "warm");
await copyTree(big, warm);
const copiedAt = Date.now();
const empty = join(work, "empty");
await Deno.mkdir(empty);
const size = await tree(big);

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** CPU time (user + system, all threads) the process has used so far, in ms; NaN when unknown. */
function cpuMs(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${pid}/status`))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

interface Server {
  name: string;
  start(dir: string, port: number): Deno.ChildProcess;
  /** mapper: a start that reads and writes the start cache (`start` is then a first start, `--no-cache`). */
  restart?(dir: string, port: number): Deno.ChildProcess;
  path: string;
}

/** Spawns `cmd args` quietly in the work directory. */
function spawn(cmd: string, args: string[]): Deno.ChildProcess {
  return new Deno.Command(cmd, { args, cwd: work, env, stdin: "null", stdout: "null", stderr: "null" }).spawn();
}

const serveArgs = (dir: string, port: number) => ["serve-mapper", "--port", String(port), "--dir", dir];
const servers: Server[] = [{
  name: "mapper serve-mapper",
  path: "/mapper",
  start: (dir, port) => spawn(Deno.execPath(), mapperCommand([...serveArgs(dir, port), "--no-cache"])),
  restart: (dir, port) => spawn(Deno.execPath(), mapperCommand(serveArgs(dir, port))),
}];
if (binary) {
  servers.push({
    name: "mapper serve-mapper (compiled binary)",
    path: "/mapper",
    start: (dir, port) => spawn(binary, [...serveArgs(dir, port), "--no-cache"]),
    restart: (dir, port) => spawn(binary, serveArgs(dir, port)),
  });
}
if (reference) {
  servers.push({
    name: "sightmap serve-sightmap (Go 0.32.0)",
    path: "/sightmap",
    start: (dir, port) => spawn(reference, ["serve-sightmap", "--port", String(port), "--sightmap-dir", dir]),
  });
}

async function get(url: string): Promise<{ status: number; text: string } | undefined> {
  try {
    const res = await fetch(url);
    return { status: res.status, text: await res.text() };
  } catch {
    return undefined;
  }
}

/**
 * Spawns the server (`restart`: the start-cache one), returns ms until the first 200 on its corpus path, RSS then, and
 * the edit latency.
 */
async function measure(server: Server, dir: string, edit: boolean, restart = false, editAfterMs = 300) {
  const port = freePort();
  const base = `http://127.0.0.1:${port}${server.path}`;
  const t0 = performance.now();
  const child = restart ? server.restart!(dir, port) : server.start(dir, port);
  try {
    for (;;) {
      const r = await get(base);
      if (r?.status === 200) break;
      if (performance.now() - t0 > 30_000) throw new Error(`${server.name}: no 200 within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const startMs = performance.now() - t0;
    const startCpu = cpuMs(child.pid);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const rss = rssKb(child.pid);
    await new Promise((resolve) => setTimeout(resolve, editAfterMs - 300));
    let editMs = NaN;
    if (edit) {
      const before = (await get(`${base}/version`))?.text;
      const file = join(
        dir,
        "copy0",
        "c0",
        (await Array.fromAsync(Deno.readDir(join(dir, "copy0", "c0"))))
          .map((e) => e.name).filter((n) => n.endsWith(".yaml")).sort()[0]!,
      );
      const text = await Deno.readTextFile(file);
      const t1 = performance.now();
      await Deno.writeTextFile(file, `${text}\n# edited ${Date.now()}\n`);
      for (;;) {
        const now = (await get(`${base}/version`))?.text;
        if (now !== undefined && now !== before) break;
        if (performance.now() - t1 > 10_000) throw new Error(`${server.name}: edit not visible within 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      editMs = performance.now() - t1;
    }
    return { startMs, startCpu, rss, editMs };
  } finally {
    try {
      child.kill("SIGTERM");
    } catch {
      // it already exited; the error above says why
    }
    await child.status;
  }
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  // deno-lint-ignore no-console
  console.log(
    `${await load()}; corpus ${size.files} YAML files, ${(size.bytes / 1e6).toFixed(2)} MB; ${runs} runs each`,
  );
  // Prime the start cache of the restarts' corpus: once its files are old enough for a stat to vouch for them, one
  // start that stays up until it has written its cache.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, copiedAt + 3_100 - Date.now())));
  const cacheDir = join(work, ".mapper", "cache", "corpus");
  // Only the first row (`deno run`) restarts warm: the binary is another build, and the cache of a directory is one
  // file, which its own first start would replace.
  {
    const port = freePort();
    const child = servers[0]!.restart!(warm, port);
    const t0 = performance.now();
    while ((await Array.fromAsync(Deno.readDir(cacheDir)).catch(() => [])).length === 0) {
      if (performance.now() - t0 > 30_000) throw new Error("no start cache within 30 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill("SIGTERM");
    await child.status; // a stop waits for a write under way
  }
  const results = new Map<
    string,
    { start: number; restart: number; cpu: number; empty: number; edit: number; rss: number }
  >();
  const samples = servers.map(() => ({
    restart: [] as number[],
    start: [] as number[],
    cpu: [] as number[],
    empty: [] as number[],
    edit: [] as number[],
    rss: [] as number[],
  }));
  for (let round = 0; round < runs; round++) {
    for (const [i, server] of servers.entries()) {
      const full = await measure(server, big, true);
      const none = await measure(server, empty, false);
      samples[i]!.start.push(full.startMs);
      samples[i]!.cpu.push(full.startCpu);
      samples[i]!.edit.push(full.editMs);
      samples[i]!.rss.push(full.rss);
      samples[i]!.empty.push(none.startMs);
      if (i === 0) samples[i]!.restart.push((await measure(server, warm, false, true)).startMs);
    }
  }
  // Once each, last (they edit the restarts' corpus): the first edit after a restart, 0.3 s after it (when the cached
  // decoded files are still to be read) and 2 s after it (read by then). Each edit leaves a file too new for a stat
  // to vouch for, so the second restart waits for the 3 s and is primed again.
  const editAfterRestart = (await measure(servers[0]!, warm, true, true)).editMs;
  await new Promise((resolve) => setTimeout(resolve, 3_100));
  await measure(servers[0]!, warm, false, true, 1_500); // writes the cache of the edited corpus
  const editLaterAfterRestart = (await measure(servers[0]!, warm, true, true, 2_000)).editMs;
  for (const [i, server] of servers.entries()) {
    const s = samples[i]!;
    results.set(server.name, {
      start: median(s.start),
      restart: s.restart.length > 0 ? median(s.restart) : NaN,
      empty: median(s.empty),
      cpu: median(s.cpu),
      edit: median(s.edit),
      rss: median(s.rss),
    });
  }
  // The reference is the last server; every mapper row (deno run, and the binary when there is one) gets a ratio.
  const refName = reference ? servers.at(-1)!.name : undefined;
  const ref = refName === undefined ? undefined : results.get(refName);
  const ratio = (a: number, b: number | undefined) => b === undefined ? "" : `  (ratio ${(a / b).toFixed(2)}×)`;
  for (const [name, r] of results) {
    // deno-lint-ignore no-console
    console.log(
      [
        name,
        `  ${name === refName ? "start" : "first start (--no-cache)"} → first 200, ${
          (size.bytes / 1e6).toFixed(1)
        } MB corpus: ${r.start.toFixed(0)} ms${name !== refName ? ratio(r.start, ref?.start) : ""}; CPU used by then ${
          r.cpu.toFixed(0)
        } ms${name !== refName ? ratio(r.cpu, ref?.cpu) : ""}`,
        ...(Number.isNaN(r.restart) ? [] : [
          `  restart of the unchanged corpus → first 200 (start cache): ${r.restart.toFixed(0)} ms${
            ratio(r.restart, ref?.start)
          }`,
          `  one-file edit 0.3 s after that restart → new version visible (once): ${editAfterRestart.toFixed(0)} ms`,
          `  one-file edit 2 s after that restart → new version visible (once): ${editLaterAfterRestart.toFixed(0)} ms`,
        ]),
        `  start → first 200, empty corpus: ${r.empty.toFixed(0)} ms${
          name !== refName ? ratio(r.empty, ref?.empty) : ""
        }`,
        `  one-file edit → new version visible: ${r.edit.toFixed(0)} ms${
          name !== refName ? ratio(r.edit, ref?.edit) : ""
        }`,
        `  RSS after start: ${(r.rss / 1024).toFixed(0)} MB${name !== refName ? ratio(r.rss, ref?.rss) : ""}`,
      ].join("\n"),
    );
  }
} finally {
  await Deno.remove(work, { recursive: true });
}
