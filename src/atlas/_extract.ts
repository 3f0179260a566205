/**
 * The archive rules of `mapper atlas add`: stream-extract a `.tar.gz` into a staging directory under the caps, the
 * member-name rules (portable, contained, under `.mapper/`), and collisions on case-folding or Unicode-normalising
 * file systems. Nothing here knows about targets or the network.
 *
 * @module
 */
import { dirname, resolve, sep } from "node:path";
import { PolicyError } from "../errors.ts";
import { escapeTerminal, hasControl, quote } from "./_text.ts";
import { concatBytes } from "../bytes.ts";
import { ArchiveBombError, ArchiveFormatError, TarGzReader } from "./_tar.ts";
import { ownedFile } from "../corpus/owned.ts";
import { sha256Hex } from "./lock.ts";

/** Largest single file in an archive: 4 MiB. */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Largest decompressed tar stream (headers and padding included): 32 MiB. */
export const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
/** Most members (directories included). */
export const MAX_MEMBERS = 512;
/** Prefixes every archive member must sit under (ours, and the public atlas's). */
export const ARCHIVE_PREFIXES = [".mapper", ".sightmap"] as const;

/** An archive rule was broken; the message is prefixed with `atlas entry "<slug>": `. */
export class ArchiveRuleError extends PolicyError {}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/** Why a member name is unsafe (after stripping one trailing `/` and one leading `./`), or `undefined`. */
export function unsafePathReason(path: string): string | undefined {
  if (path === "") return "it is empty";
  if (path.startsWith("/")) return "it is absolute";
  if (/^[a-zA-Z]:/.test(path)) return "it names a drive";
  if (path.includes("\\")) return "it contains a backslash";
  if (hasControl(path)) return "it contains a control character";
  for (const seg of path.split("/")) {
    if (seg === "") return "it has an empty segment";
    if (seg === "." || seg === "..") return `it has a "${seg}" segment`;
    if (/[<>:"|?*]/.test(seg)) return "it contains a character Windows does not allow in names";
    if (WINDOWS_RESERVED.test(seg)) return `"${seg}" is a reserved name on Windows`;
    if (/[. ]$/.test(seg)) return "a segment ends with a dot or a space (not portable to Windows)";
  }
  return undefined;
}

/** The key two paths collide on when the file system folds case or normalises Unicode. */
function foldKey(path: string): string {
  return path.normalize("NFC").toLowerCase().normalize("NFC");
}

/** A file ready to land. */
export interface StagedFile {
  /** Path below `.mapper/`. */
  rel: string;
  /** sha256 of its bytes, hex. */
  sha256: string;
}

/** Extracts the archive into `staging` under every rule; returns the files written, sorted. Stops when `signal` aborts. */
export async function extract(archive: Uint8Array, staging: string, signal: AbortSignal): Promise<StagedFile[]> {
  let tar: TarGzReader;
  try {
    tar = new TarGzReader(archive, MAX_TOTAL_BYTES);
  } catch (err: unknown) {
    if (err instanceof ArchiveFormatError) throw new ArchiveRuleError(err.message);
    throw err;
  }
  const files: StagedFile[] = [];
  // Every path the archive lays down (files, directories, and the directories files imply), by fold key: two
  // different spellings of one key would land on the same file on a case-insensitive or normalising file system.
  const taken = new Map<string, { rel: string; dir: boolean }>();
  let members = 0;
  const fail = (message: string) => new ArchiveRuleError(message);
  const claim = (rel: string, dir: boolean) => {
    const key = foldKey(rel);
    const seen = taken.get(key);
    if (seen === undefined) {
      taken.set(key, { rel, dir });
      return;
    }
    if (seen.rel === rel) {
      if (seen.dir && dir) return; // a directory named again (explicitly or by another file) is fine
      throw fail(
        seen.dir === dir
          ? `publishes ${quote(rel)} twice`
          : `publishes ${quote(rel)} both as a file and as a directory`,
      );
    }
    throw fail(
      seen.rel.normalize("NFC") === rel.normalize("NFC")
        ? `publishes ${
          quote(rel)
        } twice in different Unicode normalisations, which collide on Unicode-normalising file systems`
        : `publishes ${quote(seen.rel)} and ${quote(rel)}, which collide on case-insensitive file systems`,
    );
  };
  try {
    for (;;) {
      signal.throwIfAborted();
      const m = await tar.next();
      if (!m) break;
      members++;
      if (members > MAX_MEMBERS) throw fail(`holds more than ${MAX_MEMBERS} members`);
      const original = m.name;
      if (m.type === "g") throw fail(`carries a PAX global header (${quote(original)}), which mapper does not accept`);
      if (!m.nameValid) throw fail(`publishes a member whose name is not valid UTF-8 (${quote(original)})`);
      let name = original.endsWith("/") ? original.slice(0, -1) : original;
      if (name.startsWith("./")) name = name.slice(2);
      const reason = unsafePathReason(name);
      if (reason !== undefined) throw fail(`publishes an unsafe path ${quote(original)}: ${reason}`);
      const prefix = ARCHIVE_PREFIXES.find((p) => name === p || name.startsWith(`${p}/`));
      const isDir = m.type === "5";
      const isFile = m.type === "0" || m.type === "\0";
      if (prefix === undefined) throw fail(`publishes ${quote(original)}, which is not under .mapper/`);
      if (name === prefix) {
        if (isDir) continue;
        throw fail(`publishes ${prefix}/ as a file`);
      }
      if (!isDir && !isFile) {
        const what = {
          "1": "a hard link",
          "2": "a symbolic link",
          "3": "a character device",
          "4": "a block device",
          "6": "a FIFO",
          "7": "a contiguous file",
        }[m.type] ?? `a member of type ${JSON.stringify(escapeTerminal(m.type))}`;
        throw fail(`publishes ${quote(original)}, which is ${what}, not a regular file or a directory`);
      }
      const rel = name.slice(prefix.length + 1);
      const owned = rel.includes("/") ? undefined : ownedFile(rel);
      if (owned !== undefined) {
        throw fail(
          `publishes ${quote(rel)}, a name mapper reserves for its own record (${owned.name}: ${owned.what})`,
        );
      }
      // Containment: the joined path must stay inside staging (defence in depth; the name rules already ensure it).
      const dest = resolve(staging, ...rel.split("/"));
      if (!dest.startsWith(staging + sep)) throw fail(`publishes an unsafe path ${quote(original)}`);
      const segments = rel.split("/");
      for (let i = 1; i < segments.length; i++) claim(segments.slice(0, i).join("/"), true);
      claim(rel, isDir);
      if (isDir) {
        await Deno.mkdir(dest, { recursive: true, mode: 0o755 });
        continue;
      }
      const chunks: Uint8Array[] = [];
      const size = await tar.readData(
        MAX_FILE_BYTES,
        (c) => chunks.push(c.slice()),
        () => fail(`publishes ${quote(rel)} over the ${MAX_FILE_BYTES}-byte file limit`),
      );
      const data = concatBytes(chunks, size);
      await Deno.mkdir(dirname(dest), { recursive: true, mode: 0o755 });
      const file = await Deno.open(dest, { createNew: true, write: true, mode: 0o644 });
      try {
        let off = 0;
        while (off < data.byteLength) off += await file.write(data.subarray(off));
      } finally {
        file.close();
      }
      files.push({ rel, sha256: await sha256Hex(data) });
    }
  } catch (err: unknown) {
    if (err instanceof ArchiveBombError) throw fail(err.message);
    if (err instanceof ArchiveFormatError) throw fail(err.message);
    throw err;
  } finally {
    await tar.close();
  }
  if (files.length === 0) throw fail("publishes no files under .mapper/");
  return files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}
