/**
 * The static export of a snapshot (`mapper atlas build`): every response as a file, plus `_headers` (the header
 * rules of Netlify and Cloudflare Pages) and `_redirects` (the rewrites of the extension-less API paths), so any
 * static host or CDN serves the same bytes the server does.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { Resource, Snapshot } from "./snapshot.ts";

/** The headers a static host should send for a resource (the server's, minus per-request ones). */
export function staticHeaders(resource: Resource): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ["Content-Type", resource.type],
    ["Cache-Control", resource.cacheControl],
    ["X-Content-Type-Options", "nosniff"],
  ];
  if (resource.cors) headers.push(["Access-Control-Allow-Origin", "*"]);
  if (resource.compressible) headers.push(["Vary", "Accept-Encoding"]);
  for (const [k, v] of Object.entries(resource.headers)) headers.push([k, v]);
  return headers;
}

/** The `_headers` file: one block per published path (exact paths, no wildcards, so rules never merge). */
export function headersFile(snapshot: Snapshot): string {
  const blocks: string[] = [];
  for (const resource of [...snapshot.resources.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const urls = new Set([resource.path, `/${resource.file}`]);
    for (const url of urls) {
      blocks.push(`${url}\n${staticHeaders(resource).map(([k, v]) => `  ${k}: ${v}`).join("\n")}\n`);
    }
  }
  return blocks.join("");
}

/** The `_redirects` file: 200-rewrites of the extension-less paths onto their files. */
export function redirectsFile(snapshot: Snapshot): string {
  const lines: string[] = [];
  for (const resource of [...snapshot.resources.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (`/${resource.file}` !== resource.path && !resource.file.endsWith("index.html")) {
      lines.push(`${resource.path} /${resource.file} 200`);
    }
  }
  return lines.join("\n") + "\n";
}

/**
 * Writes the snapshot's files into `dir` (which must exist and be empty), plus `404.html`, `_headers` and
 * `_redirects`. Returns the number of files written.
 */
export async function writeSnapshot(snapshot: Snapshot, dir: string): Promise<number> {
  let count = 0;
  for (const resource of snapshot.resources.values()) {
    const path = join(dir, ...resource.file.split("/"));
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeFile(path, resource.body);
    count++;
  }
  // Static hosts (Netlify, Cloudflare Pages, GitHub Pages) answer every miss with `/404.html` and status 404.
  await Deno.writeFile(join(dir, "404.html"), snapshot.notFoundHtml);
  await Deno.writeTextFile(join(dir, "_headers"), headersFile(snapshot));
  await Deno.writeTextFile(join(dir, "_redirects"), redirectsFile(snapshot));
  return count + 3;
}
