import assert from "node:assert/strict";
import { fieldDefs, messageFields, requestFields } from "./fields.ts";

Deno.test("requestFields - JSON fields of bodies, headers, URL patterns; missing values are left out", async () => {
  const got = await requestFields([
    { name: "ok", source: "rsp.body", field: "ok" },
    { name: "first", source: "rsp.body", field: "items.0.id" },
    { name: "product_id", source: "req.body", field: "product_id" },
    { name: "missing", source: "rsp.body", field: "nope" },
    { name: "type", source: "rsp.headers", field: "Content-Type", pattern: "^([^;]+)" },
    { name: "sku", source: "url", pattern: "/stock/(\\w+)" },
    { name: "bad", source: "url", pattern: "(" },
  ], {
    url: "http://x/api/stock/AB12?x=1",
    requestHeaders: [],
    responseHeaders: [{ name: "content-type", value: "application/json; charset=utf-8" }],
    requestBody: () => Promise.resolve('{"product_id":2}'),
    responseBody: () => Promise.resolve('{"ok":false,"items":[{"id":"a"}]}'),
  });
  assert.deepEqual(got, [
    ["ok", "false"],
    ["first", "a"],
    ["product_id", "2"],
    ["type", "application/json"],
    ["sku", "AB12"],
  ]);
});

Deno.test("requestFields - a body that cannot be read or parsed gives no value, never an error", async () => {
  const got = await requestFields([{ name: "ok", source: "rsp.body", field: "ok" }], {
    url: "http://x/",
    requestHeaders: [],
    responseHeaders: [],
    requestBody: () => Promise.reject(new Error("gone")),
    responseBody: () => Promise.resolve("<html>"),
  });
  assert.deepEqual(got, []);
});

Deno.test("messageFields - stack fields of the top frame", () => {
  const frame = { function: "checkout", url: "http://x/js/shop.js", line: 12, column: 3 };
  assert.deepEqual(
    messageFields([
      { name: "fn", source: "stack", field: "top.function" },
      { name: "file", source: "stack", field: "top.file", pattern: "([^/]+)$" },
      { name: "line", source: "stack", field: "top.line" },
      { name: "top", source: "stack" },
    ], { text: "boom", frame }),
    [["fn", "checkout"], ["file", "shop.js"], ["line", "12"], ["top", "checkout (http://x/js/shop.js:12:3)"]],
  );
  assert.deepEqual(
    messageFields([
      { name: "zero", source: "stack", field: "0.line" },
      { name: "deeper", source: "stack", field: "2.function" },
    ], { text: "boom", frame }),
    [["zero", "12"]],
  );
  assert.deepEqual(messageFields([{ name: "fn", source: "stack", field: "top.function" }], { text: "x" }), []);
});

Deno.test("fieldDefs - request properties of globals and views, the first declaration with properties wins", () => {
  const defs = fieldDefs({
    site: "",
    version: 1,
    memory: [],
    globals: [],
    views: [{
      name: "V",
      memory: [],
      components: [],
      requests: [{ name: "R", route: "/r", properties: [{ name: "b", source: "url" }] }],
    }],
    requests: [{ name: "R", route: "/r" }, { name: "S", route: "/s", properties: [{ name: "a", source: "url" }] }],
    messages: [{ name: "M", properties: [{ name: "f", source: "stack" }] }],
  });
  assert.deepEqual(defs.request("R").map((p) => p.name), ["b"]);
  assert.deepEqual(defs.request("S").map((p) => p.name), ["a"]);
  assert.deepEqual(defs.message("M").map((p) => p.name), ["f"]);
  assert.deepEqual(defs.request("nope"), []);
});
