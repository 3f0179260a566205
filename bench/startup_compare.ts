/**
 * Short commands, whole process, side by side with the Go reference when it is installed (see `_compare.ts`):
 *
 * - `mapper version` vs `sightmap version`, next to the floor of `deno run` on an empty file;
 * - `console list` with 1,000 buffered entries (~155 KB of JSON): both CLIs read their session file and GET
 *   `/devtools/console` from one fake daemon in this process. The reference formats the JSON itself; ours asks for
 *   `format=text`, which this daemon renders per request with the real daemon's formatter (in the measured time).
 *   Beside them, `_floor_console_list.ts`: the same two exchanges by the smallest `deno run` program, the least any
 *   Deno command can take here.
 *
 * With a compiled binary (`MAPPER_BIN`, or `dist/mapper/mapper` from `deno task compile`), its rows are added: that is
 * what users run.
 *
 *   deno run -A bench/startup_compare.ts [runs=25]
 *
 * Prints medians, p90 and the ratio mapper / reference; asserts nothing.
 *
 * @module
 */
import { join } from "node:path";
import { findMapperBinary, findReference, load, printTable, timeVariants, type Variant } from "./_compare.ts";
import { baseEnv, mapperCommand, ROOT } from "../tests/_helpers.ts";
import { formatConsoleList } from "../src/browser/format.ts";

const runs = Number(Deno.args[0] ?? 25);
const reference = await findReference();
const binary = await findMapperBinary(ROOT);
const work = await Deno.makeTempDir({ prefix: "mapper-startup-bench-" });
const env = baseEnv(work);

// ---- a fake session daemon with 1,000 console entries, valid for both CLIs ----------------------------------------
const TAB = "3B52829CC055BCB8BA95A2496C0A3716";
const LEVELS = ["log", "info", "warn", "error"];
const entries = Array.from({ length: 1000 }, (_, i) => ({
  index: 139 + i,
  tab: TAB,
  level: LEVELS[i % LEVELS.length],
  text: `message ${139 + i}: ${"x".repeat(i % 23)}`,
  ts: 1795298000000 + i,
  source: "console",
  matches: [],
}));
const payload = { schema: 1, dropped: 139, first: 139, last: 1138, entries };
const body = JSON.stringify(payload) + "\n";
// A stand-in daemon that passes the handshake (same identity, secret required), as the real one does.
const sessionId = "b".repeat(32);
// The session names two live processes (the daemon and its browser); a sleeping child stands in for the browser.
const browser = new Deno.Command("sleep", { args: ["600"], stdout: "null", stderr: "null" }).spawn();
const secret = "c".repeat(64);
let port = 0;
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
  const url = new URL(req.url);
  const path = url.pathname;
  // The Go reference sends no credential: only our handshake path insists on it (ours sends it on every call).
  const authorized = req.headers.get("authorization") === `Bearer ${secret}`;
  if (path === "/devtools/session" && !authorized) return new Response("{}", { status: 403 });
  if (url.searchParams.get("format") === "text") {
    // As the real daemon does for `mapper console list`: the list rendered per request (the Go CLI formats its own).
    const headers = { "content-type": "text/plain; charset=utf-8", "x-mapper-entries": String(entries.length) };
    return new Response(formatConsoleList(payload as Parameters<typeof formatConsoleList>[0]), { headers });
  }
  const answer = path === "/devtools/session"
    ? JSON.stringify({ schema: 1, sessionId, daemonPid: Deno.pid, chromiumPid: browser.pid, port, version: "bench" })
    : body;
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
  // deno-lint-ignore no-console
  console.log(
    `${await load()}; ${runs} runs each, interleaved; console list body ${(body.length / 1000).toFixed(0)} KB`,
  );
  const deno = Deno.execPath();
  const versionRows: Variant[] = [
    { name: "deno run (empty file, the floor)", cmd: [deno, "run", "-A", "--quiet", "--no-config", "empty.ts"] },
    { name: "mapper version (deno run main.ts)", cmd: [deno, ...mapperCommand(["version"])] },
  ];
  const consoleRows: Variant[] = [
    { name: "mapper console list (1,000 entries)", cmd: [deno, ...mapperCommand(["console", "list"])] },
    {
      name: "deno run, least possible (the floor)",
      cmd: [deno, "run", "-A", "--quiet", "--no-config", join(ROOT, "bench", "_floor_console_list.ts")],
    },
  ];
  if (binary) {
    versionRows.push({ name: "mapper version (compiled binary)", cmd: [binary, "version"] });
    consoleRows.push({ name: "mapper console list (compiled binary)", cmd: [binary, "console", "list"] });
  }
  if (reference) {
    versionRows.push({ name: "sightmap version (Go reference 0.32.0)", cmd: [reference, "version"] });
    consoleRows.push({ name: "sightmap console list (Go reference 0.32.0)", cmd: [reference, "console", "list"] });
  }
  for (const v of [...versionRows, ...consoleRows]) Object.assign(v, { cwd: work, env });
  const versions = await timeVariants(versionRows, runs);
  printTable("version", versions, reference ? versions.at(-1) : undefined);
  const lists = await timeVariants(consoleRows, runs);
  printTable("console list", lists, reference ? lists.at(-1) : undefined);
} finally {
  browser.kill();
  await browser.status;
  await server.shutdown();
  await Deno.remove(work, { recursive: true });
}
