import assert from "node:assert/strict";
import type { WireCorpus } from "../corpus/mod.ts";
import { devtoolsHandler } from "./_http.ts";
import { Collector } from "./collector.ts";
import { compileMatcher } from "./traffic_match.ts";
import { formatConsoleList, formatNetworkList } from "./format.ts";
import { fakeCdp, fetchDone, page, settle } from "./_testing.ts";

const TAB_B = "B2B2B2B2000000000000000000000000";

const wire: WireCorpus = {
  site: "s",
  version: 1,
  memory: [],
  globals: [],
  views: [],
  requests: [{ name: "Echo", route: "/api/echo", method: "POST" }],
  messages: [{ name: "Boom", level: "exception", message: "boom" }],
};

/** A collector with two tabs of console and network traffic, behind the devtools handler. */
async function setup(ringSize = 1000) {
  const f = fakeCdp();
  const collector = new Collector(f.cdp, { ringSize });
  page(f.emit);
  page(f.emit, "S2", TAB_B);
  const log = (session: string, type: string, text: string) =>
    f.emit("Runtime.consoleAPICalled", { type, timestamp: 1, args: [{ type: "string", value: text }] }, session);
  log("S1", "log", "one");
  log("S1", "warning", "careful");
  log("S2", "error", "two");
  f.emit("Runtime.exceptionThrown", { timestamp: 2, exceptionDetails: { text: "Uncaught boom" } }, "S1");
  f.bodies.set("doc", "<html></html>");
  fetchDone(f.emit, "doc", 200, "Document");
  f.emit("Network.requestWillBeSent", {
    requestId: "post",
    type: "XHR",
    timestamp: 3,
    request: {
      method: "POST",
      url: "http://127.0.0.1:1/api/echo",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Authorization: "Bearer s3cret",
        "Proxy-Authorization": "Basic cHJveHk6cGFzcw==",
        Cookie: "sid=c00kie",
      },
      hasPostData: true,
      postData: "a=1",
    },
  }, "S2");
  fetchDone(f.emit, "img", 200, "Image", "S2");
  await settle();
  const opened: string[] = [];
  const stopped: boolean[] = [];
  const shutdownCalled = Promise.withResolvers<void>();
  const handler = devtoolsHandler({
    collector,
    matcher: () => compileMatcher(wire),
    status: () => ({ version: "0", daemonPid: 1, chromiumPid: 2, port: 3 }),
    openTab: (url) => {
      opened.push(url);
      return Promise.resolve("NEWTAB");
    },
    tabs: () => Promise.resolve([]),
    identity: () => ({ sessionId: "ab".repeat(16), daemonPid: 1, chromiumPid: 2, port: 3, version: "0" }),
    shutdown: () => {
      stopped.push(true);
      shutdownCalled.resolve();
    },
  });
  const get = async (path: string, method = "GET") => {
    const res = await handler(new Request(`http://127.0.0.1:3${path}`, { method }));
    assert.ok(res, path);
    return res;
  };
  const json = async (path: string, method = "GET") => {
    const res = await get(path, method);
    return { status: res.status, body: await res.json() };
  };
  return { f, collector, get, json, opened, handler, stopped, shutdownCalled: shutdownCalled.promise };
}

Deno.test("devtools api - console list filters: level comma list, tab prefix, limit after filtering", async () => {
  const { json } = await setup();
  const all = (await json("/devtools/console")).body;
  assert.equal(all.schema, 1);
  assert.deepEqual([all.dropped, all.first, all.last], [0, 0, 3]);
  assert.deepEqual(all.entries.map((e: { text: string }) => e.text), ["one", "careful", "two", "Uncaught boom"]);
  assert.deepEqual(all.entries[3].matches, ["Boom"]);
  const levels = (await json("/devtools/console?level=warn,exception")).body.entries;
  assert.deepEqual(levels.map((e: { level: string }) => e.level), ["warn", "exception"]);
  const tab = (await json(`/devtools/console?tab=${TAB_B.slice(0, 8).toLowerCase()}`)).body.entries;
  assert.deepEqual(tab.map((e: { text: string }) => e.text), ["two"]);
  const limited = (await json("/devtools/console?tab=T1&limit=1")).body.entries;
  assert.deepEqual(limited.map((e: { text: string }) => e.text), ["Uncaught boom"]);
  assert.equal((await json("/devtools/console/1")).body.entry.text, "careful");
});

Deno.test("devtools api - format=text: the list as the CLI prints it, filters applied, the count in a header", async () => {
  const { get, json } = await setup();
  for (
    const [path, format] of [["/devtools/console?level=warn,exception", formatConsoleList], [
      "/devtools/network?type=xhr",
      formatNetworkList,
    ]] as const
  ) {
    const res = await get(`${path}&format=text`);
    assert.equal(res.headers.get("content-type"), "text/plain; charset=utf-8");
    const payload = (await json(path)).body;
    assert.equal(res.headers.get("x-mapper-entries"), String(payload.entries.length));
    assert.equal(await res.text(), format(payload));
  }
  const empty = await get("/devtools/console?tab=NOPE&format=text");
  assert.equal(empty.headers.get("x-mapper-entries"), "0");
  assert.equal(await empty.text(), "No console messages captured.\n");
});

Deno.test("devtools api - network list filters and the entry with headers", async () => {
  const { json } = await setup();
  const all = (await json("/devtools/network")).body;
  assert.deepEqual(all.entries.map((e: { url: string }) => e.url.slice(19)), ["doc", "api/echo", "img"]);
  assert.equal(all.entries[0].requestHeaders, undefined, "lists carry no headers");
  assert.deepEqual(
    (await json("/devtools/network?type=xhr&url=API/ECHO")).body.entries.map((e: { index: number }) => e.index),
    [1],
  );
  assert.deepEqual(
    (await json("/devtools/network?limit=2")).body.entries.map((e: { index: number }) => e.index),
    [1, 2],
  );
  const post = (await json("/devtools/network/1")).body.entry;
  assert.equal(post.state, "pending");
  assert.deepEqual(post.matches, ["Echo"]);
  assert.deepEqual(post.requestHeaders.find((h: { name: string }) => h.name === "Content-Type"), {
    name: "Content-Type",
    value: "application/x-www-form-urlencoded",
  });
});

Deno.test("devtools api - redacts Authorization, Proxy-Authorization and Cookie unless secrets=1", async () => {
  const { json } = await setup();
  const headers = async (q: string) =>
    Object.fromEntries(
      ((await json(`/devtools/network/1${q}`)).body.entry.requestHeaders as Array<{ name: string; value: string }>)
        .map((h) => [h.name, h.value]),
    );
  const redacted = await headers("");
  assert.equal(redacted["Authorization"], "<redacted, 13 bytes — use --show-secrets>");
  assert.equal(redacted["Proxy-Authorization"], "<redacted, 22 bytes — use --show-secrets>");
  assert.equal(redacted["Cookie"], "<redacted, 10 bytes — use --show-secrets>");
  assert.ok(!JSON.stringify(redacted).includes("s3cret") && !JSON.stringify(redacted).includes("cHJveHk6"));
  const shown = await headers("?secrets=1");
  assert.equal(shown["Authorization"], "Bearer s3cret");
  assert.equal(shown["Proxy-Authorization"], "Basic cHJveHk6cGFzcw==");
});

Deno.test("devtools api - the session handshake answers the identity; POST shutdown stops after answering", async () => {
  const { json, stopped, shutdownCalled } = await setup();
  assert.deepEqual((await json("/devtools/session")).body, {
    schema: 1,
    sessionId: "ab".repeat(16),
    daemonPid: 1,
    chromiumPid: 2,
    port: 3,
    version: "0",
  });
  assert.equal((await json("/devtools/shutdown")).status, 405);
  assert.deepEqual(stopped, []);
  const stop = await json("/devtools/shutdown", "POST");
  assert.equal(stop.status, 202);
  await shutdownCalled;
  assert.deepEqual(stopped, [true]);
});

Deno.test("devtools api - bodies: bytes with their type, or 410 with the reason", async () => {
  const { get, json } = await setup();
  const doc = await get("/devtools/network/0/body");
  assert.equal(doc.status, 200);
  assert.equal(doc.headers.get("content-type"), "text/plain");
  assert.equal(doc.headers.get("x-mapper-body-size"), "13");
  assert.equal(await doc.text(), "<html></html>");
  const post = await get("/devtools/network/1/body?kind=request");
  assert.equal(await post.text(), "a=1");
  assert.equal(post.headers.get("content-type"), "application/x-www-form-urlencoded");
  const pending = await json("/devtools/network/1/body");
  assert.equal(pending.status, 410);
  assert.equal(pending.body.code, "body_unavailable");
  assert.equal(pending.body.reason, "the request is still pending: no response has arrived");
  const get0 = await json("/devtools/network/0/body?kind=request");
  assert.equal(get0.body.reason, "this GET request has no request body");
  const gone = await json("/devtools/network/2/body");
  assert.equal(gone.status, 410);
  assert.match(gone.body.reason, /^Chromium no longer holds it/);
});

Deno.test("devtools api - an index not buffered names the range that is; bad paths and methods", async () => {
  const { f, json } = await setup(2);
  // Two more console messages: the ring of 2 now holds 4 and 5.
  for (const text of ["x", "y"]) {
    f.emit("Runtime.consoleAPICalled", { type: "log", args: [{ type: "string", value: text }] }, "S1");
  }
  const evicted = await json("/devtools/console/0");
  assert.equal(evicted.status, 404);
  assert.deepEqual(evicted.body, {
    schema: 1,
    error: "console message index 0 is not buffered: it was dropped when the buffer overflowed; buffered: 4–5",
    code: "not_buffered",
    first: 4,
    last: 5,
  });
  const future = await json("/devtools/network/7");
  assert.equal(
    future.body.error,
    "network request index 7 is not buffered: it does not exist yet; buffered: 1–2",
  );
  const none = fakeCdp();
  const bare = devtoolsHandler({
    collector: new Collector(none.cdp),
    matcher: () => compileMatcher(undefined),
    status: () => ({ version: "0", daemonPid: 1, chromiumPid: 2, port: 3 }),
    openTab: () => Promise.resolve(""),
    tabs: () => Promise.resolve([]),
    identity: () => ({ sessionId: "", daemonPid: 1, chromiumPid: 2, port: 3, version: "0" }),
    shutdown: () => {},
  });
  const nothing = await bare(new Request("http://127.0.0.1:3/devtools/console/0"))!;
  assert.equal(
    (await nothing.json()).error,
    "console message index 0 is not buffered: no console messages are buffered yet",
  );
  assert.equal((await json("/devtools/console/abc")).status, 400);
  assert.equal((await json("/devtools/nope")).status, 404);
  assert.equal((await json("/devtools/tabs")).status, 405);
});

Deno.test("devtools api - POST /devtools/tabs opens a tab; status counts buffers", async () => {
  const { json, opened, handler } = await setup();
  const tab = await json("/devtools/tabs?url=http%3A%2F%2F127.0.0.1%3A1%2Fx", "POST");
  assert.deepEqual(tab.body, { schema: 1, tab: "NEWTAB" });
  assert.deepEqual(opened, ["http://127.0.0.1:1/x"]);
  const st = (await json("/devtools/status")).body;
  assert.deepEqual(st.console, { buffered: 4, dropped: 0 });
  assert.deepEqual(st.network, { buffered: 3, dropped: 0 });
  assert.deepEqual(st.bodies, { retained: 1, bytes: 13, dropped: 0 });
  assert.equal(handler(new Request("http://127.0.0.1:3/mapper")), undefined, "other paths are not the API's");
});
