/**
 * Deterministic `.tar.gz` archives: ustar members with pinned mode, owner and mtime, then one gzip member at level
 * 9 with mtime 0. Two builds of the same files are byte-identical.
 *
 * @module
 */
import { gzipSync } from "node:zlib";

/** One file to archive: a slash-separated relative name and its bytes (the reader's header record is `atlas` `TarMember`). */
export interface ArchiveFile {
  /** Path inside the archive. */
  name: string;
  /** File contents. */
  data: Uint8Array<ArrayBuffer>;
}

const BLOCK = 512;
const encoder = new TextEncoder();

/** Writes an ASCII string into a header at an offset. */
function put(header: Uint8Array, offset: number, text: string): void {
  header.set(encoder.encode(text), offset);
}

/** Octal of `value`, zero-padded to `digits`, followed by NUL. */
function octal(value: number, digits: number): string {
  return value.toString(8).padStart(digits, "0") + "\0";
}

/** Builds one 512-byte ustar header. Throws when the name does not fit the 100-byte name field. */
function header(name: string, size: number): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const nameBytes = encoder.encode(name);
  if (nameBytes.length > 100) throw new RangeError(`tar member name longer than 100 bytes: "${name}"`);
  h.set(nameBytes, 0);
  put(h, 100, "0000644\0");
  put(h, 108, "0000000\0");
  put(h, 116, "0000000\0");
  put(h, 124, octal(size, 11));
  put(h, 136, "00000000000\0");
  put(h, 148, "        ");
  put(h, 156, "0");
  put(h, 257, "ustar\0");
  put(h, 263, "00");
  let sum = 0;
  for (const b of h) sum += b;
  put(h, 148, sum.toString(8).padStart(6, "0") + "\0 ");
  return h;
}

/** The uncompressed ustar stream of the members, in the order given, ending with two zero blocks. */
export function tar(members: readonly ArchiveFile[]): Uint8Array<ArrayBuffer> {
  let length = 2 * BLOCK;
  for (const m of members) length += BLOCK + Math.ceil(m.data.length / BLOCK) * BLOCK;
  const out = new Uint8Array(length);
  let at = 0;
  for (const m of members) {
    out.set(header(m.name, m.data.length), at);
    at += BLOCK;
    out.set(m.data, at);
    at += Math.ceil(m.data.length / BLOCK) * BLOCK;
  }
  return out;
}

/** gzip at level 9 with the Node header bytes (`1f 8b 08 00 00000000 02 03`): no name, mtime 0. */
export function gzip(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(gzipSync(data, { level: 9 }));
}

/** The deterministic `.tar.gz` of the members. */
export function tarGz(members: readonly ArchiveFile[]): Uint8Array<ArrayBuffer> {
  return gzip(tar(members));
}
