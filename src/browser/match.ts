/**
 * Matches captured entries against the compiled corpus: network requests against `requests:` (global and per
 * view) by route and method, console messages against `messages:` by level and text.
 *
 * Route syntax: `:name` matches one path segment, `*` matches within one segment, `**` matches any number of
 * segments (including none). A route with a scheme (`https://host/path`) is matched against the whole URL without
 * query; otherwise against the path only. Method comparison ignores case; no method matches any. A message's
 * `message` is a regular expression searched in the text (an invalid one is used as a plain substring); its
 * `level` compares case-insensitively (`warning` = `warn`); absent fields match anything.
 *
 * @module
 */
import type { WireCorpus } from "../corpus/mod.ts";

interface RequestMatcher {
  name: string;
  method: string | undefined;
  re: RegExp;
  full: boolean;
}

interface MessageMatcher {
  name: string;
  level: string | undefined;
  test: (text: string) => boolean;
}

/** A corpus compiled into matchers; build once per corpus version. */
export interface CorpusMatcher {
  /** Names of the request definitions matching a method and URL, in corpus order, without duplicates. */
  request(method: string, url: string): string[];
  /** Names of the message definitions matching a level and text, in corpus order. */
  message(level: string, text: string): string[];
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Compiles a route pattern into an anchored regular expression. */
export function routeRegExp(route: string): RegExp {
  let out = "";
  let i = 0;
  while (i < route.length) {
    const ch = route[i]!;
    if (route.startsWith("/**", i)) {
      out += "(?:/.*)?";
      i += 3;
    } else if (route.startsWith("**", i)) {
      out += ".*";
      i += 2;
    } else if (ch === "*") {
      out += "[^/]*";
      i++;
    } else if (ch === ":" && /[A-Za-z_]/.test(route[i + 1] ?? "") && (i === 0 || route[i - 1] === "/")) {
      let j = i + 1;
      while (j < route.length && /[A-Za-z0-9_]/.test(route[j]!)) j++;
      out += "[^/]+";
      i = j;
    } else {
      out += escapeRe(ch);
      i++;
    }
  }
  return new RegExp(`^${out}/?$`);
}

function normLevel(level: string): string {
  const l = level.toLowerCase();
  return l === "warning" ? "warn" : l;
}

/** Builds the matchers of a compiled corpus. */
export function compileMatcher(wire: WireCorpus | undefined): CorpusMatcher {
  const requests: RequestMatcher[] = [];
  const seen = new Set<string>();
  const defs = [...(wire?.requests ?? []), ...(wire?.views ?? []).flatMap((v) => v.requests ?? [])];
  for (const def of defs) {
    if (!def || typeof def.route !== "string" || !def.route) continue;
    const key = `${def.name}\u0000${def.route}\u0000${def.method ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const full = /^[a-z][a-z0-9+.-]*:\/\//i.test(def.route);
    requests.push({ name: def.name, method: def.method?.toUpperCase(), re: routeRegExp(def.route), full });
  }
  const messages: MessageMatcher[] = (wire?.messages ?? []).map((def) => {
    let test: (text: string) => boolean = () => true;
    if (typeof def.message === "string" && def.message !== "") {
      const pattern = def.message;
      try {
        const re = new RegExp(pattern);
        test = (text) => re.test(text);
      } catch {
        test = (text) => text.includes(pattern);
      }
    }
    return { name: def.name, level: def.level ? normLevel(def.level) : undefined, test };
  });
  return {
    request(method, url) {
      if (requests.length === 0) return [];
      let path: string;
      let whole: string;
      try {
        const u = new URL(url);
        path = u.pathname;
        whole = `${u.protocol}//${u.host}${u.pathname}`;
      } catch {
        return [];
      }
      const m = method.toUpperCase();
      const names: string[] = [];
      for (const r of requests) {
        if (r.method !== undefined && r.method !== m) continue;
        if (!r.re.test(r.full ? whole : path)) continue;
        if (!names.includes(r.name)) names.push(r.name);
      }
      return names;
    },
    message(level, text) {
      const names: string[] = [];
      for (const d of messages) {
        if (d.level !== undefined && d.level !== level) continue;
        if (!d.test(text)) continue;
        if (!names.includes(d.name)) names.push(d.name);
      }
      return names;
    },
  };
}
