import assert from "node:assert/strict";
import { assembleSnapshot, type GalleryRead } from "./snapshot.ts";
import { MAX_ARCHIVE_BYTES } from "./_limits.ts";
import type { FrontMatter } from "./_schema.ts";

/** An accepted entry whose corpus is `files` (already read). */
function entry(slug: string, files: Array<[string, Uint8Array<ArrayBuffer>]>): GalleryRead["entries"][number] {
  const front: FrontMatter = {
    slug,
    name: slug,
    site_url: `https://${slug}.example.com/`,
    domains: [`${slug}.example.com`],
    description: "x",
    categories: ["other"],
    author: "a",
    created: "2026-01-01",
    updated: "2026-01-01",
    last_verified: "2026-01-01",
    cli_version: "0.1.0",
    spec_version: 1,
    method: "browser",
    auth: "none",
  };
  return {
    front,
    readme: new TextEncoder().encode("---\n---\n"),
    body: "",
    stats: { views: 0, components: 0, requests: 0, messages: 0, properties: 0, memory: 0, per_view: [] },
    files: files.map(([name]) => name),
    members: files.map(([name, data]) => ({ name, data })),
    screenshots: [],
    commit: null,
  };
}

Deno.test("catalog snapshot - an archive over the download limit withholds the entry from every surface", () => {
  // Random bytes do not compress: three 3 MiB files (each under the per-file limit) give a 9 MiB archive.
  const random = () => {
    const data = new Uint8Array(3 * 1024 * 1024);
    for (let at = 0; at < data.length; at += 65536) crypto.getRandomValues(data.subarray(at, at + 65536));
    return data;
  };
  const read: GalleryRead = {
    entries: [
      entry("big", [[".mapper/a.yaml", random()], [".mapper/b.yaml", random()], [".mapper/c.yaml", random()]]),
      entry("small", [[".mapper/config.yaml", new TextEncoder().encode("version: 1\n")]]),
    ],
    warnings: [],
    withheld: [],
    tombstones: [],
  };
  const snapshot = assembleSnapshot(read, { baseUrl: "https://a.example", now: () => 0 });
  assert.deepEqual(snapshot.slugs, ["small"]);
  assert.equal(snapshot.warnings.length, 1);
  assert.equal(snapshot.warnings[0]!.entry, "big");
  assert.equal(snapshot.warnings[0]!.rule, "archive-limits");
  assert.match(snapshot.warnings[0]!.detail, new RegExp(`over the ${MAX_ARCHIVE_BYTES}-byte download limit`));
  const paths = [...snapshot.resources.keys()];
  assert.ok(!paths.some((p) => p.includes("big")), paths.join(" "));
  for (const path of ["/atlas/index.json", "/api/atlas", "/llms.txt", "/"]) {
    assert.ok(!new TextDecoder().decode(snapshot.resources.get(path)!.body).includes("big"), path);
  }
});
