/**
 * The `mapper console` and `mapper network` commands: find the running session, ask its daemon, format the
 * answer (text layouts of the service description §4.3, or `--json`). The command table loads `commands.ts`
 * lazily; the formatters are exported for tests and other front ends.
 *
 * @module
 */
export * from "./commands.ts";
export * from "./format.ts";
export { connect, type DaemonClient } from "./client.ts";
export * from "./filters.ts";
export type { Io, Sink } from "../io.ts";
