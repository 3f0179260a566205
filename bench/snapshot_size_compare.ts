/**
 * Bytes of `mapper snapshot` next to chrome-devtools-mcp's `take_snapshot` on the same pages, in one run, real
 * Chromium headless on both sides:
 *
 * - `shop`: the test shop's home (`tests/site`, `/shop/?consent=1`: 24 product cards, filters, reviews, footer) with
 *   its corpus `tests/fixtures/shop`;
 * - `api-console`, `signup`, `typeahead`, `grid`: the real-package pages of `tests/apps/` with their corpora
 *   (`tests/apps/corpora/<page>`), as they load;
 * - `signup+dialog`: the sign-up page with its help `sl-dialog` open; `typeahead+open`: the Tom Select page with the
 *   country dropdown open.
 *
 * Both sides open the page, wait for the same readiness check, do the same thing to the page (the `+` states), and
 * print what an agent would read: mapper's stdout, and the text of the peer's tool answer. Goal (issue 27): mapper's
 * column no larger than the peer's on every page, the shop ≤ 6 KB.
 *
 * The peer is `chrome-devtools-mcp@1.11.0`, installed for the bench only (never a test dependency):
 *
 *   mkdir -p /tmp/mcp-peers && cd /tmp/mcp-peers && npm install chrome-devtools-mcp@1.11.0 @modelcontextprotocol/sdk
 *   deno run -A bench/snapshot_size_compare.ts          # MAPPER_MCP_PEERS=DIR when installed elsewhere
 *
 * Without it, only mapper's column is printed; without a browser, the bench says so and exits 0.
 *
 * @module
 */
import { join } from "node:path";
import { baseEnv, ROOT } from "../tests/_helpers.ts";
import { appCorpus, startApps } from "../tests/apps/server.ts";
import { startSite } from "../tests/site/server.ts";
import { BROWSER, startSession, type TestSession, waitFor } from "../tests/site/harness.ts";
import { type Call, connect, DEVTOOLS_ENTRY, devtoolsArgs, peerEntry, PEERS, selectedPageId } from "./_mcp_peers.ts";

// deno-lint-ignore no-console
const say = (line: string) => console.log(line);

/** One page, or one state of a page, measured on both sides. */
interface Page {
  name: string;
  /** The server the page lives on. */
  site: "shop" | "apps";
  path: string;
  corpus: string;
  /** A JS expression that is true once the page rendered what it renders. */
  ready: string;
  /** What the state does to the page (a JS expression; a promise is awaited), then the check it holds. */
  state?: { does: string; holds: string };
}

const APPS_READY = "document.body.dataset.ready === '1'";
const PAGES: Page[] = [
  {
    name: "shop",
    site: "shop",
    path: "/shop/?consent=1",
    corpus: join(ROOT, "tests", "fixtures", "shop"),
    ready: "document.querySelectorAll('article.product-card').length === 24",
  },
  { name: "api-console", site: "apps", path: "/api-console.html", corpus: appCorpus("api-console"), ready: APPS_READY },
  { name: "signup", site: "apps", path: "/signup.html", corpus: appCorpus("signup"), ready: APPS_READY },
  {
    name: "signup+dialog",
    site: "apps",
    path: "/signup.html",
    corpus: appCorpus("signup"),
    ready: APPS_READY,
    state: {
      does: "document.getElementById('help').show().then(() => 1)",
      holds: "document.getElementById('help').open",
    },
  },
  { name: "typeahead", site: "apps", path: "/typeahead.html", corpus: appCorpus("typeahead"), ready: APPS_READY },
  {
    name: "typeahead+open",
    site: "apps",
    path: "/typeahead.html",
    corpus: appCorpus("typeahead"),
    ready: APPS_READY,
    state: {
      does: "(document.getElementById('country').tomselect.open(), 1)",
      holds: "document.getElementById('country').tomselect.isOpen",
    },
  },
  { name: "grid", site: "apps", path: "/grid.html", corpus: appCorpus("grid"), ready: APPS_READY },
  { name: "material", site: "apps", path: "/material.html", corpus: appCorpus("material"), ready: APPS_READY },
  {
    name: "material+menu",
    site: "apps",
    path: "/material.html",
    corpus: appCorpus("material"),
    ready: APPS_READY,
    state: {
      does: "(document.getElementById('more-menu').show(), 1)",
      holds: "document.getElementById('more-menu').open",
    },
  },
];

const bytes = (s: string) => new TextEncoder().encode(s).length;

/** mapper's side: a session per page on its corpus; the snapshot's stdout. */
async function mapperSnapshot(url: string, page: Page): Promise<string> {
  await using s = await startSession(["--url", url], page.corpus);
  const truthy = async (s: TestSession, js: string) => {
    const r = await s.run(["browser", "eval", `!!(${js})`]);
    return r.code === 0 && r.stdout.trim() === "true";
  };
  await waitFor(`${page.name} ready (mapper)`, () => truthy(s, page.ready), 30_000);
  if (page.state) {
    const r = await s.run(["browser", "eval", page.state.does]);
    if (r.code !== 0) throw new Error(r.stderr);
    await waitFor(`${page.name} state (mapper)`, () => truthy(s, page.state!.holds), 15_000);
  }
  const out = await s.run(["snapshot"]);
  if (out.code !== 0) throw new Error(`mapper snapshot on ${page.name}: ${out.stderr}`);
  if (Deno.env.get("SNAPSHOT_SIZE_SHOW")) say(`--- mapper ${page.name}\n${out.stdout}`);
  return out.stdout;
}

/** chrome-devtools-mcp over stdio, when installed; undefined (and a note) when not. */
async function startPeer(tmp: string): Promise<{ call: Call; close: () => Promise<void> } | undefined> {
  const entry = await peerEntry(DEVTOOLS_ENTRY);
  if (entry === undefined) {
    say(
      `chrome-devtools-mcp: not installed in ${PEERS}, its column is skipped (mkdir -p ${PEERS} && cd ${PEERS} && ` +
        "npm install chrome-devtools-mcp@1.11.0 @modelcontextprotocol/sdk)",
    );
    return undefined;
  }
  const peer = await connect("node", [entry, ...devtoolsArgs(BROWSER!)], tmp, baseEnv(join(tmp, "home")));
  return { call: peer.call, close: () => peer.client.close() };
}

/** The peer's side: a new page, the same readiness and state, then `take_snapshot` with its `pageId`. */
async function peerSnapshot(call: Call, url: string, page: Page): Promise<string> {
  const listed = await call("new_page", { url });
  const pageId = selectedPageId(listed);
  if (pageId === undefined) throw new Error(`new_page named no selected page:\n${listed}`);
  const truthy = async (js: string) =>
    /\btrue\b/.test(await call("evaluate_script", { pageId, function: `() => !!(${js})`, waitForStableDom: false }));
  await waitFor(`${page.name} ready (peer)`, () => truthy(page.ready), 30_000);
  if (page.state) {
    await call("evaluate_script", { pageId, function: `async () => { await (${page.state.does}); return 1; }` });
    await waitFor(`${page.name} state (peer)`, () => truthy(page.state!.holds), 15_000);
  }
  const snap = await call("take_snapshot", { pageId });
  if (Deno.env.get("SNAPSHOT_SIZE_SHOW")) say(`--- chrome-devtools-mcp ${page.name}\n${snap}`);
  await call("close_page", { pageId });
  return snap;
}

if (BROWSER === undefined) {
  say("no browser found: snapshot_size_compare skipped");
} else {
  const tmp = await Deno.makeTempDir({ prefix: "mapper-size-bench-" });
  await using site = startSite();
  await using apps = await startApps();
  const peer = await startPeer(tmp);
  try {
    const only = Deno.args.length ? new Set(Deno.args) : undefined;
    say(`${"page".padEnd(16)} ${"mapper".padStart(8)} ${"chrome-devtools-mcp".padStart(20)}  mapper/peer`);
    for (const page of PAGES.filter((p) => !only || only.has(p.name))) {
      const url = `${page.site === "shop" ? site.origin : apps.origin}${page.path}`;
      const ours = bytes(await mapperSnapshot(url, page));
      const theirs = peer ? bytes(await peerSnapshot(peer.call, url, page)) : undefined;
      say(
        `${page.name.padEnd(16)} ${`${ours} B`.padStart(8)} ${
          (theirs === undefined ? "—" : `${theirs} B`).padStart(20)
        }  ${theirs === undefined ? "" : (ours / theirs).toFixed(2)}`,
      );
    }
  } finally {
    await peer?.close();
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}
