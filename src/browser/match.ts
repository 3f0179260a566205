/**
 * Matches captured entries against the compiled corpus: network requests against `requests:` (global and per
 * view) by route and method, console messages against `messages:` by level and text.
 *
 * Routes and methods are matched by the one resolver (`assets/extension/resolver.js`, the module the extension and
 * `mapper match` use): path only, percent-decoded, `:name`/`*` one segment, `**` any number; a route written with
 * an origin only matches that host. Method comparison ignores case; no method matches any. The session does not
 * know which page sent a request, so every request definition (global and of every view) is a candidate. A message's
 * `message` is a regular expression searched in the text (an invalid one is used as a plain substring); its
 * `level` compares case-insensitively (`warning` = `warn`); absent fields match anything.
 *
 * @module
 */
import type { WireCorpus } from "../corpus/mod.ts";
import { matchRoute, methodMatches } from "../../assets/extension/resolver.js";

interface RequestMatcher {
  name: string;
  method: string | undefined;
  route: string;
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
    requests.push({ name: def.name, method: def.method, route: def.route });
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
      if (!URL.canParse(url)) return [];
      const names: string[] = [];
      for (const r of requests) {
        if (!methodMatches(r.method, method)) continue;
        if (matchRoute(r.route, url) === null) continue;
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
