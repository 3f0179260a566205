/**
 * The canonical format of a corpus file, built on the `yaml` package's Document API so comments
 * travel with the nodes they belong to:
 *
 * - two-space indent, sequences indented under their key, block collections (an empty one `[]`/`{}`), no line
 *   wrapping, one final newline;
 * - strings plain when they read back as the same string, else single-quoted, else double-quoted (multi-line
 *   strings written as block scalars stay block scalars);
 * - keys in the order the corpus schema declares (`src/corpus/schema.ts`) at every level; a key it does not know
 *   follows, in its original order;
 * - top-level `views` and `components` sorted by name, top-level `requests` by (route, method), byte-wise and
 *   stable; nested lists keep their order; `dependencies` sorted and de-duplicated; views are not sorted when that
 *   would change which view wins a URL (`order-sensitive`);
 * - one blank line between entries of top-level lists and one after the leading comment block (kept verbatim), none
 *   elsewhere (not between top-level keys);
 * - a comment stays with what it is written above: an entry of a sorted list, a top-level key, the end of the file.
 *
 * Canonicalising canonical text returns it unchanged (idempotent).
 *
 * @module
 */
import {
  type Document,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  type Node,
  parseAllDocuments,
  type Scalar,
  visit,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import { routeOverlap, routeScore } from "../../assets/extension/resolver.js";
import { CORPUS_SCHEMA, KEY_ORDER, type Place } from "../corpus/mod.ts";

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

/**
 * Orders the keys of a mapping at `place` as the corpus schema declares, then those of every mapping nested in it
 * (list entries and single mappings alike); `dependencies` lists are sorted and de-duplicated on the way.
 */
function orderTree(node: unknown, place: Place): void {
  if (!isMap(node)) return;
  const map = node as YAMLMap;
  orderKeys(map, KEY_ORDER[place]);
  for (const decl of CORPUS_SCHEMA[place].keys) {
    if (decl.key === "dependencies") dependencies(map);
    const type = decl.type;
    if (typeof type !== "object") continue;
    const value = map.get(decl.key, true);
    if ("map" in type) orderTree(value, type.map);
    else if (isSeq(value)) { for (const item of (value as YAMLSeq).items) orderTree(item, type.list); }
  }
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

/** Stable sort of a sequence's items by key. */
function sortSeq(seq: YAMLSeq, key: (item: unknown) => string): void {
  seq.items = seq.items
    .map((item, i) => ({ item, i, k: key(item) }))
    .sort((a, b) => byteCompare(a.k, b.k) || a.i - b.i)
    .map((x) => x.item);
}

/**
 * Whether sorting the views by name would change which view wins some URL: two views of equal specificity whose
 * routes match a common path (found exactly by the resolver's `routeOverlap`) and that sorting would swap. On a tie
 * the first declared wins, so only such a pair can change the winner; a third view that always wins their common
 * paths is not looked for (the refusal then errs on the safe side).
 */
function viewOrderConflict(seq: YAMLSeq): string | undefined {
  const views = seq.items.map((v, i) => ({ i, name: field(v, "name"), route: field(v, "route") }));
  for (const a of views) {
    for (const b of views) {
      if (a.i >= b.i || !a.route || !b.route) continue;
      if (byteCompare(a.name, b.name) <= 0) continue; // sorting keeps a before b
      if (routeScore(a.route) !== routeScore(b.route)) continue;
      const path = routeOverlap(a.route, b.route);
      if (path !== null) {
        return `views "${a.name}" (${a.route}) and "${b.name}" (${b.route}) are equally specific and both match ` +
          `${path}, where "${a.name}" wins because it is declared first; sorting by name would make "${b.name}" ` +
          `win instead — make one route more specific, or rename them so the intended winner sorts first`;
      }
    }
  }
  return undefined;
}

type Commented = Node & { comment?: string | null; commentBefore?: string | null };

/** The non-blank lines of a comment. */
function commentLines(comment: string | null | undefined): string[] {
  return (comment ?? "").split("\n").filter((line) => line.trim() !== "");
}

/** Whether `lines` ends with `tail`. */
function endsWith(lines: readonly string[], tail: readonly string[]): boolean {
  return tail.length > 0 && lines.length >= tail.length &&
    tail.every((line, i) => lines[lines.length - tail.length + i] === line);
}

/** The indentation of the line `offset` is on. */
function indentAt(text: string, offset: number): number {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^ */.exec(text.slice(start))![0].length;
}

/**
 * The comment lines right above `offset`'s line that belong to what starts there: those indented no deeper than that
 * line (blank lines between them allowed), as the `yaml` package stores them (without the `#`). A deeper comment
 * belongs to the entry before.
 */
function commentsAbove(text: string, offset: number): string[] {
  const indent = indentAt(text, offset);
  const lines = text.slice(0, text.lastIndexOf("\n", offset - 1) + 1).split("\n");
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.replace(/\r$/, "");
    const trimmed = line.trimStart();
    if (trimmed === "") continue;
    if (!trimmed.startsWith("#") || line.length - trimmed.length > indent) break;
    out.unshift(trimmed.slice(1));
  }
  return out;
}

/**
 * Takes `tail` off the end of the comment that holds it somewhere under `root` (the `yaml` package hangs a comment
 * that follows a collection on that collection's last node); returns whether one did.
 */
function takeTrailingComment(root: unknown, tail: readonly string[]): boolean {
  let taken = false;
  const take = (node: Commented) => {
    const lines = commentLines(node.comment);
    if (taken || !endsWith(lines, tail)) return;
    const rest = lines.slice(0, lines.length - tail.length);
    node.comment = rest.length > 0 ? rest.join("\n") : null;
    taken = true;
  };
  if (isNode(root)) {
    visit(root, {
      Node(_key, node) {
        take(node as Commented);
      },
    });
  }
  return taken;
}

/**
 * Gives a comment written right above `node` (starting at `offset`) back to it when the `yaml` package hung it on the
 * end of `previous` (the entry before), so it moves with `node` when a list is sorted.
 */
function reclaimComment(node: Commented, offset: number, previous: unknown, text: string): void {
  const above = commentsAbove(text, offset);
  if (above.length === 0 || endsWith(commentLines(node.commentBefore), above)) return;
  if (takeTrailingComment(previous, above)) {
    node.commentBefore = [...commentLines(node.commentBefore), ...above].join("\n");
  }
}

/**
 * Gives comments back to what follows them: a comment block right above a top-level key or an entry of a top-level
 * list belongs to it, and one at column 0 at the end of the file to the file — never to the entry before, which
 * sorting moves.
 */
function reclaimComments(doc: Document.Parsed | Document, map: YAMLMap, text: string): void {
  map.items.forEach((pair, k) => {
    const key = pair.key as Commented | null;
    if (k > 0 && isScalar(key) && key.range) reclaimComment(key, key.range[0], map.items[k - 1]?.value, text);
    if (!isSeq(pair.value)) return;
    const items = (pair.value as YAMLSeq).items as Commented[];
    items.forEach((item, j) => {
      if (j > 0 && isNode(item) && item.range) reclaimComment(item, item.range[0], items[j - 1], text);
    });
  });
  const last = map.items.at(-1);
  const body = text.replace(/\s+$/, "");
  const end = commentsAbove(`${body}\n`, body.length + 1);
  if (!last || end.length === 0 || endsWith(commentLines(doc.comment), end)) return;
  if (takeTrailingComment(last.value, end)) doc.comment = [...end, ...commentLines(doc.comment)].join("\n");
}

/** A comment above a list's first entry is that entry's: it moves with the entry when the list is sorted. */
function giveListCommentToFirst(seq: YAMLSeq): void {
  const first = seq.items[0] as Commented | undefined;
  const own = seq as unknown as Commented;
  if (!first || !own.commentBefore) return;
  first.commentBefore = [...commentLines(own.commentBefore), ...commentLines(first.commentBefore)].join("\n");
  own.commentBefore = null;
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

/** A comment as the `yaml` package stores it (lines without `#`) written back as lines, with a final newline. */
function commentBlock(comment: string): string {
  return `${comment.split("\n").map((line) => line === "" ? "" : `#${line}`).join("\n")}\n`;
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
    out.push(commentBlock(streamComment));
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
    if (isMap(root)) reclaimComments(doc, root as YAMLMap, text);
    visit(doc, {
      Node(_key, node) {
        trimComments(node);
        (node as Node & { spaceBefore?: boolean }).spaceBefore = false;
        // Block style, except for an empty list or mapping, which has no block form (`[]`, `{}`).
        if (isMap(node) || isSeq(node)) (node as YAMLMap).flow = (node as YAMLMap).items.length === 0;
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
      const views = seqOf(map, "views");
      if (views) {
        const conflict = viewOrderConflict(views);
        if (conflict) return { kind: "order-sensitive", message: conflict };
        giveListCommentToFirst(views);
        sortSeq(views, (v) => field(v, "name"));
      }
      const globals = seqOf(map, "components");
      if (globals) {
        giveListCommentToFirst(globals);
        sortSeq(globals, (c) => field(c, "name"));
      }
      const reqs = seqOf(map, "requests");
      if (reqs) {
        giveListCommentToFirst(reqs);
        sortSeq(reqs, (r) => `${field(r, "route")}\0${field(r, "method")}`);
      }
      orderTree(map, "file");
      for (const pair of map.items) {
        const value = pair.value;
        if (isSeq(value)) {
          (value as YAMLSeq).items.forEach((item, j) => {
            if (j > 0 && item) (item as Node & { spaceBefore?: boolean }).spaceBefore = true;
          });
        }
      }
    }
    // The comment closing the file follows the last line directly (the package would put a blank line first).
    const closing = doc.comment;
    doc.comment = null;
    out.push(doc.toString({ indent: 2, indentSeq: true, lineWidth: 0, minContentWidth: 0, singleQuote: true }));
    if (closing) out.push(commentBlock(closing));
  }
  const joined = out.join("").replace(/\n+$/, "");
  return { kind: "ok", text: joined === "" ? "" : `${joined}\n` };
}
