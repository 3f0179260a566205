/**
 * The canonical format of a corpus file (authoring.md §7), built on the `yaml` package's Document API so comments
 * travel with the nodes they belong to:
 *
 * - two-space indent, sequences indented under their key, block collections only, no line wrapping, one final
 *   newline;
 * - strings plain when they read back as the same string, else single-quoted, else double-quoted (multi-line
 *   strings written as block scalars stay block scalars);
 * - key order — file: `version, memory, views, components, requests`; view: `name, route, description, source,
 *   dependencies, components, memory, requests`; component: `name, selector, description, source, dependencies,
 *   children, memory`; request: `name, route, method, description, source, request, response, headers, memory`;
 *   other keys follow in their original order;
 * - top-level `views` and `components` sorted by name, top-level `requests` by (route, method), byte-wise and
 *   stable; nested lists keep their order; `dependencies` sorted and de-duplicated;
 * - one blank line between top-level keys and between entries of top-level lists, none elsewhere; the leading
 *   comment block kept verbatim, followed by one blank line.
 *
 * Canonicalising canonical text returns it unchanged (idempotent).
 *
 * @module
 */
import { isMap, isPair, isScalar, isSeq, type Node, parseAllDocuments, type Scalar, visit, type YAMLMap } from "yaml";
import type { YAMLSeq } from "yaml";
import { matchRoute, routeScore } from "../../assets/extension/resolver.js";

const FILE_KEYS = ["version", "memory", "views", "components", "requests"];
const VIEW_KEYS = ["name", "route", "description", "source", "dependencies", "components", "memory", "requests"];
const COMPONENT_KEYS = ["name", "selector", "description", "source", "dependencies", "children", "memory"];
const REQUEST_KEYS = [
  "name",
  "route",
  "method",
  "description",
  "source",
  "request",
  "response",
  "headers",
  "memory",
];

/** What {@linkcode canonicalize} found. */
export type CanonicalResult =
  | { kind: "ok"; text: string }
  | { kind: "parse-error"; message: string; offset: number }
  /** Sorting would change which of two tied views wins a URL (`fmt.order-sensitive`). */
  | { kind: "order-sensitive"; message: string };

function keyName(pair: unknown): string {
  if (!isPair(pair)) return "";
  const k = pair.key;
  return isScalar(k) ? String((k as Scalar).value) : "";
}

/** Reorders a mapping's pairs: `order` first (in that order), every other key after, in original order. */
function orderKeys(map: unknown, order: readonly string[]): void {
  if (!isMap(map)) return;
  const items = (map as YAMLMap).items;
  const rank = (name: string) => {
    const i = order.indexOf(name);
    return i === -1 ? order.length : i;
  };
  const sorted = items.map((p, i) => ({ p, i, r: rank(keyName(p)) })).sort((a, b) => a.r - b.r || a.i - b.i);
  (map as YAMLMap).items = sorted.map((x) => x.p);
}

function field(map: unknown, key: string): string {
  if (!isMap(map)) return "";
  const v = (map as YAMLMap).get(key, true);
  return isScalar(v) && (v as Scalar).value !== null ? String((v as Scalar).value) : "";
}

function byteCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function seqOf(map: unknown, key: string): YAMLSeq | undefined {
  if (!isMap(map)) return undefined;
  const v = (map as YAMLMap).get(key, true);
  return isSeq(v) ? v as YAMLSeq : undefined;
}

/** Applies the component key order to a list of components and, recursively, their children. */
function components(seq: YAMLSeq | undefined): void {
  for (const c of seq?.items ?? []) {
    orderKeys(c, COMPONENT_KEYS);
    dependencies(c);
    components(seqOf(c, "children"));
  }
}

function requests(seq: YAMLSeq | undefined): void {
  for (const r of seq?.items ?? []) orderKeys(r, REQUEST_KEYS);
}

/** Sorts and de-duplicates a `dependencies` list of plain strings (others are left alone). */
function dependencies(map: unknown): void {
  const seq = seqOf(map, "dependencies");
  if (!seq || !seq.items.every((i) => isScalar(i) && typeof (i as Scalar).value === "string")) return;
  const seen = new Set<string>();
  seq.items = (seq.items as Scalar[])
    .map((s, i) => ({ s, i }))
    .sort((a, b) => byteCompare(String(a.s.value), String(b.s.value)) || a.i - b.i)
    .filter(({ s }) => {
      const v = String(s.value);
      if (seen.has(v)) return false;
      seen.add(v);
      return true;
    })
    .map(({ s }) => s);
}

/** A URL path the route matches, for checking whether two routes overlap. */
function sampleOf(route: string): string {
  const segs = route.split("/").filter((s) => s !== "" && s !== "**").map((s) =>
    s.startsWith(":") || s === "*" ? "x0" : s
  );
  return `/${segs.join("/")}`;
}

function overlap(a: string, b: string): boolean {
  return matchRoute(a, sampleOf(b)) !== null || matchRoute(b, sampleOf(a)) !== null;
}

/** Stable sort of a sequence's items by key; returns the order-sensitive conflict, if sorting would flip a tie. */
function sortSeq(seq: YAMLSeq, key: (item: unknown) => string): void {
  seq.items = seq.items
    .map((item, i) => ({ item, i, k: key(item) }))
    .sort((a, b) => byteCompare(a.k, b.k) || a.i - b.i)
    .map((x) => x.item);
}

/** Whether sorting the views (by name) would reorder two views that tie on a URL. */
function tiedViewFlip(seq: YAMLSeq): string | undefined {
  const views = seq.items.map((v, i) => ({ i, name: field(v, "name"), route: field(v, "route") }));
  for (const a of views) {
    for (const b of views) {
      if (a.i >= b.i || !a.route || !b.route) continue;
      if (byteCompare(a.name, b.name) <= 0) continue; // sorting keeps a before b
      if (routeScore(a.route) === routeScore(b.route) && overlap(a.route, b.route)) {
        return `views "${a.name}" (${a.route}) and "${b.name}" (${b.route}) tie on some URLs and sorting by name ` +
          `would make "${b.name}" win instead of "${a.name}"; make one route more specific, or rename them so ` +
          `the intended winner sorts first`;
      }
    }
  }
  return undefined;
}

/** Blank lines at the edges of a comment would add up on every run: comments keep only their own lines. */
function trimComments(node: Node): void {
  const n = node as Node & { comment?: string | null; commentBefore?: string | null };
  if (n.comment) n.comment = n.comment.replace(/^\n+|\n+$/g, "");
  if (n.commentBefore) n.commentBefore = n.commentBefore.replace(/^\n+|\n+$/g, "");
}

function isBlock(s: Scalar): boolean {
  return s.type === "BLOCK_LITERAL" || s.type === "BLOCK_FOLDED";
}

/** Canonicalises one corpus file's text. Pure. */
export function canonicalize(text: string): CanonicalResult {
  const docs = parseAllDocuments(text, { keepSourceTokens: false });
  const list = Array.isArray(docs) ? docs : [docs];
  for (const d of list) {
    const err = d.errors[0];
    if (err) return { kind: "parse-error", message: err.message.split("\n")[0] ?? err.message, offset: err.pos[0] };
  }
  const out: string[] = [];
  const streamComment = (docs as unknown as { comment?: string }).comment;
  if (list.length === 0 && streamComment) {
    // A file of nothing but comments: kept as written.
    out.push(`${streamComment.split("\n").map((line) => line === "" ? "" : `#${line}`).join("\n")}\n`);
  }
  for (const doc of list) {
    const root = doc.contents;
    if (root === null) {
      // Nothing but comments: keep them as written (yaml would print a `null` document).
      const comments = [doc.commentBefore, doc.comment].filter((c): c is string => !!c)
        .flatMap((c) => c.split("\n").map((line) => `#${line}`));
      if (comments.length > 0) out.push(`${comments.join("\n")}\n`);
      continue;
    }
    // A comment right above the first key is the file header: it stays first, followed by one blank line.
    if (isMap(root)) {
      const first = (root as YAMLMap).items[0];
      const firstKey = first && isScalar(first.key) ? first.key as Scalar : undefined;
      if (firstKey?.commentBefore) {
        doc.commentBefore = doc.commentBefore
          ? `${doc.commentBefore}\n${firstKey.commentBefore}`
          : firstKey.commentBefore;
        firstKey.commentBefore = null;
      }
    }
    visit(doc, {
      Node(_key, node) {
        trimComments(node);
        (node as Node & { spaceBefore?: boolean }).spaceBefore = false;
        if (isMap(node) || isSeq(node)) (node as YAMLMap).flow = false;
        if (isScalar(node) && typeof (node as Scalar).value === "string" && !isBlock(node as Scalar)) {
          const s = node as Scalar;
          if (String(s.value).includes("\n")) s.type = "QUOTE_DOUBLE";
          else delete (s as { type?: unknown }).type; // the shortest safe style: plain, else single, else double
        }
      },
      Pair(_key, pair) {
        if (isScalar(pair.key)) {
          trimComments(pair.key as Node);
          (pair.key as Scalar & { spaceBefore?: boolean }).spaceBefore = false;
        }
      },
    });
    if (isMap(root)) {
      const map = root as YAMLMap;
      orderKeys(map, FILE_KEYS);
      const views = seqOf(map, "views");
      if (views) {
        const flip = tiedViewFlip(views);
        if (flip) return { kind: "order-sensitive", message: flip };
        sortSeq(views, (v) => field(v, "name"));
        for (const v of views.items) {
          orderKeys(v, VIEW_KEYS);
          dependencies(v);
          components(seqOf(v, "components"));
          requests(seqOf(v, "requests"));
        }
      }
      const globals = seqOf(map, "components");
      if (globals) {
        sortSeq(globals, (c) => field(c, "name"));
        components(globals);
      }
      const reqs = seqOf(map, "requests");
      if (reqs) {
        sortSeq(reqs, (r) => `${field(r, "route")}\0${field(r, "method")}`);
        requests(reqs);
      }
      map.items.forEach((pair, i) => {
        if (i > 0 && isScalar(pair.key)) (pair.key as Scalar & { spaceBefore?: boolean }).spaceBefore = true;
        const value = pair.value;
        if (isSeq(value)) {
          (value as YAMLSeq).items.forEach((item, j) => {
            if (j > 0 && item) (item as Node & { spaceBefore?: boolean }).spaceBefore = true;
          });
        }
      });
    }
    out.push(doc.toString({ indent: 2, indentSeq: true, lineWidth: 0, minContentWidth: 0, singleQuote: true }));
  }
  const joined = out.join("").replace(/\n+$/, "");
  return { kind: "ok", text: joined === "" ? "" : `${joined}\n` };
}
