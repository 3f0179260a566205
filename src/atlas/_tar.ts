/**
 * A streaming reader for gzip-compressed tar archives (ustar, PAX `x` records, GNU long names) that enforces the
 * decompressed-size cap on bytes actually pulled from the decompressor, so a gzip bomb fails mid-stream and nothing
 * unbounded is ever held. Members are surfaced one at a time; PAX global headers (`g`) are surfaced as members so the
 * caller refuses them.
 *
 * @module
 */
import { createGunzip } from "node:zlib";
import { quote } from "./_text.ts";

/** The archive is not what it claims (not gzip, not tar, truncated, corrupt). `message` is a clause. */
export class ArchiveFormatError extends Error {}
/** The archive decompresses to more than the cap. */
export class ArchiveBombError extends Error {}

/** One tar member, before its data is read. */
export interface TarMember {
  /** Name after PAX/GNU overrides, decoded as UTF-8 (invalid bytes make {@linkcode nameValid} false). */
  name: string;
  /** Whether the name bytes were valid UTF-8. */
  nameValid: boolean;
  /** Typeflag character: `0`/`\0` file, `5` directory, `2` symlink, `1` hardlink, `g` PAX global, … */
  type: string;
  /** Data size from the header (after a PAX `size` override). */
  size: number;
}

const BLOCK = 512;
/**
 * Compressed bytes handed to the decompressor at a time. Deflate expands at most ~1032:1, so no decompressed chunk
 * exceeds ~2 MiB however hostile the archive.
 */
export const INPUT_SLICE = 2048;

/** Pulls bytes from a decompressed stream with exact-length reads and a total cap. */
class ByteReader {
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #buf: Uint8Array = new Uint8Array(0);
  #off = 0;
  #total = 0;
  #done = false;

  constructor(stream: ReadableStream<Uint8Array>, readonly maxTotal: number) {
    this.#reader = stream.getReader();
  }

  async #fill(): Promise<boolean> {
    if (this.#done) return false;
    let r: ReadableStreamReadResult<Uint8Array>;
    try {
      r = await this.#reader.read();
    } catch (err: unknown) {
      const msg = err instanceof Error ? err.message : String(err);
      throw new ArchiveFormatError(`the gzip stream is corrupt or truncated (${msg.replace(/\s+/g, " ")})`);
    }
    if (r.done) {
      this.#done = true;
      return false;
    }
    this.#total += r.value.byteLength;
    if (this.#total > this.maxTotal) throw new ArchiveBombError(`decompresses to more than ${this.maxTotal} bytes`);
    this.#buf = r.value;
    this.#off = 0;
    return true;
  }

  /** Reads exactly `n` bytes; returns fewer only at end of stream. */
  async read(n: number): Promise<Uint8Array> {
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      if (this.#off >= this.#buf.byteLength && !(await this.#fill())) return out.subarray(0, at);
      const take = Math.min(n - at, this.#buf.byteLength - this.#off);
      out.set(this.#buf.subarray(this.#off, this.#off + take), at);
      this.#off += take;
      at += take;
    }
    return out;
  }

  /** Calls `sink` with successive slices of the next `n` bytes (no copy beyond one chunk); false on early EOF. */
  async stream(n: number, sink: (chunk: Uint8Array) => void): Promise<boolean> {
    let left = n;
    while (left > 0) {
      if (this.#off >= this.#buf.byteLength && !(await this.#fill())) return false;
      const take = Math.min(left, this.#buf.byteLength - this.#off);
      sink(this.#buf.subarray(this.#off, this.#off + take));
      this.#off += take;
      left -= take;
    }
    return true;
  }

  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

function cstr(block: Uint8Array, start: number, len: number): Uint8Array {
  const field = block.subarray(start, start + len);
  const nul = field.indexOf(0);
  return nul < 0 ? field : field.subarray(0, nul);
}

function ascii(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}

function numeric(block: Uint8Array, start: number, len: number): number {
  const field = block.subarray(start, start + len);
  if (((field[0] ?? 0) & 0x80) !== 0) {
    // GNU base-256: big-endian two's complement; we only accept non-negative sizes below 2^53.
    if (((field[0] ?? 0) & 0x40) !== 0) return -1;
    let n = (field[0] ?? 0) & 0x3f;
    for (let i = 1; i < field.length; i++) n = n * 256 + (field[i] ?? 0);
    return n;
  }
  const text = ascii(cstr(block, start, len)).trim();
  if (text === "") return 0;
  if (!/^[0-7]+$/.test(text)) return -1;
  return parseInt(text, 8);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeName(bytes: Uint8Array): { name: string; valid: boolean } {
  try {
    return { name: utf8.decode(bytes), valid: true };
  } catch {
    return { name: new TextDecoder().decode(bytes), valid: false };
  }
}

function parsePax(data: Uint8Array): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) throw new ArchiveFormatError("a PAX header record is malformed");
    const len = Number(ascii(data.subarray(at, space)));
    if (!Number.isInteger(len) || len <= space - at || at + len > data.length) {
      throw new ArchiveFormatError("a PAX header record is malformed");
    }
    const record = data.subarray(space + 1, at + len - 1); // drop trailing newline
    const eq = record.indexOf(0x3d);
    if (eq < 0) throw new ArchiveFormatError("a PAX header record is malformed");
    out.set(ascii(record.subarray(0, eq)), record.subarray(eq + 1));
    at += len;
  }
  return out;
}

/**
 * The decompressed bytes of `compressed`, inflated only as they are read. The decompressor inflates each input chunk
 * in one go (1 KiB of deflate can become ~1 MiB), so it is fed {@linkcode INPUT_SLICE} bytes at a time and only when
 * the reader wants more: every output chunk stays bounded and the caller's cap is checked before the next slice is
 * inflated. One big input chunk would let a 1 MB bomb allocate 1 GiB at once.
 *
 * Node's gunzip, not the web `DecompressionStream`: a gzip file may hold several members back to back (RFC 1952
 * §2.2, `cat a.gz b.gz`), which `DecompressionStream` refuses. Each member's CRC and length are still checked, and
 * bytes after the last member that are not another member are refused.
 */
function gunzipOnDemand(compressed: Uint8Array): ReadableStream<Uint8Array> {
  const gunzip = createGunzip();
  const queue: Uint8Array[] = [];
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const nudge = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  gunzip.on("data", (c: Uint8Array) => {
    queue.push(new Uint8Array(c.buffer, c.byteOffset, c.byteLength));
    nudge();
  });
  gunzip.on("end", () => {
    ended = true;
    nudge();
  });
  gunzip.on("error", (err: Error) => {
    failure = err;
    nudge();
  });
  let at = 0;
  let endCalled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const next = queue.shift();
        if (next) return controller.enqueue(next);
        if (failure) return controller.error(failure);
        if (ended) return controller.close();
        const progressed = new Promise<void>((resolve) => (wake = resolve));
        if (at < compressed.byteLength) {
          const slice = compressed.subarray(at, at + INPUT_SLICE);
          at += INPUT_SLICE;
          gunzip.write(slice, nudge);
        } else if (!endCalled) {
          endCalled = true;
          gunzip.end();
        }
        await progressed;
      }
    },
    cancel() {
      gunzip.destroy();
    },
  }, { highWaterMark: 0 });
}

/** Streaming tar reader over a gzip body. Call {@linkcode next}, then consume or skip the member's data. */
export class TarGzReader {
  #bytes: ByteReader;
  #pending = 0; // unread data + padding of the current member
  #current: TarMember | undefined;
  #count = 0;

  /** Wraps the compressed bytes; `maxTotal` caps the decompressed tar stream (headers and padding included). */
  constructor(compressed: Uint8Array, maxTotal: number) {
    if (compressed[0] !== 0x1f || compressed[1] !== 0x8b) {
      const head = new TextDecoder().decode(compressed.subarray(0, 16)).replace(/[^\x20-\x7e]/g, ".");
      throw new ArchiveFormatError(`the archive is not gzip-compressed (it starts with "${head}")`);
    }
    this.#bytes = new ByteReader(gunzipOnDemand(compressed), maxTotal);
  }

  async #skipPending(): Promise<void> {
    if (this.#pending > 0) {
      const ok = await this.#bytes.stream(this.#pending, () => {});
      if (!ok) throw new ArchiveFormatError(`the archive ends in the middle of ${quote(this.#current?.name ?? "")}`);
      this.#pending = 0;
    }
  }

  async #header(): Promise<Uint8Array | undefined> {
    const block = await this.#bytes.read(BLOCK);
    if (block.length === 0) return undefined; // tolerated: archive without end-of-archive blocks
    if (block.length < BLOCK) throw new ArchiveFormatError("the archive ends in the middle of a tar header");
    if (block.every((b) => b === 0)) return undefined;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i] ?? 0;
    const stored = numeric(block, 148, 8);
    if (stored !== sum) {
      throw new ArchiveFormatError(
        this.#count === 0
          ? "the gzip data is not a tar archive (bad header checksum)"
          : `a tar header after ${
            quote(this.#current?.name ?? "")
          } is corrupt (bad checksum) — a member's size may be wrong`,
      );
    }
    return block;
  }

  async #readSmall(size: number, what: string): Promise<Uint8Array> {
    if (size < 0 || size > 1024 * 1024) throw new ArchiveFormatError(`a ${what} is implausibly large`);
    const data = await this.#bytes.read(size);
    if (data.length < size) throw new ArchiveFormatError(`the archive ends in the middle of a ${what}`);
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (!(await this.#bytes.stream(pad, () => {}))) throw new ArchiveFormatError("the archive is truncated");
    return data;
  }

  /** The next member, or `undefined` at the end. Unread data of the previous member is skipped. */
  async next(): Promise<TarMember | undefined> {
    await this.#skipPending();
    let paxPath: Uint8Array | undefined;
    let paxSize: number | undefined;
    let longName: Uint8Array | undefined;
    for (;;) {
      const block = await this.#header();
      if (!block) {
        // Drain to the end so the decompressor checks the gzip CRC and length (and the cap still applies).
        while (await this.#bytes.stream(64 * 1024, () => {}));
        return undefined;
      }
      const type = String.fromCharCode(block[156] ?? 0);
      const size = numeric(block, 124, 12);
      if (size < 0) throw new ArchiveFormatError("a tar header has an invalid size field");
      if (type === "x") {
        const pax = parsePax(await this.#readSmall(size, "PAX header"));
        paxPath = pax.get("path") ?? paxPath;
        const s = pax.get("size");
        if (s !== undefined) {
          const n = Number(ascii(s));
          if (!Number.isSafeInteger(n) || n < 0) throw new ArchiveFormatError("a PAX header has an invalid size");
          paxSize = n;
        }
        continue;
      }
      if (type === "L") {
        const data = await this.#readSmall(size, "GNU long name");
        longName = cstr(data, 0, data.length);
        continue;
      }
      if (type === "K") {
        await this.#readSmall(size, "GNU long link name");
        continue;
      }
      let nameBytes = cstr(block, 0, 100);
      if (ascii(block.subarray(257, 262)) === "ustar") {
        const prefix = cstr(block, 345, 155);
        if (prefix.length > 0) nameBytes = new Uint8Array([...prefix, 0x2f, ...nameBytes]);
      }
      if (longName) nameBytes = longName;
      if (paxPath) nameBytes = paxPath;
      const { name, valid } = decodeName(nameBytes);
      const dataSize = paxSize ?? size;
      this.#count++;
      this.#current = { name, nameValid: valid, type, size: dataSize };
      this.#pending = dataSize + ((BLOCK - (dataSize % BLOCK)) % BLOCK);
      return this.#current;
    }
  }

  /**
   * Streams the current member's data to `sink`, failing as soon as more than `maxBytes` would be read. Returns the
   * byte count. Throws {@linkcode ArchiveFormatError} when the archive ends early.
   */
  async readData(maxBytes: number, sink: (chunk: Uint8Array) => void, onTooBig: () => Error): Promise<number> {
    const member = this.#current;
    if (!member) return 0;
    if (member.size > maxBytes) throw onTooBig();
    const ok = await this.#bytes.stream(member.size, sink);
    if (!ok) throw new ArchiveFormatError(`the archive ends in the middle of ${quote(member.name)}`);
    const pad = (BLOCK - (member.size % BLOCK)) % BLOCK;
    if (!(await this.#bytes.stream(pad, () => {}))) {
      throw new ArchiveFormatError(`the archive ends in the middle of ${quote(member.name)}`);
    }
    this.#pending = 0;
    return member.size;
  }

  /** Stops reading (releases the decompressor). */
  async close(): Promise<void> {
    await this.#bytes.cancel();
  }
}
