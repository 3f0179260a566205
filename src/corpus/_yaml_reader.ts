// One YAML document read defensively: source locations and field paths, alias resolution under a budget (defeats
// "billion laughs" inflation), cycle refusal, `<<` merge keys, and typed access to mappings, lists and scalars with
// `type-mismatch` diagnostics. Knows nothing about corpus fields; `_decode.ts` builds on it.
import process from "node:process";
import { isAlias, isMap, isScalar, isSeq, LineCounter, visit } from "yaml";
import type { Alias, Document, Node as YamlNode, Scalar, YAMLMap, YAMLSeq } from "yaml";
import type { Diagnostic, SourceLocation } from "./diagnostic.ts";

/** Upper bound on nodes visited through aliases in one file (defeats "billion laughs" inflation). */
const ALIAS_BUDGET = 100_000;

/** One key of a mapping as written, with its value (aliases not yet followed). */
export type Entry = { key: string; keyNode: YamlNode; value: YamlNode | null };

/** Reading state of one YAML document; diagnostics go to the caller's `fatal` / `warnings` lists. */
export class YamlReader {
  readonly lines = new LineCounter();
  doc: Document.Parsed | undefined;
  aliasVisits = 0;
  /** `Alias.resolve` searches the document; each alias node is resolved once. */
  readonly resolved = new Map<Alias, YamlNode | null>();
  aliasDepth = 0;
  /** Field path of every node of the first document (keys map to their pair's path). */
  readonly paths = new Map<unknown, string>();

  constructor(
    readonly file: string,
    readonly fatal: Diagnostic[],
    readonly warnings: Diagnostic[],
  ) {}

  at(offset: number | undefined, path?: string): SourceLocation {
    if (offset === undefined) return { file: this.file, line: 0, column: 0, ...(path === undefined ? {} : { path }) };
    const { line, col } = this.lines.linePos(offset);
    return { file: this.file, line, column: col, ...(path === undefined ? {} : { path }) };
  }

  loc(node: YamlNode | null | undefined): SourceLocation {
    return this.at(node?.range?.[0], node ? this.paths.get(node) : undefined);
  }

  /** Records the field path of every node below `node` (aliases keep the path where they are written). */
  indexPaths(node: unknown, path: string, depth = 0): void {
    if (node === null || node === undefined || depth > 64 || this.paths.has(node)) return;
    this.paths.set(node, path);
    if (isMap(node)) {
      for (const pair of (node as YAMLMap).items) {
        const key = pair.key;
        const name = key && isScalar(key) ? scalarText(key as Scalar) ?? "" : "";
        const child = childPath(path, name);
        if (key) this.paths.set(key, child);
        this.indexPaths(pair.value, child, depth + 1);
      }
    } else if (isSeq(node)) {
      (node as YAMLSeq).items.forEach((item, i) => this.indexPaths(item, `${path}[${i}]`, depth + 1));
    }
  }

  typeError(node: YamlNode | null, what: string, expected: string): void {
    this.fatal.push({
      code: "type-mismatch",
      severity: "error",
      message: `${what} must be ${expected}, found ${kindOf(node)}`,
      location: this.loc(node),
    });
  }

  warn(code: string, message: string, location: SourceLocation): void {
    this.warnings.push({ code, severity: "warning", message, location });
  }

  /** Follows an alias to its anchored node (counted against the budget). */
  deref(node: YamlNode | null): YamlNode | null {
    if (node && isAlias(node)) {
      let target = this.resolved.get(node as Alias);
      if (target === undefined) {
        target = (node as Alias).resolve(this.doc!) ?? null;
        this.resolved.set(node as Alias, target);
      }
      if (!target) {
        this.fatal.push({
          code: "yaml-syntax",
          severity: "error",
          message: `unknown alias "*${(node as Alias).source}"`,
          location: this.loc(node),
        });
      }
      return target;
    }
    return node;
  }

  /** Runs `fn` on an aliased subtree, enforcing the alias budget and depth. */
  withAlias<T>(node: YamlNode | null, fn: (n: YamlNode | null) => T): T | undefined {
    if (!node || !isAlias(node)) return fn(node);
    if (++this.aliasVisits > ALIAS_BUDGET || this.aliasDepth > 32) {
      if (this.aliasVisits === ALIAS_BUDGET + 1 || this.aliasDepth > 32) {
        this.fatal.push({
          code: "yaml-alias-limit",
          severity: "error",
          message: "too many or too deeply nested alias expansions",
          location: this.loc(node),
        });
      }
      this.aliasDepth = 0;
      this.aliasVisits = ALIAS_BUDGET + 2;
      return undefined;
    }
    this.aliasDepth++;
    try {
      return fn(this.deref(node));
    } finally {
      this.aliasDepth--;
    }
  }

  /** The entries of a mapping (aliases and `<<` merge keys resolved); `undefined` if null or not a mapping. */
  entries(node: YamlNode | null, what: string): Entry[] | undefined {
    return this.withAlias(node, (n) => {
      if (n === null || isNullScalar(n)) return undefined;
      if (!isMap(n)) {
        this.typeError(n, what, "a mapping");
        return undefined;
      }
      const out: Entry[] = [];
      const merged: Entry[] = [];
      for (const pair of (n as YAMLMap<YamlNode, YamlNode | null>).items) {
        const keyNode = pair.key as YamlNode | null;
        const key = keyNode && isScalar(keyNode) ? scalarText(keyNode as Scalar) : undefined;
        if (key === undefined || keyNode === null) {
          this.typeError(keyNode, `a key in ${what}`, "a plain string");
          continue;
        }
        if (key === "<<" && (keyNode as Scalar).type === "PLAIN") {
          this.mergeInto(merged, pair.value as YamlNode | null, what);
          continue;
        }
        out.push({ key, keyNode, value: (pair.value as YamlNode | null) ?? null });
      }
      if (merged.length === 0) return out;
      // Merged entries come after the explicit ones but never override them (YAML merge key semantics).
      const explicit = new Set(out.map((e) => e.key));
      const seen = new Set<string>();
      for (const m of merged) {
        if (explicit.has(m.key) || seen.has(m.key)) continue;
        seen.add(m.key);
        out.push(m);
      }
      return out;
    });
  }

  mergeInto(merged: Entry[], value: YamlNode | null, what: string): void {
    const target = this.deref(value);
    if (target && isSeq(target)) {
      for (const item of (target as YAMLSeq<YamlNode>).items) {
        const entries = this.entries(item, `a merge source in ${what}`);
        if (entries) merged.push(...entries);
      }
      return;
    }
    const entries = this.entries(value, `the merge source of ${what}`);
    if (entries) merged.push(...entries);
  }

  /** A list item that must be a mapping: an empty item is dropped with an `empty-entry` diagnostic. */
  entry(node: YamlNode | null, what: string): Entry[] | undefined {
    const entries = this.entries(node, what);
    if (!entries && (node === null || isNullScalar(this.deref(node)))) {
      this.warnings.push({
        code: "empty-entry",
        severity: "error",
        message: `empty list item where ${what} was expected; it is dropped`,
        location: this.loc(node),
      });
    }
    return entries;
  }

  /** The items of a sequence; `undefined` for null; a type error otherwise. */
  items(node: YamlNode | null, what: string): YamlNode[] | undefined {
    return this.withAlias(node, (n) => {
      if (n === null || isNullScalar(n)) return undefined;
      if (!isSeq(n)) {
        this.typeError(n, what, "a list");
        return undefined;
      }
      return (n as YAMLSeq<YamlNode>).items.map((i) => i ?? null) as YamlNode[];
    });
  }

  /** A scalar as text (numbers and booleans as written); `undefined` for null or on a type error. */
  string(node: YamlNode | null, what: string): string | undefined {
    return this.withAlias(node, (n) => {
      if (n === null || isNullScalar(n)) return undefined;
      if (!isScalar(n)) {
        this.typeError(n, what, "a string");
        return undefined;
      }
      return scalarText(n as Scalar);
    });
  }

  /** A list of strings (`memory`, `tags`); null items are skipped. */
  strings(node: YamlNode | null, what: string): string[] | undefined {
    const items = this.items(node, what);
    if (!items) return undefined;
    const out: string[] = [];
    for (const item of items) {
      const s = this.string(item, `an item of ${what}`);
      if (s !== undefined) out.push(s);
      else if (item === null || isNullScalar(this.deref(item))) {
        this.warn("empty-entry", `empty item in ${what}; it is skipped`, this.loc(item));
      }
    }
    return out;
  }

  /**
   * Refuses an alias that points into the node that contains it (`- &a {children: [*a]}`): expanding it never ends.
   * An alias can only name an EARLIER anchor, so a cycle exists exactly when an alias lies inside its own target.
   */
  cyclicAlias(doc: Document.Parsed): boolean {
    let cyclic = false;
    visit(doc, {
      Alias: (_key, node) => {
        const target = node.resolve(doc);
        const [start = 0] = node.range ?? [];
        if (target?.range && target.range[0] <= start && start < target.range[2]) {
          this.fatal.push({
            code: "yaml-alias-limit",
            severity: "error",
            message: `alias "*${node.source}" refers to a node that contains it (a cycle that never ends)`,
            location: this.loc(node),
          });
          cyclic = true;
          return visit.BREAK;
        }
        return undefined;
      },
    });
    return cyclic;
  }
}

/**
 * Runs a synchronous `yaml` call with `process.env` replaced by an empty object. The parser reads
 * `process.env.LOG_TOKENS` once per token (a debugging switch); under Deno each read is a call into the runtime,
 * about a third of the parse time. Nothing else runs while `fn` does, and the real environment is always restored.
 */
export function withoutEnvLookups<T>(fn: () => T): T {
  const saved = process.env;
  try {
    (process as { env: Record<string, string | undefined> }).env = {};
  } catch {
    return fn(); // not writable on this runtime: same result, just slower
  }
  try {
    return fn();
  } finally {
    process.env = saved;
  }
}

/** Whether `node` is an explicit null (`~`, `null`, or nothing after the colon). */
export function isNullScalar(node: YamlNode | null): boolean {
  return node !== null && isScalar(node) && (node as Scalar).value === null;
}

/** A scalar as text: numbers and booleans as written; `undefined` for null. */
export function scalarText(node: Scalar): string | undefined {
  const v = node.value;
  if (v === null || v === undefined) return undefined;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") {
    return node.source ?? String(v);
  }
  return String(v);
}

/** What a node is, for messages ("a mapping", "the string \"x\""). */
export function kindOf(node: YamlNode | null): string {
  if (node === null) return "nothing";
  if (isMap(node)) return "a mapping";
  if (isSeq(node)) return "a list";
  if (isAlias(node)) return "an alias";
  if (isScalar(node)) {
    const v = (node as Scalar).value;
    if (v === null) return "null";
    if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v)}`;
    return `the ${typeof v} ${String((node as Scalar).source ?? v)}`;
  }
  return "an unsupported value";
}

/** `parent.key`, or `parent["odd key"]` when the key is not a plain identifier. */
function childPath(parent: string, key: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) return parent === "" ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

/** The first line of a `yaml` error message, without its position (diagnostics carry that). */
export function firstLine(message: string): string {
  const line = message.split("\n")[0] ?? message;
  return line.replace(/ at line \d+, column \d+:?$/, "");
}
