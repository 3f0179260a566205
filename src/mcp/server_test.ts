import assert from "node:assert/strict";
import { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { NotFoundError } from "../errors.ts";
import { testIo } from "../io.ts";
import { defineTool, READ_LOCAL, type ToolSpec } from "./registry.ts";
import { buildServer } from "./server.ts";
import { SessionKeeper } from "./session.ts";

/** A server with `tools` connected in memory to a client (with or without elicitation). */
async function connected(tools: ToolSpec[], elicit = false) {
  const io = testIo();
  const opts = { dir: ".mapper", headless: true, port: 0, allowSchemes: [] };
  const server = await buildServer(opts, io, new SessionKeeper(opts, io), tools);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "unit", version: "1" }, elicit ? { capabilities: { elicitation: {} } } : {});
  await Promise.all([server.connect(a), client.connect(b)]);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text?: string }> };
  return {
    io,
    client,
    call,
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.close();
    },
  };
}

const tool = (name: string, fn: () => Promise<string>) =>
  defineTool({
    name,
    title: name,
    description: "a test tool",
    input: { n: z.number().optional().describe("a number") },
    annotations: READ_LOCAL,
    browser: false,
    call: fn,
  });

Deno.test("mcp server - a typed error is a tool error with the CLI's 'message — hint' text", async () => {
  await using s = await connected([
    tool("gone", () => Promise.reject(new NotFoundError('no entry "x"', { hint: "run 'mapper atlas find'" }))),
  ]);
  const r = await s.call("gone");
  assert.equal(r.isError, true);
  assert.equal(r.content[0]?.text, `no entry "x" — run 'mapper atlas find'`);
  assert.equal(s.io.stderr.text(), "", "an expected error is not logged as a bug");
});

Deno.test("mcp server - any other error is a bug: one line for the agent, the stack in the server log", async () => {
  await using s = await connected([tool("boom", () => Promise.reject(new TypeError("x is not a function")))]);
  const r = await s.call("boom");
  assert.equal(r.isError, true);
  assert.equal(
    r.content[0]?.text,
    "boom failed unexpectedly: x is not a function — this is a bug in mapper; see the server log",
  );
  assert.match(s.io.stderr.text(), /^\[mcp\] boom: TypeError: x is not a function\n {4}at /);
});

Deno.test("mcp server - confirmation asks the client only when it supports elicitation", async () => {
  const asking = (name: string, seen: Array<boolean | undefined>) =>
    defineTool({
      name,
      title: name,
      description: "asks",
      input: {},
      annotations: READ_LOCAL,
      browser: false,
      async call(_a, ctx) {
        seen.push(await ctx.confirm("go?"));
        return "ok";
      },
    });
  const seen: Array<boolean | undefined> = [];
  {
    await using plain = await connected([asking("ask", seen)]);
    await plain.call("ask");
  }
  {
    await using eliciting = await connected([asking("ask", seen)], true);
    const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    const messages: string[] = [];
    eliciting.client.setRequestHandler(ElicitRequestSchema, (req: { params: { message: string } }) => {
      messages.push(req.params.message);
      return Promise.resolve({ action: "accept" as const, content: { confirm: true } });
    });
    await eliciting.call("ask");
    eliciting.client.setRequestHandler(ElicitRequestSchema, () => Promise.resolve({ action: "cancel" as const }));
    await eliciting.call("ask");
    assert.deepEqual(messages, ["go?"]);
    eliciting.client.setRequestHandler(ElicitRequestSchema, () => Promise.reject(new Error("no UI")));
    const failed = await eliciting.call("ask");
    assert.equal(failed.isError, true);
    assert.match(
      failed.content[0]?.text ?? "",
      /^the client could not ask the user to confirm: .*no UI.* — call the tool/,
    );
  }
  assert.deepEqual(seen, [undefined, true, false]);
});
