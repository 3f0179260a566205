/**
 * An entry README's front matter: the `---` block split from the body and parsed as YAML, with the README line of
 * every key and list item, so a problem can be annotated where it is written (the rules it must follow are
 * `_schema.ts`).
 *
 * @module
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type YAMLMap, type YAMLSeq } from "yaml";
import { describe } from "../errors.ts";

/** The first line of an error's message, without the trailing colon a YAML code frame leaves. */
export function firstLine(err: unknown): string {
  return (describe(err).split("\n")[0] ?? "").replace(/:\s*$/, "");
}

/** A README whose front matter cannot be read; `line` is the README line of the problem. */
export class FrontMatterError extends Error {
  /** Error name. */
  override name = "FrontMatterError";
  /** 1-based README line. */
  readonly line: number;
  /** Creates the error. */
  constructor(message: string, line: number) {
    super(message);
    this.line = line;
  }
}

/** A split README. */
export interface SplitReadme {
  /** The parsed front matter (a mapping). */
  data: unknown;
  /** The text after the closing `---` line. */
  body: string;
  /** The README line (1-based) of a key path (`["domains", 0]`); the opening `---` line for `[]` or an unknown path. */
  lineOf(path: ReadonlyArray<string | number>): number;
}

/** Splits a README into its front matter (parsed) and body; throws a {@linkcode FrontMatterError} when malformed. */
export function splitFrontMatter(text: string): SplitReadme {
  // A byte order mark (Windows editors write one) is not content.
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  if (lines[0]?.replace(/\r$/, "") !== "---") {
    throw new FrontMatterError("README.md does not start with a '---' line", 1);
  }
  const end = lines.findIndex((line, i) => i > 0 && line.startsWith("---"));
  if (end < 0) throw new FrontMatterError("front matter has no closing '---' line", lines.length);
  const yaml = lines.slice(1, end).map((line) => line.replace(/\r$/, "")).join("\n");
  const counter = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter: counter });
  const error = doc.errors[0];
  if (error) {
    // The package counts lines inside the front matter; the README line is one more (the opening `---`).
    const line = 1 + counter.linePos(error.pos[0]).line;
    const what = firstLine(error).replace(/ at line \d+, column \d+$/, "");
    throw new FrontMatterError(`front matter is not valid YAML at README.md line ${line}: ${what}`, line);
  }
  const data = doc.toJS();
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new FrontMatterError("front matter is not a YAML mapping", 2);
  }
  const lineOf = (path: ReadonlyArray<string | number>): number => {
    let node: unknown = doc.contents;
    let offset: number | undefined;
    for (const step of path) {
      if (isMap(node) && typeof step === "string") {
        const pair = (node as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === step);
        if (!pair) break;
        offset = (pair.key as { range?: [number, number, number] }).range?.[0];
        node = pair.value;
      } else if (isSeq(node) && typeof step === "number") {
        const item = (node as YAMLSeq).items[step] as { range?: [number, number, number] } | undefined;
        if (!item) break;
        offset = item.range?.[0];
        node = item;
      } else break;
    }
    return offset === undefined ? 1 : 1 + counter.linePos(offset).line;
  };
  return { data, body: lines.slice(end + 1).join("\n"), lineOf };
}
