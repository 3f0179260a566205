import assert from "node:assert/strict";
import { PageError } from "../page_api.ts";
import { CdpError, CdpTimeout } from "../../browser/cdp.ts";
import type { PageEngine } from "./engine.ts";
import { PAGE_ROUTES, pageHandler } from "./routes.ts";
import { printSnapshot } from "../snapshot.ts";
import { oneButtonPage } from "../_testing.ts";

/** An engine whose every method fails loudly: the routes under test must not reach it (but the corpus is fresh). */
const engine = new Proxy({}, {
  get: (_t, name) => () => {
    if (name === "freshCorpus") return Promise.resolve();
    if (name === "tabs") return Promise.resolve([{ id: "T1", url: "http://x/", title: "x" }]);
    if (name === "target") {
      throw new PageError("several_tabs", "2 tabs are open", { hint: "pass --tab ID", status: 400 });
    }
    throw new Error(`unexpected engine call ${String(name)}`);
  },
}) as unknown as PageEngine;

async function call(path: string, init: RequestInit = { method: "POST", body: "{}" }) {
  const req = new Request(`http://127.0.0.1/devtools/page/${path}`, init);
  const res = await pageHandler(engine)(req, path.split("/"));
  return { status: res.status, body: await res.json() };
}

Deno.test("pageHandler - JSON in and out with schema 1; typed errors keep code and hint", async () => {
  assert.deepEqual(await call("tabs"), {
    status: 200,
    body: { schema: 1, tabs: [{ id: "T1", url: "http://x/", title: "x" }] },
  });
  assert.deepEqual(await call("snapshot"), {
    status: 400,
    body: { schema: 1, error: "2 tabs are open", code: "several_tabs", hint: "pass --tab ID" },
  });
});

Deno.test("pageHandler - hostile requests: unknown or inherited command names, GET, bodies that are not objects", async () => {
  assert.equal((await call("nope")).status, 404);
  assert.equal((await call("constructor")).status, 404);
  assert.equal((await call("__proto__")).status, 404);
  assert.equal((await call("tabs/extra")).status, 404);
  assert.equal((await call("tabs", { method: "GET" })).status, 405);
  for (const body of ["[1]", "null", "42", "{", '"x"']) {
    const r = await call("tabs", { method: "POST", body });
    assert.equal(r.status, 400, body);
    assert.equal(r.body.code, "bad_request");
  }
  const wrongType = await call("snapshot", { method: "POST", body: '{"tab": 5}' });
  assert.equal(wrongType.status, 400);
  assert.ok(Object.keys(PAGE_ROUTES).includes("snapshot"));
});

/** A one-button page as the engine reads it. */
const PAGE = oneButtonPage("T1", "http://x/");

Deno.test("snapshot route - with print it answers the laid-out snapshot; a malformed print is refused first", async () => {
  const reader = {
    freshCorpus: () => Promise.resolve(),
    target: () => Promise.resolve({ tab: "T1" }),
    snapshot: () => Promise.resolve(PAGE),
  } as unknown as PageEngine;
  const ask = async (body: unknown) => {
    const req = new Request("http://127.0.0.1/devtools/page/snapshot", { method: "POST", body: JSON.stringify(body) });
    const res = await pageHandler(reader)(req, ["snapshot"]);
    return { status: res.status, body: await res.json() };
  };
  for (const print of [{}, { form: "json", depth: 0 }, { coverage: true }, { interactive: true }] as const) {
    assert.deepEqual(await ask({ print }), {
      status: 200,
      body: { schema: 1, tab: "T1", url: "http://x/", interactive: 1, printed: printSnapshot(PAGE, print) },
    });
  }
  assert.match((await ask({ print: { form: "json" } })).body.printed, /^\{\n {2}"schema": 1,/);
  // Without print: the page tree, as before.
  assert.equal((await ask({})).body.page.elements, 1);
  for (
    const [print, error] of [
      [[], '"print" must be an object'],
      [{ form: "yaml" }, '"print" .form must be "text" or "json"'],
      [{ depth: -1 }, '"print" .depth must be a whole number, 0 or more'],
      [{ depth: 1.5 }, '"print" .depth must be a whole number, 0 or more'],
      [{ interactive: "yes" }, '"print" .interactive must be true or false'],
    ] as const
  ) {
    const r = await call("snapshot", { method: "POST", body: JSON.stringify({ print }) });
    assert.deepEqual([r.status, r.body.code, r.body.error], [400, "bad_request", error], JSON.stringify(print));
  }
});

Deno.test("pageHandler - a page that navigates while it is read: page_changed with what to do, not internal", async () => {
  const leaving = new Proxy({}, {
    get: () => () => {
      throw new CdpError("Runtime.evaluate", -32000, "Inspected target navigated or closed");
    },
  }) as unknown as PageEngine;
  const req = new Request("http://127.0.0.1/devtools/page/draft", { method: "POST", body: "{}" });
  const res = await pageHandler(leaving)(req, ["draft"]);
  const body = await res.json();
  assert.equal(res.status, 409);
  assert.equal(body.code, "page_changed");
  assert.match(body.error, /^the page navigated away \(or reloaded\) while it was being read$/);
  assert.match(body.hint, /run the command again/);
  // Any other failure stays an internal error.
  const broken = new Proxy({}, {
    get: () => () => {
      throw new CdpError("Runtime.evaluate", -32000, "Object reference chain is too long");
    },
  }) as unknown as PageEngine;
  const other = await pageHandler(broken)(
    new Request("http://127.0.0.1/devtools/page/draft", { method: "POST", body: "{}" }),
    ["draft"],
  );
  assert.equal(other.status, 500);
  await other.body?.cancel();
});

Deno.test("pageHandler - a page whose script does not answer in time: page_busy with the way out, not internal", async () => {
  const failing = (err: Error) =>
    new Proxy({}, {
      get: () => () => {
        throw err;
      },
    }) as unknown as PageEngine;
  const ask = async (engine: PageEngine) => {
    const res = await pageHandler(engine)(
      new Request("http://127.0.0.1/devtools/page/snapshot", { method: "POST", body: "{}" }),
      ["snapshot"],
    );
    return { status: res.status, body: await res.json() };
  };
  const busy = await ask(failing(new CdpTimeout("Runtime.callFunctionOn", 15_000)));
  assert.equal(busy.status, 409);
  assert.equal(busy.body.code, "page_busy");
  assert.equal(
    busy.body.error,
    "the page did not answer within 15 s: its script is busy (an endless loop or a long task)",
  );
  assert.match(busy.body.hint, /'mapper browser tabs close ID'.*'mapper browser tabs new URL'/);
  // A command the browser itself answers, or any other failure, stays an internal error.
  for (const err of [new CdpTimeout("Target.createTarget", 15_000), new CdpError("Runtime.evaluate", -32000, "x")]) {
    const other = await ask(failing(err));
    assert.equal(other.status, 500);
    assert.equal(other.body.code, "internal");
  }
});
