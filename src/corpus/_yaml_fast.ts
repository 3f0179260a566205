// A fast reader for the block YAML that corpus files are written in: nested block mappings and sequences, plain
// scalars (multi-line ones folded), one-line quoted scalars, comments. It produces exactly the nodes the `yaml`
// library would (the tests compare the two on every shape), and declines everything else — flow collections,
// block scalars, anchors, aliases, tags, directives, several documents, escapes, duplicate keys, tabs, CR, any
// syntax error — so the caller parses that text with the library, which reports it in full. Declining is always
// safe; accepting is only allowed where the result is identical.
import type { ParsedYaml, YamlMap, YamlNode, YamlPair, YamlScalar } from "./_yaml_nodes.ts";
import type { YamlSeq } from "./_yaml_nodes.ts";

/** Thrown (and caught in {@linkcode fastParse}) when the text leaves the subset. */
class Decline {}
const DECLINE = new Decline();

/** Characters that make a control character, CR, BOM or a Unicode line break appear: the library's business. */
// deno-lint-ignore no-control-regex
const UNSUPPORTED_CHARS = /[\x00-\x09\x0b-\x1f\x7f\u0085\u2028\u2029\ufeff]/;
/** First characters that start something other than a plain scalar (or a plain scalar we leave to the library). */
const INDICATORS = new Set([
  "-",
  "?",
  ":",
  ",",
  "[",
  "]",
  "{",
  "}",
  "#",
  "&",
  "*",
  "!",
  "|",
  ">",
  "'",
  '"',
  "%",
  "@",
  "`",
]);
/** Longest implicit key the library accepts is 1024 characters; stay well below. */
const MAX_KEY = 1000;
/** Deeper nesting is left to the library (and to the decoder's own limits). */
const MAX_DEPTH = 100;

// The YAML 1.2 core schema's plain-scalar tags, as the `yaml` library tests them.
// null: /^(?:~|[Nn]ull|NULL)?$/, true: /^(?:[Tt]rue|TRUE)$/, false: /^(?:[Ff]alse|FALSE)$/ (spelled out below).
const INT = /^[-+]?[0-9]+$/;
const OTHER_NUMBER = [
  /^0o[0-7]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
];

/** The value of a plain scalar under the core schema (octal, hex and floats are declined). */
function resolvePlain(text: string): string | number | boolean | null {
  // The words of the null and boolean tags (the expressions above), without a regular expression each.
  switch (text) {
    case "":
    case "~":
    case "null":
    case "Null":
    case "NULL":
      return null;
    case "true":
    case "True":
    case "TRUE":
      return true;
    case "false":
    case "False":
    case "FALSE":
      return false;
  }
  const first = text.charCodeAt(0);
  // Every number starts with a digit, a sign or a dot; most keys and values are strings that start otherwise.
  if (!((first >= 48 && first <= 57) || first === 43 || first === 45 || first === 46)) return text;
  if (INT.test(text)) return parseInt(text, 10);
  for (const re of OTHER_NUMBER) if (re.test(text)) throw DECLINE;
  return text;
}

/** `s` without trailing spaces (YAML trims spaces only, not every Unicode space as `trimEnd` does). */
function trimSpaces(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 32) end--;
  return end === s.length ? s : s.slice(0, end);
}

function scalar(value: YamlScalar["value"], source: string, type: string, start: number): YamlScalar {
  return { kind: "scalar", value, source, type, start, path: undefined, up: undefined, seg: undefined };
}

/**
 * Parses `text` (without a byte-order mark) when it is in the subset; `undefined` means "use the library". A text of
 * only comments and blank lines has no document, as with the library.
 */
export function fastParse(text: string): ParsedYaml | undefined {
  if (UNSUPPORTED_CHARS.test(text)) return undefined;
  try {
    return new FastParser(text).document();
  } catch (err: unknown) {
    if (err === DECLINE || err instanceof RangeError) return undefined; // RangeError: a stack overflow
    throw err;
  }
}

class FastParser {
  /** Offset of each line's first character. */
  readonly starts: Int32Array;
  /** Offset of each line's end (its `\n`, or the end of the text). */
  readonly ends: Int32Array;
  /** Column where each line's content starts: its indentation, or further right inside `- key: value`. */
  readonly cols: Int32Array;
  /** Whether each line is blank or a comment (1) or has content (0). */
  readonly skip: Uint8Array;
  /** Offsets where lines 2, 3, … start (a view of `starts`). */
  readonly lineStarts: Int32Array;
  /** Next line to read. */
  line = 0;
  depth = 0;

  constructor(readonly text: string) {
    // Lines counted first, so every table is one typed array filled in one pass (no growing list of line starts).
    let count = 1;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
    this.starts = new Int32Array(count);
    this.ends = new Int32Array(count);
    this.cols = new Int32Array(count);
    this.skip = new Uint8Array(count);
    this.lineStarts = this.starts.subarray(1);
    let start = 0;
    for (let i = 0; i < count; i++) {
      const newline = i + 1 < count ? text.indexOf("\n", start) : -1;
      const end = newline === -1 ? text.length : newline;
      let p = start;
      while (p < end && text.charCodeAt(p) === 32) p++;
      this.starts[i] = start;
      this.ends[i] = end;
      this.cols[i] = p - start;
      this.skip[i] = p === end || text.charCodeAt(p) === 35 ? 1 : 0;
      if (p === start) {
        const first = text.charCodeAt(start);
        if (first === 37) throw DECLINE; // `%`: a directive
        // `---` or `...` alone or followed by a space: a document marker.
        if (
          (first === 45 || first === 46) && end - start >= 3 && text.charCodeAt(start + 1) === first &&
          text.charCodeAt(start + 2) === first && (end - start === 3 || text.charCodeAt(start + 3) === 32)
        ) {
          throw DECLINE;
        }
      }
      start = end + 1;
    }
  }

  document(): ParsedYaml {
    const first = this.next();
    const base = { errors: [], warnings: [], ignored: [], lineStarts: this.lineStarts };
    if (first === -1) return { hasDocument: false, contents: null, ...base };
    const contents = this.block(first);
    if (this.next() !== -1) throw DECLINE; // something left of the root's column
    return { hasDocument: true, contents, ...base };
  }

  /** Index of the next line with content (skipping blank and comment lines), or -1 at the end. */
  next(): number {
    while (this.line < this.starts.length && this.skip[this.line]) this.line++;
    return this.line < this.starts.length ? this.line : -1;
  }

  /** Offset where line `i`'s content starts. */
  pos(i: number): number {
    return this.starts[i]! + this.cols[i]!;
  }

  /** Whether line `i`'s content is a sequence entry (`-` then a space or the end of the line). */
  isDash(i: number): boolean {
    const p = this.pos(i);
    if (this.text[p] !== "-") return false;
    const after = this.text[p + 1];
    return after === undefined || after === " " || after === "\n";
  }

  /** The block collection whose first entry is on line `i`. */
  block(i: number): YamlNode {
    const col = this.cols[i]!;
    if (++this.depth > MAX_DEPTH) throw DECLINE; // deeper is the library's business
    const node = this.isDash(i) ? this.sequence(col) : this.mapping(col);
    this.depth--; // (a decline abandons the parser: no need to unwind the count)
    return node;
  }

  /** Where a key's `:` indicator is in `[from, end)` (a `:` then a space or the end), before any comment; or -1. */
  colon(from: number, end: number): number {
    const text = this.text;
    const comment = this.commentAt(from, end);
    const limit = comment === -1 ? end : comment;
    for (let c = this.find(this.colonMark, from, limit); c !== -1; c = this.find(this.colonMark, c + 1, limit)) {
      if (c + 1 === limit || text.charCodeAt(c + 1) === 32) return c;
    }
    return -1;
  }

  /** Offset of a comment (`#` after a space) in `[from, end)`, or -1. */
  commentAt(from: number, end: number): number {
    for (let c = this.find(this.hash, from + 1, end); c !== -1; c = this.find(this.hash, c + 1, end)) {
      if (this.text.charCodeAt(c - 1) === 32) return c;
    }
    return -1;
  }

  readonly hash = { char: "#", from: 0, at: -2 };
  readonly colonMark = { char: ":", from: 0, at: -2 };

  /**
   * Offset of the first `mark.char` in `[from, end)`, or -1. The last answer of `indexOf` is remembered: queries
   * move forward through the text, so each character is scanned about once (a plain `indexOf` per line would scan
   * to the end of the text on every line of a file with few `#`).
   */
  find(mark: { char: string; from: number; at: number }, from: number, end: number): number {
    if (mark.at === -2 || from < mark.from || (mark.at !== -1 && from > mark.at)) {
      mark.from = from;
      mark.at = this.text.indexOf(mark.char, from);
    }
    return mark.at !== -1 && mark.at < end ? mark.at : -1;
  }

  mapping(col: number): YamlMap {
    const items: YamlPair[] = [];
    let start = -1;
    for (let i = this.next(); i !== -1 && this.cols[i] === col; i = this.next()) {
      if (this.isDash(i)) throw DECLINE; // a sequence entry among keys
      const from = this.pos(i);
      const colon = this.colon(from, this.ends[i]!);
      if (colon === -1) throw DECLINE; // not a key
      const keyText = this.text.slice(from, colon);
      if (
        keyText.length === 0 || keyText.length > MAX_KEY || INDICATORS.has(keyText[0]!) ||
        keyText.endsWith(" ") || keyText === "<<"
      ) {
        throw DECLINE;
      }
      const keyValue = resolvePlain(keyText);
      if (typeof keyValue !== "string" || items.some((pair) => (pair.key as YamlScalar).value === keyValue)) {
        throw DECLINE; // a duplicate key: the library reports it
      }
      if (start === -1) start = from;
      const key = scalar(keyValue, keyText, "PLAIN", from);
      this.line = i + 1;
      items.push({ key, value: this.value(i, colon + 1, col) });
    }
    return { kind: "map", items, start, path: undefined, up: undefined, seg: undefined };
  }

  sequence(col: number): YamlSeq {
    const items: (YamlNode | null)[] = [];
    let start = -1;
    for (let i = this.next(); i !== -1 && this.cols[i] === col && this.isDash(i); i = this.next()) {
      const dash = this.pos(i);
      if (start === -1) start = dash;
      this.line = i + 1;
      let p = dash + 1;
      while (this.text.charCodeAt(p) === 32) p++;
      const end = this.ends[i]!;
      if (p < end && this.text[p] !== "#" && !this.isQuote(p) && this.colon(p, end) !== -1) {
        // `- key: value`: a mapping whose keys line up with this first one
        this.cols[i] = p - this.starts[i]!;
        this.line = i;
        items.push(this.block(i));
        continue;
      }
      items.push(this.value(i, dash + 1, col));
    }
    return { kind: "seq", items, start, path: undefined, up: undefined, seg: undefined };
  }

  isQuote(p: number): boolean {
    const c = this.text[p];
    return c === '"' || c === "'";
  }

  /**
   * The value after an indicator (`:` or `-`) that ends at `after` on line `i`, inside a collection at column
   * `col`: inline on the same line, or a block on the following lines, or empty.
   */
  value(i: number, after: number, col: number): YamlNode {
    const text = this.text;
    let p = after;
    while (text.charCodeAt(p) === 32) p++;
    const end = this.ends[i]!;
    if (p === end || text[p] === "#") {
      const j = this.next();
      if (j !== -1 && (this.cols[j]! > col || (this.cols[j] === col && this.isDash(j) && text[after - 1] === ":"))) {
        return this.block(j);
      }
      return scalar(null, "", "PLAIN", p);
    }
    const c = text[p]!;
    if (c === '"') return this.doubleQuoted(p, end);
    if (c === "'") return this.singleQuoted(p, end);
    if (INDICATORS.has(c)) throw DECLINE;
    return this.plain(i, p, col);
  }

  /** After a quoted scalar that ends at `q`: only spaces, then the line's end or a comment. */
  afterQuote(q: number, end: number): void {
    let p = q;
    while (this.text.charCodeAt(p) === 32) p++;
    if (p === end) return;
    if (this.text[p] === "#" && p > q) return;
    throw DECLINE;
  }

  doubleQuoted(p: number, end: number): YamlScalar {
    const close = this.text.indexOf('"', p + 1);
    if (close === -1 || close >= end) throw DECLINE; // runs over lines
    const body = this.text.slice(p + 1, close);
    if (body.includes("\\")) throw DECLINE; // escapes
    this.afterQuote(close + 1, end);
    return scalar(body, body, "QUOTE_DOUBLE", p);
  }

  singleQuoted(p: number, end: number): YamlScalar {
    const text = this.text;
    let body = "";
    let from = p + 1;
    for (;;) {
      const q = text.indexOf("'", from);
      if (q === -1 || q >= end) throw DECLINE; // runs over lines
      body += text.slice(from, q);
      if (text[q + 1] === "'") {
        body += "'";
        from = q + 2;
        continue;
      }
      this.afterQuote(q + 1, end);
      return scalar(body, body, "QUOTE_SINGLE", p);
    }
  }

  /** A plain scalar from `p` on line `i`, with its continuation lines (indented deeper than `col`) folded in. */
  plain(i: number, p: number, col: number): YamlScalar {
    const text = this.text;
    const end = this.ends[i]!;
    const comment = this.commentAt(p, end);
    let value = trimSpaces(text.slice(p, comment === -1 ? end : comment));
    if (value.includes(": ") || value.endsWith(":")) throw DECLINE; // a key where a value belongs
    if (comment === -1) {
      let blanks = 0;
      for (let j = i + 1; j < this.starts.length; j++) {
        const jEnd = this.ends[j]!;
        const jPos = this.pos(j);
        if (jPos === jEnd) {
          blanks++;
          continue;
        }
        if (this.cols[j]! <= col || text[jPos] === "#") break;
        const more = trimSpaces(text.slice(jPos, jEnd));
        if (more.includes(": ") || more.endsWith(":") || more.includes(" #")) throw DECLINE;
        value += blanks === 0 ? ` ${more}` : "\n".repeat(blanks);
        if (blanks > 0) value += more;
        blanks = 0;
        this.line = j + 1;
      }
    }
    return scalar(resolvePlain(value), value, "PLAIN", p);
  }
}
