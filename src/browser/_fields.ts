/**
 * Reading what an event carries, defensively: the protocol types say what Chromium sends, but the pipe cuts
 * oversized strings and fields marked optional may be missing, so every value is checked before it is kept.
 *
 * @module
 */

/** Longest URL kept (a `data:` URL can be megabytes); console frames and network records share it. */
export const URL_CAP = 16 * 1024;

/** The value when it is a string, else `""`. */
export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** The value when it is a finite number, else `undefined`. */
export function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}
