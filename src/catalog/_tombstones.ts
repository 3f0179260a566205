/**
 * The gallery's takedown list, `removed.yaml`: which slugs are withdrawn, when and why.
 *
 * @module
 */
import { readRegularTextFile } from "../files.ts";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { DataError, describe, FileError } from "../errors.ts";
import { firstLine } from "./_front_matter.ts";

/** A takedown tombstone from `removed.yaml`. */
export interface Tombstone {
  /** Slug of the removed entry. */
  slug: string;
  /** When it was removed. */
  removed?: string;
  /** Why it was removed. */
  reason?: string;
}

/** Reads `removed.yaml` (absent → none). A malformed file is fatal: takedowns must never be guessed. */
export async function readTombstones(gallery: string): Promise<Tombstone[]> {
  const path = join(gallery, "removed.yaml");
  let text: string;
  try {
    text = await readRegularTextFile(path); // a FIFO named removed.yaml must not block a rebuild
  } catch (err: unknown) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw new FileError(`cannot read "${path}": ${describe(err)}`);
  }
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (err: unknown) {
    throw new DataError(`"${path}" is not valid YAML: ${firstLine(err)}`, {
      hint: "fix the takedown list; no snapshot is published while it is unreadable",
    });
  }
  if (data === null || data === undefined) return [];
  if (!Array.isArray(data)) {
    throw new DataError(`"${path}" must be a YAML list of {slug, removed, reason}, found ${typeof data}`, {
      hint: "write '[]' when nothing was removed",
    });
  }
  return data.map((item, i) => {
    const slug = typeof item === "string" ? item : (item as { slug?: unknown } | null)?.slug;
    if (typeof slug !== "string" || slug === "") {
      throw new DataError(`"${path}" item ${i + 1} has no slug`, { hint: "each item needs 'slug: <slug>'" });
    }
    const t: Tombstone = { slug };
    if (typeof item === "object") {
      const { removed, reason } = item as { removed?: unknown; reason?: unknown };
      if (typeof removed === "string") t.removed = removed;
      if (typeof reason === "string") t.reason = reason;
    }
    return t;
  });
}
