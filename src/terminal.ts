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
/**
 * Characters that start a line or change how text around them reads without being seen: the line and paragraph
 * separators (U+2028, U+2029), and every format character (category Cf): zero-width spaces and joiners
 * (U+200B–U+200F), bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), word joiner and
 * invisible operators (U+2060–U+2064), the byte-order mark (U+FEFF), Unicode tags (U+E0000–U+E007F, some of which
 * are unassigned and so not Cf), and the rest of the category.
 */
const LINE_OR_FORMAT = /[\p{Cf}\p{Zl}\p{Zp}\u{e0000}-\u{e007f}]/gu;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/**
 * Text with nothing to escape: printable ASCII only. Most text is, and one test of this ASCII class is far cheaper
 * than the three Unicode-aware passes below, which a short command pays for on every line it prints.
 */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Options of {@linkcode escapeControls}. */
export interface EscapeOptions {
  /**
   * Keep `\n` and `\t` as they are (a multi-line body shown indented under a header the page cannot write, such as
   * `console get`'s). Default false: they are shown as `\n` and `\t`, so the text stays on its line.
   */
  keepNewlines?: boolean;
}

/** The visible form of code point `cp`: `\uXXXX`, or `\UXXXXXXXX` beyond the Basic Multilingual Plane. */
function codePointEscape(cp: number): string {
  return cp > 0xffff ? `\\U${cp.toString(16).padStart(8, "0")}` : `\\u${cp.toString(16).padStart(4, "0")}`;
}

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function controlEscape(c: string): string {
  const code = c.charCodeAt(0);
  return NAMED[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : codePointEscape(code));
}

/**
 * The one escaper of text that came from the network, a page or the user, before it reaches a terminal, a
 * `--json` string or an MCP tool result: every control character (C0, DEL, C1) is written as visible text (`\n`,
 * `\r`, `\t`, else `\xHH`), every line separator and format character (see above) as `\uXXXX` (`\UXXXXXXXX` for
 * tags), and every unpaired surrogate becomes U+FFFD; everything else is kept. No escape sequence survives, no text
 * can start a line of its own or reorder or hide the text around it.
 */
export function escapeControls(text: string, options: EscapeOptions = {}): string {
  if (PRINTABLE_ASCII.test(text)) return text;
  const out = LONE_SURROGATE.test(text) ? text.toWellFormed() : text;
  return out
    .replace(options.keepNewlines ? CONTROLS_BUT_NEWLINE_TAB : ALL_CONTROLS, controlEscape)
    .replace(LINE_OR_FORMAT, (c) => codePointEscape(c.codePointAt(0) ?? 0));
}

/**
 * Text that may span lines (a console message, a response body), shown under a header line of ours: escaped with
 * {@linkcode escapeControls} keeping `\n` and `\t`, and every line indented by two spaces, so no line of it can
 * pass for one of ours (which start in the first column).
 */
export function indentedBlock(text: string): string {
  return escapeControls(text, { keepNewlines: true }).split("\n").map((line) => `  ${line}`).join("\n");
}

const JSON_UNSAFE = /[<>&\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}\u{e0000}-\u{e007f}]/gu;

/** `\uXXXX` JSON escapes of one character (a surrogate pair beyond the Basic Multilingual Plane). */
function jsonEscape(c: string): string {
  let out = "";
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return out;
}

/**
 * The one JSON writer behind every `--json`: two-space indent, a trailing newline, and `<`, `>`, `&`, DEL, the C1
 * controls and every line separator and format character {@linkcode escapeControls} shows (U+2028/U+2029, zero-width
 * characters, bidirectional controls, the byte-order mark, tags) written as `\uXXXX` (which `JSON.stringify` leaves
 * raw), so no value can reach a terminal as a control sequence, start a line or hide or reorder the text around it.
 * Parsed values are unchanged.
 */
export function toJson(value: unknown): string {
  return jsonSafe(JSON.stringify(value, null, 2)) + "\n";
}

/**
 * JSON text with the characters {@linkcode toJson} escapes written as `\uXXXX` (the parsed value is unchanged):
 * for JSON that must stay byte-for-byte compact (`export` to standard output) yet reach a terminal safely.
 */
export function jsonSafe(json: string): string {
  return json.replace(JSON_UNSAFE, jsonEscape);
}

let invisible: RegExp | undefined;

/**
 * Private-use, unassigned and invisible space characters (the line and format characters are
 * {@linkcode escapeControls}'s). Built on first use: V8 builds the Unicode sets of a `\p{…}` pattern (`Cn` is most of
 * the code space) when the literal is evaluated, which every command loading this module would pay at start-up, and
 * only {@linkcode quote} needs it.
 */
function invisibleChars(): RegExp {
  return invisible ??= /[\p{Co}\p{Cn}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/gu;
}

/**
 * Shows a user or catalog value inside a message: `"` and `\` backslash-escaped, then terminal-escaped
 * ({@linkcode escapeControls}), then the other invisible characters (private use, unassigned, unusual spaces) written
 * `\uXXXX` too, wrapped in double quotes.
 */
export function quote(text: string): string {
  const body = escapeControls(text.replace(/[\\"]/g, (c) => `\\${c}`))
    .replace(invisibleChars(), (c) => codePointEscape(c.codePointAt(0) ?? 0));
  return `"${body}"`;
}
