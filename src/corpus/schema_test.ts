// The corpus schema table (`schema.ts`) against everything that must agree with it: the wire format's JSON Schema
// (assets/schema/compiled-corpus.schema.json), the decoder (every key of every place accepted and kept, any other
// key reported, a misplaced one with where it belongs) and the compiler (every wire key reaches the wire).
import assert from "node:assert/strict";
import { stringify } from "yaml";
import schemaText from "../../assets/schema/compiled-corpus.schema.json" with { type: "text" };
import { compile, type Diagnostic, load } from "./mod.ts";
import { CORPUS_SCHEMA, type KeyType, type Place } from "./schema.ts";
import { assertWireSchema, tempCorpus } from "./_testing.ts";

type JsonSchema = {
  type?: string;
  $ref?: string;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
};
const wireSchema = JSON.parse(schemaText) as JsonSchema & { $defs: Record<string, JsonSchema> };

function resolve(node: JsonSchema): JsonSchema {
  return node.$ref ? resolve(wireSchema.$defs[node.$ref.replace("#/$defs/", "")]!) : node;
}

/** The wire schema node of every place that reaches the wire, found by following the table's wire keys from the top. */
function wireNodes(): Map<Place, JsonSchema> {
  const nodes = new Map<Place, JsonSchema>([["file", wireSchema]]);
  const walk = (place: Place, node: JsonSchema) => {
    for (const k of CORPUS_SCHEMA[place].keys) {
      if (k.wire === undefined || typeof k.type !== "object") continue;
      const value = resolve(node.properties?.[k.wire] ?? {});
      const [target, inner] = "list" in k.type ? [k.type.list, resolve(value.items ?? {})] : [k.type.map, value];
      if (nodes.has(target)) continue;
      nodes.set(target, inner);
      walk(target, inner);
    }
  };
  walk("file", wireSchema);
  return nodes;
}

/** Whether a wire schema node can hold what a key of this type compiles to. */
function compatible(type: KeyType, node: JsonSchema): boolean {
  const n = resolve(node);
  if (type === "string" || type === "text" || type === "selector") return n.type === "string";
  if (type === "strings") return n.type === "array" && resolve(n.items ?? {}).type === "string";
  if (type === "headers") {
    return n.type === "object" && typeof n.additionalProperties === "object" &&
      n.additionalProperties.type === "string";
  }
  if (typeof type === "object") return "list" in type ? n.type === "array" : n.type === "object";
  return false; // version, ref, any: never on the wire
}

Deno.test("corpus schema - the wire JSON Schema has exactly the table's wire keys, of matching types", () => {
  const nodes = wireNodes();
  for (const [place, decl] of Object.entries(CORPUS_SCHEMA) as Array<[Place, (typeof CORPUS_SCHEMA)[Place]]>) {
    const node = nodes.get(place);
    const wireKeys = decl.keys.filter((k) => k.wire !== undefined);
    if (!node) {
      assert.deepEqual(wireKeys, [], `${place} has wire keys but no wire key of another place leads to it`);
      continue;
    }
    if (decl.wireDef !== undefined) assert.equal(resolve({ $ref: `#/$defs/${decl.wireDef}` }), node, place);
    assert.deepEqual(
      Object.keys(node.properties ?? {}).sort(),
      [...wireKeys.map((k) => k.wire!), ...(decl.wireOnly ?? [])].sort(),
      `wire keys of ${place}`,
    );
    for (const k of wireKeys) {
      assert.ok(compatible(k.type, node.properties![k.wire!]!), `${place}.${k.key} (${JSON.stringify(k.type)})`);
    }
  }
  // Every definition of the wire schema is some place's (or the string list every place shares).
  const reached = new Set([...nodes.values()]);
  for (const [name, def] of Object.entries(wireSchema.$defs)) {
    if (name !== "strings") assert.ok(reached.has(def), `$defs.${name} belongs to no place of the table`);
  }
});

let serial = 0;

/** A value of a key's type; every place's mapping holds all of its keys (children two levels deep at most). */
function sample(type: KeyType, depth: number): unknown {
  if (type === "version") return 1;
  if (type === "strings") return ["x"];
  if (type === "headers") return { "X-Test": "1" };
  if (type === "any") return [];
  if (type === "string" || type === "text" || type === "selector" || type === "ref") return `v${++serial}`;
  if ("map" in type) return full(type.map, depth + 1);
  return depth > 2 ? [] : [full(type.list, depth + 1)];
}

function full(place: Place, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of CORPUS_SCHEMA[place].keys) {
    if (k.type === "ref") continue; // a `$ref` entry has exactly one key: tested on its own below
    out[k.key] = sample(k.type, depth);
  }
  if (place === "view" || place === "request") out.route = `/r${++serial}`;
  return out;
}

const STRUCTURAL = new Set(["unknown-field", "view-field-at-file-root", "type-mismatch", "parse-error"]);

Deno.test("corpus schema - the decoder accepts every key of every place and carries every wire key to the wire", async () => {
  const doc = full("file");
  (doc.components as unknown[]).push({ $ref: (doc.components as Array<{ name: string }>)[0]!.name });
  await using corpus = await tempCorpus({ "all.yaml": stringify(doc) });
  const { corpus: loaded, diagnostics } = await load(corpus.dir, { validate: true, tolerant: true, sources: false });
  assert.deepEqual(diagnostics.filter((d: Diagnostic) => STRUCTURAL.has(d.code)), []);
  const wire = compile(loaded, { site: "s", version: 1 });
  assertWireSchema(wire);
  const nodes = wireNodes();
  // Every wire key of every place holds a value somewhere on the wire.
  const seen = new Map<Place, Set<string>>();
  const visit = (place: Place, value: unknown) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return;
    const keys = seen.get(place) ?? new Set<string>();
    seen.set(place, keys);
    for (const k of CORPUS_SCHEMA[place].keys) {
      const v = k.wire === undefined ? undefined : (value as Record<string, unknown>)[k.wire];
      if (v === undefined) continue;
      keys.add(k.key);
      if (typeof k.type !== "object") continue;
      if ("map" in k.type) visit(k.type.map, v);
      else for (const item of v as unknown[]) visit(k.type.list, item);
    }
  };
  visit("file", wire);
  for (const place of nodes.keys()) {
    const missing = CORPUS_SCHEMA[place].keys.filter((k) => k.wire !== undefined && !seen.get(place)?.has(k.key));
    assert.deepEqual(missing.map((k) => k.key), [], `${place}: wire keys the decoder or compiler dropped`);
  }
  // Authoring-only keys the model keeps.
  const view = loaded.views[0]!;
  for (const key of ["url", "description", "source", "tags", "dependencies"] as const) {
    assert.notEqual(view[key], undefined, `view ${key}`);
  }
  assert.notEqual(loaded.globals[0]!.description, undefined, "component description");
});

Deno.test("corpus schema - every key the decoder handles by name is a key of the schema", async () => {
  // The decoder's switches accept the keys they name; a key named there but missing from the table would be read
  // by the decoder yet unknown to fmt's order and to the misplaced-key hints.
  const source = await Deno.readTextFile(new URL("./_decode.ts", import.meta.url));
  const named = new Set([...source.matchAll(/case "([^"]+)":|\b[ef]\.key === "([^"]+)"/g)].map((m) => m[1] ?? m[2]!));
  const known = new Set(Object.values(CORPUS_SCHEMA).flatMap((p) => p.keys.map((k) => k.key)));
  assert.ok(named.size > 30, `found only ${named.size} keys in _decode.ts`);
  assert.deepEqual([...named].filter((k) => !known.has(k)), []);
});

Deno.test("corpus schema - a key allowed nowhere is unknown; one allowed elsewhere says where it belongs", async () => {
  await using corpus = await tempCorpus({
    "a.yaml": [
      "version: 1",
      "colour: red",
      "views:",
      "  - name: Home",
      "    route: /",
      "    messages:",
      "      - name: Boom",
      "    components:",
      "      - name: Card",
      "        selector: .card",
      "        route: /x",
      "        properties:",
      "          - name: title",
      "            extract: text",
      "            source: req.body",
      "",
    ].join("\n"),
  });
  const { diagnostics } = await load(corpus.dir, { validate: true, tolerant: true, sources: false });
  assert.deepEqual(
    diagnostics.filter((d) => d.code === "unknown-field").map((d) => `${d.location.line} ${d.message}`),
    [
      '2 unknown field "colour" in the file root; it is ignored',
      '6 unknown field "messages" in a view; it is ignored — "messages" belongs at the top level of a file; move ' +
      "it there",
      '11 unknown field "route" in a component; it is ignored — "route" belongs in a view or in a request; move it ' +
      "there",
      '15 unknown field "source" in a component property; it is ignored — "source" belongs in a view, in a ' +
      "component, in a request, in a message or in a request or message property; move it there",
    ],
  );
});
