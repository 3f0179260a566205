/**
 * Reading files a watcher or a user may have put anything in. A FIFO, socket or device in a watched directory
 * would block an `open` forever (a FIFO's open waits for a writer), freezing every later rebuild and shutdown; so
 * the type is checked with `lstat` (and `stat` through a symbolic link) BEFORE anything is opened.
 *
 * @module
 */

/** The path is not a regular file (a FIFO, socket, device or directory); `message` names what it is. */
export class NotRegularFileError extends Error {
  override name = "NotRegularFileError";
}

/** What a non-regular file is, in words. */
function kindOf(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO (named pipe)";
  if (info.isSocket) return "a socket";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  return "of an unknown type";
}

/**
 * The type of `path` without opening it: `lstat`, then `stat` when it is a symbolic link. Throws
 * {@linkcode NotRegularFileError} unless it is a regular file; file-system errors (`NotFound`, …) pass through.
 */
export async function assertRegularFile(path: string): Promise<Deno.FileInfo> {
  const info = await Deno.lstat(path);
  return regular(info.isSymlink ? await Deno.stat(path) : info);
}

/** {@linkcode assertRegularFile} without waiting on the runtime's I/O threads (many small files: ~4× faster). */
export function assertRegularFileSync(path: string): Deno.FileInfo {
  const info = Deno.lstatSync(path);
  return regular(info.isSymlink ? Deno.statSync(path) : info);
}

function regular(info: Deno.FileInfo): Deno.FileInfo {
  if (!info.isFile) throw new NotRegularFileError(`it is ${kindOf(info)}, not a regular file`);
  return info;
}

/**
 * Reads a regular file of at most `maxBytes` bytes whole, without waiting on the runtime's I/O threads (a run over
 * a hundred large captures spent as long in asynchronous reads as in parsing them): the type is checked before the
 * open ({@linkcode assertRegularFileSync}) and again on the opened file, so a device swapped in since is refused
 * before a byte is read; the bytes are counted as they come, so a file growing during the read fails with
 * `onTooBig()` instead of exhausting memory.
 */
export function readRegularFileCappedSync(path: string, maxBytes: number, onTooBig: () => Error): Uint8Array {
  if (assertRegularFileSync(path).size > maxBytes) throw onTooBig();
  using file = Deno.openSync(path);
  const info = regular(file.statSync());
  if (info.size > maxBytes) throw onTooBig();
  // One buffer of the size found plus one byte: filling it whole means the file grew, read on in chunks under the cap.
  let buffer = new Uint8Array(info.size + 1);
  let at = 0;
  for (;;) {
    const n = file.readSync(buffer.subarray(at));
    if (n === null) return buffer.subarray(0, at);
    at += n;
    if (at > maxBytes) throw onTooBig();
    if (at === buffer.length) {
      const grown = new Uint8Array(Math.min(buffer.length * 2, maxBytes + 1));
      grown.set(buffer);
      buffer = grown;
    }
  }
}

const LENIENT_UTF8 = new TextDecoder();
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * `bytes` as UTF-8 text; throws a `TypeError` when they are not UTF-8. Decoded leniently first (about twice as fast
 * as strict decoding), and strictly again only when the text holds a U+FFFD, which a malformed sequence becomes: a
 * text that holds a real one keeps it.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  const text = LENIENT_UTF8.decode(bytes);
  return text.includes("\uFFFD") ? STRICT_UTF8.decode(bytes) : text;
}

/** Reads a regular file, refusing (without opening) anything else: see {@linkcode assertRegularFile}. */
export async function readRegularFile(path: string): Promise<Uint8Array> {
  await assertRegularFile(path);
  return await Deno.readFile(path);
}

/** {@linkcode readRegularFile} decoded as UTF-8. */
export async function readRegularTextFile(path: string): Promise<string> {
  await assertRegularFile(path);
  return await Deno.readTextFile(path);
}

/** Whether anything (a file, a directory, a link — not followed) is at `path`; other errors are thrown. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (err: unknown) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}
