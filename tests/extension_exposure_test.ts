/**
 * A page cannot tell that the browser runs the mapper extension. The extension's id is fixed (the manifest `key`), so
 * any file it made web-accessible would be a fingerprint: a hostile page on loopback asks for every file of the
 * extension as shipped, by `fetch`, `<script src>`, `<link rel=stylesheet>` and `import()`, at the fixed id and at
 * the id of an extension that is not installed, and learns the same from both. The content script still works
 * without any web-accessible file: a click on the page reaches the side panel.
 */
import assert from "node:assert/strict";
import { shippedExtension } from "../src/browser/extension.ts";
import { tempDir } from "./_helpers.ts";
import { launchWithExtension, serve, until } from "./_extension_harness.ts";
import { skipBrowserTests } from "./site/harness.ts";

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Hostile</title></head>
<body style="margin:0"><button id="go" style="width:200px;height:60px">Go</button></body></html>`;

const CORPUS = {
  site: "probe",
  version: 1000,
  memory: [],
  globals: [{ name: "Go", selector: "#go", parentChain: [], properties: [] }],
  views: [],
  requests: [],
  messages: [],
};

/** An id in Chromium's format (32 letters a–p) that no installed extension has. */
const ABSENT_ID = "abcdefghijklmnopabcdefghijklmnop";

/**
 * What the page learns from loading `chrome-extension://<id>/<file>` each way; the id is replaced by `<id>` so the
 * answers for two ids compare. Every probe ends (an answer, an error, or no answer within 5 s: also an answer).
 */
const PROBE = `async (id, files) => {
  const base = "chrome-extension://" + id + "/";
  const scrub = (text) => String(text).split(id).join("<id>");
  const element = (make) => new Promise((resolve) => {
    const el = make();
    const timer = setTimeout(() => resolve("no answer"), 5000);
    el.onload = () => { clearTimeout(timer); resolve("load"); };
    el.onerror = () => { clearTimeout(timer); resolve("error"); };
    document.head.append(el);
  });
  const ways = {
    fetch: (url) => fetch(url).then((r) => "status " + r.status + " " + r.type, (e) => "rejected " + e.name + ": " + e.message),
    script: (url) => element(() => Object.assign(document.createElement("script"), { src: url })),
    link: (url) => element(() => Object.assign(document.createElement("link"), { rel: "stylesheet", href: url })),
    import: (url) => import(url).then(() => "imported", (e) => "rejected " + e.name + ": " + e.message),
  };
  const out = {};
  await Promise.all(files.flatMap((file) => Object.entries(ways).map(async ([way, load]) => {
    out[way + " " + file] = scrub(await load(base + file));
  })));
  return out;
}`;

Deno.test({
  name: "extension exposure - a page learns the same from every extension file at the fixed id as at an absent " +
    "extension's, and clicks still reach the side panel",
  ignore: skipBrowserTests(),
}, async () => {
  await using dir = await tempDir("mapper-ext-exposure-");
  const cors = { "Access-Control-Allow-Origin": "*", "Content-Type": "application/json" };
  await using server = serve((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/mapper") return new Response(JSON.stringify(CORPUS), { headers: cors });
    if (path === "/mapper/version") return new Response(JSON.stringify({ version: CORPUS.version }), { headers: cors });
    if (path === "/hostile") return new Response(PAGE, { headers: { "Content-Type": "text/html" } });
    return new Response("not found", { status: 404 });
  });
  await using b = await launchWithExtension(dir);
  await b.announce(server.port);
  const page = await b.open(`http://127.0.0.1:${server.port}/hostile`);
  // The content script runs in this page (it loaded the corpus), so the extension is there to be found.
  await until("the content script", () => b.logs(page).some((l) => l.startsWith("[mapper] loaded 1 component")));

  const files = [...shippedExtension().map(([path]) => path), "no-such-file.js"];
  const probe = async (id: string) =>
    await b.evaluate(page, `(${PROBE})(${JSON.stringify(id)}, ${JSON.stringify(files)})`) as Record<string, string>;
  const installed = await probe(b.extensionId);
  const absent = await probe(ABSENT_ID);
  assert.equal(Object.keys(installed).length, files.length * 4);
  assert.deepEqual(installed, absent, "the installed extension answers differently from an absent one");
  // And an absent extension's files do not load (so neither do the installed one's).
  for (const [what, answer] of Object.entries(absent)) {
    assert.match(answer, /^(rejected|error|no answer)/, `${what}: ${answer}`);
  }

  // The content script, with no web-accessible file to import, still reports a click to the side panel.
  const panel = await b.open(`chrome-extension://${b.extensionId}/side-panel.html`);
  await until("the side panel status", async () => {
    const text = await b.evaluate(panel, `document.getElementById("status")?.textContent`);
    return text === "probe · 1 component · v1000";
  });
  await b.cdp.send("Page.bringToFront", {}, page);
  const [x, y] = await b.evaluate(
    page,
    `(() => { const r = document.getElementById("go").getBoundingClientRect(); return [r.x + 20, r.y + 20]; })()`,
  ) as [number, number];
  for (const type of ["mousePressed", "mouseReleased"] as const) {
    await b.cdp.send("Input.dispatchMouseEvent", { type, x, y, button: "left", clickCount: 1 }, page);
  }
  await until("the click in the side panel", async () => {
    const formatted = await b.evaluate(panel, `document.querySelector("#events .event")?.dataset.formatted`);
    return formatted === "click [Go]";
  });
  assert.deepEqual(b.exceptions, []);
});
