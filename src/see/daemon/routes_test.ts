import assert from "node:assert/strict";
import { PageError } from "../page_api.ts";
import type { PageEngine } from "./engine.ts";
import { PAGE_ROUTES, pageHandler } from "./routes.ts";

/** An engine whose every method fails loudly: the routes under test must not reach it. */
const engine = new Proxy({}, {
  get: (_t, name) => () => {
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
