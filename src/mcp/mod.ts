/**
 * `mapper mcp`: mapper's tools (console, network, atlas, and the page tools) and the corpus as a Model Context
 * Protocol server over stdio. The command table loads `server.ts` lazily; the registry and the tool list are
 * exported for tests and other front ends.
 *
 * @module
 */
export { buildServer, INSTRUCTIONS, type McpOptions, runMcp, toolError } from "./server.ts";
export { CORPUS_URI, corpusJson, MEMORY_URI, memoryText, RESOURCES, type ResourceSpec } from "./resources.ts";
export { type Annotations, type Content, defineTool, type ToolContext, type ToolSpec } from "./registry.ts";
export { SessionKeeper, type SessionOptions } from "./session.ts";
export { TOOLS } from "./tools.ts";
export type { Io, Sink } from "../io.ts";
