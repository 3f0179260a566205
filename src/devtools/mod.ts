/**
 * The `mapper console` and `mapper network` commands: find the running session, ask its daemon, format the
 * answer (text layouts, or `--json`). The command table loads `commands.ts`
 * lazily; the text layouts live beside the API they render (`src/browser/format.ts`), since the daemon renders the
 * lists.
 *
 * @module
 */
export * from "./commands.ts";
export { connect, type DaemonClient, type DaemonText } from "./client.ts";
export * from "./filters.ts";
export type { Io, Sink } from "../io.ts";
