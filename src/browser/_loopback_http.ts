/**
 * The one HTTP/1.1 client of the session daemon: one request per connection to `127.0.0.1:<port>`, answered as a
 * {@linkcode LoopbackResponse}.
 *
 * Why not `fetch`: the first `fetch` of a process sets up Deno's HTTP client (connection pool, TLS roots, proxies),
 * 10–15 ms here, which is most of what `mapper console list` waited for; a plain socket exchange with the daemon
 * takes about 1 ms. Why not a standard `Response` either: `Headers`, `Response` and web streams are loaded by Deno on
 * first use, another 5–8 ms of a short command. The daemon is always on the loopback, speaks HTTP/1.1 and answers
 * JSON documents, so this client does only that:
 *
 * - it connects to 127.0.0.1 only (the caller gives a port, never a host) and sends `Connection: close`;
 * - it never follows a redirect: a 30x is returned as it came, like `fetch` with `redirect: "manual"`;
 * - the status line and headers together are capped at {@linkcode MAX_HEAD_BYTES} (an endless header section fails,
 *   it does not grow memory), interim `1xx` answers count towards that cap and are skipped;
 * - the body is read by `Content-Length` (a connection that closes early is an error, never a short body), by
 *   `Transfer-Encoding: chunked` (strictly: a malformed size or a missing CRLF is an error) or until the server closes;
 *   both framings at once, or any other transfer coding, are refused;
 * - the `signal` aborts connecting, sending, the head and the body alike: the socket is closed and the promise or
 *   the body read fails with the signal's reason, as `fetch` does. Without a signal there is no timeout.
 *
 * The body is read when asked for, whole, under a cap the caller may give (the handshake does); the connection closes
 * once it is read, fails or is cancelled.
 *
 * @module
 */
import { concatBytes, readAllCapped } from "../bytes.ts";

/** Largest status line plus header section (and chunked trailer section) accepted. */
export const MAX_HEAD_BYTES = 64 * 1024;
/** Largest chunk-size line (size plus extensions) accepted in a chunked body. */
const MAX_CHUNK_LINE_BYTES = 4096;
/** Bytes asked of the socket per read. */
const READ_BYTES = 64 * 1024;

/** What a request to the daemon may carry. */
export interface LoopbackInit {
  /** HTTP method (default `GET`). */
  method?: string;
  /** Request headers; `Host`, `Connection`, `Content-Length` and `Transfer-Encoding` are the client's own. */
  headers?: Readonly<Record<string, string>>;
  /** Request body (a string is sent as UTF-8). */
  body?: string | Uint8Array | null;
  /** Aborts the exchange, body included. */
  signal?: AbortSignal | null;
}

/** An answer of the daemon. */
export interface LoopbackResponse {
  /** The status code, 200–599 (interim 1xx answers are skipped). */
  readonly status: number;
  /** The reason phrase as sent. */
  readonly statusText: string;
  /** Whether the status is 2xx. */
  readonly ok: boolean;
  /** A header's value (any case; repeated fields joined by `", "`), or `null`. */
  header(name: string): string | null;
  /** The whole body; over `maxBytes` (default: no cap) it fails and the connection closes. Read once. */
  bytes(maxBytes?: number): Promise<Uint8Array>;
  /** The whole body as UTF-8 text. */
  text(): Promise<string>;
  /** The whole body parsed as JSON. */
  json(): Promise<unknown>;
  /** Drops the body and closes the connection. */
  cancel(): Promise<void>;
}

/** An answer that is not HTTP/1.1 as the client reads it. */
class MalformedResponse extends TypeError {
  constructor(what: string) {
    super(`malformed HTTP response: ${what}`);
  }
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The request target: a path with an optional query, visible ASCII only (no space, CR, LF, NUL). */
const TARGET = /^\/[\x21-\x7e]*$/;
/** A header value as sent: no CR, LF or NUL (they would end or split the field). */
const FIELD_VALUE = /^[^\r\n\0]*$/;
/** Header names the client writes itself. */
const OWN_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding"]);
/** Final statuses whose answer has no body. */
const NULL_BODY = new Set([204, 205, 304]);

/**
 * Sends one request to `http://127.0.0.1:<port><path>` and resolves with the answer once its head has arrived. The
 * connection closes when the body has been read, fails or is cancelled, or when `signal` aborts.
 */
export async function loopbackFetch(port: number, path: string, init: LoopbackInit = {}): Promise<LoopbackResponse> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new TypeError(`invalid port ${port}`);
  if (!TARGET.test(path)) throw new TypeError(`invalid request path ${JSON.stringify(path)}`);
  const method = init.method ?? "GET";
  if (!TOKEN.test(method)) throw new TypeError(`invalid method ${JSON.stringify(method)}`);
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();

  const body = typeof init.body === "string" ? new TextEncoder().encode(init.body) : init.body ?? undefined;
  let head = `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n`;
  if (body !== undefined || !["GET", "HEAD"].includes(method)) head += `Content-Length: ${body?.byteLength ?? 0}\r\n`;
  for (const [name, value] of Object.entries(init.headers ?? {})) {
    if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) throw new TypeError(`invalid header ${JSON.stringify(name)}`);
    if (!OWN_HEADERS.has(name.toLowerCase())) head += `${name}: ${value}\r\n`;
  }
  head += "\r\n";

  const connecting = Deno.connect({ hostname: "127.0.0.1", port });
  const conn = await untilAborted(connecting, signal).catch((err: unknown) => {
    // Aborted while connecting: the socket, if it ever opens, is closed at once.
    connecting.then((c) => c.close(), () => {});
    throw err;
  });
  const socket = new Socket(conn, signal);
  try {
    await socket.write(new TextEncoder().encode(head));
    if (body !== undefined && body.byteLength > 0) await socket.write(body);
    // Interim answers (1xx) are skipped; they spend the same header budget, so endless ones fail too.
    const budget = { left: MAX_HEAD_BYTES };
    let answer = await readHead(socket, budget);
    while (answer.status < 200 && answer.status !== 101) answer = await readHead(socket, budget);
    if (answer.status === 101) throw new MalformedResponse("101 Switching Protocols to a request that asked for none");
    if (method === "HEAD" || NULL_BODY.has(answer.status)) {
      socket.close();
      return respond(socket, answer, { kind: "length", length: 0 });
    }
    return respond(socket, answer, framing(answer.headers));
  } catch (err: unknown) {
    socket.close();
    throw socket.reason(err);
  }
}

/** The parsed status line and headers (names in lower case). */
interface Head {
  status: number;
  statusText: string;
  headers: Map<string, string>;
}

/** The answer; its body, framed by `frame`, is read from `socket` on the first read. */
function respond(socket: Socket, head: Head, frame: Framing): LoopbackResponse {
  let taken = false;
  const take = (): AsyncIterable<Uint8Array> => {
    if (taken) throw new TypeError("the body was read already");
    taken = true;
    return bodyChunks(socket, frame);
  };
  const bytes = async (maxBytes = Infinity) =>
    await readAllCapped(take(), maxBytes, () => new RangeError(`the answer is larger than ${maxBytes} bytes`));
  const text = async () => new TextDecoder().decode(await bytes());
  return {
    status: head.status,
    statusText: head.statusText,
    ok: head.status >= 200 && head.status < 300,
    header: (name) => head.headers.get(name.toLowerCase()) ?? null,
    bytes,
    text,
    json: async () => JSON.parse(await text()),
    cancel: () => {
      taken = true;
      socket.close();
      return Promise.resolve();
    },
  };
}

/** Resolves as `promise` does, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A connection read through a buffer, closed once, and closed at once when `signal` aborts. */
class Socket {
  #conn: Deno.Conn;
  #signal: AbortSignal | undefined;
  #closed = false;
  #onAbort = () => this.close();
  /** Bytes read and not consumed yet. */
  pending: Uint8Array = new Uint8Array(0);
  /** Whether the server closed its side. */
  ended = false;

  constructor(conn: Deno.Conn, signal: AbortSignal | undefined) {
    this.#conn = conn;
    this.#signal = signal;
    signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** The error to report for `err`: the signal's reason when it aborted, else `err`. */
  reason(err: unknown): unknown {
    return this.#signal?.aborted ? this.#signal.reason : err;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#signal?.removeEventListener("abort", this.#onAbort);
    try {
      this.#conn.close();
    } catch {
      // already closed by the runtime
    }
  }

  async write(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.byteLength;) at += await this.#conn.write(bytes.subarray(at));
  }

  /** Reads more bytes onto `pending`; false once the server closed (or the socket was closed). */
  async fill(): Promise<boolean> {
    if (this.ended) return false;
    if (this.#closed) throw this.reason(new Deno.errors.BadResource("the connection is closed"));
    const buf = new Uint8Array(READ_BYTES);
    const n = await this.#conn.read(buf);
    if (this.#signal?.aborted) throw this.#signal.reason;
    if (n === null) {
      this.ended = true;
      return false;
    }
    this.pending = this.pending.byteLength === 0 ? buf.subarray(0, n) : concatBytes([this.pending, buf.subarray(0, n)]);
    return true;
  }

  /**
   * The next CRLF-terminated line (without the CRLF). `tooLong` is the error when it would exceed `max` bytes, `early`
   * the one when the server closes first.
   */
  async line(max: number, tooLong: string, early: string): Promise<string> {
    for (let from = 0;;) {
      const at = indexOfCrlf(this.pending, from);
      if (at > max || (at < 0 && this.pending.byteLength > max + 1)) {
        throw new MalformedResponse(tooLong);
      }
      if (at >= 0) {
        const line = latin1(this.pending.subarray(0, at));
        this.pending = this.pending.subarray(at + 2);
        return line;
      }
      from = Math.max(0, this.pending.byteLength - 1);
      if (!(await this.fill())) throw new MalformedResponse(early);
    }
  }

  /** Up to `max` bytes (at least one), or `null` once the server closed. */
  async some(max: number): Promise<Uint8Array | null> {
    if (this.pending.byteLength === 0 && !(await this.fill())) return null;
    const out = this.pending.subarray(0, max);
    this.pending = this.pending.subarray(out.byteLength);
    return out;
  }
}

function indexOfCrlf(bytes: Uint8Array, from: number): number {
  for (let i = bytes.indexOf(13, from); i >= 0 && i + 1 < bytes.byteLength; i = bytes.indexOf(13, i + 1)) {
    if (bytes[i + 1] === 10) return i;
  }
  return -1;
}

function latin1(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.byteLength; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

/** Reads a status line and a header section, spending `budget.left` bytes. */
async function readHead(socket: Socket, budget: { left: number }): Promise<Head> {
  const early = "the connection closed before the header section ended";
  const statusLine = await budgetedLine(socket, budget, "header section", early);
  const m = /^HTTP\/1\.[01] ([1-5]\d\d)(?: (.*))?$/.exec(statusLine);
  if (!m) throw new MalformedResponse(`status line ${JSON.stringify(statusLine.slice(0, 80))}`);
  const headers = await readFields(() => budgetedLine(socket, budget, "header section", early));
  return { status: Number(m[1]), statusText: m[2] ?? "", headers };
}

/** One line of a header or trailer section, whose lines (CRLF included) may total `budget.left` bytes. */
async function budgetedLine(socket: Socket, budget: { left: number }, section: string, early: string) {
  const tooLong = `a ${section} over ${MAX_HEAD_BYTES} bytes`;
  const line = await socket.line(budget.left, tooLong, early);
  budget.left -= line.length + 2;
  if (budget.left < 0) throw new MalformedResponse(tooLong);
  return line;
}

/** Header (or trailer) fields up to the empty line. */
async function readFields(next: () => Promise<string>): Promise<Map<string, string>> {
  const headers = new Map<string, string>();
  for (let line = await next(); line !== ""; line = await next()) {
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon) : "";
    // No obsolete line folding, no space before the colon: both are how responses get read two ways.
    if (!TOKEN.test(name)) throw new MalformedResponse(`header line ${JSON.stringify(line.slice(0, 80))}`);
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, "");
    if (!FIELD_VALUE.test(value)) throw new MalformedResponse(`a bad value in header ${JSON.stringify(name)}`);
    const key = name.toLowerCase();
    const before = headers.get(key);
    headers.set(key, before === undefined ? value : `${before}, ${value}`);
  }
  return headers;
}

/** How the body ends: after a length, after the last chunk, or when the server closes. */
type Framing = { kind: "length"; length: number } | { kind: "chunked" } | { kind: "close" };

function framing(headers: Map<string, string>): Framing {
  const te = headers.get("transfer-encoding");
  const cl = headers.get("content-length");
  if (te !== undefined) {
    if (cl !== undefined) throw new MalformedResponse("both Transfer-Encoding and Content-Length");
    if (te.trim().toLowerCase() !== "chunked") throw new MalformedResponse(`Transfer-Encoding ${JSON.stringify(te)}`);
    return { kind: "chunked" };
  }
  if (cl === undefined) return { kind: "close" };
  // Repeated fields arrive joined by ", "; they must all agree.
  const values = new Set(cl.split(",").map((v) => v.trim()));
  const [only] = values;
  if (values.size !== 1 || !/^\d{1,15}$/.test(only!)) {
    throw new MalformedResponse(`Content-Length ${JSON.stringify(cl.slice(0, 80))}`);
  }
  return { kind: "length", length: Number(only) };
}

/**
 * The body's chunks, read from the socket as they are asked for. However the reading ends (all read, an error, the
 * reader leaving early), the connection closes; an abort is reported as the signal's reason.
 */
async function* bodyChunks(socket: Socket, frame: Framing): AsyncGenerator<Uint8Array> {
  try {
    if (frame.kind === "length") yield* lengthBody(socket, frame.length);
    else if (frame.kind === "chunked") yield* chunkedBody(socket);
    else yield* closeBody(socket);
  } catch (err: unknown) {
    throw socket.reason(err);
  } finally {
    socket.close();
  }
}

async function* lengthBody(socket: Socket, length: number): AsyncGenerator<Uint8Array> {
  for (let left = length; left > 0;) {
    const chunk = await socket.some(left);
    if (chunk === null) throw new MalformedResponse(`the body ended after ${length - left} of ${length} bytes`);
    left -= chunk.byteLength;
    yield chunk;
  }
}

async function* closeBody(socket: Socket): AsyncGenerator<Uint8Array> {
  for (let chunk = await socket.some(READ_BYTES); chunk !== null; chunk = await socket.some(READ_BYTES)) yield chunk;
}

async function* chunkedBody(socket: Socket): AsyncGenerator<Uint8Array> {
  const early = "the connection closed inside a chunked body";
  for (;;) {
    const sizeLine = await socket.line(
      MAX_CHUNK_LINE_BYTES,
      `a chunk size line over ${MAX_CHUNK_LINE_BYTES} bytes`,
      early,
    );
    const m = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/.exec(sizeLine);
    if (!m) throw new MalformedResponse(`chunk size ${JSON.stringify(sizeLine.slice(0, 80))}`);
    const size = parseInt(m[1]!, 16);
    if (size === 0) break;
    for (let left = size; left > 0;) {
      const chunk = await socket.some(left);
      if (chunk === null) throw new MalformedResponse(early);
      left -= chunk.byteLength;
      yield chunk;
    }
    await socket.line(0, "a chunk longer than its size", early);
  }
  // Trailer fields are read (under the same cap as a header section) and dropped.
  const budget = { left: MAX_HEAD_BYTES };
  await readFields(() => budgetedLine(socket, budget, "trailer section", early));
}
