/**
 * The MCP server's stdio transport: one JSON-RPC message per line on standard input, answers on standard output,
 * under a size cap. It stands in for the SDK's `StdioServerTransport`, whose read buffer joins every chunk to all
 * the bytes before it (a 60 MB line took minutes, and stalled every request queued behind it) and whose cap closes
 * the whole connection. Here a line is collected as a list of chunks and joined once; a line over
 * {@linkcode MAX_MESSAGE_BYTES} is dropped as it streams (only its first and last few hundred bytes are kept, to
 * find its id) and answered at once with a JSON-RPC error, and the next line is read as if nothing happened.
 * Messages are decoded and checked with the SDK's own functions.
 *
 * @module
 */
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Largest JSON-RPC message read (4 MiB): far above any tool call, far below what would strain the server. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** JSON-RPC "Invalid Request": what an oversized message is answered with. */
export const TOO_LARGE_CODE = -32600;

/** Bytes kept of each end of an oversized line, to find its `id`. */
const EDGE = 512;

/** What one input line became: its bytes, or the fact that it was too large (its size and its two ends). */
export type LineEvent =
  | { kind: "line"; bytes: Uint8Array }
  | { kind: "too-large"; size: number; head: Uint8Array; tail: Uint8Array };

/**
 * Splits a byte stream into `\n`-terminated lines in linear time: the pieces of an unfinished line are kept in a
 * list and joined once, when its end arrives. A line longer than `max` is not kept at all, only counted (with its
 * first and last {@linkcode EDGE} bytes).
 */
export class LineSplitter {
  readonly #max: number;
  #parts: Uint8Array[] = [];
  #size = 0;
  /** Set while dropping an oversized line: its first bytes and a window of its last ones. */
  #over: { head: Uint8Array; tail: Uint8Array } | undefined;

  /** A splitter dropping lines longer than `max` bytes. */
  constructor(max: number = MAX_MESSAGE_BYTES) {
    this.#max = max;
  }

  /** Feeds a chunk; returns the lines it completed, in order. */
  push(chunk: Uint8Array): LineEvent[] {
    const out: LineEvent[] = [];
    let pos = 0;
    while (pos <= chunk.length) {
      const nl = chunk.indexOf(10, pos);
      const piece = chunk.subarray(pos, nl === -1 ? chunk.length : nl);
      this.#add(piece, nl !== -1);
      if (nl === -1) break;
      out.push(this.#finish());
      pos = nl + 1;
    }
    return out;
  }

  #add(piece: Uint8Array, final: boolean): void {
    if (piece.length === 0) return;
    this.#size += piece.length;
    if (this.#over === undefined && this.#size <= this.#max) {
      // The reader reuses its buffer: keep a copy of what outlives this call.
      this.#parts.push(final ? piece : piece.slice());
      return;
    }
    if (this.#over === undefined) {
      const head = concat([...this.#parts, piece]).slice(0, EDGE);
      this.#parts = [];
      this.#over = { head, tail: new Uint8Array(0) };
    }
    const joined = concat([this.#over.tail, piece.subarray(Math.max(0, piece.length - EDGE))]);
    this.#over.tail = joined.slice(Math.max(0, joined.length - EDGE));
  }

  #finish(): LineEvent {
    const size = this.#size;
    const over = this.#over;
    const parts = this.#parts;
    this.#parts = [];
    this.#size = 0;
    this.#over = undefined;
    if (over !== undefined) return { kind: "too-large", size, ...over };
    return { kind: "line", bytes: parts.length === 1 ? parts[0]! : concat(parts) };
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const ID = String.raw`(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")`;
/** `{"id": …` or `{"jsonrpc": "2.0", "id": …` at the start of a message. */
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + ID);
/** `, "id": …}` closing a message: the last member of the outermost object (a nested one ends in more braces). */
const TAIL_ID = new RegExp(String.raw`[,{]\s*"id"\s*:\s*` + ID + String.raw`\s*\}\s*$`);

/**
 * The `id` of a message from the two ends of its text (where JSON-RPC clients write it: first, or last as the SDK
 * does), or `null` when neither says (JSON-RPC answers an unreadable request with id `null`).
 */
export function idOf(head: Uint8Array, tail: Uint8Array): string | number | null {
  const decoder = new TextDecoder();
  const match = HEAD_ID.exec(decoder.decode(head)) ?? TAIL_ID.exec(decoder.decode(tail).replace(/\r$/, ""));
  if (!match) return null;
  try {
    const id: unknown = JSON.parse(match[1]!);
    return typeof id === "string" || typeof id === "number" ? id : null;
  } catch {
    return null;
  }
}

/** Where the transport reads (standard input): into the caller's buffer, `null` at the end. */
export interface ByteReader {
  read(buffer: Uint8Array): Promise<number | null>;
}

/** Where the transport writes (standard output): some bytes of the buffer, their count returned. */
export interface ByteWriter {
  write(bytes: Uint8Array): Promise<number>;
}

/**
 * Bytes asked for per read. Reading into one reused buffer, not through a `ReadableStream` (a fresh chunk per
 * read): a 60 MB line streamed through in ~0.15 s here instead of ~0.8 s.
 */
const READ_BYTES = 1 << 20;

/** A JSON-RPC transport over a byte stream in and a writer out, one message per line, with the size cap. */
export class LineTransport implements Transport {
  /** Called by the SDK's protocol layer. */
  onclose?: () => void;
  /** Called for a line that is not a JSON-RPC message, and for read errors. */
  onerror?: (error: Error) => void;
  /** Called for every message read. */
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  readonly #input: ByteReader;
  readonly #output: ByteWriter;
  readonly #splitter: LineSplitter;
  readonly #max: number;
  #writing: Promise<void> = Promise.resolve();
  #closed = false;
  readonly #ended = Promise.withResolvers<void>();
  /** Ids of the requests read and not answered yet (counted here, where they pass: no message is missed). */
  readonly #open = new Set<string | number>();
  #wake: (() => void) | undefined;

  /** A transport reading `input` and writing `output`; lines over `max` bytes are refused. */
  constructor(input: ByteReader, output: ByteWriter, max: number = MAX_MESSAGE_BYTES) {
    this.#input = input;
    this.#output = output;
    this.#max = max;
    this.#splitter = new LineSplitter(max);
  }

  /** Resolves when the input ended (the client closed its end), after every line before it was handed on. */
  get ended(): Promise<void> {
    return this.#ended.promise;
  }

  /**
   * Resolves once every request read so far has been answered: a client may write its last requests and close its
   * end at once, and those still get answers.
   */
  drained(): Promise<void> {
    if (this.#open.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => (this.#wake = resolve));
  }

  /** Starts reading (the SDK calls it on `connect`). */
  start(): Promise<void> {
    void this.#read();
    return Promise.resolve();
  }

  async #read(): Promise<void> {
    const buffer = new Uint8Array(READ_BYTES);
    try {
      while (!this.#closed) {
        const n = await this.#input.read(buffer);
        if (n === null) break;
        // Every line the chunk completes is handled before the buffer is read into again.
        for (const event of this.#splitter.push(buffer.subarray(0, n))) this.#handle(event);
      }
    } catch (err: unknown) {
      if (!this.#closed) this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    } finally {
      this.#ended.resolve();
    }
  }

  #handle(event: LineEvent): void {
    if (this.#closed) return;
    if (event.kind === "too-large") {
      const id = idOf(event.head, event.tail);
      const mib = this.#max % (1 << 20) === 0 ? ` (${this.#max / (1 << 20)} MiB)` : "";
      const message = `request too large: ${event.size} bytes; the limit is ${this.#max} bytes${mib}`;
      this.onerror?.(new Error(`refused a ${event.size}-byte message (id ${JSON.stringify(id)})`));
      void this.#write(JSON.stringify({ jsonrpc: "2.0", id, error: { code: TOO_LARGE_CODE, message } }) + "\n");
      return;
    }
    const text = new TextDecoder().decode(event.bytes).replace(/\r$/, "");
    if (text.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(text);
    } catch (err: unknown) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if ("method" in message && "id" in message) this.#open.add(message.id);
    this.onmessage?.(message);
  }

  /** Writes `text` after everything written before it. */
  #write(text: string): Promise<void> {
    const bytes = new TextEncoder().encode(text);
    this.#writing = this.#writing.then(async () => {
      let rest = bytes;
      while (rest.length > 0) rest = rest.subarray(await this.#output.write(rest));
    });
    return this.#writing;
  }

  /** Sends one message. */
  async send(message: JSONRPCMessage): Promise<void> {
    await this.#write(serializeMessage(message));
    if (!("method" in message) && "id" in message && this.#open.delete(message.id) && this.#open.size === 0) {
      this.#wake?.();
    }
  }

  /** Stops handing on what is read (a read under way ends with the process) and tells the protocol layer. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#writing.catch(() => {});
    this.onclose?.();
  }
}
