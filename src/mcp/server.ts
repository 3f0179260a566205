/**
 * `mapper mcp`: the tools of {@linkcode TOOLS} and the corpus resources as a Model Context Protocol server over
 * stdio, built on the official SDK (`@modelcontextprotocol/sdk`, loaded only on this path). Stdout carries the
 * protocol and nothing else; the server's own log lines go to stderr.
 *
 * Lifecycle: the server answers at once; the first tool that needs the browser uses the running session of `--dir`
 * or starts one ({@linkcode SessionKeeper}). It stops when the client disconnects (stdin ends or the transport
 * closes) or on SIGINT/SIGTERM, and then stops the session it started (never one it found running).
 *
 * @module
 */
import { resolve } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { capture, type Io, withSinks } from "../io.ts";
import { describe, errorText, MapperError, ProblemsFound, SessionError } from "../errors.ts";
import { VERSION } from "../version.ts";
import type { Content, ToolContext, ToolSpec } from "./registry.ts";
import { RESOURCES } from "./resources.ts";
import { SessionKeeper, type SessionOptions } from "./session.ts";
import { TOOLS } from "./tools.ts";

/** Options of `mapper mcp`. */
export type McpOptions = SessionOptions;

/** What the server tells a client about itself on `initialize` (shown to the model by most clients). */
export const INSTRUCTIONS: string =
  "mapper gives you a map of the website in a managed Chromium session: views (URL routes), " +
  "named components with extracted properties, API requests and console messages, with memory notes from people " +
  "who mapped it. On each page: snapshot first (it names components and says when an overlay blocks the page), act " +
  "by component query (click, fill, hover, press_key, scroll), and after anything that navigates call wait_for " +
  "(view or component) before the next snapshot. Refused actions come back as errors naming the reason. " +
  "console_list / network_list show what the page logged and fetched (network_get for a body). Resources: " +
  "mapper://corpus (the whole map) and mapper://memory (notes for the open pages). match tells which view a URL " +
  "is; atlas_find / atlas_add find and install a published map. Messages may name CLI commands: the tool of the " +
  "same name does the same ('mapper browser dialog' is handle_dialog, 'mapper browser keypress' is press_key). " +
  "The first browser tool call starts the session when none runs; it stops with this server.";

/** The answer of a failed tool call: the same `message — hint` text the CLI prints after `mapper <command>: `. */
export function toolError(text: string): { isError: true; content: Content[] } {
  return { isError: true, content: [{ type: "text", text }] };
}

/** Builds the server with the tools (default: all) and every resource registered, not yet connected. */
export async function buildServer(
  opts: McpOptions,
  io: Io,
  keeper: SessionKeeper,
  tools: readonly ToolSpec[] = TOOLS,
): Promise<McpServer> {
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const server = new McpServer(
    { name: "mapper", title: "mapper", version: VERSION },
    { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} } },
  );
  const ctx: ToolContext = {
    io,
    dir: opts.dir,
    allowSchemes: opts.allowSchemes,
    async capture(fn) {
      const out = capture();
      const err = capture();
      const code = await fn(withSinks(io, out, err));
      const notes = err.text();
      const text = out.text() +
        (notes === "" ? "" : (out.text() === "" || out.text().endsWith("\n") ? "" : "\n") + notes);
      // A command that reported its own failure (its report is the text) and exited non-zero: a tool error.
      if (code !== 0) throw new ProblemsFound(text.trimEnd() || `exit code ${code}`);
      return text;
    },
    async confirm(message) {
      if (server.server.getClientCapabilities()?.elicitation === undefined) return undefined;
      try {
        const answer = await server.server.elicitInput({
          mode: "form",
          message,
          requestedSchema: {
            type: "object",
            properties: { confirm: { type: "boolean", title: "Confirm", description: message } },
            required: ["confirm"],
          },
        });
        return answer.action === "accept" && answer.content?.confirm === true;
      } catch (err: unknown) {
        // The client announced elicitation but could not ask (no UI, timeout): nothing happens without an answer.
        throw new SessionError(`the client could not ask the user to confirm: ${describe(err)}`, {
          hint: "call the tool again once the client can show the question",
        });
      }
    },
  };
  for (const tool of tools) registerTool(server, tool, ctx, keeper);
  for (const r of RESOURCES) {
    server.registerResource(r.name, r.uri, { title: r.title, description: r.description, mimeType: r.mimeType }, async (
      uri: URL,
    ) => ({ contents: [{ uri: uri.href, mimeType: r.mimeType, text: await r.read(opts.dir, io) }] }));
  }
  return server;
}

function registerTool(
  server: McpServer,
  tool: ToolSpec,
  ctx: ToolContext,
  keeper: SessionKeeper,
): void {
  const run = async (args: Record<string, unknown>) => {
    try {
      if (tool.browser) await keeper.ensure();
      return { content: await tool.call(args, ctx) };
    } catch (err: unknown) {
      if (err instanceof MapperError) return toolError(errorText(err));
      // Anything else is a bug: the agent gets one line, the server log keeps the stack.
      ctx.io.stderr.write(`[mcp] ${tool.name}: ${err instanceof Error ? err.stack : String(err)}\n`);
      return toolError(
        `${tool.name} failed unexpectedly: ${describe(err)} — this is a bug in mapper; see the server log`,
      );
    }
  };
  server.registerTool(tool.name, {
    title: tool.title,
    description: tool.description,
    inputSchema: tool.input,
    annotations: { title: tool.title, ...tool.annotations },
  }, run);
}

/** Longest wait for unanswered requests after standard input ended (the tools' own bounds are shorter). */
const DRAIN_MS = 90_000;

/** Runs `mapper mcp` until the client disconnects or the process is told to stop; returns the exit code. */
export async function runMcp(opts: McpOptions, io: Io): Promise<number> {
  const signal = io.signal; // read first: installs the SIGINT/SIGTERM listeners before anything can block
  const { assertOpenable, schemesOption } = await import("../browser/mod.ts");
  opts = { ...opts, allowSchemes: schemesOption(opts.allowSchemes) };
  assertOpenable(opts.url, opts.allowSchemes); // a refused --url fails here, not at the first tool call
  const { LineTransport } = await import("./_stdio.ts");
  await using keeper = new SessionKeeper(opts, io);
  const server = await buildServer(opts, io, keeper);
  const { promise: closed, resolve: close } = Promise.withResolvers<string>();
  const stopped = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  void stopped.then(() => close("stopped by a signal"));
  server.server.onclose = () => close("the client disconnected");
  server.server.onerror = (err: Error) => io.stderr.write(`[mcp] ${describe(err)}\n`);
  // Our own line reader (size cap, linear buffering) in front of the SDK's protocol layer.
  const transport = new LineTransport(Deno.stdin, Deno.stdout);
  await server.connect(transport);
  void transport.ended.then(async () => {
    // Every request read before the end is answered first; a signal cuts the wait short.
    await Promise.race([transport.drained(), stopped, new Promise((r) => setTimeout(r, DRAIN_MS))]);
    close("standard input ended");
  });
  io.stderr.write(`[mcp] mapper ${VERSION}: ${TOOLS.length} tools on stdio; corpus ${resolve(io.cwd, opts.dir)}\n`);
  const why = await closed;
  io.stderr.write(`[mcp] ${why}; shutting down\n`);
  await server.close().catch(() => {});
  return 0;
}
