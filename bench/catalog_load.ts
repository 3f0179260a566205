/**
 * Load test of `mapper atlas serve` with wrk on loopback: requests per second and p99 latency for
 * `/api/atlas/{slug}` and `/atlas/index.json`, and the server's resident memory, for the generated 1,000-entry
 * gallery and (when present) the shared real gallery.
 *
 * Run: `deno run -A bench/catalog_load.ts [--duration 10s] [--connections 32] [--threads 2]`
 *
 * Each run is bounded (`wrk -d`), targets 127.0.0.1 only, and the server subprocess is stopped at the end.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { mapperCommand, ROOT } from "../tests/_helpers.ts";
import { generateGallery } from "./_catalog_gallery.ts";
import { sized } from "./_smoke.ts";
import { wrkInstalled } from "./_wrk.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    duration: { type: "string", default: sized("10s", "1s") },
    connections: { type: "string", default: "32" },
    threads: { type: "string", default: "2" },
  },
});

/** Writes one line to stdout (the lint rules keep `console` out of the tree). */
function print(line: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
}

/** Resident and peak memory of a process in MiB, from /proc. */
async function memory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

/** Runs one bounded wrk load and returns req/s and p99 latency. */
async function wrk(url: string, header?: string): Promise<{ rps: number; p99: string; p50: string; errors: string }> {
  const args = ["-t", values.threads!, "-c", values.connections!, "-d", values.duration!, "--latency"];
  if (header) args.push("-H", header);
  args.push(url);
  const out = await new Deno.Command("wrk", { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN);
  const p99 = /^\s+99%\s+(\S+)/m.exec(text)?.[1] ?? "?";
  const p50 = /^\s+50%\s+(\S+)/m.exec(text)?.[1] ?? "?";
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? "0";
  return { rps, p99, p50, errors };
}

async function loadTest(label: string, gallery: string, slug: string): Promise<void> {
  const child = new Deno.Command(Deno.execPath(), {
    args: mapperCommand(["atlas", "serve", "--gallery", gallery, "--port", "0"]),
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let line = "";
  while (!line.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("server exited before printing its URL");
    line += value;
  }
  const url = /(http:\/\/\S+\/)/.exec(line)?.[1];
  if (!url) throw new Error(`no URL in ${line}`);
  try {
    const idle = await memory(child.pid);
    print(`\n${label}: server RSS after start ${idle.rss.toFixed(1)} MiB`);
    const runs: Array<[string, string | undefined]> = [
      [`api/atlas/${slug}`, undefined],
      ["atlas/index.json", undefined],
      ["atlas/index.json", "Accept-Encoding: br"],
    ];
    for (const [path, header] of runs) {
      const size = (await (await fetch(url + path, { headers: { "Accept-Encoding": "identity" } })).arrayBuffer())
        .byteLength;
      const r = await wrk(url + path, header);
      print(
        `  /${path}${header ? ` [${header}]` : ""} (${size} bytes identity): ${r.rps.toFixed(0)} req/s, ` +
          `p50 ${r.p50}, p99 ${r.p99}, non-2xx ${r.errors}`,
      );
    }
    const after = await memory(child.pid);
    print(`  server RSS after load ${after.rss.toFixed(1)} MiB (peak ${after.peak.toFixed(1)} MiB)`);
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await reader.cancel().catch(() => {});
  }
}

if (!(await wrkInstalled())) {
  print("wrk not found: the load test is skipped (install wrk to run it)");
  Deno.exit(0);
}
print(`wrk -t ${values.threads} -c ${values.connections} -d ${values.duration} --latency <url>`);
const generated = await Deno.makeTempDir({ prefix: "mapper-load-gallery-" });
try {
  await generateGallery(generated, sized(1000, 10));
  await loadTest("generated gallery (1,000 entries)", generated, "site-0500");
  const real = Deno.env.get("MAPPER_GALLERY_ROOT") ??
    fileURLToPath(new URL("../../shared/data/atlas-gallery", import.meta.url));
  if (await Deno.stat(real).then(() => true, () => false)) {
    await loadTest("shared real gallery (10 entries)", real, "airbnb");
  }
} finally {
  await Deno.remove(generated, { recursive: true });
}
