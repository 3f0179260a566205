/**
 * Writing a file the user asked for (`export -o FILE`, and the like): never half-written, never through a link
 * planted at its path, private unless it already had its own permissions.
 *
 * The bytes go to a new file beside the target (created exclusively: nothing already at that name is opened or
 * followed), are flushed, and the new file is renamed over the target — a rename replaces the directory entry
 * itself, so a symbolic link at the target is replaced, not written through. A new file is mode 0600; an existing
 * regular file keeps its mode. A directory or a special file (FIFO, socket, device) at the target is refused.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { FileError } from "./errors.ts";
import { escapeControls } from "./terminal.ts";

/** Mode of a file mapper creates for the user: readable by its owner only. */
export const PRIVATE_FILE_MODE = 0o600;

/** What is at `path` now, without following a link: its mode when it is a regular file. */
async function existing(path: string, shown: string): Promise<{ mode: number } | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (err: unknown) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw new FileError(`cannot write "${shown}": ${err instanceof Error ? err.message : String(err)}`);
  }
  if (info.isSymlink) return undefined; // replaced by the rename, never followed
  if (!info.isFile) {
    throw new FileError(`cannot write "${shown}": it is ${info.isDirectory ? "a directory" : "not a regular file"}`, {
      hint: "give the path of a file to create or replace",
    });
  }
  return info.mode === null ? undefined : { mode: info.mode & 0o7777 };
}

/**
 * Writes `data` to `path` (see the module documentation). `shown` names it in messages (default `path`). Throws
 * {@linkcode FileError} naming the file and why.
 */
export async function writeUserFile(path: string, data: Uint8Array | string, shown = path): Promise<void> {
  const name = escapeControls(shown);
  const before = await existing(path, name);
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const random = crypto.getRandomValues(new Uint8Array(6)).reduce((s, b) => s + b.toString(16).padStart(2, "0"), "");
  const temp = join(dirname(path), `.${basename(path)}.mapper-${random}.tmp`);
  try {
    {
      await using file = await Deno.open(temp, { write: true, createNew: true, mode: PRIVATE_FILE_MODE });
      let written = 0;
      while (written < bytes.length) written += await file.write(bytes.subarray(written));
      await file.syncData();
    }
    if (before !== undefined && Deno.build.os !== "windows") await Deno.chmod(temp, before.mode);
    await Deno.rename(temp, path);
  } catch (err: unknown) {
    await Deno.remove(temp).catch(() => {});
    if (err instanceof FileError) throw err;
    throw new FileError(`cannot write "${name}": ${err instanceof Error ? err.message : String(err)}`, {
      hint: "give a file path in an existing directory you can write to",
    });
  }
}
