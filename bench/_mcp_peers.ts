/**
 * MCP servers driven from the benches with the SDK's own client over stdio, and how the peers mapper is compared
 * with are installed and started. Peers live in `$MAPPER_MCP_PEERS` (default `/tmp/mcp-peers`), installed for the
 * benches only, never a test dependency:
 *
 *   mkdir -p /tmp/mcp-peers && cd /tmp/mcp-peers && npm install chrome-devtools-mcp@1.11.0 @playwright/mcp
 *
 * @module
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/** Calls a tool and answers its text blocks joined; a tool error throws with the start of its text. */
export type Call = (name: string, args?: Record<string, unknown>) => Promise<string>;

/** A connected server. */
export interface Connected {
  client: Client;
  /** The tool names it lists. */
  tools: string[];
  call: Call;
  pid: number;
}

/** Where the peers are installed. */
export const PEERS: string = Deno.env.get("MAPPER_MCP_PEERS") ?? "/tmp/mcp-peers";

/** chrome-devtools-mcp's entry script under `node_modules`. */
export const DEVTOOLS_ENTRY = "chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js";

/** chrome-devtools-mcp's flags: its own headless browser on `browser`, a fresh profile, no sandbox (root). */
export function devtoolsArgs(browser: string): string[] {
  return ["--headless", "--isolated", "--executablePath", browser, "--chromeArg=--no-sandbox"];
}

/** The id of the page chrome-devtools-mcp lists as selected (what `new_page` opened), for its `pageId` argument. */
export function selectedPageId(listing: string): number | undefined {
  const id = /^(\d+): .*\[selected\]$/m.exec(listing)?.[1];
  return id === undefined ? undefined : Number(id);
}

/** Connects a client to a stdio server; returns a text-returning caller and the tool names. */
export async function connect(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Connected> {
  const transport = new StdioClientTransport({ command, args, cwd, env, stderr: "ignore" });
  const client = new Client({ name: "mapper-bench", version: "1" });
  await client.connect(transport);
  const tools = ((await client.listTools()) as { tools: Tool[] }).tools.map((t) => t.name);
  const call: Call = async (name, a = {}) => {
    const r = (await client.callTool({ name, arguments: a }, undefined, { timeout: 120_000 })) as {
      isError?: boolean;
      content: Array<{ type: string; text?: string }>;
    };
    const text = r.content.map((c) => c.text ?? "").join("\n");
    if (r.isError) throw new Error(`${name} failed: ${text.slice(0, 300)}`);
    return text;
  };
  return { client, tools, call, pid: transport.pid! };
}

/** The path of a peer's entry script when it is installed in {@linkcode PEERS}, else undefined. */
export async function peerEntry(entry: string): Promise<string | undefined> {
  const file = join(PEERS, "node_modules", entry);
  return (await Deno.stat(file).then((s) => s.isFile, () => false)) ? file : undefined;
}
