/**
 * Every class of character a page could use to start a line of its own or hide text in mapper's output, each with
 * the visible form mapper must show instead: newlines and other controls, the line and paragraph separators,
 * zero-width and other format characters, the byte-order mark, Unicode tags and the bidirectional controls.
 *
 * @module
 */

/** `[raw character, how mapper shows it]`, one of each class. */
export const INVISIBLE_CLASSES: ReadonlyArray<readonly [string, string]> = [
  ["\n", "\\n"],
  ["\r", "\\r"],
  ["\u0085", "\\x85"],
  ["\u2028", "\\u2028"],
  ["\u2029", "\\u2029"],
  ["\u200b", "\\u200b"],
  ["\u200f", "\\u200f"],
  ["\u2060", "\\u2060"],
  ["\u2064", "\\u2064"],
  ["\ufeff", "\\ufeff"],
  ["\u{e0000}", "\\U000e0000"],
  ["\u{e0041}", "\\U000e0041"],
  ["\u{e007f}", "\\U000e007f"],
  ["\u202a", "\\u202a"],
  ["\u202e", "\\u202e"],
  ["\u2066", "\\u2066"],
  ["\u2069", "\\u2069"],
];

/** Whether `text` holds any raw character of {@linkcode INVISIBLE_CLASSES} but `\n` (which separates lines). */
export function hasInvisible(text: string): boolean {
  return INVISIBLE_CLASSES.some(([raw]) => raw !== "\n" && text.includes(raw));
}
