/**
 * Matches captured entries against the compiled corpus: network requests against `requests:` (global and per
 * view) by route and method, console messages against `messages:` by level and text.
 *
 * Routes and methods are matched by the one resolver (`assets/extension/resolver.js`, the module the extension and
 * `mapper match` use): path only, percent-decoded, `:name`/`*` one segment, `**` any number; a route written with
 * an origin only matches that host. Method comparison ignores case; no method matches any. The global requests name
 * traffic from every page; a view's own requests only traffic sent while the tab showed one of that view's pages
 * (the view the resolver resolves the page URL to, as `mapper match` would). Messages are global. A message's
 * `message` is a regular expression searched in the text (an invalid one is used as a plain substring); its
 * `level` compares case-insensitively (`warning` = `warn`); absent fields match anything.
 *
 * @module
 */
import type { WireCorpus, WireRequest } from "../corpus/mod.ts";
import { matchRoute, methodMatches, resolveView } from "../../assets/extension/resolver.js";

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
  /**
   * Names of the request definitions matching a method and URL sent from `page` (the tab's page URL; unknown: only
   * the global requests), the global ones first, in corpus order, without duplicates.
   */
  request(method: string, url: string, page?: string): string[];
  /** Names of the message definitions matching a level and text, in corpus order. */
  message(level: string, text: string): string[];
}

function normLevel(level: string): string {
  const l = level.toLowerCase();
  return l === "warning" ? "warn" : l;
}

/** Builds the matchers of a compiled corpus. */
export function compileMatcher(wire: WireCorpus | undefined): CorpusMatcher {
  const matchers = (defs: readonly (WireRequest | undefined)[] | undefined): RequestMatcher[] => {
    const out: RequestMatcher[] = [];
    const seen = new Set<string>();
    for (const def of defs ?? []) {
      if (!def || typeof def.route !== "string" || !def.route) continue;
      const key = `${def.name}\u0000${def.route}\u0000${def.method ?? ""}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ name: def.name, method: def.method, route: def.route });
    }
    return out;
  };
  const globals = matchers(wire?.requests);
  const views = (wire?.views ?? []).map((view) => ({ route: view.route, requests: matchers(view.requests) }));
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
    request(method, url, page) {
      if (!URL.canParse(url)) return [];
      const own = page === undefined ? undefined : resolveView({ views }, page)?.view.requests;
      const names: string[] = [];
      for (const r of own ? [...globals, ...own] : globals) {
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
