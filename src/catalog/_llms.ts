/**
 * `/llms.txt`: the agent site index in the llmstxt.org shape, with mapper's command names.
 *
 * @module
 */

import { addCommand, findCommand } from "./_install.ts";

/** What one llms.txt entry line needs. */
export interface LlmsEntry {
  slug: string;
  name: string;
  site_url: string;
  domains: string[];
  description: string;
  last_verified: string;
  stats: { views: number; components: number; requests: number };
}

/** Collapses whitespace so free text stays on one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Appends a full stop unless the sentence already ends in `.`, `!` or `?`. */
function sentence(text: string): string {
  const t = oneLine(text);
  return t === "" || /[.!?]$/.test(t) ? t : `${t}.`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** The host of a URL, or the URL itself when it does not parse. */
function host(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** One entry line: links the markdown twin and ends with the install command. */
export function llmsEntryLine(base: string, e: LlmsEntry): string {
  const domains = e.domains.length > 0 ? e.domains.join(", ") : host(e.site_url);
  const counts = `${count(e.stats.views, "view")}, ${count(e.stats.components, "component")}, ${
    count(e.stats.requests, "request")
  }.`;
  const verified = e.last_verified ? ` Verified ${oneLine(e.last_verified)}.` : "";
  return `- [${oneLine(e.name)}](${base}/atlas/${e.slug}.md): ${sentence(domains)} ${sentence(e.description)} ` +
    `${counts}${verified} \`${addCommand(base, e.slug)}\``;
}

/** The whole llms.txt for the entries in catalog order. */
export function llmsTxt(base: string, entries: readonly LlmsEntry[]): string {
  const lines = [
    "# mapper atlas",
    "",
    "> Community-published mapper corpora: YAML maps of the views, components and API requests of live websites, " +
    "with memory for runtime behaviour. Read-only; no authentication.",
    "",
    "## Docs",
    "",
    `- [OpenAPI specification](${base}/openapi.json): Machine-readable description of this read-only HTTP API.`,
    `- [OpenAPI specification (YAML)](${base}/api/openapi.yaml): The same description in YAML.`,
    "",
    "## mapper developer resources",
    "",
    `- [Atlas HTTP API](${base}/api/atlas): JSON catalog of published corpora. No authentication.`,
    `- [Atlas index](${base}/atlas/index.json): The full gallery record that \`mapper atlas find\` searches.`,
    `- The mapper CLI: \`${findCommand(base)}\`, \`${addCommand(base, "<slug>")}\`.`,
    "",
    "## Atlas",
    "",
    "> Community-contributed maps of views, components, and requests, made by browsing the live site with no " +
    "source access. Check here before exploring a site by hand.",
    ">",
    `>     ${findCommand(base)}    find a map by hostname`,
    `>     ${addCommand(base, "<slug>")}       install it into .mapper/`,
    ">",
    `> Without the CLI, fetch ${base}/atlas/index.json and match your hostname against each entry's \`domains[]\`, ` +
    "then read that entry's .md twin below.",
    "",
    ...(entries.length === 0 ? ["- No entries published yet."] : entries.map((e) => llmsEntryLine(base, e))),
    "",
  ];
  return lines.join("\n");
}
