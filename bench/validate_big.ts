// `mapper validate` on a 2.4 MB corpus: the ten real gallery corpora copied over and over into one directory until
// it holds at least 2.4 MB of YAML (authoring issue: "the ten real corpora, each copied ten times" gives 1.7 MB, so
// we copy until the reference's 2.4 MB anchor is reached). Prints the size, then times
//   - the whole command as a user runs it (`mapper validate --dir D --json`, a subprocess: start-up included), and
//   - the in-process check (`load(dir, { validate: true, tolerant: true })`).
//
//   deno run -A bench/validate_big.ts            (figures printed, never asserted)
//   deno bench -A bench/validate_big.ts          (the in-process check as a Deno bench)
//
// Real corpora come from ../shared/data/atlas-gallery (MAPPER_GALLERY overrides); without them the shop fixture is
// replicated instead.
import { join } from "node:path";
import { load } from "../src/corpus/mod.ts";
import { baseEnv, mapperCommand, ROOT } from "../tests/_helpers.ts";
import { sized } from "./_smoke.ts";

const GALLERY = Deno.env.get("MAPPER_GALLERY") ?? join(ROOT, "..", "shared", "data", "atlas-gallery", "entries");
const FIXTURE = join(ROOT, "tests", "fixtures", "corpus", "shop");
const TARGET_BYTES = sized(2.4 * 1024 * 1024, 20_000);

async function copyTree(from: string, to: string): Promise<number> {
  let bytes = 0;
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) bytes += await copyTree(join(from, e.name), join(to, e.name));
    else if (e.isFile) {
      await Deno.copyFile(join(from, e.name), join(to, e.name));
      bytes += (await Deno.stat(join(from, e.name))).size;
    }
  }
  return bytes;
}

async function sources(): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(GALLERY)) if (e.isDirectory) out.push(join(GALLERY, e.name, ".mapper"));
  } catch {
    return [FIXTURE];
  }
  return out.length > 0 ? out.sort() : [FIXTURE];
}

/** Builds the big corpus in a temp dir; returns its path, byte count and copy count. */
async function bigCorpus(): Promise<{ dir: string; bytes: number; copies: number; files: number }> {
  const dir = await Deno.makeTempDir({ prefix: "mapper-validate-big-" });
  let bytes = 0;
  let copies = 0;
  const list = await sources();
  while (bytes < TARGET_BYTES) {
    copies++;
    for (const src of list) bytes += await copyTree(src, join(dir, `copy${copies}`, src.split("/").at(-2)!));
  }
  let files = 0;
  for await (const _ of walk(dir)) files++;
  return { dir, bytes, copies, files };
}

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) yield* walk(join(dir, e.name));
    else yield join(dir, e.name);
  }
}

/** Prints one result line (benches report figures; they never assert them). */
function report(line: string): void {
  // deno-lint-ignore no-console
  console.log(line);
}

const RUNS = sized(5, 1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (import.meta.main) {
  const big = await bigCorpus();
  try {
    report(
      `corpus: ${(big.bytes / 1024 / 1024).toFixed(2)} MB in ${big.files} files (${big.copies} copies of ${
        (await sources()).length
      } corpora)`,
    );
    const cli: number[] = [];
    let summary = "";
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      const out = await new Deno.Command(Deno.execPath(), {
        args: mapperCommand(["validate", "--dir", big.dir, "--json"]),
        env: baseEnv(Deno.env.get("HOME") ?? "/tmp"),
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      cli.push(performance.now() - t);
      const env = JSON.parse(new TextDecoder().decode(out.stdout));
      summary = `exit ${out.code}, ${env.result.errors} errors, ${env.result.warnings} warnings`;
    }
    const inProcess: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await load(big.dir, { validate: true, tolerant: true });
      inProcess.push(performance.now() - t);
    }
    const plain: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await load(big.dir);
      plain.push(performance.now() - t);
    }
    report(
      `mapper validate --json (subprocess, start-up included): median ${median(cli).toFixed(0)} ms ` +
        `(min ${Math.min(...cli).toFixed(0)}, n=${RUNS}; ${summary})`,
    );
    report(
      `load(dir, { validate: true }) in process: median ${median(inProcess).toFixed(0)} ms ` +
        `(min ${Math.min(...inProcess).toFixed(0)}, n=${RUNS})`,
    );
    report(`load(dir) without authoring checks: median ${median(plain).toFixed(0)} ms (n=${RUNS})`);
  } finally {
    await Deno.remove(big.dir, { recursive: true });
  }
} else {
  const big = await bigCorpus();
  Deno.bench("validate - load with every check, 2.4 MB corpus", async () => {
    await load(big.dir, { validate: true, tolerant: true });
  });
  globalThis.addEventListener("unload", () => Deno.removeSync(big.dir, { recursive: true }));
}
