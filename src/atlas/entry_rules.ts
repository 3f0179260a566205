/**
 * THE rules of a catalog entry, one module for both sides of the catalog: `mapper atlas build` / `serve` check each
 * gallery entry's README front matter with it, and `mapper atlas validate` checks each entry of a published
 * `index.json` with it, so the two cannot disagree (an `http://` `site_url` is refused by both). The front matter's
 * 14 keys are required on both sides; an index entry may also carry what the build derives (`stats`, `per_view`,
 * `screenshots`, `files`, `commit`) and keys a newer builder adds, while front matter holds exactly the 14 keys
 * (an unknown one is most likely a typo of one of them).
 *
 * Pure, no dependencies: every problem is `{code, path, message}` with the path inside the entry (`["domains", 0]`);
 * the caller turns it into `entries[3].domains[0]` and a JSON line, or into a README line.
 *
 * @module
 */
import { escapeTerminal, needsEscape } from "./_text.ts";
import { slugProblem } from "./slug.ts";

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

/** What an index entry carries beyond the front matter (derived by the build). */
export const DERIVED_KEYS: readonly string[] = ["stats", "per_view", "screenshots", "files", "commit"];

/** A gallery entry's folder name and slug: 2–64 lowercase letters and digits, words joined by single hyphens. */
export const SLUG_PATTERN: RegExp = /^(?=.{2,64}$)[a-z0-9]+(-[a-z0-9]+)*$/;

/** `method` and `auth` values. */
export const METHODS: readonly string[] = ["browser", "hybrid"];
/** Accounts a mapped site may need. */
export const AUTHS: readonly string[] = ["none", "demo-account", "self-hosted", "personal-account"];

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const AUTHOR = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** One problem of an entry. */
export interface EntryProblem {
  /** Stable code: `missing-slug`, `unsafe-slug`, `slug-format`, `missing-field`, `unknown-field`, `wrong-type`,
   * `control-character`, `site-url`, `out-of-range`, `not-allowed`, `bad-format`. */
  code: string;
  /** Where inside the entry (`[]` for the entry itself). */
  path: ReadonlyArray<string | number>;
  /** One sentence, values quoted and terminal-escaped. */
  message: string;
}

/** Options of {@linkcode checkEntry}. */
export interface EntryCheckOptions {
  /** `front-matter`: exactly the 14 keys; `index`: the 14 keys, derived keys allowed and checked, others ignored. */
  source: "front-matter" | "index";
  /** Whether a number at `path` was written as an integer (JSON `1.0` is not); default `Number.isInteger`. */
  isInteger?: (value: number, path: ReadonlyArray<string | number>) => boolean;
  /** Why a string that needs escaping does: default "a control character"; `validate` also tells invalid UTF-8. */
  unprintable?: (value: string) => string;
}

/** A value in a message: terminal-escaped and wrapped in quotes. */
function shown(value: string): string {
  return `"${escapeTerminal(value)}"`;
}

/** How a message names the kind of a value. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return "a number";
  return `a ${typeof value}`;
}

type Add = (code: string, path: ReadonlyArray<string | number>, message: string) => void;

/** A string value's rules beyond its type; `undefined` when it meets them. */
const STRING_RULES: Readonly<Record<string, (v: string) => [code: string, message: string] | undefined>> = {
  name: (v) =>
    v.length >= 1 && v.length <= 50 ? undefined : ["out-of-range", `must be 1 to 50 characters, found ${v.length}`],
  description: (v) =>
    v.length >= 1 && v.length <= 140 ? undefined : ["out-of-range", `must be 1 to 140 characters, found ${v.length}`],
  site_url: (v) => {
    let https = false;
    try {
      https = new URL(v).protocol === "https:";
    } catch {
      https = false;
    }
    if (!https || /\s/.test(v)) return ["site-url", `site_url ${shown(v)} is not an https:// URL`];
    return v.length <= 2000 ? undefined : ["out-of-range", `must be at most 2000 characters, found ${v.length}`];
  },
  author: (v) => AUTHOR.test(v) ? undefined : ["bad-format", `${shown(v)} is not a GitHub user name`],
  created: (v) => DATE.test(v) ? undefined : ["bad-format", `${shown(v)} is not a date (YYYY-MM-DD)`],
  updated: (v) => DATE.test(v) ? undefined : ["bad-format", `${shown(v)} is not a date (YYYY-MM-DD)`],
  last_verified: (v) => DATE.test(v) ? undefined : ["bad-format", `${shown(v)} is not a date (YYYY-MM-DD)`],
  cli_version: (v) => SEMVER.test(v) ? undefined : ["bad-format", `${shown(v)} is not a version (1.2.3)`],
  method: (v) => METHODS.includes(v) ? undefined : ["not-allowed", `${shown(v)} is not one of ${METHODS.join(", ")}`],
  auth: (v) => AUTHS.includes(v) ? undefined : ["not-allowed", `${shown(v)} is not one of ${AUTHS.join(", ")}`],
};

/** List keys: their length bounds and each item's rule. */
const LIST_RULES: Readonly<
  Record<string, { min: number; max: number; item: (v: string) => [code: string, message: string] | undefined }>
> = {
  domains: {
    min: 1,
    max: 5,
    item: (v) => DOMAIN.test(v) ? undefined : ["bad-format", `${shown(v)} is not a lower-case domain name`],
  },
  categories: {
    min: 1,
    max: 3,
    item: (v) =>
      CATEGORIES.includes(v) ? undefined : ["not-allowed", `${shown(v)} is not one of ${CATEGORIES.join(", ")}`],
  },
};

/**
 * Every problem of one entry, in key order (`slug` first). An entry without a usable slug (missing, of the wrong
 * type, or one that could never be installed) reports only that: nothing else about it matters.
 */
export function checkEntry(entry: Readonly<Record<string, unknown>>, options: EntryCheckOptions): EntryProblem[] {
  const problems: EntryProblem[] = [];
  const add: Add = (code, path, message) => problems.push({ code, path, message });
  const isInteger = options.isInteger ?? ((v: number) => Number.isInteger(v));
  const unprintable = options.unprintable ?? (() => "a control character");
  const slug = entry.slug;
  if (slug === undefined || slug === null) {
    add("missing-slug", [], `the entry has no "slug", so it can never be installed`);
    return problems;
  }
  if (typeof slug !== "string") {
    add("wrong-type", ["slug"], `expected a string, found ${kindOf(slug)}`);
    return problems;
  }
  const unsafe = slugProblem(slug);
  if (unsafe !== undefined) {
    add("unsafe-slug", ["slug"], `slug ${shown(slug)} ${unsafe}; the entry can never be installed`);
    return problems;
  }
  if (!SLUG_PATTERN.test(slug)) {
    add(
      "slug-format",
      ["slug"],
      `slug ${shown(slug)} must be 2 to 64 lower-case letters and digits in words joined by single hyphens`,
    );
  }
  /** Checks a string's printability; true when it may be checked further. */
  const printable = (value: string, path: ReadonlyArray<string | number>): boolean => {
    if (!needsEscape(value)) return true;
    const what = unprintable(value);
    const why = what === "a control character" ? "terminals would interpret it" : "it cannot be displayed";
    add("control-character", path, `${what} in ${shown(value)} (${why})`);
    return false;
  };
  const missing: string[] = [];
  for (const key of FRONT_MATTER_KEYS) {
    if (key === "slug") continue;
    const value = entry[key];
    if (value === undefined || value === null) {
      missing.push(key);
      continue;
    }
    const list = LIST_RULES[key];
    if (list) {
      if (!Array.isArray(value)) {
        add("wrong-type", [key], `expected a list of strings, found ${kindOf(value)}`);
        continue;
      }
      if (value.length < list.min || value.length > list.max) {
        add("out-of-range", [key], `must list ${list.min} to ${list.max}, found ${value.length}`);
      }
      const seen = new Set<string>();
      value.forEach((item: unknown, i) => {
        if (typeof item !== "string") return add("wrong-type", [key, i], `expected a string, found ${kindOf(item)}`);
        if (!printable(item, [key, i])) return;
        if (seen.has(item)) return add("out-of-range", [key, i], `${shown(item)} is listed twice`);
        seen.add(item);
        const p = list.item(item);
        if (p) add(p[0], [key, i], p[1]);
      });
      continue;
    }
    if (key === "spec_version") {
      if (typeof value !== "number" || !isInteger(value, [key]) || value < 1) {
        add("wrong-type", [key], `expected a whole number ≥ 1, found ${escapeTerminal(JSON.stringify(value))}`);
      }
      continue;
    }
    if (typeof value !== "string") {
      add("wrong-type", [key], `expected a string, found ${kindOf(value)}`);
      continue;
    }
    if (!printable(value, [key])) continue;
    const p = STRING_RULES[key]?.(value);
    if (p) add(p[0], [key], p[1]);
  }
  if (missing.length > 0) {
    add(
      "missing-field",
      [],
      `missing ${missing.map((k) => `"${k}"`).join(", ")} (every entry carries all ${FRONT_MATTER_KEYS.length} ` +
        `front-matter keys)`,
    );
  }
  if (options.source === "front-matter") {
    const known = new Set<string>(FRONT_MATTER_KEYS);
    for (const key of Object.keys(entry)) {
      if (!known.has(key)) {
        add("unknown-field", [key], `unknown key ${shown(key)} (allowed: ${FRONT_MATTER_KEYS.join(", ")})`);
      }
    }
    return problems;
  }
  const stats = entry.stats;
  if (stats !== undefined && stats !== null) {
    if (typeof stats !== "object" || Array.isArray(stats)) {
      add("wrong-type", ["stats"], `expected an object of counts, found ${kindOf(stats)}`);
    } else {
      for (const [k, v] of Object.entries(stats)) {
        if (v === null) continue;
        if (typeof v !== "number" || !isInteger(v, ["stats", k]) || v < 0) {
          add("wrong-type", ["stats", k], `expected a whole number ≥ 0, found ${escapeTerminal(JSON.stringify(v))}`);
        }
      }
    }
  }
  return problems;
}
