/**
 * A raw TCP server on 127.0.0.1 for tests that play a hostile HTTP server: it reads each request and lets the test
 * write any bytes back (a lying length, endless headers, a body that never ends), which `Deno.serve` never would.
 *
 * @module
 */

const dec = new TextDecoder();

/** What the raw server saw of one connection. */
export interface Seen {
  /** The request head and body, as sent. */
  request: string;
}

/** A running {@linkcode rawServer}. */
export interface RawServer extends AsyncDisposable {
  /** The port it listens on. */
  readonly port: number;
  /** Every request it read, in order of arrival. */
  readonly seen: Seen[];
}

/**
 * A raw TCP server on 127.0.0.1: reads each request (head, then `Content-Length` bytes of body) and lets `answer`
 * write anything. Disposal waits for every connection's handler, so a handler that writes until the client hangs
 * up proves the client hung up.
 */
export function rawServer(answer: (conn: Deno.Conn, seen: Seen) => Promise<unknown>): RawServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const seen: Seen[] = [];
  const handlers: Promise<void>[] = [];
  let closed = false;
  const accepting = (async () => {
    for await (const conn of listener) handlers.push(handle(conn));
  })().catch(() => {});
  async function handle(conn: Deno.Conn) {
    try {
      const one = { request: await readRequest(conn) };
      seen.push(one);
      await answer(conn, one);
    } catch {
      // the client hung up: what the hostile answers wait for
    } finally {
      try {
        conn.close();
      } catch {
        // closed already
      }
    }
  }
  return {
    port: (listener.addr as Deno.NetAddr).port,
    seen,
    async [Symbol.asyncDispose]() {
      if (!closed) listener.close();
      closed = true;
      await accepting;
      await Promise.all(handlers);
    },
  };
}

async function readRequest(conn: Deno.Conn): Promise<string> {
  let bytes = new Uint8Array(0);
  const buf = new Uint8Array(4096);
  for (;;) {
    // Latin-1 keeps one character per byte, so offsets in the text are offsets in the bytes.
    const text = String.fromCharCode(...bytes);
    const end = text.indexOf("\r\n\r\n");
    if (end >= 0) {
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1] ?? 0);
      if (bytes.byteLength >= end + 4 + length) return dec.decode(bytes);
    }
    const n = await conn.read(buf);
    if (n === null) return dec.decode(bytes);
    const more = new Uint8Array(bytes.byteLength + n);
    more.set(bytes);
    more.set(buf.subarray(0, n), bytes.byteLength);
    bytes = more;
  }
}

/** Waits until the client closes its side (a read ends or fails). */
export async function untilClientCloses(conn: Deno.Conn): Promise<void> {
  const buf = new Uint8Array(1024);
  while ((await conn.read(buf)) !== null) { /* drain */ }
}
