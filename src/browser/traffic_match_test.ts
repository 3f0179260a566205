import assert from "node:assert/strict";
import type { WireCorpus } from "../corpus/mod.ts";
import { compileMatcher } from "./traffic_match.ts";

Deno.test("match - requests by route and method, messages by level and text, in corpus order", () => {
  const wire: WireCorpus = {
    site: "s",
    version: 1,
    memory: [],
    globals: [],
    views: [
      {
        name: "V",
        route: "/v/**",
        memory: [],
        components: [],
        requests: [{ name: "Data", route: "/api/data", method: "get" }],
      },
      { name: "W", route: "/w", memory: [], components: [], requests: [{ name: "WData", route: "/api/**" }] },
    ],
    requests: [
      { name: "Echo", route: "/api/echo", method: "POST" },
      { name: "Any", route: "/api/**" },
      { name: "Abs", route: "https://cdn.example/x/:id" },
    ],
    messages: [
      { name: "Boom", level: "exception", message: "uncaught \\w+" },
      { name: "Warn", level: "warning" },
      { name: "Bad", message: "([" },
    ],
  };
  const m = compileMatcher(wire);
  assert.deepEqual(m.request("POST", "http://127.0.0.1:1/api/echo?x=1"), ["Echo", "Any"]);
  assert.deepEqual(m.request("GET", "http://127.0.0.1:1/api/echo"), ["Any"]);
  // A view's own requests name traffic only from its pages; the globals name it everywhere (and when the page is
  // not known).
  assert.deepEqual(m.request("GET", "http://h/api/data"), ["Any"]);
  assert.deepEqual(m.request("GET", "http://h/api/data", "http://h/v/1?x"), ["Any", "Data"]);
  assert.deepEqual(m.request("GET", "http://h/api/data", "http://h/w/"), ["Any", "WData"]);
  assert.deepEqual(m.request("GET", "http://h/api/data", "http://h/elsewhere"), ["Any"]);
  assert.deepEqual(m.request("POST", "http://h/api/data", "http://h/v"), ["Any"]);
  assert.deepEqual(m.request("GET", "https://cdn.example/x/7"), ["Abs"]);
  assert.deepEqual(m.request("GET", "not a url"), []);
  assert.deepEqual(m.message("exception", "Uncaught TypeError: uncaught boom"), ["Boom"]);
  assert.deepEqual(m.message("warn", "anything"), ["Warn"]);
  assert.deepEqual(m.message("log", "literal ([ text"), ["Bad"]);
  assert.deepEqual(compileMatcher(undefined).message("log", "x"), []);
});
