// The full YAML parser (the `yaml` library) for every text the fast reader (`_yaml_fast.ts`) declines: its errors,
// warnings and documents, converted to the decoder's plain nodes (`_yaml_nodes.ts`). Loaded only when a file needs
// it: the library is CommonJS and boots Deno's Node compatibility layer.
import process from "node:process";
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments, visit } from "yaml";
import type { Alias, Document, Node as LibNode, Pair, Scalar, YAMLMap, YAMLSeq } from "yaml";
import type { ParsedYaml, YamlAlias, YamlNode, YamlPair, YamlScalar } from "./_yaml_nodes.ts";

/** Parses `text` (without a byte-order mark) with the library: the first document, and every problem. */
export function libraryParse(text: string): ParsedYaml {
  const lines = new LineCounter();
  const docs = withoutEnvLookups(() =>
    parseAllDocuments(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, keepSourceTokens: false })
  );
  const list = (Array.isArray(docs) ? docs : [docs]) as Document.Parsed[];
  // LineCounter starts with line 1 at offset 0; ours lists where lines 2, 3, … start.
  const lineStarts = lines.lineStarts.filter((s) => s > 0);
  const errors = list.flatMap((doc) => doc.errors.map((e) => ({ message: e.message, offset: e.pos[0] })));
  const first = list[0];
  const base = { errors, warnings: [], ignored: [], lineStarts };
  if (first === undefined) return { hasDocument: false, contents: null, ...base };
  if (errors.length > 0) return { hasDocument: true, contents: null, ...base };
  const warnings = first.warnings.map((w) => ({ message: w.message, offset: w.pos[0] }));
  const ignored = list.slice(1).map((doc) => doc.range[0]);
  const cyclic = cyclicAlias(first);
  if (cyclic) return { hasDocument: true, contents: null, ...base, warnings, ignored, cyclic };
  const contents = new Converter(first).node(first.contents as LibNode | null);
  return { hasDocument: true, contents, ...base, warnings, ignored };
}

/**
 * An alias inside the node it names (`- &a {children: [*a]}`): expanding it never ends. An alias can only name an
 * EARLIER anchor, so a cycle exists exactly when an alias lies inside its own target.
 */
function cyclicAlias(doc: Document.Parsed): YamlAlias | undefined {
  let cyclic: YamlAlias | undefined;
  visit(doc, {
    Alias: (_key, node) => {
      const target = node.resolve(doc);
      const [start = 0] = node.range ?? [];
      if (target?.range && target.range[0] <= start && start < target.range[2]) {
        cyclic = {
          kind: "alias",
          name: node.source,
          target: null,
          start,
          path: undefined,
          up: undefined,
          seg: undefined,
        };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return cyclic;
}

/** Converts library nodes once each; an alias points at the converted target (shared, never expanded). */
class Converter {
  readonly done = new Map<LibNode, YamlNode>();

  constructor(readonly doc: Document.Parsed) {}

  node(n: LibNode | null | undefined): YamlNode | null {
    if (n === null || n === undefined) return null;
    const known = this.done.get(n);
    if (known) return known;
    const start = n.range?.[0] ?? 0;
    if (isScalar(n)) {
      const s = n as Scalar;
      const v = s.value;
      const value: YamlScalar["value"] = v === null || v === undefined || typeof v === "string" ||
          typeof v === "number" || typeof v === "boolean" || typeof v === "bigint"
        ? v ?? null
        : String(v);
      const source = s.source ?? String(v);
      const out: YamlScalar = {
        kind: "scalar",
        value,
        source,
        type: s.type ?? "PLAIN",
        start,
        path: undefined,
        up: undefined,
        seg: undefined,
      };
      this.done.set(n, out);
      return out;
    }
    if (isMap(n)) {
      const items: YamlPair[] = [];
      const out = { kind: "map" as const, items, start, path: undefined, up: undefined, seg: undefined };
      this.done.set(n, out);
      for (const pair of (n as YAMLMap).items as Pair<LibNode | null, LibNode | null>[]) {
        items.push({ key: this.node(pair.key), value: this.node(pair.value) });
      }
      return out;
    }
    if (isSeq(n)) {
      const items: (YamlNode | null)[] = [];
      const out = { kind: "seq" as const, items, start, path: undefined, up: undefined, seg: undefined };
      this.done.set(n, out);
      for (const item of (n as YAMLSeq).items as (LibNode | null)[]) items.push(this.node(item));
      return out;
    }
    if (isAlias(n)) {
      const a = n as Alias;
      const target = a.resolve(this.doc) as LibNode | undefined;
      const out: YamlAlias = {
        kind: "alias",
        name: a.source,
        target: this.node(target),
        start,
        path: undefined,
        up: undefined,
        seg: undefined,
      };
      this.done.set(n, out);
      return out;
    }
    return null;
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
