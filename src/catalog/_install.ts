/**
 * The CLI commands the catalog's pages print. A catalog served anywhere but the public atlas names its own index,
 * so a copied `mapper atlas add <slug>` installs from the catalog that showed it, not from the public atlas.
 *
 * @module
 */
import { DEFAULT_INDEX } from "../atlas/mod.ts";

/** `""` for the public atlas, else ` --index <base>/atlas/index.json` (the base is a URL: no shell quoting needed). */
export function indexFlag(base: string): string {
  const index = `${base}/atlas/index.json`;
  return index === DEFAULT_INDEX ? "" : ` --index ${index}`;
}

/** `mapper atlas add <slug>` for this catalog. */
export function addCommand(base: string, slug: string): string {
  return `mapper atlas add ${slug}${indexFlag(base)}`;
}

/** `mapper atlas find <domain>` for this catalog. */
export function findCommand(base: string): string {
  return `mapper atlas find <domain>${indexFlag(base)}`;
}
