/**
 * The browser benches' one answer when no Chromium is found: a line saying so on stdout and exit 0, as the
 * `deno bench` files skip their browser benches — a clone without a browser still runs every bench script.
 *
 * @module
 */
import { BROWSER } from "../tests/site/harness.ts";

/** The Chromium binary; without one, says the bench is skipped and ends the script with exit 0. */
export function browserOrSkip(): string {
  if (BROWSER === undefined) {
    // deno-lint-ignore no-console
    console.log("no browser found: skipped (set MAPPER_BROWSER or put chromium on PATH)");
    Deno.exit(0);
  }
  return BROWSER;
}
