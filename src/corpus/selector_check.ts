/**
 * The selector check `mapper validate` runs (`selector-invalid`, `selector-unsupported`), for tools outside the
 * corpus loader (`sel-check`, the offline engine): the CSS parser is loaded on first use, never at start-up.
 *
 * @module
 */
import { lazy } from "../lazy.ts";

/** A problem with a selector: `selector-invalid` (an error: the browser would refuse it) or `selector-unsupported`. */
export interface SelectorProblem {
  /** `selector-invalid` or `selector-unsupported`. */
  code: string;
  /** `error` for invalid CSS, `warning` for valid CSS that never matches a page at rest. */
  severity: "error" | "warning";
  /** What is wrong; an invalid selector's message ends with the parser's `Pos: N` (0-based). */
  message: string;
}

/**
 * Loads the check `validate` runs on a selector (or a selector list): the returned function answers `undefined`
 * when the selector is fine, else the problem. Loads the CSS parser (~8 ms) on the first call only.
 */
export async function loadSelectorCheck(): Promise<(selector: string) => SelectorProblem | undefined> {
  const { checkSelector } = await lazy<typeof import("./_css.ts")>(new URL("./_css.ts", import.meta.url));
  return checkSelector;
}
