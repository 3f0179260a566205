/**
 * THE corpus schema: every key a `.mapper/` file may hold, where it is allowed, in which order `fmt` writes it, what
 * it holds, and under which name (if any) it reaches the compiled wire format. Declared once, here:
 *
 * - the decoder (`_decode.ts`) accepts exactly these keys at each place and says where a misplaced key belongs;
 * - `fmt` (`src/authoring/canonical.ts`) orders every mapping by it;
 * - `assets/schema/compiled-corpus.schema.json` (the wire format) is checked against it by `schema_test.ts`, which
 *   also decodes a document holding every key of every place, so a key added here and forgotten there (or the
 *   other way round) fails a test.
 *
 * @module
 */

/** A place in a corpus file where a mapping sits. */
export type Place =
  | "file"
  | "view"
  | "access"
  | "component"
  | "componentProperty"
  | "request"
  | "payload"
  | "payloadField"
  | "message"
  | "fieldProperty";

/**
 * What a key holds: a string; `text`, a string that must be written as one (a number or boolean is reported); a
 * list of strings; `selector`, a string or a list of strings; `version`, the number 1; `headers`, a mapping of
 * strings; `ref`, a `$ref` (the entry's only key); `any`, authoring data not checked here; a list of mappings of a
 * place; or one mapping of a place.
 */
export type KeyType =
  | "string"
  | "text"
  | "strings"
  | "selector"
  | "version"
  | "headers"
  | "ref"
  | "any"
  | { list: Place }
  | { map: Place };

/** One key of a place. */
export interface KeyDecl {
  /** The key as written. */
  key: string;
  /** What it holds. */
  type: KeyType;
  /** Its name in the compiled wire format; absent when it is authoring-only (never served). */
  wire?: string;
}

/** A place: how messages name it and its keys in canonical order. */
export interface PlaceDecl {
  /** How a message says where something is: "in a view", "at the top level of a file". */
  where: string;
  /** The `$defs` entry of the wire schema describing it, when it reaches the wire. */
  wireDef?: string;
  /** Keys the wire format adds that no file holds (computed by the compiler). */
  wireOnly?: readonly string[];
  /** Every key allowed here, in the order `fmt` writes them. */
  keys: readonly KeyDecl[];
}

const S = "string";

/**
 * The schema. The orders keep the canonical format's published orders (file: version, memory, views, components,
 * requests; view: name, route, description, source, dependencies, components, memory, requests; component: name,
 * selector, description, source, dependencies, children, memory; request: name, route, method, description,
 * source, request, response, headers, memory) and place every other key where a reader looks for it: a view's `url`
 * beside its route, properties before children.
 */
export const CORPUS_SCHEMA: Readonly<Record<Place, PlaceDecl>> = {
  file: {
    where: "at the top level of a file",
    wireOnly: ["site", "version"],
    keys: [
      { key: "version", type: "version" },
      { key: "url", type: S },
      { key: "memory", type: "strings", wire: "memory" },
      { key: "views", type: { list: "view" }, wire: "views" },
      { key: "components", type: { list: "component" }, wire: "globals" },
      { key: "requests", type: { list: "request" }, wire: "requests" },
      { key: "messages", type: { list: "message" }, wire: "messages" },
      { key: "snapshots", type: "any" },
    ],
  },
  view: {
    where: "in a view",
    wireDef: "view",
    keys: [
      { key: "name", type: S, wire: "name" },
      { key: "route", type: S, wire: "route" },
      { key: "url", type: S },
      { key: "description", type: S },
      { key: "source", type: S },
      { key: "dependencies", type: "strings" },
      { key: "stability", type: S },
      { key: "access", type: { map: "access" } },
      { key: "tags", type: "strings" },
      { key: "components", type: { list: "component" }, wire: "components" },
      { key: "memory", type: "strings", wire: "memory" },
      { key: "requests", type: { list: "request" }, wire: "requests" },
      { key: "snapshots", type: "any" },
    ],
  },
  access: {
    where: `in a view's "access"`,
    keys: [{ key: "status", type: S }, { key: "reason", type: S }],
  },
  component: {
    where: "in a component",
    wireDef: "component",
    wireOnly: ["parentChain"],
    keys: [
      { key: "$ref", type: "ref" },
      { key: "name", type: S, wire: "name" },
      { key: "selector", type: "selector", wire: "selector" },
      { key: "description", type: S },
      { key: "source", type: S, wire: "source" },
      { key: "dependencies", type: "strings" },
      { key: "stability", type: S, wire: "stability" },
      { key: "tags", type: "strings", wire: "tags" },
      { key: "properties", type: { list: "componentProperty" }, wire: "properties" },
      { key: "children", type: { list: "component" } },
      { key: "memory", type: "strings", wire: "memory" },
    ],
  },
  componentProperty: {
    where: "in a component property",
    wireDef: "property",
    keys: [
      { key: "name", type: S, wire: "name" },
      { key: "extract", type: S, wire: "extract" },
      { key: "transform", type: S, wire: "transform" },
    ],
  },
  request: {
    where: "in a request",
    wireDef: "request",
    keys: [
      { key: "name", type: S, wire: "name" },
      { key: "route", type: S, wire: "route" },
      { key: "method", type: S, wire: "method" },
      { key: "description", type: S, wire: "description" },
      { key: "source", type: S, wire: "source" },
      { key: "request", type: { map: "payload" }, wire: "request" },
      { key: "response", type: { map: "payload" }, wire: "response" },
      { key: "headers", type: "headers", wire: "headers" },
      { key: "properties", type: { list: "fieldProperty" }, wire: "properties" },
      { key: "memory", type: "strings", wire: "memory" },
      { key: "tags", type: "strings", wire: "tags" },
    ],
  },
  payload: {
    where: `in a request's "request" or "response"`,
    wireDef: "payload",
    keys: [{ key: "fields", type: { list: "payloadField" }, wire: "fields" }],
  },
  payloadField: {
    where: "in a payload field",
    keys: [
      { key: "name", type: S, wire: "name" },
      { key: "type", type: S, wire: "type" },
      { key: "description", type: S, wire: "description" },
    ],
  },
  message: {
    where: "in a message",
    wireDef: "message",
    keys: [
      { key: "name", type: "text", wire: "name" },
      { key: "level", type: "text", wire: "level" },
      { key: "message", type: "text", wire: "message" },
      { key: "description", type: "text", wire: "description" },
      { key: "source", type: "text", wire: "source" },
      { key: "properties", type: { list: "fieldProperty" }, wire: "properties" },
    ],
  },
  fieldProperty: {
    where: "in a request or message property",
    wireDef: "fieldProperty",
    keys: [
      { key: "name", type: "text", wire: "name" },
      { key: "source", type: "text", wire: "source" },
      { key: "field", type: "text", wire: "field" },
      { key: "pattern", type: "text", wire: "pattern" },
    ],
  },
};

/** Each place's value of `f`, as a record over the places. */
function perPlace<T>(f: (decl: PlaceDecl) => T): Readonly<Record<Place, T>> {
  const out = {} as Record<Place, T>;
  for (const place of Object.keys(CORPUS_SCHEMA) as Place[]) out[place] = f(CORPUS_SCHEMA[place]);
  return out;
}

/** The keys allowed at each place, for membership tests on the decoder's path (built once). */
export const KEYS_AT: Readonly<Record<Place, ReadonlySet<string>>> = perPlace((d) => new Set(d.keys.map((k) => k.key)));

/** The canonical key order at each place. */
export const KEY_ORDER: Readonly<Record<Place, readonly string[]>> = perPlace((d) => d.keys.map((k) => k.key));

/**
 * Where else `key` is allowed, as words for a message (`"at the top level of a file"`, `"in a component or in a
 * request"`); `undefined` when it is allowed nowhere (a typo).
 */
export function whereKeyBelongs(key: string, except: Place): string | undefined {
  const places = (Object.keys(CORPUS_SCHEMA) as Place[]).filter((p) => p !== except && KEYS_AT[p].has(key));
  if (places.length === 0) return undefined;
  const words = places.map((p) => CORPUS_SCHEMA[p].where);
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}
