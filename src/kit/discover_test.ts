import assert from "node:assert/strict";
import { join } from "node:path";
import { compile, load } from "../corpus/mod.ts";
import { foldLinks, formatDiscover, type FoundLink, isIdSegment } from "./discover.ts";

const dir = await Deno.makeTempDir();
await Deno.writeTextFile(
  join(dir, "v.yaml"),
  "version: 1\nviews:\n  - name: Product\n    route: /products/:id\n  - name: Sale\n    route: /products/sale\n" +
    "  - name: Everything\n    route: /**\n  - name: Home\n    route: /\n",
);
const wire = compile((await load(dir)).corpus, { site: "t", version: 1 });
await Deno.remove(dir, { recursive: true });

const O = "https://shop.test";
const link = (path: string, visible = true): FoundLink => ({ url: O + path, visible });

Deno.test("isIdSegment - digits, UUIDs, long hex and slugs with a digit; words are not", () => {
  for (const s of ["42", "3f2a1c9e", "0b5e8f1a-6c8d-4c2e-9a7b-1d2e3f4a5b6c", "red-shoes-42", "item_7"]) {
    assert.ok(isIdSegment(s), s);
  }
  for (const s of ["products", "about-us", "v2", "cafe"]) assert.ok(!isIdSegment(s), s);
});

Deno.test("foldLinks - ids and three slugs fold; a literal route value stays; marks mapped, catch-all, surveyed, unseen", () => {
  const links = [
    link("/products/1?x=1#top"),
    link("/products/lamp"),
    link("/products/mug"),
    link("/products/board"),
    link("/products/sale"),
    link("/privacy", false),
    link("/"),
    { url: "https://other.test/products/9", visible: true },
    { url: "http://shop.test/products/9", visible: true },
  ];
  const patterns = foldLinks(links, O, wire, [O + "/help/a"]);
  assert.deepEqual(patterns.map((p) => [p.pattern, p.links, p.status, p.view]), [
    ["/", 1, "mapped", "Home"],
    ["/privacy", 1, "catch-all", "Everything"],
    ["/products/:id", 4, "mapped", "Product"],
    ["/products/sale", 1, "mapped", "Sale"],
  ]);
  assert.equal(patterns[1]!.hidden, true);
  const text = formatDiscover(patterns);
  assert.equal(
    text,
    "✓  /               Home · 1 link\n" +
      "~  /privacy        only catch-all Everything (/**) · 1 link (hidden)\n" +
      "✓  /products/:id   Product · 4 links\n" +
      "✓  /products/sale  Sale · 1 link\n" +
      "⚠ 1 pattern is mapped only by a catch-all route; give it a view of its own (a catch-all swallows structurally different pages)\n",
  );
  const none = foldLinks([link("/help/a"), link("/x/y"), link("/z")], O, undefined, [O + "/help/a/"]);
  assert.deepEqual(none.map((p) => [p.pattern, p.status]), [["/help/a", "surveyed"], ["/x/y", "unseen"], [
    "/z",
    "unseen",
  ]]);
});
