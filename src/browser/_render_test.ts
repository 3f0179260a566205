import assert from "node:assert/strict";
import { renderArgs } from "./_render.ts";

Deno.test("render - console arguments read like the DevTools console", () => {
  assert.equal(
    renderArgs([
      { type: "string", value: "log message" },
      { type: "number", value: 42, description: "42" },
      { type: "boolean", value: true },
      { type: "object", subtype: "null", value: null },
      { type: "undefined" },
      {
        type: "object",
        className: "Object",
        description: "Object",
        preview: {
          type: "object",
          properties: [{ name: "a", type: "number", value: "1" }, { name: "b", type: "string", value: "x" }],
        },
      },
      {
        type: "object",
        subtype: "array",
        className: "Array",
        description: "Array(2)",
        preview: {
          type: "object",
          subtype: "array",
          properties: [{ name: "0", type: "number", value: "1" }, { name: "1", type: "number", value: "2" }],
        },
      },
    ]),
    "log message 42 true null undefined {a: 1, b: 'x'} (2) [1, 2]",
  );
  assert.equal(
    renderArgs([{ type: "string", value: "%s has %d items %%" }, { type: "string", value: "cart" }, {
      type: "number",
      value: 3.7,
    }]),
    "cart has 3 items %",
  );
  assert.equal(
    renderArgs([{ type: "number", unserializableValue: "NaN" }, { type: "bigint", description: "10n" }]),
    "NaN 10n",
  );
  assert.equal(
    renderArgs([{ type: "object", subtype: "error", description: "Error: x\n    at f" }]),
    "Error: x\n    at f",
  );
  assert.equal(
    renderArgs([{ type: "string", value: "%c styled" }, { type: "string", value: "color: red" }]),
    " styled",
  );
});
