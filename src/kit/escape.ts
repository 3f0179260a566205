/**
 * CSS escaping for the selectors mapper writes: identifiers as `CSS.escape` serializes them and attribute values
 * as quoted strings, so a value with a quote, a backslash or a leading digit still makes a valid selector that
 * means exactly that value.
 *
 * @module
 */

/** `s` as a CSS identifier (the CSS Object Model's `CSS.escape`), for `#id`, `.class` and tag names. */
export function cssIdent(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (c === 0) out += "\uFFFD";
    else if ((c >= 0x1 && c <= 0x1f) || c === 0x7f) out += `\\${c.toString(16)} `;
    else if (
      (i === 0 && c >= 0x30 && c <= 0x39) || (i === 1 && c >= 0x30 && c <= 0x39 && s.charCodeAt(0) === 0x2d)
    ) out += `\\${c.toString(16)} `;
    else if (i === 0 && ch === "-" && s.length === 1) out += "\\-";
    else if (c >= 0x80 || ch === "-" || ch === "_" || /[0-9A-Za-z]/.test(ch)) out += ch;
    else out += `\\${ch}`;
  }
  return out;
}

/** `s` as a double-quoted CSS string, for attribute values (`[data-testid="a\"b"]`). */
export function cssString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c === 0) out += "\uFFFD";
    else if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (c < 0x20 || c === 0x7f) out += `\\${c.toString(16)} `;
    else out += ch;
  }
  return out + '"';
}
