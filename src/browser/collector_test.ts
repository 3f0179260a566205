import assert from "node:assert/strict";
import {
  BodyUnavailable,
  Collector,
  CONSOLE_ARG_CAP,
  CONSOLE_TEXT_CAP,
  HEADER_VALUE_CAP,
  POST_DATA_KEEP,
  Ring,
  URL_CAP,
} from "./collector.ts";
import { truncationMarker } from "./_pipe.ts";
import { fakeCdp, fetchDone, page, settle } from "./_testing.ts";

Deno.test("ring - keeps the newest entries, indices monotonic, cumulative drops", () => {
  const ring = new Ring<{ index: number }>(3);
  const evicted: number[] = [];
  ring.onEvict = (e) => evicted.push(e.index);
  assert.equal(ring.first, 0);
  assert.equal(ring.last, -1);
  for (let i = 0; i < 5; i++) ring.push({ index: ring.nextIndex() });
  assert.deepEqual(ring.all().map((e) => e.index), [2, 3, 4]);
  assert.equal(ring.dropped, 2);
  assert.deepEqual(evicted, [0, 1]);
  assert.equal(ring.get(1), undefined);
  assert.equal(ring.get(3)?.index, 3);
  assert.equal(ring.get(5), undefined);
  assert.equal(ring.first, 2);
  assert.equal(ring.last, 4);
});

Deno.test("collector - enables Runtime, Log and Network on a new target before it resumes", () => {
  const { cdp, sent, emit } = fakeCdp();
  new Collector(cdp);
  page(emit);
  const order = sent.filter((c) => c.sessionId === "S1").map((c) => c.method);
  const resume = order.indexOf("Runtime.runIfWaitingForDebugger");
  assert.ok(resume > 0, order.join(", "));
  for (const m of ["Runtime.enable", "Log.enable", "Network.enable", "Target.setAutoAttach"]) {
    assert.ok(order.indexOf(m) >= 0 && order.indexOf(m) < resume, `${m} before resuming: ${order.join(", ")}`);
  }
});

Deno.test("collector - opens a tab's URL only once Network.enable has answered on it, the first tab and a new one", async () => {
  const { cdp, sent, emit } = fakeCdp();
  // Network.enable answers when the test says so; Target.createTarget attaches the new tab, as Chromium does.
  const answers: Array<() => void> = [];
  const send = cdp.send.bind(cdp);
  (cdp as { send: unknown }).send = (method: string, params?: Record<string, unknown>, sessionId?: string) => {
    const sending = send(method as "Network.enable", params as never, sessionId);
    if (method === "Network.enable") return new Promise((r) => answers.push(() => r(sending)));
    if (method === "Target.createTarget") {
      queueMicrotask(() => page(emit, "S2", "T2"));
      return Promise.resolve({ targetId: "T2" });
    }
    return sending;
  };
  const collector = new Collector(cdp);
  page(emit);
  const navigations = () => sent.filter((c) => c.method === "Page.navigate").map((c) => c.sessionId);
  const first = collector.openTab("http://127.0.0.1:1/first", "S1");
  const second = collector.openTab("http://127.0.0.1:1/second");
  await settle();
  // A navigation sent before the answer raced the renderer that takes the page over: its first fetch went unseen.
  assert.deepEqual(navigations(), []);
  for (const answer of answers.splice(0)) answer();
  assert.deepEqual(await Promise.all([first, second]), ["T1", "T2"]);
  assert.deepEqual(navigations(), ["S1", "S2"]);
});

Deno.test("collector - a new tab is answered once the tab list shows it on a URL, not while its page commits", async () => {
  const { cdp, emit } = fakeCdp();
  // The browser's list: the new tab T2 is on about:blank, then without a URL from Page.navigate's answer until the
  // test lets its document commit, as Chromium lists it.
  let url = "about:blank";
  let listed = 0;
  let listedWithoutUrl: () => void = () => {};
  const withoutUrl = new Promise<void>((r) => (listedWithoutUrl = r));
  const send = cdp.send.bind(cdp);
  (cdp as { send: unknown }).send = (method: string, params?: Record<string, unknown>, sessionId?: string) => {
    if (method === "Target.createTarget") {
      queueMicrotask(() => page(emit, "S2", "T2"));
      return Promise.resolve({ targetId: "T2" });
    }
    if (method === "Page.navigate") url = "";
    if (method === "Target.getTargets") {
      if (url === "" && ++listed === 3) listedWithoutUrl();
      return Promise.resolve({
        targetInfos: [
          { targetId: "T1", type: "page", url: "http://127.0.0.1:1/first", title: "" },
          { targetId: "T2", type: "page", url, title: "" },
        ],
      });
    }
    return send(method as "Network.enable", params as never, sessionId);
  };
  const collector = new Collector(cdp);
  page(emit);
  let answered = false;
  const opened = collector.openTab("http://127.0.0.1:1/second").then((id) => (answered = true, id));
  await withoutUrl;
  assert.equal(answered, false, "answered while the tab was listed without a URL");
  url = "http://127.0.0.1:1/second";
  assert.equal(await opened, "T2");
  assert.deepEqual((await collector.tabs()).map((t) => t.url), [
    "http://127.0.0.1:1/first",
    "http://127.0.0.1:1/second",
  ]);
  // A tab that never gets a URL: the wait ends at its bound, and the tab is answered all the same.
  url = "about:blank";
  const stuck = collector.openTab("http://127.0.0.1:1/third", "S2", 15_000, 30);
  assert.equal(await stuck, "T2");
});

Deno.test("collector - body budget: per-body limit and total budget, drops counted, the reason kept", async () => {
  const { cdp, bodies, emit } = fakeCdp();
  const c = new Collector(cdp, { bodyLimit: 100, bodyBudget: 250 });
  page(emit);
  bodies.set("a", "a".repeat(80));
  bodies.set("big", "b".repeat(150));
  bodies.set("c", "c".repeat(90));
  bodies.set("d", "d".repeat(90));
  bodies.set("img", "i".repeat(10));
  for (const id of ["a", "big", "c", "d"]) {
    fetchDone(emit, id);
    await settle();
  }
  fetchDone(emit, "img", 200, "Image");
  await settle();
  // a (80) + c (90) + d (90) = 260 > 250: the oldest retained body (a) is released; big never fit; images are
  // never retained (fetched on demand).
  assert.deepEqual(c.bodyStats(), { retained: 2, bytes: 180, dropped: 2 });
  const rec = (id: string) => c.network.all().find((r) => r.requestId === id)!;
  assert.equal(rec("c").responseBody, "retained");
  assert.equal(rec("img").responseBody, "live");
  assert.equal(new TextDecoder().decode(await c.responseBody(rec("d"))), "d".repeat(90));

  // Chromium still has them: served live although the collector kept no copy.
  assert.equal((await c.responseBody(rec("big"))).length, 150);
  assert.equal((await c.responseBody(rec("a"))).length, 80);
  // Gone from Chromium too: the error says both why.
  bodies.delete("a");
  bodies.delete("big");
  await assert.rejects(
    c.responseBody(rec("a")),
    (err: unknown) =>
      err instanceof BodyUnavailable &&
      err.message ===
        "Chromium no longer holds it (the page navigated away or its network cache evicted the body); not kept by the collector: released to stay within the 250 bytes budget for all bodies",
  );
  await assert.rejects(
    c.responseBody(rec("big")),
    (err: unknown) =>
      err instanceof BodyUnavailable && err.message.endsWith("150 bytes is over the 100 bytes limit per body"),
  );
});

Deno.test("collector - evicting a record from the ring releases its retained body", async () => {
  const { cdp, bodies, emit } = fakeCdp();
  const c = new Collector(cdp, { ringSize: 2 });
  page(emit);
  bodies.set("a", "xxxx");
  fetchDone(emit, "a");
  await settle();
  assert.deepEqual(c.bodyStats(), { retained: 1, bytes: 4, dropped: 0 });
  fetchDone(emit, "b");
  fetchDone(emit, "c");
  await settle();
  assert.equal(c.network.dropped, 1);
  assert.deepEqual(c.bodyStats(), { retained: 0, bytes: 0, dropped: 0 });
});

Deno.test("collector - redirect hops are completed 3xx entries; failures are never left pending", async () => {
  const { cdp, emit } = fakeCdp();
  const c = new Collector(cdp);
  page(emit);
  const req = (url: string) => ({ method: "GET", url, headers: {} });
  emit("Network.requestWillBeSent", { requestId: "r", type: "Fetch", timestamp: 1, request: req("http://h/a") }, "S1");
  emit("Network.requestWillBeSent", {
    requestId: "r",
    type: "Fetch",
    timestamp: 1.1,
    request: req("http://h/b"),
    redirectResponse: { status: 302, statusText: "Found", headers: { Location: "/b" } },
  }, "S1");
  emit("Network.responseReceived", {
    requestId: "r",
    type: "Fetch",
    timestamp: 1.2,
    response: { status: 200, statusText: "OK", headers: {} },
  }, "S1");
  emit("Network.requestWillBeSent", { requestId: "f", type: "Fetch", timestamp: 2, request: req("http://h/f") }, "S1");
  emit("Network.loadingFailed", { requestId: "f", timestamp: 2.1, errorText: "net::ERR_CONNECTION_REFUSED" }, "S1");
  emit("Network.requestWillBeSent", { requestId: "s", type: "Script", timestamp: 3, request: req("http://h/s") }, "S1");
  emit("Network.responseReceived", {
    requestId: "s",
    type: "Script",
    timestamp: 3.1,
    response: { status: 404, statusText: "Not Found", headers: {} },
  }, "S1");
  emit("Network.loadingFailed", { requestId: "s", timestamp: 3.2, errorText: "net::ERR_ABORTED" }, "S1");
  const all = c.network.all();
  assert.deepEqual(
    all.map((r) => [r.index, r.url, r.state, r.status, r.redirected === true]),
    [
      [0, "http://h/a", "complete", 302, true],
      [1, "http://h/b", "complete", 200, false],
      [2, "http://h/f", "failed", null, false],
      [3, "http://h/s", "complete", 404, false],
    ],
  );
  assert.equal(all[2]!.failure, "net::ERR_CONNECTION_REFUSED");
  await assert.rejects(c.responseBody(all[0]!), /it is a redirect hop \(302\); see the next request/);
  await assert.rejects(c.responseBody(all[2]!), /the request failed \(net::ERR_CONNECTION_REFUSED\)/);
});

Deno.test("collector - a closed tab's bodies are gone and the error says so", async () => {
  const { cdp, emit } = fakeCdp();
  const c = new Collector(cdp);
  page(emit);
  fetchDone(emit, "x", 200, "Image");
  emit("Target.detachedFromTarget", { sessionId: "S1", targetId: "T1" });
  await assert.rejects(c.responseBody(c.network.all()[0]!), /the tab, frame or worker that loaded it has closed/);
});

Deno.test("collector - console levels, exceptions and Log entries; extension content scripts are not the page", () => {
  const { cdp, emit } = fakeCdp();
  const c = new Collector(cdp);
  page(emit);
  emit("Runtime.executionContextCreated", { context: { id: 9, origin: "chrome-extension://abc" } }, "S1");
  const call = (type: string, text: string, ctx = 1) =>
    emit("Runtime.consoleAPICalled", {
      type,
      executionContextId: ctx,
      timestamp: 1795298000000,
      args: [{ type: "string", value: text }],
    }, "S1");
  for (const t of ["log", "debug", "info", "warning", "error", "table"]) call(t, t);
  call("log", "from the overlay", 9);
  emit("Runtime.exceptionThrown", {
    timestamp: 1795298000001,
    exceptionDetails: {
      text: "Uncaught",
      exception: { type: "object", subtype: "error", description: "TypeError: boom\n    at f (http://h/:1:2)" },
      stackTrace: { callFrames: [{ functionName: "f", url: "http://h/", lineNumber: 0, columnNumber: 1 }] },
    },
  }, "S1");
  emit(
    "Log.entryAdded",
    { entry: { source: "network", level: "error", text: "Failed to load", url: "http://h/x" } },
    "S1",
  );
  emit("Log.entryAdded", { entry: { source: "worker", level: "info", text: "dup of a worker log" } }, "S1");
  assert.deepEqual(
    c.console.all().map((e) => `${e.level} ${e.text}`),
    [
      "log log",
      "debug debug",
      "info info",
      "warn warning",
      "error error",
      "info table",
      "exception Uncaught TypeError: boom\n    at f (http://h/:1:2)",
      "error Failed to load",
    ],
  );
  assert.deepEqual(c.console.all()[6]!.frame, { function: "f", url: "http://h/", line: 1, column: 2 });
  assert.ok(c.console.all().every((e) => e.tab === "T1"));
});

Deno.test("collector - a tab that starts on chrome://newtab/ is captured once it reaches the site, Chromium's own traffic is not", () => {
  const { cdp, sent, emit } = fakeCdp();
  const c = new Collector(cdp);
  emit("Target.attachedToTarget", {
    sessionId: "N",
    targetInfo: { targetId: "NTP", type: "page", url: "chrome://new-tab-page-third-party/" },
    waitingForDebugger: true,
  });
  assert.ok(sent.some((m) => m.method === "Network.enable" && m.sessionId === "N"));
  const log = (text: string) =>
    emit(
      "Runtime.consoleAPICalled",
      { type: "log", executionContextId: 1, args: [{ type: "string", value: text }] },
      "N",
    );
  emit("Runtime.executionContextCreated", { context: { id: 1, origin: "chrome://new-tab-page-third-party" } }, "N");
  log("new tab page chatter");
  emit("Network.requestWillBeSent", {
    requestId: "ntp",
    type: "Image",
    documentURL: "chrome://new-tab-page-third-party/",
    request: { method: "GET", url: "data:image/gif;base64,R0lG", headers: {} },
  }, "N");
  // Navigating to the site swaps the renderer: context ids start over.
  emit("Runtime.executionContextsCleared", {}, "N");
  emit("Runtime.executionContextCreated", { context: { id: 1, origin: "http://127.0.0.1:1" } }, "N");
  log("site log");
  emit("Network.requestWillBeSent", {
    requestId: "doc",
    type: "Document",
    documentURL: "http://127.0.0.1:1/",
    request: { method: "GET", url: "http://127.0.0.1:1/", headers: {} },
  }, "N");
  assert.deepEqual(c.console.all().map((e) => e.text), ["site log"]);
  assert.deepEqual(c.network.all().map((e) => e.url), ["http://127.0.0.1:1/"]);
});

Deno.test("collector - a console message is cut at its cap (and each argument at its own), the original size named", () => {
  const { cdp, emit } = fakeCdp();
  const c = new Collector(cdp);
  page(emit);
  const big = "x".repeat(CONSOLE_ARG_CAP * 3);
  emit("Runtime.consoleAPICalled", { type: "log", args: [{ type: "string", value: big }] }, "S1");
  const one = c.console.get(0)!.text;
  assert.equal(one, "x".repeat(CONSOLE_ARG_CAP) + truncationMarker(CONSOLE_ARG_CAP * 3));
  // Many capped arguments: the message as a whole is cut too.
  const args = Array.from({ length: 5 }, () => ({ type: "string", value: big }));
  emit("Runtime.consoleAPICalled", { type: "log", args }, "S1");
  const all = c.console.get(1)!.text;
  assert.ok(all.length <= CONSOLE_TEXT_CAP + 64, String(all.length));
  assert.match(all, /… \[truncated by mapper: \d+ bytes\]$/);
  // A string the pipe already cut keeps the size the pipe announced.
  const piped = "y".repeat(70_000) + truncationMarker(52_428_800);
  emit("Runtime.consoleAPICalled", { type: "log", args: [{ type: "string", value: piped }] }, "S1");
  assert.ok(c.console.get(2)!.text.endsWith(truncationMarker(52_428_800)));
  // Exceptions and log entries too.
  emit(
    "Runtime.exceptionThrown",
    { exceptionDetails: { text: "Uncaught", exception: { type: "string", value: big } } },
    "S1",
  );
  assert.ok(c.console.get(3)!.text.length <= CONSOLE_TEXT_CAP + 64);
});

Deno.test("collector - both rings share one byte budget: the oldest entries of either go first, counted as dropped", () => {
  const { cdp, emit } = fakeCdp();
  const c = new Collector(cdp, { ringBudget: 200_000 });
  page(emit);
  const log = (n: number) =>
    emit(
      "Runtime.consoleAPICalled",
      { type: "log", args: [{ type: "string", value: `${n} ${"z".repeat(10_000)}` }] },
      "S1",
    );
  for (let i = 0; i < 5; i++) log(i);
  fetchDone(emit, "r1");
  for (let i = 5; i < 20; i++) log(i);
  // ~20 KB per entry against 200 KB: about nine fit; the request (older than most logs) was evicted in turn.
  assert.ok(c.console.all().length < 11 && c.console.all().length > 5, String(c.console.all().length));
  assert.equal(c.console.dropped + c.console.all().length, 20, "every eviction counted");
  assert.equal(c.network.all().length, 0);
  assert.equal(c.network.dropped, 1);
  assert.equal(c.console.all().at(-1)!.text.slice(0, 3), "19 ");
});

Deno.test("collector - header values and lists are cut; large POST data is not copied; an oversized body is not fetched", async () => {
  const { cdp, sent, bodies, emit } = fakeCdp();
  const c = new Collector(cdp, { bodyLimit: 1000 });
  page(emit);
  const headers: Record<string, string> = { "X-Huge": "h".repeat(HEADER_VALUE_CAP * 2) };
  for (let i = 0; i < 100; i++) headers[`X-Many-${i}`] = "m".repeat(1000);
  emit("Network.requestWillBeSent", {
    requestId: "p",
    type: "XHR",
    timestamp: 1,
    request: {
      method: "POST",
      url: "http://127.0.0.1:1/" + "u".repeat(URL_CAP * 2),
      headers,
      hasPostData: true,
      postData: "d".repeat(POST_DATA_KEEP + 1),
    },
  }, "S1");
  const r = c.network.get(0)!;
  assert.equal(r.url.length, URL_CAP + truncationMarker(URL_CAP * 2 + 19).length);
  assert.equal(
    r.requestHeaders.find((h) => h.name === "X-Huge")!.value.length,
    HEADER_VALUE_CAP + truncationMarker(HEADER_VALUE_CAP * 2).length,
  );
  assert.match(r.requestHeaders.at(-1)!.value, /^\d+ more headers \(\d+ bytes\) not recorded$/);
  assert.equal(r.requestHeaders.at(-1)!.name, "x-mapper-truncated");
  assert.equal(r.postData, undefined, "fetched from Chromium on demand instead");
  assert.equal(r.hasRequestBody, true);
  // A response whose received bytes exceed the limit is never fetched for retention.
  bodies.set("big", "b".repeat(5000));
  emit("Network.requestWillBeSent", {
    requestId: "big",
    type: "Fetch",
    timestamp: 1,
    request: { url: "http://127.0.0.1:1/big" },
  }, "S1");
  emit("Network.responseReceived", { requestId: "big", type: "Fetch", response: { status: 200, headers: {} } }, "S1");
  emit("Network.dataReceived", { requestId: "big", dataLength: 5000, encodedDataLength: 100 }, "S1");
  emit("Network.loadingFinished", { requestId: "big", encodedDataLength: 100 }, "S1");
  await settle();
  assert.equal(sent.filter((s) => s.method === "Network.getResponseBody").length, 0);
  assert.equal(c.bodyStats().dropped, 1);
  // Asked for explicitly, it is still fetched live from Chromium.
  assert.equal((await c.responseBody(c.network.get(1)!)).length, 5000);
});

Deno.test("collector - a response without a reason phrase (HTTP/2, HTTP/3) shows the standard one", () => {
  const { cdp, emit } = fakeCdp();
  const c = new Collector(cdp);
  page(emit);
  const statuses = [[404, ""], [451, ""], [599, ""], [200, "Fine"]] as const;
  for (const [i, [status, statusText]] of statuses.entries()) {
    const id = `r${i}`;
    const request = { method: "GET", url: `http://h/${id}`, headers: {} };
    emit("Network.requestWillBeSent", { requestId: id, type: "Fetch", timestamp: i, request }, "S1");
    emit("Network.responseReceived", {
      requestId: id,
      type: "Fetch",
      timestamp: i + 0.1,
      response: { status, statusText, headers: {} },
    }, "S1");
  }
  assert.deepEqual(
    c.network.all().map((r) => r.statusText),
    ["Not Found", "Unavailable For Legal Reasons", "", "Fine"],
  );
});
