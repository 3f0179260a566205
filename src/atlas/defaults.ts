/**
 * Where the public atlas lives. Every default location is defined here once; `--index` / `--source` and the
 * environment (`MAPPER_ATLAS_INDEX`, `MAPPER_ATLAS_SOURCE`) override them.
 *
 * @module
 */

/** The public atlas gallery page. */
export const GALLERY_URL = "https://sightmap.org/atlas";
/** The public catalog. */
export const DEFAULT_INDEX = `${GALLERY_URL}/index.json`;
/** The public archive URL template; `{slug}` is replaced by the path-escaped slug. */
export const DEFAULT_SOURCE = `${GALLERY_URL}/{slug}.tar.gz`;
/** The placeholder of an archive URL template. */
export const SLUG_PLACEHOLDER = "{slug}";
/** Environment variable overriding the catalog location. */
export const ENV_INDEX = "MAPPER_ATLAS_INDEX";
/** Environment variable overriding the archive URL template. */
export const ENV_SOURCE = "MAPPER_ATLAS_SOURCE";

/** Whether a catalog/archive location is a URL (has a scheme) rather than a local file path. */
export function isUrl(location: string): boolean {
  // A Windows drive letter (`C:\x`, `C:/x`) is a path, not a one-letter scheme.
  return /^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(location);
}
