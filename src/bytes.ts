/**
 * The one byte-collecting loop: chunks read from a stream joined into one `Uint8Array`, under a cap so an endless
 * or hostile source fails instead of exhausting memory. Used by the atlas (downloads, local catalog files, archive
 * members) and the browser session (every answer of the daemon, the handshake's under a small cap).
 *
 * @module
 */

/** Joins `chunks` into one array of `size` bytes (default: their total length). */
export function concatBytes(chunks: readonly Uint8Array[], size?: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size ?? chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Reads `source` (a stream, or any async iterable of chunks) to its end into one array. As soon as more than
 * `maxBytes` arrived, reading stops, the source is stopped (a stream's `cancel`, an iterator's `return`) and the
 * error `onTooBig()` returns is thrown (the caller's message and hint stay its own).
 */
export async function readAllCapped(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  maxBytes: number,
  onTooBig: () => Error,
): Promise<Uint8Array<ArrayBuffer>> {
  // A stream is read through a reader of its own: its async iterator would cancel it a tick late, after a source
  // that is done already closed it. (Not `instanceof ReadableStream`: naming the global loads Deno's streams, ~3 ms
  // of start-up for callers that never made a stream.)
  const reader = "getReader" in source ? source.getReader() : undefined;
  const iterator = reader ? undefined : (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { value, done } = reader ? await reader.read() : await iterator!.next();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw onTooBig();
      chunks.push(value);
    }
  } finally {
    await (reader ? reader.cancel() : iterator!.return?.())?.catch(() => {});
  }
  return concatBytes(chunks, size);
}

/**
 * Reads `stream` until its end or until `maxBytes` arrived, whichever comes first, then stops it: the first
 * `maxBytes` bytes and whether there was more. For a reply that is shown, not trusted whole (an upload's answer).
 */
export async function readPrefix(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; cut: boolean }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const room = maxBytes - size;
      if (value.byteLength > room) {
        chunks.push(value.subarray(0, room));
        size = maxBytes;
        cut = true;
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return { bytes: concatBytes(chunks, size), cut };
}
