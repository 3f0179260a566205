/**
 * The user-facing time bounds of the page commands, named once: the CLI flags' defaults, the MCP parameters' (derived
 * from those flags) and the engine's own fallbacks all read them from here. No imports, so the command table can
 * load it at start-up for free.
 *
 * @module
 */

/** Default bound of the attached/visible/stable wait before an action (`--timeout-ms` of click, fill, …). */
export const ACTION_TIMEOUT_MS = 5000;
/** Default bound of a navigation (`browser navigate`, a new tab's load). */
export const NAVIGATE_TIMEOUT_MS = 30_000;
/** Default bound of `wait-for`. */
export const WAIT_TIMEOUT_MS = 10_000;
