/**
 * Terminal-safe text: the escaper applied to every catalog display field and every echoed user value, Go-style
 * quoting for values shown in messages, and code-point truncation.
 *
 * @module
 */

import { escapeControls } from "../terminal.ts";

// Control characters (Unicode category Cc) are exactly what this pattern is about.
// deno-lint-ignore no-control-regex
const HAS_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Whether the text holds a Unicode control character (C0, DEL or C1). */
export function hasControl(text: string): boolean {
  return HAS_CONTROL.test(text);
}
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The shared terminal escaper ({@linkcode escapeControls}) as every catalog display field uses it. */
export function escapeTerminal(text: string): string {
  return escapeControls(text);
}

/** Whether the text holds a control character or an unpaired surrogate (what a catalog field must not hold). */
export function needsEscape(text: string): boolean {
  return HAS_CONTROL.test(text) || LONE_SURROGATE.test(text);
}

export { quote } from "../terminal.ts";

/**
 * One word of a command line the user can paste into a POSIX shell: kept bare when it is plainly safe, else
 * single-quoted; then terminal-escaped.
 */
export function shellWord(value: string): string {
  const word = /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
  return escapeTerminal(word);
}

/**
 * ` --flag value` for a printed command, or `""` when `value` is the flag's default directory (trailing slashes
 * and a leading `./` ignored), so the command works when pasted from the same directory.
 */
export function flagUnlessDefault(flag: string, value: string, byDefault: string): string {
  const trimmed = value.replace(/[\\/]+$/, "");
  return trimmed === byDefault || trimmed === `./${byDefault}` ? "" : ` ${flag} ${shellWord(value)}`;
}

/** Cuts text to `max` code points, appending `…` when anything was cut. */
export function truncate(text: string, max = 200): string {
  if (text.length <= max) return text;
  const points = [...text];
  return points.length <= max ? text : points.slice(0, max).join("") + "…";
}

/** Compares two strings by code point (the byte order of their UTF-8 forms); stable-sort friendly. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral characters) sort after every BMP unit in UTF-8 order.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** `n` followed by the singular or plural noun. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Formats Unix milliseconds as `YYYY-MM-DD HH:MM UTC` (minutes truncated). */
export function utcMinutes(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

/** Formats Unix milliseconds as RFC 3339 UTC with whole seconds, e.g. `2026-11-21T21:25:27Z`. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/** A human age: `45 minutes`, `3 hours`, `2 days`. */
export function age(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 120) return plural(minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return plural(hours, "hour");
  return plural(Math.floor(hours / 24), "day");
}
