/**
 * `mapper mcp` figures, each as an already-running server driven by the SDK's own client over stdio:
 * - start-up: spawn to `initialize` answered (whole process, SDK import included);
 * - tool-call latency of `console_list`, and of `snapshot` and `click` on the test shop's ~2,000-element page
 *   (when those tools and the shop exist);
 * - the snapshot's size next to the same page's `@playwright/mcp` and `chrome-devtools-mcp` snapshots, and their
 *   snapshot and click latency (the first enabled "Add to cart" of their snapshot, by their own ref), when those
 *   packages are installed in `$MAPPER_MCP_PEERS` (default `/tmp/mcp-peers`: `npm install @playwright/mcp
 *   chrome-devtools-mcp` there). Absent peers are skipped, never a failure.
 *
 *   deno bench -A bench/mcp_bench.ts
 *
 * Skipped when no browser is found. Sizes are printed once (console), timings by `deno bench`.
 */
import { join } from "node:path";
import { baseEnv, mapperCommand, ROOT } from "../tests/_helpers.ts";
import { startSite } from "../tests/site/server.ts";
import { alive, BROWSER } from "../tests/site/harness.ts";
import { connect, DEVTOOLS_ENTRY, devtoolsArgs, peerEntry, PEERS, selectedPageId } from "./_mcp_peers.ts";

const SHOP_CORPUS = join(ROOT, "tests", "fixtures", "shop");
const hasShop = await Deno.stat(SHOP_CORPUS).then(() => true, () => false);
const ignore = BROWSER === undefined;

const kb = (s: string) => `${(new TextEncoder().encode(s).length / 1024).toFixed(1)} KB`;
// deno-lint-ignore no-console
const say = (line: string) => console.log(line);

const tmp = ignore ? undefined : await Deno.makeTempDir({ prefix: "mapper-mcp-bench-" });
const site = ignore ? undefined : startSite();
const page = site ? `${site.origin}/shop/?consent=1&delay=0` : "";
const serverPids: number[] = [];
let sessionPid: number | undefined;

let mapper: Awaited<ReturnType<typeof connect>> | undefined;
if (tmp && site) {
  const cwd = join(tmp, "site");
  await Deno.mkdir(join(cwd, ".mapper"), { recursive: true });
  if (hasShop) {
    for await (const e of Deno.readDir(SHOP_CORPUS)) {
      if (e.isFile) await Deno.copyFile(join(SHOP_CORPUS, e.name), join(cwd, ".mapper", e.name));
    }
  }
  const args = ["mcp", "--headless", "--browser", BROWSER!, "--port", "0", "--url", page];
  mapper = await connect(Deno.execPath(), mapperCommand(args), cwd, { ...baseEnv(join(tmp, "home")) });
  serverPids.push(mapper.pid);
  await mapper.call("console_list", { limit: 1 }); // starts the session
  sessionPid = JSON.parse(await Deno.readTextFile(join(cwd, ".mapper", ".session"))).daemonPid;
  if (mapper.tools.includes("snapshot")) {
    if (mapper.tools.includes("wait_for")) {
      await mapper.call("wait_for", { component: "ProductCard", timeout_ms: 10_000 });
    }
    const snap = await mapper.call("snapshot");
    say(`mapper snapshot of ${page}: ${kb(snap)}`);
  }
}

/** How one peer is started and driven. */
interface PeerSpec {
  name: string;
  /** Entry script under `node_modules`. */
  entry: string;
  args: string[];
  navigate: string;
  snapshot: string;
  /** Arguments of its snapshot tool, from the navigation's answer. */
  snapshotArgs: (navigated: string) => Record<string, unknown>;
  click: string;
  /** Arguments that click the first enabled "Add to cart" button of its snapshot, or undefined. */
  clickArgs: (snapshot: string, snapshotArgs: Record<string, unknown>) => Record<string, unknown> | undefined;
}

/** Starts a peer when its package is installed; returns its snapshot and click callers, or undefined. */
async function peer(spec: PeerSpec) {
  const file = await peerEntry(spec.entry);
  if (ignore || !tmp || file === undefined) {
    say(`${spec.name}: not installed in ${PEERS}, skipped`);
    return undefined;
  }
  try {
    const p = await connect("node", [file, ...spec.args], tmp, { ...baseEnv(join(tmp, "home")) });
    serverPids.push(p.pid);
    const navigated = await p.call(spec.navigate, { url: page });
    await new Promise((r) => setTimeout(r, 1000)); // the shop renders its grid after load
    const a = spec.snapshotArgs(navigated);
    const snap = await p.call(spec.snapshot, a);
    say(`${spec.name} snapshot of the same page: ${kb(snap)}`);
    const click = spec.clickArgs(snap, a);
    return { snapshot: () => p.call(spec.snapshot, a), click: click && (() => p.call(spec.click, click)) };
  } catch (err: unknown) {
    say(`${spec.name}: could not run (${err instanceof Error ? err.message : String(err)}), skipped`);
    return undefined;
  }
}

const playwright = await peer({
  name: "@playwright/mcp",
  entry: "@playwright/mcp/cli.js",
  args: ["--headless", "--isolated", "--no-sandbox", "--browser", "chromium", "--executable-path", BROWSER ?? ""],
  navigate: "browser_navigate",
  snapshot: "browser_snapshot",
  snapshotArgs: () => ({}),
  click: "browser_click",
  clickArgs: (snap) => {
    const ref = /^\s*- button "Add to cart" \[ref=(e\d+)\]$/m.exec(snap)?.[1];
    return ref === undefined ? undefined : { element: "Add to cart button", target: ref };
  },
});
const devtools = await peer({
  name: "chrome-devtools-mcp",
  entry: DEVTOOLS_ENTRY,
  args: devtoolsArgs(BROWSER ?? ""),
  navigate: "new_page",
  snapshot: "take_snapshot",
  snapshotArgs: (navigated) => {
    // Its page tools need the id of the page new_page opened: the one listed as selected.
    const pageId = selectedPageId(navigated);
    return pageId === undefined ? {} : { pageId };
  },
  click: "click",
  clickArgs: (snap, a) => {
    const uid = /^\s*uid=(\S+) button "Add to cart"$/m.exec(snap)?.[1];
    return uid === undefined ? undefined : { ...a, uid };
  },
});

globalThis.addEventListener("unload", () => {
  // Unload handlers cannot await: signal each server (mapper's stops the session it started on SIGTERM; the peers
  // close their browsers), then wait for mapper's session daemon to be gone before removing the temp dir.
  for (const pid of serverPids) {
    try {
      Deno.kill(pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && sessionPid !== undefined && alive(sessionPid)) {
    // brief busy wait
  }
  if (sessionPid !== undefined && alive(sessionPid)) Deno.kill(sessionPid, "SIGTERM");
  try {
    if (tmp) Deno.removeSync(tmp, { recursive: true });
  } catch {
    // best effort
  }
});

Deno.bench(
  { name: "mapper mcp: spawn to initialize answered", group: "startup", ignore: ignore || !tmp, n: 5 },
  async () => {
    const m = await connect(
      Deno.execPath(),
      mapperCommand(["mcp", "--dir", "none"]),
      tmp!,
      baseEnv(join(tmp!, "home")),
    );
    await m.client.close();
  },
);

Deno.bench(
  { name: "mapper console_list (running server)", group: "call", ignore: !mapper, n: 30, warmup: 3 },
  async () => {
    await mapper!.call("console_list", { limit: 20 });
  },
);

const canSee = mapper?.tools.includes("snapshot") === true && hasShop;
Deno.bench(
  { name: "mapper snapshot (running server)", group: "snapshot", ignore: !canSee, n: 20, warmup: 2, baseline: true },
  async () => {
    await mapper!.call("snapshot");
  },
);
Deno.bench(
  { name: "@playwright/mcp browser_snapshot", group: "snapshot", ignore: !canSee || !playwright, n: 20, warmup: 2 },
  async () => {
    await playwright!.snapshot();
  },
);
Deno.bench(
  { name: "chrome-devtools-mcp take_snapshot", group: "snapshot", ignore: !canSee || !devtools, n: 20, warmup: 2 },
  async () => {
    await devtools!.snapshot();
  },
);
Deno.bench(
  {
    name: "mapper click by component query (running server)",
    group: "click",
    ignore: !canSee,
    n: 20,
    warmup: 2,
    baseline: true,
  },
  async () => {
    await mapper!.call("click", { target: 'ProductCard[name="Basalt Coffee Mug"] AddToCartButton' });
  },
);
Deno.bench(
  { name: "@playwright/mcp browser_click", group: "click", ignore: !canSee || !playwright?.click, n: 20, warmup: 2 },
  async () => {
    await playwright!.click!();
  },
);
Deno.bench(
  { name: "chrome-devtools-mcp click", group: "click", ignore: !canSee || !devtools?.click, n: 20, warmup: 2 },
  async () => {
    await devtools!.click!();
  },
);
