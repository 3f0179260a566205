/**
 * Terminal safety for text that came from the network or from the user: control characters are shown, never
 * executed. One escaper for every area (catalog text, page console output, URLs, echoed arguments).
 *
 * @module
 */

// Control characters (Unicode category Cc) are exactly what these patterns are about.
// deno-lint-ignore no-control-regex
const ALL_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// deno-lint-ignore no-control-regex
const CONTROLS_BUT_NEWLINE_TAB = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const BIDI_OVERRIDES = /[\u202a-\u202e\u2066-\u2069]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Options of {@linkcode escapeControls}. */
export interface EscapeOptions {
  /** Keep `\n` and `\t` as they are (multi-line text such as console messages and bodies). Default false. */
  keepNewlines?: boolean;
  /** Also show bidirectional overrides (U+202A–202E, U+2066–2069) as `\uXXXX`, so text cannot reorder itself. */
  bidi?: boolean;
}

function hex(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * Rewrites every control character (C0, DEL, C1) as the literal text `\xHH` and every unpaired surrogate as U+FFFD;
 * everything else is kept. No escape sequence survives, so the result is safe to print to a terminal.
 */
export function escapeControls(text: string, options: EscapeOptions = {}): string {
  let out = LONE_SURROGATE.test(text) ? text.toWellFormed() : text;
  out = out.replace(options.keepNewlines ? CONTROLS_BUT_NEWLINE_TAB : ALL_CONTROLS, hex);
  return options.bidi ? out.replace(BIDI_OVERRIDES, hex) : out;
}

const JSON_UNSAFE = /[<>&\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * The one JSON writer behind every `--json`: two-space indent, a trailing newline, and `<`, `>`, `&`, DEL, the C1
 * controls, U+2028/U+2029 and the bidirectional overrides written as `\uXXXX` (which `JSON.stringify` leaves raw),
 * so no value can reach a terminal as a control sequence or reorder the text around it. Parsed values are unchanged.
 */
export function toJson(value: unknown): string {
  return jsonSafe(JSON.stringify(value, null, 2)) + "\n";
}

/**
 * JSON text with the characters {@linkcode toJson} escapes written as `\uXXXX` (the parsed value is unchanged):
 * for JSON that must stay byte-for-byte compact (`export` to standard output) yet reach a terminal safely.
 */
export function jsonSafe(json: string): string {
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

let invisible: RegExp | undefined;

/**
 * Format, separator, private-use, unassigned and invisible space characters. Built on first use: V8 builds the
 * Unicode sets of a `\p{…}` pattern (`Cn` is most of the code space) when the literal is evaluated, ~3 million
 * instructions that every command loading this module would pay at start-up, and only {@linkcode quote} needs it.
 */
function invisibleChars(): RegExp {
  return invisible ??= /[\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/gu;
}

/**
 * Shows a user or catalog value inside a message: terminal-escaped, then wrapped in double quotes with `"` and `\`
 * backslash-escaped and invisible characters (format, separators, unassigned) written `\uXXXX`.
 */
export function quote(text: string): string {
  const body = escapeControls(text)
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(invisibleChars(), (c) => {
      const cp = c.codePointAt(0) ?? 0;
      return cp > 0xffff ? `\\U${cp.toString(16).padStart(8, "0")}` : `\\u${cp.toString(16).padStart(4, "0")}`;
    });
  return `"${body}"`;
}
