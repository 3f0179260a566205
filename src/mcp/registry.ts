/**
 * The MCP tool registry: what one tool declares (name, description, input schema, annotations) and the context its
 * adapter receives. A tool is a THIN adapter: it runs its CLI command's action on the MCP arguments (`cliTool` in
 * `from_cli.ts`: flags → the command's options → its `run(opts, io)`) with captured output, and returns what it
 * printed. There is no second implementation of anything here.
 *
 * @module
 */
import type { z } from "zod";
import type { Io } from "../io.ts";

/** Tool annotations (MCP `ToolAnnotations`), all four always set, so a client never has to guess a default. */
export interface Annotations {
  /** The tool changes nothing (neither the page, the browser session's state an agent relies on, nor any file). */
  readonly readOnlyHint: boolean;
  /** The tool may destroy or overwrite something (only meaningful when not read-only). */
  readonly destructiveHint: boolean;
  /** Calling it again with the same arguments has no further effect. */
  readonly idempotentHint: boolean;
  /** The tool reaches entities outside this machine (web pages, the atlas catalog). */
  readonly openWorldHint: boolean;
}

/** One block of a tool's answer: text, or an image (base64). */
export type Content =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

/** What the server gives every adapter. */
export interface ToolContext {
  /** The server's I/O (its stderr is the server log; its stdout is the protocol and must never be written). */
  readonly io: Io;
  /** The corpus directory (`--dir`), as given. */
  readonly dir: string;
  /** Schemes besides http(s) the user let the tools open (`mapper mcp --allow-scheme`). */
  readonly allowSchemes: readonly string[];
  /**
   * Runs a command's module function with its stdout and stderr captured; returns what it printed as one text
   * (stdout, then any stderr notes). Typed errors propagate and become tool errors.
   */
  capture(fn: (io: Io) => Promise<number>): Promise<string>;
  /**
   * Asks the user (through the client's elicitation) to confirm `message`: `true` accepted, `false` declined or
   * cancelled, `undefined` when the client cannot ask.
   */
  confirm(message: string): Promise<boolean | undefined>;
}

/** A tool as registered: its declaration and a type-erased adapter. */
export interface ToolSpec {
  /** Tool name. */
  readonly name: string;
  /** Human-readable title. */
  readonly title: string;
  /** What it does, when to use it and what it returns, written for an agent. */
  readonly description: string;
  /** Zod shape of the arguments; every field carries a `.describe()` an agent can act on. */
  readonly input: z.ZodRawShape;
  /** MCP tool annotations. */
  readonly annotations: Annotations;
  /** Whether the tool needs the browser session (the server makes sure one runs before the call). */
  readonly browser: boolean;
  /** Runs the adapter on validated arguments. */
  call(args: Record<string, unknown>, ctx: ToolContext): Promise<Content[]>;
}

/** Declares a tool with typed arguments; the adapter returns plain text or content blocks. */
export function defineTool<S extends z.ZodRawShape>(spec: {
  name: string;
  title: string;
  description: string;
  input: S;
  annotations: Annotations;
  browser: boolean;
  call(args: z.output<z.ZodObject<S>>, ctx: ToolContext): Promise<string | Content[]>;
}): ToolSpec {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    annotations: spec.annotations,
    browser: spec.browser,
    async call(args, ctx) {
      const out = await spec.call(args as z.output<z.ZodObject<S>>, ctx);
      return typeof out === "string" ? [{ type: "text", text: out }] : out;
    },
  };
}

/** Annotations of a tool that only reads (local state, no outside world). */
export const READ_LOCAL: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
