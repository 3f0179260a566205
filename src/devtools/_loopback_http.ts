/**
 * A minimal HTTP/1.1 GET to the session daemon on 127.0.0.1, for `console` and `network`.
 *
 * Why not `fetch`: Deno loads its fetch stack (streams, WebIDL, Request/Response) on first use, about 15 ms of CPU on
 * every `mapper console list` — half of what the whole command may take. The daemon is our own server on loopback,
 * so the client needs little: one request with `Connection: close`, the answer read to the end (bounded), a
 * `Content-Length` or chunked body. Anything else the server sends is an error, never a crash.
 *
 * @module
 */

/** The part of a `Response` the devtools client reads. */
export interface LoopbackResponse {
  readonly status: number;
  readonly statusText: string;
  /** Status 200–299. */
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** Options of {@linkcode loopbackGet}. */
export interface LoopbackOptions {
  /** Give up (and close the connection) after this long. */
  timeoutMs: number;
  /** Largest answer accepted, headers included (default 256 MiB: bodies are capped at 50 MB by the collector). */
  maxBytes?: number;
}

const CRLF2 = new Uint8Array([13, 10, 13, 10]);

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Decodes a chunked body; throws on a malformed one. */
function unchunk(data: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  let total = 0;
  const latin1 = new TextDecoder("latin1");
  for (;;) {
    const lineEnd = indexOf(data, CRLF2.subarray(0, 2), at);
    if (lineEnd < 0) throw new Error("truncated chunked body");
    const sizeText = latin1.decode(data.subarray(at, lineEnd)).split(";")[0]!.trim();
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) throw new Error("malformed chunk size");
    const size = parseInt(sizeText, 16);
    at = lineEnd + 2;
    if (size === 0) break;
    if (at + size + 2 > data.length) throw new Error("truncated chunked body");
    parts.push(data.subarray(at, at + size));
    total += size;
    at += size + 2;
  }
  const out = new Uint8Array(total);
  parts.reduce((offset, p) => (out.set(p, offset), offset + p.length), 0);
  return out;
}

/** Parses a complete HTTP/1.x answer. */
function parseResponse(data: Uint8Array): LoopbackResponse {
  const headEnd = indexOf(data, CRLF2);
  if (headEnd < 0) throw new Error("the answer ended before its headers did");
  const head = new TextDecoder("latin1").decode(data.subarray(0, headEnd)).split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(head[0]!);
  if (!status) throw new Error("the answer is not HTTP/1.1");
  const headers = new Map<string, string>();
  for (const line of head.slice(1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new Error("malformed header line");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
  }
  let body = data.subarray(headEnd + 4);
  if (/\bchunked\b/i.test(headers.get("transfer-encoding") ?? "")) {
    body = unchunk(body);
  } else if (headers.has("content-length")) {
    const length = Number(headers.get("content-length"));
    if (!Number.isSafeInteger(length) || length < 0 || length > body.length) {
      throw new Error("the answer is shorter than its Content-Length");
    }
    body = body.subarray(0, length);
  }
  const code = Number(status[1]);
  const bytes = body;
  return {
    status: code,
    statusText: status[2] ?? "",
    ok: code >= 200 && code <= 299,
    headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
    text: () => Promise.resolve(new TextDecoder().decode(bytes)),
    json: () => Promise.resolve().then(() => JSON.parse(new TextDecoder().decode(bytes))),
    arrayBuffer: () => Promise.resolve(bytes.slice().buffer),
  };
}

/**
 * GETs `path` from `127.0.0.1:port` and returns the whole answer. Rejects when the connection fails, the time is
 * up, the answer is larger than allowed, or it is not well-formed HTTP/1.1.
 */
export async function loopbackGet(port: number, path: string, options: LoopbackOptions): Promise<LoopbackResponse> {
  const max = options.maxBytes ?? 256 * 1024 * 1024;
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  // `AbortSignal.timeout`, not `setTimeout`: Deno's global setTimeout loads part of its Node compatibility layer
  // (~8 ms of CPU), which is what this module exists to avoid.
  const deadline = AbortSignal.timeout(options.timeoutMs);
  let timedOut = false;
  const onTimeout = () => {
    timedOut = true;
    try {
      conn.close();
    } catch {
      // already closed
    }
  };
  deadline.addEventListener("abort", onTimeout, { once: true });
  try {
    const request = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: */*\r\nConnection: close\r\n\r\n`;
    const bytes = new TextEncoder().encode(request);
    for (let sent = 0; sent < bytes.length;) sent += await conn.write(bytes.subarray(sent));
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let total = 0;
    const buffer = new Uint8Array(64 * 1024);
    for (;;) {
      const n = await conn.read(buffer);
      if (n === null) break;
      total += n;
      if (total > max) throw new Error(`the answer is larger than ${max} bytes`);
      chunks.push(buffer.slice(0, n));
    }
    return parseResponse(new Uint8Array(await new Blob(chunks).arrayBuffer()));
  } catch (err: unknown) {
    if (timedOut) throw new Error(`no answer within ${options.timeoutMs} ms`);
    throw err;
  } finally {
    deadline.removeEventListener("abort", onTimeout);
    try {
      conn.close();
    } catch {
      // closed by the timeout
    }
  }
}
