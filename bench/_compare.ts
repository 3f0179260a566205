/**
 * Side-by-side timing of whole processes: mapper and, when present, the Go reference `sightmap` 0.32.0. Runs are
 * interleaved (so a busy neighbour slows both sides alike) and summarised as median and p90 wall time.
 *
 * The reference is found at `$SIGHTMAP_BIN`, else under `$TMPDIR/sightmap-ref` (or `/tmp/sightmap-ref`) where
 *
 *   mkdir -p /tmp/sightmap-ref && cd /tmp/sightmap-ref && npm install @sightmap/sightmap-linux-x64@0.32.0
 *
 * puts it. When it is absent the comparison is skipped, never failed.
 *
 * @module
 */
import { join } from "node:path";

/** Path of the reference binary, or `undefined` (and a note on stdout) when it is not installed. */
export async function findReference(): Promise<string | undefined> {
  const tmp = Deno.env.get("TMPDIR") ?? "/tmp";
  const candidates = [
    Deno.env.get("SIGHTMAP_BIN"),
    join(tmp, "sightmap-ref", "node_modules", "@sightmap", "sightmap-linux-x64", "sightmap"),
    join("/tmp", "sightmap-ref", "node_modules", "@sightmap", "sightmap-linux-x64", "sightmap"),
  ];
  for (const path of candidates) {
    if (path && (await Deno.stat(path).then((s) => s.isFile, () => false))) return path;
  }
  // deno-lint-ignore no-console
  console.log(
    "reference sightmap not found: skipping the comparison (install it with: mkdir -p /tmp/sightmap-ref && " +
      "cd /tmp/sightmap-ref && npm install @sightmap/sightmap-linux-x64@0.32.0, or set SIGHTMAP_BIN)",
  );
  return undefined;
}

/**
 * Path of a compiled mapper binary to time beside `deno run main.ts`: `$MAPPER_BIN`, else `dist/mapper/mapper` in
 * this repository (what `deno task compile` builds; it needs internet, as it downloads the Deno runtime). Users run
 * the binary, which loads its modules pre-transpiled from memory, so where one exists its rows are the product's
 * figures. `undefined` (and a note on stdout) when there is none; `MAPPER_BIN` naming no file is an error.
 */
export async function findMapperBinary(root: string): Promise<string | undefined> {
  const isFile = (path: string) => Deno.stat(path).then((s) => s.isFile, () => false);
  const given = Deno.env.get("MAPPER_BIN");
  if (given) {
    if (!(await isFile(given))) throw new Error(`MAPPER_BIN=${given} is not a file: build one with deno task compile`);
    return given;
  }
  const built = join(root, "dist", "mapper", "mapper");
  if (await isFile(built)) return built;
  // deno-lint-ignore no-console
  console.log(
    "no compiled mapper binary: timing deno run main.ts only (build dist/mapper/mapper with deno task compile, " +
      "which needs internet, or set MAPPER_BIN)",
  );
  return undefined;
}

/** One command to time. */
export interface Variant {
  name: string;
  cmd: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** Exit code the run must end with (default 0); a different one aborts the bench with the command's stderr. */
  code?: number;
}

/** Median and p90 wall time (ms) of each variant, and the median CPU time (user + system, ms) where measurable. */
export interface Timing {
  name: string;
  median: number;
  p90: number;
  cpu: number | undefined;
  runs: number;
}

/**
 * CPU time (user + system, ms) of every waited-for child so far, from `getrusage(RUSAGE_CHILDREN)` through FFI on
 * Linux (microsecond resolution; a loaded machine inflates wall time far more than CPU time). `undefined` elsewhere.
 */
const childrenCpu: () => number | undefined = (() => {
  if (Deno.build.os !== "linux") return () => undefined;
  try {
    const libc = Deno.dlopen("libc.so.6", { getrusage: { parameters: ["i32", "buffer"], result: "i32" } });
    const buf = new BigInt64Array(18); // struct rusage: two timevals, then 14 longs
    return () => {
      if (libc.symbols.getrusage(-1, /* RUSAGE_CHILDREN */ buf) !== 0) return undefined;
      const [us, uu, ss, su] = [buf[0]!, buf[1]!, buf[2]!, buf[3]!];
      return Number(us + ss) * 1000 + Number(uu + su) / 1000;
    };
  } catch {
    return () => undefined;
  }
})();

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Runs every variant `runs` times, interleaved, after one untimed warm-up run each. */
export async function timeVariants(variants: Variant[], runs: number): Promise<Timing[]> {
  const samples = variants.map(() => [] as number[]);
  const cpu = variants.map(() => [] as number[]);
  for (let round = -1; round < runs; round++) {
    for (const [i, v] of variants.entries()) {
      const cpuBefore = childrenCpu();
      const start = performance.now();
      const out = await new Deno.Command(v.cmd[0]!, {
        args: v.cmd.slice(1),
        ...(v.cwd ? { cwd: v.cwd } : {}),
        ...(v.env ? { env: v.env } : {}),
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).output();
      const ms = performance.now() - start;
      const cpuAfter = childrenCpu();
      if (out.code !== (v.code ?? 0)) {
        throw new Error(`${v.name}: exit ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
      }
      if (round >= 0) samples[i]!.push(ms);
      if (round >= 0 && cpuBefore !== undefined && cpuAfter !== undefined) cpu[i]!.push(cpuAfter - cpuBefore);
    }
  }
  return variants.map((v, i) => {
    const sorted = samples[i]!.sort((a, b) => a - b);
    const cpuSorted = cpu[i]!.sort((a, b) => a - b);
    return {
      name: v.name,
      median: quantile(sorted, 0.5),
      p90: quantile(sorted, 0.9),
      cpu: cpuSorted.length > 0 ? quantile(cpuSorted, 0.5) : undefined,
      runs: sorted.length,
    };
  });
}

/** The machine load, for the record beside any figure. */
export async function load(): Promise<string> {
  const text = await Deno.readTextFile("/proc/loadavg").catch(() => "?");
  return `load average ${text.split(" ").slice(0, 3).join(" ")} (${navigator.hardwareConcurrency} CPUs)`;
}

/**
 * Prints a table: each timing, the ratio to the reference row when there is one, and the difference to the `floor`
 * row (the least the runtime can take for the same work) when there is one.
 */
export function printTable(title: string, rows: Timing[], reference?: Timing, floor?: Timing): void {
  const lines = [`${title}`];
  for (const r of rows) {
    const cpuRatio = r.cpu !== undefined && reference?.cpu ? `, cpu ${(r.cpu / reference.cpu).toFixed(2)}×` : "";
    const ratio = reference && r !== reference ? `  ratio ${(r.median / reference.median).toFixed(2)}×${cpuRatio}` : "";
    const cpu = r.cpu === undefined ? "" : `  cpu ${r.cpu.toFixed(1).padStart(6)} ms`;
    const cpuOver = r.cpu !== undefined && floor?.cpu !== undefined ? ` (cpu ${signed(r.cpu - floor.cpu)})` : "";
    const over = floor && r !== floor ? `  floor ${signed(r.median - floor.median)}${cpuOver}` : "";
    lines.push(
      `  ${r.name.padEnd(44)} median ${r.median.toFixed(1).padStart(7)} ms  p90 ${
        r.p90.toFixed(1).padStart(7)
      } ms${cpu}${over}${ratio}`,
    );
  }
  // deno-lint-ignore no-console
  console.log(lines.join("\n"));
}

function signed(ms: number): string {
  return `${ms < 0 ? "−" : "+"}${Math.abs(ms).toFixed(1)} ms`;
}
