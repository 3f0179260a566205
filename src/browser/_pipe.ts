/**
 * The framing of Chromium's `--remote-debugging-pipe`: each JSON message is terminated by a NUL byte (JSON text
 * never contains a raw NUL). {@linkcode NulFramer} splits the byte stream into messages with bounded memory.
 *
 * A page controls what the browser sends about it: `console.log(fiftyMegabyteString)` arrives as one 50 MB
 * `Runtime.consoleAPICalled` event. Messages up to {@linkcode STREAM_THRESHOLD} are collected and parsed as they
 * are. A larger message is scanned as it streams in instead: inside an event's top-level `params`, every string
 * longer than {@linkcode STRING_CAP} bytes is cut there and ends with a visible marker naming its original size
 * (`… [truncated by mapper: 52428800 bytes]`), so the daemon never holds the whole of it. Command answers
 * (top-level `result`) are kept whole: a body the user asked for must arrive byte for byte.
 *
 * @module
 */

/** Messages larger than this are scanned as they stream in (see the module doc). */
export const STREAM_THRESHOLD = 256 * 1024;
/** Strings inside a large event's `params` are cut at this many bytes. */
export const STRING_CAP = 64 * 1024;
/** Once a large event's kept bytes exceed this, every further string in it is cut at {@linkcode LATE_STRING_CAP}. */
export const MESSAGE_BUDGET = 1024 * 1024;
/** The cut of strings once {@linkcode MESSAGE_BUDGET} is spent. */
export const LATE_STRING_CAP = 256;

/** The marker closing a cut string (JSON-escaped on the wire, so the ellipsis is `\u2026`). */
export function truncationMarker(originalBytes: number): string {
  return `\u2026 [truncated by mapper: ${originalBytes} bytes]`;
}

/** The original size a string cut by the pipe (or by {@linkcode capText}) announces, if it carries a marker. */
export function truncatedSize(s: string): number | undefined {
  const m = /\u2026 \[truncated by mapper: (\d+) bytes\]$/.exec(s);
  return m ? Number(m[1]) : undefined;
}

const encoder = new TextEncoder();

/** UTF-8 size of a string. */
export function utf8Size(s: string): number {
  // Cheap for the common ASCII case; exact otherwise.
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  return ascii ? s.length : encoder.encode(s).length;
}

/**
 * Cuts `s` to at most `cap` UTF-16 code units plus a marker naming the original size in UTF-8 bytes (the size an
 * earlier cut announced, when `s` already carries one). Returns `s` unchanged when it fits.
 */
export function capText(s: string, cap: number): string {
  if (s.length <= cap) return s;
  const original = truncatedSize(s) ?? utf8Size(s);
  let end = cap;
  // Do not split a surrogate pair.
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return s.slice(0, end) + truncationMarker(original);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Scans one oversized message as it streams in, keeping everything but the tails of long strings inside the
 * top-level `params` object. Cuts happen only at character boundaries (never inside an escape or a UTF-8
 * sequence), so the kept text is still valid JSON.
 */
class Scanner {
  #out: Uint8Array[] = [];
  #outBytes = 0;
  #depth = 0;
  #inString = false;
  /** 1 right after a backslash; then the hex digits left of a `\uXXXX`. */
  #escape = 0;
  #hexLeft = 0;
  #hex = 0;
  /** At depth 1 of an object: the next string is a key. */
  #expectKey = false;
  /** The string being read is a top-level key (its bytes are collected). */
  #isKey = false;
  #key = "";
  /** The top-level key whose value is being read. */
  #topKey = "";
  /** The string being read may be cut (it is inside `params`). */
  #cuttable = false;
  #cutAt = STRING_CAP;
  #cutting = false;
  /** Bytes the current string's content stands for (escapes decoded), seen and kept. */
  #original = 0;
  #kept = 0;

  #emit(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#out.push(bytes.slice());
    this.#outBytes += bytes.length;
  }

  #count(bytes: number): void {
    this.#original += bytes;
    if (!this.#cutting) this.#kept += bytes;
  }

  /** At the first byte of a character inside a string: start cutting once the cap is reached. */
  #charStart(chunk: Uint8Array, i: number, keepFrom: number): number {
    if (this.#cuttable && !this.#cutting && this.#kept >= this.#cutAt) {
      this.#cutting = true;
      this.#emit(chunk.subarray(keepFrom, i));
      return -1;
    }
    return keepFrom;
  }

  /** Feeds bytes of the message (no NUL). */
  feed(chunk: Uint8Array): void {
    // Start of the run of bytes being kept in this chunk; -1 while a string's tail is being dropped.
    let keepFrom = this.#cutting ? -1 : 0;
    // Next quote and backslash at or after i (cached: re-searching for every escape would be quadratic).
    let nextQuote = -1;
    let nextSlash = -1;
    for (let i = 0; i < chunk.length; i++) {
      if (this.#inString && this.#escape === 0 && !this.#isKey) {
        // Fast path: skip plain string content up to the next quote or backslash (or the cap).
        if (nextQuote < i) nextQuote = chunk.indexOf(QUOTE, i) >>> 0;
        if (nextSlash < i) nextSlash = chunk.indexOf(BACKSLASH, i) >>> 0;
        let j = Math.min(nextQuote, nextSlash, chunk.length);
        if (this.#cuttable && !this.#cutting && j - i > this.#cutAt - this.#kept) {
          j = i + Math.max(0, this.#cutAt - this.#kept);
          while (j > i && (chunk[j]! & 0xc0) === 0x80) j--;
        }
        if (j > i) {
          this.#count(j - i);
          i = j - 1;
          continue;
        }
      }
      const b = chunk[i]!;
      if (!this.#inString) {
        switch (b) {
          case QUOTE:
            this.#inString = true;
            this.#isKey = this.#depth === 1 && this.#expectKey;
            this.#key = "";
            this.#cuttable = this.#depth >= 2 && this.#topKey === "params";
            this.#cutAt = this.#outBytes > MESSAGE_BUDGET ? LATE_STRING_CAP : STRING_CAP;
            this.#cutting = false;
            this.#original = 0;
            this.#kept = 0;
            break;
          case 0x7b: // {
          case 0x5b: // [
            this.#depth++;
            if (this.#depth === 1) this.#expectKey = b === 0x7b;
            break;
          case 0x7d: // }
          case 0x5d: // ]
            this.#depth--;
            break;
          case 0x3a: // :
            if (this.#depth === 1) this.#expectKey = false;
            break;
          case 0x2c: // ,
            if (this.#depth === 1) {
              this.#expectKey = true;
              this.#topKey = "";
            }
            break;
        }
        continue;
      }
      if (this.#escape === 1) {
        if (b === 0x75 /* u */) {
          this.#escape = 2;
          this.#hexLeft = 4;
          this.#hex = 0;
        } else {
          this.#escape = 0;
          this.#count(1);
          if (this.#isKey) this.#key += String.fromCharCode(b);
        }
        continue;
      }
      if (this.#escape === 2) {
        this.#hex = this.#hex * 16 + parseInt(String.fromCharCode(b), 16);
        if (--this.#hexLeft === 0) {
          this.#escape = 0;
          const unit = this.#hex;
          // A surrogate half counts 2: a pair makes the 4 bytes of its UTF-8 form.
          this.#count(unit < 0x80 ? 1 : unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 2 : 3);
          if (this.#isKey) this.#key += String.fromCharCode(unit);
        }
        continue;
      }
      if (b === QUOTE) {
        this.#inString = false;
        if (this.#cutting) {
          this.#emit(encoder.encode(JSON.stringify(truncationMarker(this.#original)).slice(1, -1)));
          this.#cutting = false;
          keepFrom = i; // the closing quote is kept
        }
        if (this.#isKey) this.#topKey = this.#key;
        continue;
      }
      if (b === BACKSLASH) {
        if (keepFrom !== -1) keepFrom = this.#charStart(chunk, i, keepFrom);
        this.#escape = 1;
        continue;
      }
      // A UTF-8 continuation byte belongs to the character before it.
      if ((b & 0xc0) !== 0x80 && keepFrom !== -1) keepFrom = this.#charStart(chunk, i, keepFrom);
      this.#count(1);
      if (this.#isKey && this.#key.length < 64) this.#key += String.fromCharCode(b);
    }
    if (keepFrom !== -1) this.#emit(chunk.subarray(keepFrom));
  }

  /** The kept message. */
  finish(): Uint8Array {
    const out = new Uint8Array(this.#outBytes);
    let at = 0;
    for (const part of this.#out) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

/**
 * Splits a byte stream into NUL-terminated messages. Small messages are collected whole; a message growing past
 * {@linkcode STREAM_THRESHOLD} is scanned (see the module doc). `onMessage` receives each message as text.
 */
export class NulFramer {
  #parts: Uint8Array[] = [];
  #bytes = 0;
  #scanner: Scanner | undefined;
  #decoder = new TextDecoder();
  /** Creates a framer delivering each message to `onMessage`. */
  constructor(readonly onMessage: (text: string) => void) {}

  /** Feeds the next chunk read from the pipe. */
  push(chunk: Uint8Array): void {
    let start = 0;
    while (start <= chunk.length) {
      const nul = chunk.indexOf(0, start);
      const end = nul === -1 ? chunk.length : nul;
      const piece = chunk.subarray(start, end);
      if (this.#scanner) this.#scanner.feed(piece);
      else if (piece.length > 0) {
        this.#parts.push(piece.slice());
        this.#bytes += piece.length;
        if (this.#bytes > STREAM_THRESHOLD) {
          this.#scanner = new Scanner();
          for (const p of this.#parts) this.#scanner.feed(p);
          this.#parts = [];
          this.#bytes = 0;
        }
      }
      if (nul === -1) return;
      this.#deliver();
      start = nul + 1;
    }
  }

  #deliver(): void {
    let bytes: Uint8Array;
    if (this.#scanner) {
      bytes = this.#scanner.finish();
      this.#scanner = undefined;
    } else if (this.#parts.length === 1) bytes = this.#parts[0]!;
    else {
      bytes = new Uint8Array(this.#bytes);
      let at = 0;
      for (const p of this.#parts) {
        bytes.set(p, at);
        at += p.length;
      }
    }
    this.#parts = [];
    this.#bytes = 0;
    if (bytes.length > 0) this.onMessage(this.#decoder.decode(bytes));
  }
}
