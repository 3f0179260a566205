/**
 * `atlas-lock.json`: the provenance record `atlas add` writes into the installed corpus (slug, archive URL,
 * archive sha256, per-file sha256, install time), and the drift check `atlas verify` runs against it.
 *
 * @module
 */

// The name is one of the corpus root files mapper owns (defined once in the corpus area; imported from its own
// small module so the atlas commands do not load the YAML stack just for a name).
export { LOCK_FILE } from "../corpus/owned.ts";
/** Version of the lock file shape. */
export const LOCK_SCHEMA = 1;

/** The lock file's content. */
export interface AtlasLock {
  /** Lock file format version. */
  schema: number;
  /** Slug of the installed catalog entry. */
  slug: string;
  /** The archive URL (or local path) the corpus was installed from. */
  source: string;
  /** sha256 (hex) of the archive bytes as downloaded. */
  archive_sha256: string;
  /** RFC 3339 UTC. */
  installed_at: string;
  /** Corpus-relative path → sha256 (hex), sorted by path. */
  files: Record<string, string>;
}

/** Lowercase hex sha256 of bytes. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Serialises a lock (two-space JSON, trailing newline). */
export function formatLock(lock: AtlasLock): string {
  return JSON.stringify(lock, null, 2) + "\n";
}

/** Parses a lock file; `undefined` when it is not one. */
export function parseLock(text: string): AtlasLock | undefined {
  try {
    const v = JSON.parse(text) as Partial<AtlasLock>;
    if (
      v && typeof v === "object" && typeof v.slug === "string" && typeof v.archive_sha256 === "string" &&
      v.files && typeof v.files === "object" && Object.values(v.files).every((h) => typeof h === "string")
    ) {
      return {
        schema: typeof v.schema === "number" ? v.schema : LOCK_SCHEMA,
        slug: v.slug,
        source: typeof v.source === "string" ? v.source : "",
        archive_sha256: v.archive_sha256,
        installed_at: typeof v.installed_at === "string" ? v.installed_at : "",
        files: v.files,
      };
    }
  } catch {
    // not JSON
  }
  return undefined;
}
