/**
 * Short commands, whole process, against the runtime's floor and, when it is installed, the Go reference (see
 * `_compare.ts`):
 *
 * - `mapper version` vs `sightmap version`, next to the floor of `deno run` on an empty file, and the same file run
 *   with this project's `deno.json` (and so its `deno.lock`), which `deno run main.ts` reads and a compiled binary
 *   does not;
 * - the session commands against one fake daemon in this process: `console list` with 1,000 buffered entries
 *   (~155 KB of JSON), `network list` with 1,000 requests, `snapshot` and `browser click QUERY`. The lists are
 *   rendered per request with the real daemon's formatter (`format=text`, in the measured time), as the real daemon
 *   does. The page answers are replayed: recorded once, at the start, from a real session on the test shop (24
 *   product cards) when Chromium is found, so the page engine's own time (settling, the page script) is left out of
 *   both sides and only the client and the exchange are timed; without Chromium those rows are skipped.
 *   Beside each command, `_floor_exchange.ts`: the same exchange (handshake + request, and the request alone) by the
 *   smallest `deno run` program, the least any Deno command can take here; and the request alone run with this
 *   project's `deno.json` (which `deno run main.ts` reads and a compiled binary does not). The Go reference formats
 *   the console list JSON itself.
 *
 * With a compiled binary (`MAPPER_BIN`, or `dist/mapper/mapper` from `deno task compile`), its rows are added: that is
 * what users run.
 *
 *   deno run -A bench/startup_compare.ts [runs=25]
 *
 * With `MAPPER_BENCH_HOLD=1` nothing is timed: the fake daemon stays up and the bench prints the directory to run
 * mapper in (for `--cpu-prof` and the like) until interrupted.
 *
 * Prints medians, p90, CPU time, the difference to the floor and the ratio mapper / reference; asserts nothing.
 *
 * @module
 */
import { join } from "node:path";
import { findMapperBinary, findReference, load, printTable, timeVariants, type Variant } from "./_compare.ts";
import { baseEnv, mapperCommand, ROOT } from "../tests/_helpers.ts";
import { formatConsoleList, formatNetworkList } from "../src/browser/format.ts";
import type { ConsoleEntry, ListPayload, NetworkEntry } from "../src/browser/daemon_api.ts";
import { processStartTime } from "../src/browser/process.ts";
import { startSite } from "../tests/site/server.ts";
import { BROWSER, startSession, waitFor } from "../tests/site/harness.ts";

const runs = Number(Deno.args[0] ?? 25);
const reference = await findReference();
const binary = await findMapperBinary(ROOT);
const work = await Deno.makeTempDir({ prefix: "mapper-startup-bench-" });
const env = baseEnv(work);

/** The component query clicked (the same as `act_bench.ts`). */
const CLICK = 'ProductCard[name="Basalt Coffee Mug"] AddToCartButton';

interface Recorded {
  contentType: string;
  body: string;
}

/**
 * The answers of `POST /devtools/page/snapshot` and `…/click` from a real session on the test shop, or `undefined`
 * without Chromium.
 */
async function recordPageAnswers(): Promise<{ snapshot: Recorded; click: Recorded } | undefined> {
  if (BROWSER === undefined) {
    // deno-lint-ignore no-console
    console.log("no Chromium found: the snapshot and click rows are skipped (set MAPPER_BROWSER)");
    return undefined;
  }
  await using site = startSite();
  await using session = await startSession(
    ["--url", `${site.origin}/shop/?consent=1`],
    join(ROOT, "tests", "fixtures", "shop"),
  );
  const post = async (command: string, body: unknown): Promise<Recorded> => {
    const res = await fetch(`http://127.0.0.1:${session.port}/devtools/page/${command}`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.secret}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${command}: ${res.status} ${text}`);
    return { contentType: res.headers.get("content-type") ?? "application/json", body: text };
  };
  await waitFor("the shop's product cards", async () => {
    const snap = await post("snapshot", {});
    return JSON.parse(snap.body).page.coverage.interactive > 24;
  });
  // As `mapper snapshot` asks for it: laid out by the daemon.
  return {
    snapshot: await post("snapshot", { print: { form: "text" } }),
    click: await post("click", { target: CLICK }),
  };
}

const page = await recordPageAnswers();

// ---- a fake session daemon: 1,000 console entries, 1,000 requests, the recorded page answers ----------------------
const TAB = "3B52829CC055BCB8BA95A2496C0A3716";
const LEVELS = ["log", "info", "warn", "error"] as const;
const consoleEntries: ConsoleEntry[] = Array.from({ length: 1000 }, (_, i) => ({
  index: 139 + i,
  tab: TAB,
  level: LEVELS[i % LEVELS.length]!,
  text: `message ${139 + i}: ${"x".repeat(i % 23)}`,
  ts: 1795298000000 + i,
  source: "console",
  matches: [],
}));
const consolePayload: ListPayload<ConsoleEntry> = {
  schema: 1,
  dropped: 139,
  first: 139,
  last: 1138,
  entries: consoleEntries,
};
const consoleJson = JSON.stringify(consolePayload) + "\n";
const TYPES = ["Document", "Stylesheet", "Script", "Fetch", "XHR", "Image"];
const networkEntries: NetworkEntry[] = Array.from({ length: 1000 }, (_, i) => ({
  index: i,
  tab: TAB,
  method: i % 7 === 0 ? "POST" : "GET",
  url: `http://127.0.0.1:8080/shop/item/${i}?q=${"a".repeat(i % 17)}`,
  state: "complete",
  status: 200,
  statusText: "OK",
  resourceType: TYPES[i % TYPES.length]!,
  ts: 1795298000000 + i,
  durationMs: 12,
  hasRequestBody: i % 7 === 0,
  responseBody: "live",
  matches: i % 5 === 0 ? ["AddToCart"] : [],
  ...(i % 5 === 0 ? { properties: { product_id: String(i) } } : {}),
}));
const networkPayload: ListPayload<NetworkEntry> = {
  schema: 1,
  dropped: 0,
  first: 0,
  last: 999,
  entries: networkEntries,
};

// A stand-in daemon that passes the handshake (same identity, secret required), as the real one does.
const sessionId = "b".repeat(32);
// The session names two live processes (the daemon and its browser); a sleeping child stands in for the browser.
const browser = new Deno.Command("sleep", { args: ["600"], stdout: "null", stderr: "null" }).spawn();
const secret = "c".repeat(64);
let port = 0;
const text = (body: string, count: number) =>
  new Response(body, {
    headers: { "content-type": "text/plain; charset=utf-8", "x-mapper-entries": String(count) },
  });
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
  const url = new URL(req.url);
  const path = url.pathname;
  // The Go reference sends no credential: only our handshake and page paths insist on it (ours sends it always).
  const authorized = req.headers.get("authorization") === `Bearer ${secret}`;
  if ((path === "/devtools/session" || path.startsWith("/devtools/page/")) && !authorized) {
    return new Response("{}", { status: 403 });
  }
  if (req.method === "POST") await req.arrayBuffer();
  const asText = url.searchParams.get("format") === "text";
  // As the real daemon does for `mapper console|network list`: the list rendered per request.
  if (path === "/devtools/console" && asText) return text(formatConsoleList(consolePayload), 1000);
  if (path === "/devtools/network" && asText) return text(formatNetworkList(networkPayload), 1000);
  const recorded = path === "/devtools/page/snapshot"
    ? page?.snapshot
    : path === "/devtools/page/click"
    ? page?.click
    : undefined;
  if (recorded) return new Response(recorded.body, { headers: { "content-type": recorded.contentType } });
  const answer = path === "/devtools/session"
    ? JSON.stringify({ schema: 1, sessionId, daemonPid: Deno.pid, chromiumPid: browser.pid, port, version: "bench" })
    : path === "/devtools/network"
    ? JSON.stringify(networkPayload)
    : consoleJson;
  return new Response(answer, { headers: { "content-type": "application/json" } });
});
port = server.addr.port;
await Deno.mkdir(join(work, ".mapper"));
await Deno.writeTextFile(
  join(work, ".mapper", ".session"),
  JSON.stringify({
    schema: 2,
    sessionId,
    secret,
    daemonPid: Deno.pid,
    // As the real daemon records it: where there is one, clients trust the file by it and skip the handshake.
    ...(processStartTime(Deno.pid) === undefined ? {} : { daemonStart: processStartTime(Deno.pid) }),
    chromiumPid: browser.pid,
    port,
    profile: work,
    headless: true,
    startedAt: new Date().toISOString(),
    version: "bench",
    log: null,
  }),
  { mode: 0o600 },
);
await Deno.mkdir(join(work, ".sightmap"));
await Deno.writeTextFile(
  join(work, ".sightmap", ".session"),
  JSON.stringify({ port: 9, pid: Deno.pid, serverPort: port }),
);
await Deno.writeTextFile(join(work, "empty.ts"), "");

try {
  if (Deno.env.get("MAPPER_BENCH_HOLD") === "1") {
    // deno-lint-ignore no-console
    console.log(`holding: cd ${work} && HOME=${env.HOME} deno run -A ${join(ROOT, "main.ts")} console list`);
    await new Promise<void>((resolve) => Deno.addSignalListener("SIGINT", resolve));
  } else await timeAll();
} finally {
  browser.kill();
  await browser.status;
  await server.shutdown();
  await Deno.remove(work, { recursive: true });
}

/** Times every variant, one table per command. */
async function timeAll(): Promise<void> {
  // deno-lint-ignore no-console
  console.log(
    `${await load()}; ${runs} runs each, interleaved; console list body ${(consoleJson.length / 1000).toFixed(0)} KB${
      page
        ? `; snapshot answer ${(page.snapshot.body.length / 1000).toFixed(0)} KB (recorded, laid out by the daemon)`
        : ""
    }`,
  );
  const deno = Deno.execPath();
  const floor = (
    name: string,
    path: string,
    body: string | undefined,
    exchanges: 1 | 2,
    config = ["--no-config"],
  ): Variant => ({
    name,
    cmd: [
      deno,
      "run",
      "-A",
      "--quiet",
      ...config,
      join(ROOT, "bench", "_floor_exchange.ts"),
      path,
      ...(body === undefined ? [] : [body]),
    ],
    env: { ...env, FLOOR_EXCHANGES: String(exchanges) },
  });
  const versionRows: Variant[] = [
    { name: "deno run (empty file, the floor)", cmd: [deno, "run", "-A", "--quiet", "--no-config", "empty.ts"] },
    {
      name: "deno run (empty file, this project's config)",
      cmd: [deno, "run", "-A", "--quiet", "--config", join(ROOT, "deno.json"), "empty.ts"],
    },
    { name: "mapper version (deno run main.ts)", cmd: [deno, ...mapperCommand(["version"])] },
  ];
  if (binary) versionRows.push({ name: "mapper version (compiled binary)", cmd: [binary, "version"] });
  if (reference) versionRows.push({ name: "sightmap version (Go reference 0.32.0)", cmd: [reference, "version"] });

  /** One table per session command: mapper, the floor with and without the handshake, binary and reference. */
  const groups: Array<{ title: string; rows: Variant[]; reference: boolean }> = [];
  const group = (title: string, args: string[], path: string, body?: string, withReference = false) => {
    const rows: Variant[] = [
      { name: `mapper ${title}`, cmd: [deno, ...mapperCommand(args)] },
      floor("floor: handshake + request", path, body, 2),
      floor("floor: the request alone", path, body, 1),
      // What `deno run main.ts` cannot avoid and a compiled binary never pays: reading deno.json and deno.lock.
      floor("floor: the request alone, project config", path, body, 1, ["--config", join(ROOT, "deno.json")]),
    ];
    if (binary) rows.push({ name: `mapper ${title} (compiled binary)`, cmd: [binary, ...args] });
    if (reference && withReference) {
      rows.push({ name: `sightmap ${title} (Go reference 0.32.0)`, cmd: [reference, ...args] });
    }
    groups.push({ title, rows, reference: reference !== undefined && withReference });
  };
  group("console list", ["console", "list"], "/devtools/console?format=text", undefined, true);
  group("network list", ["network", "list"], "/devtools/network?format=text");
  if (page) {
    group(
      "snapshot",
      ["snapshot"],
      "/devtools/page/snapshot",
      JSON.stringify({ includeHidden: false, print: { form: "text" } }),
    );
    group("browser click", ["browser", "click", CLICK], "/devtools/page/click", JSON.stringify({ target: CLICK }));
  }
  for (const v of [...versionRows, ...groups.flatMap((g) => g.rows)]) {
    Object.assign(v, { cwd: work, env: v.env ?? env });
  }

  const versions = await timeVariants(versionRows, runs);
  printTable("version", versions, reference ? versions.at(-1) : undefined, versions[0]);
  for (const g of groups) {
    const timings = await timeVariants(g.rows, runs);
    printTable(g.title, timings, g.reference ? timings.at(-1) : undefined, timings[2]);
  }
}
