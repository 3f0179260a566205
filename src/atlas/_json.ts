/**
 * A small JSON parser that remembers where each value starts (line) and which numbers were written with a
 * fraction or exponent, so `atlas validate` can point at the line of every problem. Strict RFC 8259: no BOM, no
 * trailing text, no comments. Lone surrogate escapes are kept (the validator reports them).
 *
 * Why not `@humanwhocodes/momoa` (measured with 3.3.13): it accepts raw control characters inside strings (RFC 8259
 * forbids them), and its messages lose what an author needs: `{"a" 1}` gives "Unexpected token Number found."
 * where this parser says `unexpected character "1" after object key, expected ":"`, and a BOM is an unexplained
 * "Unexpected character". Lines and columns were equal; the messages were not, so this parser stays.
 *
 * @module
 */

import { hasControl } from "./_text.ts";

/** A parse failure with the 1-based line and column where it happened. */
export class JsonSyntaxError extends Error {
  /** Creates the error; the message does not include the position. */
  constructor(message: string, readonly line: number, readonly column: number) {
    super(message);
  }
}

/** The parsed document plus positions. */
export interface LocatedJson {
  /** The value, as `JSON.parse` would return it. */
  value: unknown;
  /** Line (1-based) where the value at each path starts; paths look like `entries[3].slug` (root is `""`). */
  lines: Map<string, number>;
  /** Paths of numbers written with a fraction or exponent (`1.0`, `1e3`). */
  nonIntegers: Set<string>;
}

/** Joins a path and an object key: `a.b`, or `a["odd key"]` when the key is not an identifier. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}

/** Parses JSON text, recording positions. Throws {@linkcode JsonSyntaxError}. */
export function parseLocated(text: string): LocatedJson {
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const lines = new Map<string, number>();
  const nonIntegers = new Set<string>();

  const fail = (message: string): never => {
    throw new JsonSyntaxError(message, line, i - lineStart + 1);
  };
  const describeHere = (): string => {
    if (i >= text.length) return "unexpected end of input";
    const c = text[i] ?? "";
    if (c === "\ufeff") return "unexpected byte order mark (save the file as UTF-8 without BOM)";
    const shown = hasControl(c) ? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}` : c;
    return `unexpected character "${shown}"`;
  };
  const ws = () => {
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a) {
        line++;
        lineStart = i + 1;
      } else if (c !== 0x20 && c !== 0x09 && c !== 0x0d) break;
    }
  };
  const parseString = (): string => {
    i++; // opening quote
    let out = "";
    let start = i;
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c < 0x20) fail("control character in string (escape it as \\u00XX)");
      if (c === 0x5c) {
        out += text.slice(start, i);
        const e = text[i + 1];
        i += 2;
        switch (e) {
          case '"':
            out += '"';
            break;
          case "\\":
            out += "\\";
            break;
          case "/":
            out += "/";
            break;
          case "b":
            out += "\b";
            break;
          case "f":
            out += "\f";
            break;
          case "n":
            out += "\n";
            break;
          case "r":
            out += "\r";
            break;
          case "t":
            out += "\t";
            break;
          case "u": {
            const hex = text.slice(i, i + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("invalid \\u escape in string");
            out += String.fromCharCode(parseInt(hex, 16));
            i += 4;
            break;
          }
          default:
            i -= 1;
            fail("invalid escape in string");
        }
        start = i;
        continue;
      }
      i++;
    }
  };
  const value = (path: string): unknown => {
    ws();
    lines.set(path, line);
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`${describeHere()}, expected a quoted object key`);
        const key = parseString();
        ws();
        if (text[i] !== ":") fail(`${describeHere()} after object key, expected ":"`);
        i++;
        Object.defineProperty(obj, key, {
          value: value(childPath(path, key)),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return obj;
        }
        fail(`${describeHere()} in object, expected "," or "}"`);
      }
    }
    if (c === "[") {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(childPath(path, arr.length)));
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return arr;
        }
        fail(`${describeHere()} in array, expected "," or "]"`);
      }
    }
    if (c === '"') return parseString();
    if (text.startsWith("true", i)) {
      i += 4;
      return true;
    }
    if (text.startsWith("false", i)) {
      i += 5;
      return false;
    }
    if (text.startsWith("null", i)) {
      i += 4;
      return null;
    }
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m) {
      i += m[0].length;
      if (m[1] !== undefined || m[2] !== undefined) nonIntegers.add(path);
      return Number(m[0]);
    }
    return fail(`${describeHere()}, expected a JSON value`);
  };
  const result = value("");
  ws();
  if (i < text.length) fail(`${describeHere()} after the top-level value`);
  return { value: result, lines, nonIntegers };
}

/**
 * Decodes UTF-8 bytes, mapping each invalid byte to an unpaired low surrogate (U+DC80 + byte) so invalid UTF-8
 * stays detectable after decoding (valid input decodes exactly like `TextDecoder`). A BOM is kept.
 */
export function decodeUtf8Marked(bytes: Uint8Array): { text: string; valid: boolean } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes), valid: true };
  } catch {
    // fall through to the marking decoder
  }
  const parts: string[] = [];
  let run = 0;
  let i = 0;
  const lenient = new TextDecoder("utf-8", { ignoreBOM: true });
  const flush = (end: number) => {
    if (end > run) parts.push(lenient.decode(bytes.subarray(run, end)));
  };
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    let need = 0;
    let min = 0;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else need = -1;
    let ok = need > 0 && i + need < bytes.length + 0 && i + need <= bytes.length - 0;
    let cp = need > 0 ? b & (0x3f >> need) : 0;
    for (let k = 1; ok && k <= need; k++) {
      const cb = bytes[i + k];
      if (cb === undefined || (cb & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (cb & 0x3f);
    }
    if (ok && (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))) ok = false;
    if (ok) {
      i += need + 1;
      continue;
    }
    flush(i);
    parts.push(String.fromCharCode(0xdc80 + (b & 0x7f)));
    i++;
    run = i;
  }
  flush(bytes.length);
  return { text: parts.join(""), valid: false };
}
