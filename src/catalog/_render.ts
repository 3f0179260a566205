/**
 * The HTML twins: one page per entry (`/atlas/<slug>`) and the listing (`/atlas`, `/`). README bodies are rendered
 * by markdown-it with raw HTML disabled (escaped), links restricted to an allow-list of schemes, images turned into
 * links (no third-party loads) and headings demoted one level under the page's own `<h1>`.
 *
 * @module
 */
import MarkdownIt from "markdown-it";
import type { IndexRecord } from "./_schema.ts";
import { addCommand, indexFlag } from "./_install.ts";

/** Everything an entry page shows: the entry's index record, and whether an archive is published. */
export interface PageEntry extends IndexRecord {
  /** Whether an archive is published (always true for accepted entries today). */
  archive: boolean;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const ALLOWED_SCHEMES = new Set(["http:", "https:", "mailto:"]);

/** Allows http(s), mailto, and relative or fragment links; refuses every other scheme (javascript:, data:, …). */
export function safeLink(href: string): boolean {
  // deno-lint-ignore no-control-regex
  const trimmed = href.trim().replace(/[\x00-\x20]/g, "");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed);
  if (!scheme) return true;
  return ALLOWED_SCHEMES.has(scheme[0].toLowerCase());
}

function markdown() {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
  md.validateLink = safeLink;
  // deno-lint-ignore no-explicit-any
  type Tokens = any[];
  md.renderer.rules.image = (tokens: Tokens, idx: number) => {
    const token = tokens[idx];
    const src = String(token.attrGet("src") ?? "");
    const alt = token.content ? String(token.content) : src;
    return `<a href="${escapeHtml(src)}" rel="nofollow noopener">${escapeHtml(`[image: ${alt}]`)}</a>`;
  };
  const demote = (tokens: Tokens, idx: number) => {
    const t = tokens[idx];
    const level = Math.min(6, Number(String(t.tag).slice(1)) + 1);
    t.tag = `h${level}`;
    return t.nesting === 1 ? `<${t.tag}>` : `</${t.tag}>\n`;
  };
  md.renderer.rules.heading_open = demote;
  md.renderer.rules.heading_close = demote;
  // A README table (a view/route list is common) scrolls inside its own box like the views table, never the page.
  md.renderer.rules.table_open = () => `<div class="scroll"><table>\n`;
  md.renderer.rules.table_close = () => `</table></div>\n`;
  md.renderer.rules.link_open = (tokens: Tokens, idx: number, options: unknown, _env: unknown, self: Tokens[0]) => {
    tokens[idx].attrSet("rel", "nofollow noopener");
    return self.renderToken(tokens, idx, options);
  };
  return md;
}

const renderer = markdown();

/** Renders an untrusted README body to safe HTML. */
export function renderMarkdown(body: string): string {
  return renderer.render(body);
}

// Phone first: nothing may be wider than the viewport (320 px is the narrowest phone we check). Long words (names,
// URLs, commands) wrap anywhere; tables keep their words whole (a route broken mid-segment reads badly) and scroll
// inside a `.scroll` wrapper instead of widening the page.
const STYLE = `*{box-sizing:border-box}
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:1.5rem auto;padding:0 1rem;color:#1b1b1b;
overflow-wrap:anywhere}
code,pre{font:14px ui-monospace,monospace;background:#f3f3f3}pre{padding:.75rem;overflow:auto;white-space:pre-wrap}
.scroll{overflow-x:auto;max-width:100%}table{border-collapse:collapse;overflow-wrap:normal}
td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
.install{font-size:1rem;padding:.5rem .75rem}
dl{display:grid;grid-template-columns:minmax(5rem,max-content) minmax(0,1fr);gap:.25rem 1rem}dd{margin:0}
dt{font-weight:600}img{max-width:100%;height:auto}
.entries{list-style:none;padding:0;margin:0}.entry{border-top:1px solid #ddd;padding:.75rem 0}
.entry h2{font-size:1.15rem;margin:0}.entry p{margin:.25rem 0}.meta{color:#555;font-size:.9rem}
.filters{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0}.filters input,.filters select{font:inherit;
padding:.35rem .5rem;min-width:0;flex:1 1 12rem}`;

/** Serialises JSON for a `<script>` block without letting the text close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}

function page(title: string, head: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${head}<style>${STYLE}</style>
</head>
<body>
${main}
</body>
</html>
`;
}

/**
 * The path of the base URL without a trailing slash (`""` at a host's root): the pages' own links are
 * root-relative under it, so a catalog published under `https://host/catalog` links within `/catalog/`.
 */
function basePath(base: string): string {
  try {
    return new URL(base).pathname.replace(/\/+$/, "");
  } catch {
    return "";
  }
}

/** The entry page (`/atlas/<slug>`). `readmeHtml` must come from {@linkcode renderMarkdown}. */
export function entryPage(base: string, e: PageEntry, readmeHtml: string): string {
  const h = escapeHtml;
  const r = h(basePath(base));
  const md = `${base}/atlas/${e.slug}.md`;
  const dataset = {
    "@context": "https://schema.org",
    "@type": "Dataset",
    name: `${e.name} — mapper corpus`,
    description: e.description,
    url: `${base}/atlas/${e.slug}`,
    license: "https://creativecommons.org/licenses/by/4.0/",
    creator: { "@type": "Person", name: e.author },
    dateModified: e.updated,
    includedInDataCatalog: { "@type": "DataCatalog", name: "mapper atlas", url: `${base}/atlas` },
    distribution: [
      { "@type": "DataDownload", encodingFormat: "text/markdown", contentUrl: md },
      { "@type": "DataDownload", encodingFormat: "application/json", contentUrl: `${base}/atlas/index.json` },
    ],
  };
  const head = `<meta name="description" content="${h(e.description)}">
<link rel="alternate" type="text/markdown" href="${h(md)}">
<script type="application/ld+json">${scriptJson(dataset)}</script>
`;
  const views = e.per_view.map((v) =>
    `<tr><td>${h(v.name)}</td><td><code>${h(v.route)}</code></td><td>${v.components}</td><td>${v.requests}</td></tr>`
  ).join("\n");
  const shots = e.screenshots.map((s) => {
    const file = s.slice(s.lastIndexOf("/") + 1);
    return `<img src="${r}/atlas/screenshots/${h(e.slug)}/${h(file)}" alt="${h(file)}" loading="lazy">`;
  }).join("\n");
  const meta: Array<[string, string]> = [
    ["Site", `<a href="${h(e.site_url)}" rel="nofollow noopener">${h(e.site_url)}</a>`],
    ["Domains", e.domains.map(h).join(", ")],
    ["Categories", e.categories.map(h).join(", ")],
    ["Method", h(e.method)],
    ["Auth", h(e.auth)],
    ["Last verified", h(e.last_verified)],
    ["Updated", h(e.updated)],
    ["CLI version", h(e.cli_version)],
    ["Spec version", String(e.spec_version)],
    ["Author", h(e.author)],
    ["Commit", e.commit === null ? "—" : `<code>${h(e.commit.slice(0, 12))}</code>`],
    [
      "Totals",
      [
        count(e.stats.views, "view"),
        count(e.stats.components, "component"),
        count(e.stats.requests, "request"),
        count(e.stats.messages, "message"),
        count(e.stats.properties, "property", "properties"),
        count(e.stats.memory, "memory note"),
      ].join(", "),
    ],
  ];
  const main = `<header><p><a href="${r}/atlas">mapper atlas</a></p>
<h1>${h(e.name)}</h1>
<p>${h(e.description)}</p>
</header>
<main>
<h2>Install</h2>
<pre class="install"><code>${h(addCommand(base, e.slug))}</code></pre>
<h2>Views</h2>
<div class="scroll"><table>
<thead><tr><th>View</th><th>Route</th><th>Components</th><th>Requests</th></tr></thead>
<tbody>
${views}
</tbody>
</table></div>
<h2>Metadata</h2>
<dl>
${meta.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("\n")}
</dl>
${shots ? `<h2>Screenshots</h2>\n${shots}\n` : ""}<h2>README</h2>
<article>
${readmeHtml}</article>
<h2>Machine-readable</h2>
<ul>
<li><a href="${r}/atlas/${h(e.slug)}.md">README (markdown)</a></li>
<li><a href="${r}/api/atlas/${h(e.slug)}">Catalog entry (JSON)</a></li>
${
    e.archive
      ? `<li><a href="${r}/atlas/${h(e.slug)}.tar.gz">Corpus archive (.tar.gz)</a></li>\n`
      : ""
  }<li><a href="${r}/atlas/index.json">Atlas index (JSON)</a></li>
</ul>
</main>`;
  return page(`${e.name} — mapper atlas`, head, main);
}

/** `n` and the noun, singular for exactly one. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The path of the listing's filter script (same origin, so the pages' CSP can allow it by `'self'`). */
export const FILTER_SCRIPT_PATH = "/atlas/filter.js";

/**
 * The listing's search and category filter, run in the browser without a server round trip; `?q=` and `?category=`
 * open the page filtered. Without it (scripts off) every entry stays listed and the controls stay hidden. Plain DOM: each entry carries its searchable text
 * and categories in `data-` attributes written by {@linkcode listingPage}.
 */
export const FILTER_SCRIPT = `"use strict";
(() => {
  const form = document.getElementById("filters");
  const q = document.getElementById("q");
  const cat = document.getElementById("category");
  const count = document.getElementById("shown");
  const items = Array.from(document.querySelectorAll(".entry"));
  if (!form || !q || !cat || !count) return;
  form.hidden = false;
  // A search can be linked: /atlas?q=shop&category=commerce opens filtered.
  const params = new URLSearchParams(location.search);
  q.value = params.get("q") || "";
  if (Array.from(cat.options).some((o) => o.value === params.get("category"))) cat.value = params.get("category");
  const apply = () => {
    const words = q.value.toLowerCase().split(/\\s+/).filter(Boolean);
    const c = cat.value;
    let shown = 0;
    for (const li of items) {
      const text = li.dataset.search || "";
      const cats = (li.dataset.categories || "").split("\\n");
      const ok = words.every((w) => text.includes(w)) && (c === "" || cats.includes(c));
      li.hidden = !ok;
      if (ok) shown++;
    }
    count.textContent = shown === items.length ? "" : shown + " of " + items.length + " entries shown";
  };
  q.addEventListener("input", apply);
  cat.addEventListener("change", apply);
  form.addEventListener("submit", (e) => e.preventDefault());
  apply();
})();
`;

/** The listing page (`/atlas` and `/`), entries in catalog order, searchable and filterable in the page. */
export function listingPage(base: string, entries: readonly PageEntry[], note: string): string {
  const h = escapeHtml;
  const r = h(basePath(base));
  const categories = [...new Set(entries.flatMap((e) => e.categories))].sort();
  const items = entries.map((e) => {
    const search = [e.slug, e.name, e.description, ...e.domains, ...e.categories].join(" ").toLowerCase();
    const meta = [e.domains.map(h).join(", "), e.categories.map(h).join(", "), `updated ${h(e.updated)}`]
      .filter((x) => x !== "").join(" · ");
    return `<li class="entry" data-search="${h(search)}" data-categories="${h(e.categories.join("\n"))}">
<h2><a href="${r}/atlas/${h(e.slug)}">${h(e.name)}</a></h2>
<p>${h(e.description)}</p>
<p class="meta">${meta}</p>
<p><code>mapper atlas add ${h(e.slug)}</code></p>
</li>`;
  }).join("\n");
  const flag = indexFlag(base);
  const howTo = flag === ""
    ? "<p>Install any entry with the command shown under it.</p>"
    : `<p>This catalog is not the public atlas. Point mapper at it once, then the commands below work as shown:</p>
<pre class="install"><code>export MAPPER_ATLAS_INDEX=${h(flag.slice(" --index ".length))}</code></pre>`;
  const filters = `<form id="filters" class="filters" role="search" hidden>
<input id="q" type="search" placeholder="Search name, domain, description" aria-label="Search the atlas">
<select id="category" aria-label="Category"><option value="">All categories</option>
${categories.map((c) => `<option value="${h(c)}">${h(c)}</option>`).join("\n")}
</select>
<span id="shown" class="meta" aria-live="polite"></span>
</form>`;
  const main = `<h1>mapper atlas</h1>
<p>${h(note)}</p>
${
    entries.length === 0
      ? "<p>No entries published yet.</p>"
      : `${howTo}\n${filters}\n<ul class="entries">\n${items}\n</ul>`
  }
<h2>Machine-readable</h2>
<ul>
<li><a href="${r}/llms.txt">llms.txt</a> (agent site index)</li>
<li><a href="${r}/openapi.json">OpenAPI description</a> (<a href="${r}/api/openapi.yaml">YAML</a>)</li>
<li><a href="${r}/api/atlas">Catalog (JSON)</a></li>
<li><a href="${r}/atlas/index.json">Atlas index (JSON)</a></li>
</ul>`;
  const head = `<link rel="alternate" type="text/plain" href="${h(base)}/llms.txt">
<script src="${r}${FILTER_SCRIPT_PATH}" defer></script>
`;
  return page("mapper atlas", head, main);
}

/** The HTML 404 page for browsers (API clients keep the JSON error): one page for every miss, with a link home. */
export function notFoundPage(base: string): string {
  const r = escapeHtml(basePath(base));
  const main = `<h1>Not found</h1>
<p>Nothing is published at this address. The entry may have been taken down or renamed.</p>
<p><a href="${r}/atlas">Browse the mapper atlas</a> · <a href="${r}/llms.txt">llms.txt</a></p>`;
  return page("Not found — mapper atlas", "", main);
}
