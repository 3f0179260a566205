/**
 * Drives `mapper mcp` as an MCP client does: a subprocess on `main.ts` (the test environment of `runMapper`) spoken
 * to with the SDK's own `Client` + `StdioClientTransport`.
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { baseEnv, mapperCommand } from "./_helpers.ts";

/** One block of a tool answer. */
export type Block = { type: string; text?: string; data?: string; mimeType?: string };
/** A tool answer: `isError`, the text blocks joined, and every block. */
export interface Answer {
  isError: boolean;
  text: string;
  content: Block[];
}

/** A running `mapper mcp` with a connected client. */
export interface Mcp extends AsyncDisposable {
  readonly client: Client;
  readonly pid: number;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** The messages the server asked the user to confirm (with `elicit`), in order. */
  readonly asked: string[];
  /** Calls a tool. */
  call(name: string, args?: Record<string, unknown>): Promise<Answer>;
}

/** Starts `mapper mcp ARGS` in `cwd` with HOME `home`; `elicit` makes the client answer confirmations so. */
export async function startMcp(
  args: string[],
  opts: { cwd: string; home: string; elicit?: "accept" | "decline" },
): Promise<Mcp> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: mapperCommand(["mcp", ...args]),
    cwd: opts.cwd,
    env: { ...baseEnv(opts.home), TMPDIR: opts.home },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (err += new TextDecoder().decode(chunk)));
  const client = new Client(
    { name: "mapper-test", version: "1" },
    opts.elicit ? { capabilities: { elicitation: {} } } : {},
  );
  const asked: string[] = [];
  if (opts.elicit) {
    const action = opts.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request: { params: { message: string } }) => {
      asked.push(request.params.message);
      return Promise.resolve(action === "accept" ? { action, content: { confirm: true } } : { action });
    });
  }
  await client.connect(transport);
  return {
    client,
    pid: transport.pid!,
    stderr: () => err,
    asked,
    async call(name, a = {}) {
      const r = (await client.callTool({ name, arguments: a })) as { isError?: boolean; content: Block[] };
      const text = r.content.filter((c) => c.type === "text").map((c) => c.text ?? "").join("\n");
      return { isError: r.isError === true, text, content: r.content };
    },
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}
