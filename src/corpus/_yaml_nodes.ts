// The YAML document model the corpus decoder reads: plain nodes with a start offset, built by the fast parser
// (`_yaml_fast.ts`) or converted from the `yaml` library's nodes (`_yaml_library.ts`). The decoder never sees the
// library, so a file in the common block subset is read without loading it.

/**
 * What every node has besides its content: where it starts, and where it sits in the document, from which its field
 * path (`views[0].name`, `""` for the root) is made when a location needs it: the reader (`_yaml_reader.ts`) links
 * every node to its parent once (`undefined` until then; fields of the node rather than a side table: a large corpus
 * has hundreds of thousands of nodes, and most never need their path spelled out).
 */
interface NodeBase {
  /** Offset of its first character (for an empty value: where the value would start). */
  readonly start: number;
  /** Its field path: the root's is set when it is indexed, any other's when first asked for. */
  path: string | undefined;
  /** The collection it is a key, value or item of, once indexed (`undefined` for the root). */
  up: YamlNode | undefined;
  /** Its key in `up` (the key text, `""` for one that is not a scalar) or its index in a sequence. */
  seg: string | number | undefined;
}

/** A scalar. `source` is the text as written for plain scalars (numbers keep their spelling: `007`). */
export interface YamlScalar extends NodeBase {
  readonly kind: "scalar";
  readonly value: string | number | boolean | bigint | null;
  readonly source: string;
  /** How it was written: `PLAIN`, `QUOTE_SINGLE`, `QUOTE_DOUBLE`, `BLOCK_LITERAL`, `BLOCK_FOLDED`. */
  readonly type: string;
}

/** One `key: value` of a mapping; a missing key or value is `null`. */
export interface YamlPair {
  readonly key: YamlNode | null;
  readonly value: YamlNode | null;
}

/** A mapping, its pairs in source order. */
export interface YamlMap extends NodeBase {
  readonly kind: "map";
  readonly items: readonly YamlPair[];
}

/** A sequence; an empty item is `null`. */
export interface YamlSeq extends NodeBase {
  readonly kind: "seq";
  readonly items: readonly (YamlNode | null)[];
}

/** `*name`: `target` is the anchored node (`null` when no earlier anchor has that name). Shared, never copied. */
export interface YamlAlias extends NodeBase {
  readonly kind: "alias";
  readonly name: string;
  readonly target: YamlNode | null;
}

/** Any node of a document. */
export type YamlNode = YamlScalar | YamlMap | YamlSeq | YamlAlias;

/** A problem the parser reports, at an offset of the text. */
export interface YamlProblem {
  readonly message: string;
  readonly offset: number;
}

/** A parsed file: the first document (the only one the corpus reads) and what was wrong with the text. */
export interface ParsedYaml {
  /** Whether the text holds any document (not just comments and blank lines). */
  readonly hasDocument: boolean;
  /** The first document's root; `null` when it is empty. */
  readonly contents: YamlNode | null;
  /** Syntax errors of any document: when there is one, nothing else is read. */
  readonly errors: readonly YamlProblem[];
  /** Warnings of the first document (e.g. an unknown tag). */
  readonly warnings: readonly YamlProblem[];
  /** Start offsets of the documents after the first (ignored). */
  readonly ignored: readonly number[];
  /** An alias inside the node it names (expanding it never ends), if any. */
  readonly cyclic?: YamlAlias;
  /** Offsets of the first character of every line after the first. */
  readonly lineStarts: ArrayLike<number>;
}

/**
 * How many of the offsets where lines 2, 3, … start are at or before `offset`: its 0-based line. A number, not an
 * object, for the decoder's many locations (see {@linkcode linePos}).
 */
export function lineIndex(lineStarts: ArrayLike<number>, offset: number): number {
  let lo = 0;
  let hi = lineStarts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** 1-based line and column of `offset`, given the offsets where lines 2, 3, … start. */
export function linePos(lineStarts: ArrayLike<number>, offset: number): { line: number; col: number } {
  const index = lineIndex(lineStarts, offset);
  return { line: index + 1, col: offset - (index === 0 ? 0 : lineStarts[index - 1]!) + 1 };
}
