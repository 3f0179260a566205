/**
 * An entry's corpus as archive members: the `.mapper/` walk in the order the archive publishes, every limit
 * `mapper atlas add` enforces, and what the members say about themselves (`config.yaml`'s version).
 *
 * @module
 */
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { MAX_FILE_BYTES, MAX_MEMBERS, MAX_NAME_BYTES, MAX_TOTAL_BYTES } from "./_limits.ts";
import type { ArchiveFile } from "./_tar.ts";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Code-unit string order (not locale), as JavaScript's default sort. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Walks `.mapper/` for archive members and checks every limit `mapper atlas add` enforces. */
export async function walkCorpus(
  corpusDir: string,
  problems: string[],
): Promise<{ members: ArchiveFile[]; files: string[] }> {
  const members: ArchiveFile[] = [];
  let total = 0;
  const walk = async (rel: string): Promise<void> => {
    const names: string[] = [];
    for await (const e of Deno.readDir(join(corpusDir, rel))) names.push(e.name);
    names.sort(byCodeUnit);
    for (const name of names) {
      const relPath = rel ? `${rel}/${name}` : name;
      const member = `.mapper/${relPath}`;
      // deno-lint-ignore no-control-regex
      if (/[\x00-\x1f\x7f\\]/.test(name)) {
        problems.push(`unsafe file name ${JSON.stringify(member)}`);
        continue;
      }
      const info = await Deno.lstat(join(corpusDir, relPath));
      if (info.isSymlink) {
        problems.push(`"${member}" is a symbolic link (only regular files are published)`);
        continue;
      }
      if (info.isDirectory) {
        await walk(relPath);
        continue;
      }
      if (!info.isFile) {
        problems.push(`"${member}" is not a regular file`);
        continue;
      }
      if (new TextEncoder().encode(member).length > MAX_NAME_BYTES) {
        problems.push(`"${member}" is longer than ${MAX_NAME_BYTES} bytes`);
        continue;
      }
      if (info.size > MAX_FILE_BYTES) {
        problems.push(`"${member}" is ${info.size} bytes, over the ${MAX_FILE_BYTES}-byte per-file limit`);
        continue;
      }
      total += info.size;
      if (total > MAX_TOTAL_BYTES) {
        problems.push(`the corpus is over the ${MAX_TOTAL_BYTES}-byte total limit`);
        return;
      }
      members.push({ name: member, data: await Deno.readFile(join(corpusDir, relPath)) });
      if (members.length > MAX_MEMBERS) {
        problems.push(`the corpus has more than ${MAX_MEMBERS} files`);
        return;
      }
    }
  };
  await walk("");
  if (members.length === 0 && problems.length === 0) problems.push("the corpus has no files");
  return { members, files: members.map((m) => m.name).sort(byCodeUnit) };
}

/**
 * `config.yaml`'s `version`: `present` is the member's name inside the entry (`.mapper/config.yaml`), `undefined`
 * when there is none; `version` is `undefined` when it is missing or the file does not parse.
 */
export function configVersion(members: readonly ArchiveFile[]): { present?: string; version?: unknown } {
  const config = members.find((m) => m.name === ".mapper/config.yaml" || m.name === ".mapper/config.yml");
  if (!config) return {};
  try {
    const version = (parseYaml(decoder.decode(config.data)) as { version?: unknown } | null)?.version;
    return { present: config.name, version };
  } catch {
    return { present: config.name };
  }
}
