/**
 * The component query language (the Sightmap query grammar, kept so queries written for other tools work unchanged):
 *
 * ```
 * query      = part (WS part)* ("#" digits)?      ; the last part is the target; "#N" picks the N-th (0-based)
 * part       = Name ("[" predicate "]")*          ; Name: letters, digits, "_"
 * predicate  = prop WS? op WS? value (WS "i")?    ; prop: letters, digits, "_", "-"
 * op         = "=" | "^=" | "*="                  ; exact, prefix, substring
 * value      = '"' (char | "\" char)* '"' | bare  ; bare: up to whitespace or "]"
 * ```
 *
 * A bare number (`42`) or `#42` alone is a node id from a snapshot, not a query. Brackets test extracted
 * properties, never DOM attributes; whitespace is a descendant chain over matched ancestors only.
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { escapeControls } from "../../terminal.ts";

/** One `[prop op value]` test. */
export interface Predicate {
  /** Property name. */
  prop: string;
  /** Comparison: equals, starts with, contains. */
  op: "=" | "^=" | "*=";
  /** Value to compare with. */
  value: string;
  /** ` i`: compare case-insensitively. */
  caseInsensitive: boolean;
}

/** One component name with its predicates. */
export interface QueryPart {
  /** Component name. */
  name: string;
  /** Property predicates. */
  predicates: Predicate[];
}

/** A parsed target: a component query, or a node id from a snapshot. */
export type Target =
  | { kind: "query"; parts: QueryPart[]; index: number | undefined; text: string }
  | { kind: "id"; id: number; text: string };

/** A query that does not parse; `position` is 0-based into the query text. */
export class QueryParseError extends UsageError {
  /** Where parsing stopped (0-based). */
  readonly position: number;
  /** Creates the error; the message names the query and the position. */
  constructor(query: string, position: number, expected: string) {
    super(`query '${escapeControls(query)}': ${expected} at position ${position}`, {
      hint:
        "write Name, Name[prop=value], Name[prop^=\"prefix\" i], 'Parent Child', Name#0, or a node id from 'mapper snapshot'",
    });
    this.name = "QueryParseError";
    this.position = position;
  }
}

const NAME = /[A-Za-z0-9_]/;
const PROP = /[A-Za-z0-9_-]/;
const WS = /\s/;

/** Parses a target: a node id (`42`, `#42`) or a component query. Throws {@linkcode QueryParseError}. */
export function parseTarget(text: string): Target {
  const src = text.trim();
  const id = /^#?(\d+)$/.exec(src);
  if (id) return { kind: "id", id: Number(id[1]), text: src };
  let i = 0;
  const fail = (expected: string): never => {
    throw new QueryParseError(src, i, expected);
  };
  const skipWs = () => {
    while (i < src.length && WS.test(src[i]!)) i++;
  };
  const parts: QueryPart[] = [];
  let index: number | undefined;
  if (src === "") fail("expected a component name");
  while (i < src.length) {
    const start = i;
    while (i < src.length && NAME.test(src[i]!)) i++;
    if (i === start) fail("expected a component name");
    const part: QueryPart = { name: src.slice(start, i), predicates: [] };
    while (src[i] === "[") {
      i++;
      skipWs();
      const ps = i;
      while (i < src.length && PROP.test(src[i]!)) i++;
      if (i === ps) fail("expected a property name");
      const prop = src.slice(ps, i);
      skipWs();
      let op: Predicate["op"];
      if (src.startsWith("^=", i)) op = "^=";
      else if (src.startsWith("*=", i)) op = "*=";
      else if (src[i] === "=") op = "=";
      else return fail("expected =, ^= or *=");
      i += op.length;
      skipWs();
      let value = "";
      if (src[i] === '"') {
        i++;
        let closed = false;
        while (i < src.length) {
          const ch = src[i]!;
          if (ch === "\\" && i + 1 < src.length) {
            value += src[i + 1];
            i += 2;
          } else if (ch === '"') {
            i++;
            closed = true;
            break;
          } else {
            value += ch;
            i++;
          }
        }
        if (!closed) fail("expected a closing quote");
      } else {
        const vs = i;
        while (i < src.length && !WS.test(src[i]!) && src[i] !== "]") i++;
        if (i === vs) fail("expected a value");
        value = src.slice(vs, i);
      }
      let caseInsensitive = false;
      const beforeFlag = i;
      skipWs();
      if (i > beforeFlag && (src[i] === "i" || src[i] === "I") && /^\s*\]/.test(src.slice(i + 1))) {
        caseInsensitive = true;
        i++;
        skipWs();
      }
      if (src[i] !== "]") fail("expected ]");
      i++;
      part.predicates.push({ prop, op, value, caseInsensitive });
    }
    parts.push(part);
    if (src[i] === "#") {
      i++;
      const ds = i;
      while (i < src.length && /\d/.test(src[i]!)) i++;
      if (i === ds) fail("expected a number after #");
      index = Number(src.slice(ds, i));
      skipWs();
      if (i < src.length) fail("expected the end of the query after #N");
      break;
    }
    if (i < src.length && !WS.test(src[i]!)) fail("expected a space, [ or #");
    skipWs();
  }
  return { kind: "query", parts, index, text: src };
}

/** Whether an extracted value passes one predicate (a missing property never matches). */
export function testPredicate(p: Predicate, actual: string | undefined): boolean {
  if (actual === undefined) return false;
  const a = p.caseInsensitive ? actual.toLowerCase() : actual;
  const v = p.caseInsensitive ? p.value.toLowerCase() : p.value;
  if (p.op === "=") return a === v;
  if (p.op === "^=") return a.startsWith(v);
  return a.includes(v);
}

/** A part written back as query text (`ProductCard[name="Cedar"]`). */
export function formatPart(part: QueryPart): string {
  return part.name +
    part.predicates.map((p) =>
      `[${p.prop}${p.op}"${p.value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"${p.caseInsensitive ? " i" : ""}]`
    ).join("");
}
