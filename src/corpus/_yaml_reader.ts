// One YAML document read defensively: source locations and field paths, alias resolution under a budget (defeats
// "billion laughs" inflation), `<<` merge keys, and typed access to mappings, lists and scalars with `type-mismatch`
// diagnostics. Reads the plain nodes of `_yaml_nodes.ts` (fast reader or library); knows nothing about corpus fields;
// `_decode.ts` builds on it.
import type { Diagnostic, SourceLocation } from "./diagnostic.ts";
import { lineIndex, type ParsedYaml, type YamlNode, type YamlScalar } from "./_yaml_nodes.ts";

/** Upper bound on nodes visited through aliases in one file (defeats "billion laughs" inflation). */
const ALIAS_BUDGET = 100_000;

/** One key of a mapping as written, with its value (aliases not yet followed). */
export type Entry = { key: string; keyNode: YamlNode; value: YamlNode | null };

/** Reading state of one YAML document; diagnostics go to the caller's `fatal` / `warnings` lists. */
export class YamlReader {
  /** Where lines 2, 3, … start (from the parse). */
  lineStarts: ArrayLike<number> = [];
  aliasVisits = 0;
  aliasDepth = 0;

  constructor(
    readonly file: string,
    readonly fatal: Diagnostic[],
    readonly warnings: Diagnostic[],
  ) {}

  /** Starts reading `parsed` (its line table gives every location). */
  begin(parsed: ParsedYaml): void {
    this.lineStarts = parsed.lineStarts;
  }

  at(offset: number | undefined, path?: string): SourceLocation {
    // Written out rather than spread: a location is made for every entity of a large corpus.
    const file = this.file;
    if (offset === undefined) {
      return path === undefined ? { file, line: 0, column: 0 } : { file, line: 0, column: 0, path };
    }
    // The line as a number (not `linePos`'s object): no intermediate object for every location of a large corpus.
    const starts = this.lineStarts;
    const index = lineIndex(starts, offset);
    const line = index + 1;
    const column = offset - (index === 0 ? 0 : starts[index - 1]!) + 1;
    return path === undefined ? { file, line, column } : { file, line, column, path };
  }

  loc(node: YamlNode | null | undefined): SourceLocation {
    return this.at(node?.start, node ? pathOf(node) : undefined);
  }

  /**
   * Indexes the field path of every node below `root` (`""`): each node is linked to its parent, and its path made
   * from the links when first asked for (`pathOf`). Aliases keep the path where they are written; a node reached a
   * second time (an anchor's through an alias) keeps its first place; nodes nested deeper than 64 have none.
   */
  indexPaths(root: YamlNode | null): void {
    if (root === null || root.path !== undefined) return;
    root.path = "";
    link(root, 0);
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
    if (node?.kind !== "alias") return node;
    if (!node.target) {
      this.fatal.push({
        code: "yaml-syntax",
        severity: "error",
        message: `unknown alias "*${node.name}"`,
        location: this.loc(node),
      });
    }
    return node.target;
  }

  /** Runs `fn` on an aliased subtree, enforcing the alias budget and depth. */
  withAlias<T>(node: YamlNode | null, fn: (n: YamlNode | null) => T): T | undefined {
    if (node?.kind !== "alias") return fn(node);
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
    // An alias is followed under the budget; anything else is read at once (no closure per call).
    return node?.kind === "alias" ? this.withAlias(node, (n) => this.entriesOf(n, what)) : this.entriesOf(node, what);
  }

  /** {@linkcode entries} of a node that is not an alias. */
  entriesOf(n: YamlNode | null, what: string): Entry[] | undefined {
    if (n === null || isNullScalar(n)) return undefined;
    if (n.kind !== "map") {
      this.typeError(n, what, "a mapping");
      return undefined;
    }
    const out: Entry[] = [];
    let merged: Entry[] | undefined; // made only for a `<<` key
    for (const pair of n.items) {
      const keyNode = pair.key;
      const key = keyNode?.kind === "scalar" ? scalarText(keyNode) : undefined;
      if (key === undefined || keyNode === null) {
        this.typeError(keyNode, `a key in ${what}`, "a plain string");
        continue;
      }
      if (key === "<<" && keyNode.kind === "scalar" && keyNode.type === "PLAIN") {
        this.mergeInto(merged ??= [], pair.value, what);
        continue;
      }
      out.push({ key, keyNode, value: pair.value });
    }
    if (merged === undefined || merged.length === 0) return out;
    // Merged entries come after the explicit ones but never override them (YAML merge key semantics).
    const explicit = new Set(out.map((e) => e.key));
    const seen = new Set<string>();
    for (const m of merged) {
      if (explicit.has(m.key) || seen.has(m.key)) continue;
      seen.add(m.key);
      out.push(m);
    }
    return out;
  }

  mergeInto(merged: Entry[], value: YamlNode | null, what: string): void {
    const target = this.deref(value);
    if (target?.kind === "seq") {
      for (const item of target.items) {
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
  items(node: YamlNode | null, what: string): (YamlNode | null)[] | undefined {
    return node?.kind === "alias" ? this.withAlias(node, (n) => this.itemsOf(n, what)) : this.itemsOf(node, what);
  }

  /** {@linkcode items} of a node that is not an alias. */
  itemsOf(n: YamlNode | null, what: string): (YamlNode | null)[] | undefined {
    if (n === null || isNullScalar(n)) return undefined;
    if (n.kind !== "seq") {
      this.typeError(n, what, "a list");
      return undefined;
    }
    return n.items as (YamlNode | null)[];
  }

  /** A scalar as text (numbers and booleans as written); `undefined` for null or on a type error. */
  string(node: YamlNode | null, what: string): string | undefined {
    return node?.kind === "alias" ? this.withAlias(node, (n) => this.stringOf(n, what)) : this.stringOf(node, what);
  }

  /** {@linkcode string} of a node that is not an alias. */
  stringOf(n: YamlNode | null, what: string): string | undefined {
    if (n === null || isNullScalar(n)) return undefined;
    if (n.kind !== "scalar") {
      this.typeError(n, what, "a string");
      return undefined;
    }
    return scalarText(n);
  }

  /**
   * A list of strings (`memory`, `tags`); null items are skipped. With `at`, where each string kept starts is
   * appended to it (same order).
   */
  strings(node: YamlNode | null, what: string, at?: SourceLocation[]): string[] | undefined {
    const items = this.items(node, what);
    if (!items) return undefined;
    const out: string[] = [];
    for (const item of items) {
      const s = this.string(item, `an item of ${what}`);
      if (s !== undefined) {
        out.push(s);
        at?.push(this.at(item?.start));
      } else if (item === null || isNullScalar(this.deref(item))) {
        this.warn("empty-entry", `empty item in ${what}; it is skipped`, this.loc(item));
      }
    }
    return out;
  }
}

/** Whether `node` is an explicit null (`~`, `null`, or nothing after the colon). */
export function isNullScalar(node: YamlNode | null): boolean {
  return node?.kind === "scalar" && node.value === null;
}

/** A scalar as text: numbers and booleans as written; `undefined` for null. */
export function scalarText(node: YamlScalar): string | undefined {
  const v = node.value;
  if (v === null) return undefined;
  if (typeof v === "string") return v;
  return node.source;
}

/** What a node is, for messages ("a mapping", "a string"), never what it holds. */
export function kindOf(node: YamlNode | null): string {
  if (node === null) return "nothing";
  if (node.kind === "map") return "a mapping";
  if (node.kind === "seq") return "a list";
  if (node.kind === "alias") return "an alias";
  const v = node.value;
  if (v === null) return "null";
  // Never the value itself: a value of the wrong type is not part of the corpus, and diagnostics are served
  // (`/mapper/diagnostics`) and printed, so quoting it would publish the start of any file that landed in the
  // directory (a secrets file is a plain YAML string). The location points the author at it.
  return typeof v === "string" ? "a string" : `a ${typeof v}`;
}

/** Links the children of `node` (at `depth`) to it, depth first, in document order (see `indexPaths`). */
function link(node: YamlNode, depth: number): void {
  if (node.kind === "map") {
    for (const pair of node.items) {
      const key = pair.key;
      const name = key?.kind === "scalar" ? scalarText(key) ?? "" : "";
      if (key) {
        key.up = node;
        key.seg = name;
      }
      const value = pair.value;
      if (value === null || depth >= 64 || value.path !== undefined || value.up !== undefined) continue;
      value.up = node;
      value.seg = name;
      link(value, depth + 1);
    }
  } else if (node.kind === "seq") {
    const items = node.items;
    if (depth >= 64) return;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (item === null || item.path !== undefined || item.up !== undefined) continue;
      item.up = node;
      item.seg = i;
      link(item, depth + 1);
    }
  }
}

/** The field path of an indexed node (made from its links once, then kept); `undefined` when it was not indexed. */
function pathOf(node: YamlNode): string | undefined {
  if (node.path !== undefined) return node.path;
  const up = node.up;
  const parent = up === undefined ? undefined : pathOf(up);
  if (parent === undefined) return undefined;
  const seg = node.seg!;
  const path = typeof seg === "number" ? parent + "[" + seg + "]" : childPath(parent, seg);
  node.path = path;
  return path;
}

/** Path segments of keys seen so far (`.name`, `["odd key"]`): a corpus repeats a few dozen keys thousands of times. */
const SEGMENTS = new Map<string, string>();

/** `parent.key`, or `parent["odd key"]` when the key is not a plain identifier. */
function childPath(parent: string, key: string): string {
  let segment = SEGMENTS.get(key);
  if (segment === undefined) {
    segment = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    if (SEGMENTS.size < 10_000) SEGMENTS.set(key, segment);
  }
  return parent === "" && segment.charCodeAt(0) === 46 ? key : parent + segment;
}

/** The first line of a `yaml` error message, without its position (diagnostics carry that). */
export function firstLine(message: string): string {
  const line = message.split("\n")[0] ?? message;
  return line.replace(/ at line \d+, column \d+:?$/, "");
}
