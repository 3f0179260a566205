/**
 * A gallery entry's README front matter: its type and its check, which is the catalog's one set of entry rules
 * (`src/atlas/entry_rules.ts`), the same `mapper atlas validate` applies to a published index, so build and validate
 * cannot disagree.
 *
 * @module
 */
import { type CatalogStats, checkEntry, type EntryProblem, FRONT_MATTER_KEYS, SLUG_PATTERN } from "../atlas/mod.ts";

export { FRONT_MATTER_KEYS, SLUG_PATTERN };

/** Front matter that passed {@linkcode checkFrontMatter}. */
export interface FrontMatter {
  /** Entry identifier, used in URLs. */
  slug: string;
  /** Display name of the site. */
  name: string;
  /** URL of the mapped site. */
  site_url: string;
  /** Domains the map applies to. */
  domains: string[];
  /** One-line summary of the map. */
  description: string;
  /** Categories the entry is listed under. */
  categories: string[];
  /** Who wrote the map (a GitHub-style user name). */
  author: string;
  /** Creation date. */
  created: string;
  /** Last update date. */
  updated: string;
  /** Date the map was last checked against the live site. */
  last_verified: string;
  /** mapper version the map was made with. */
  cli_version: string;
  /** Spec version the map follows. */
  spec_version: number;
  /** How the map was made: `browser` or `hybrid`. */
  method: string;
  /** Account the site needs: `none`, `demo-account`, `self-hosted` or `personal-account`. */
  auth: string;
}

/** One entry of `/atlas/index.json`: the front matter in its fixed key order, then what the build derives. */
export interface IndexRecord extends FrontMatter {
  stats: CatalogStats;
  per_view: Array<{ name: string; route: string; components: number; requests: number }>;
  screenshots: string[];
  files: string[];
  commit: string | null;
}

/** Checks parsed front matter: every problem with its key path (empty when valid). */
export function checkFrontMatter(data: Readonly<Record<string, unknown>>): EntryProblem[] {
  return checkEntry(data, { source: "front-matter" });
}
