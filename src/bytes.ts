/**
 * The one byte-collecting loop: chunks read from a stream joined into one `Uint8Array`, under a cap so an endless
 * or hostile source fails instead of exhausting memory. Used by the atlas (downloads, local catalog files, archive
 * members) and the browser session (the daemon handshake).
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
 * Reads `stream` to its end into one array. As soon as more than `maxBytes` arrived, reading stops, the stream is
 * cancelled and the error `onTooBig()` returns is thrown (the caller's message and hint stay its own).
 */
export async function readAllCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  onTooBig: () => Error,
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw onTooBig();
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return concatBytes(chunks, size);
}
