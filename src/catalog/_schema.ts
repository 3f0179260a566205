/**
 * The rules a gallery entry's README front matter must meet (catalog-api.md §3.1), as a JSON Schema 2020-12
 * document checked with ajv, plus the stricter slug rule of the catalog site loader (§3.3).
 *
 * @module
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { CatalogStats } from "../atlas/mod.ts";

/** The closed list of catalog categories. */
export const CATEGORIES: readonly string[] = [
  "commerce",
  "pos",
  "saas",
  "devtools",
  "docs",
  "finance",
  "travel",
  "media",
  "social",
  "government",
  "education",
  "other",
];

/** The front-matter keys, in the fixed order `index.json` writes them. */
export const FRONT_MATTER_KEYS = [
  "slug",
  "name",
  "site_url",
  "domains",
  "description",
  "categories",
  "author",
  "created",
  "updated",
  "last_verified",
  "cli_version",
  "spec_version",
  "method",
  "auth",
] as const;

/** The slug rule of the site loader: lowercase words joined by single hyphens. */
export const SLUG_PATTERN: RegExp = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const DATE = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" };

/** JSON Schema of the README front matter (all 14 keys required, nothing else allowed). */
export const ENTRY_SCHEMA: Record<string, unknown> = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  required: [...FRONT_MATTER_KEYS],
  additionalProperties: false,
  properties: {
    name: { type: "string", minLength: 1, maxLength: 50 },
    slug: { type: "string", pattern: "^[a-z0-9][a-z0-9-]{1,63}$" },
    site_url: { type: "string", pattern: "^https?://\\S+$", maxLength: 2000 },
    domains: {
      type: "array",
      minItems: 1,
      maxItems: 5,
      uniqueItems: true,
      items: { type: "string", pattern: "^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,}$" },
    },
    description: { type: "string", minLength: 1, maxLength: 140 },
    categories: {
      type: "array",
      minItems: 1,
      maxItems: 3,
      uniqueItems: true,
      items: { type: "string", enum: [...CATEGORIES] },
    },
    author: { type: "string", pattern: "^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$" },
    created: DATE,
    updated: DATE,
    last_verified: DATE,
    cli_version: { type: "string", pattern: "^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$" },
    spec_version: { type: "integer", minimum: 1 },
    method: { type: "string", enum: ["browser", "hybrid"] },
    auth: { type: "string", enum: ["none", "demo-account", "self-hosted", "personal-account"] },
  },
};

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

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(ENTRY_SCHEMA);

/** Checks parsed front matter; returns one readable line per problem (empty when valid). */
export function checkFrontMatter(data: unknown): string[] {
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => {
    const where = e.instancePath || "front matter";
    if (e.keyword === "additionalProperties") {
      return `${where} has unknown key "${String((e.params as { additionalProperty?: unknown }).additionalProperty)}"`;
    }
    if (e.keyword === "enum") {
      return `${where} must be one of ${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(", ")}`;
    }
    return `${where} ${e.message ?? "is invalid"}`;
  });
}
