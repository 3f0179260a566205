import assert from "node:assert/strict";
import { type AtlasEntry, decodeCatalog } from "./catalog.ts";
import { normaliseDomain, search } from "./search.ts";

const catalog = decodeCatalog(
  await Deno.readTextFile(new URL("../../tests/fixtures/atlas/search.json", import.meta.url)),
);
const hits = (q: string, category = "") =>
  search(catalog.entries, q, category).map((h) => `${h.entry.slug}/${h.matchedOn}`);

Deno.test("atlas search - ranks every match kind and breaks ties by slug", () => {
  const cases: Array<[string, string[]]> = [
    ["shop.acme.test", ["acme-shop/exact domain"]],
    ["https://www.SquareUp.com/dashboard/orders", ["square-pos/exact domain"]],
    ["zillow.com", ["zillow/exact domain"]],
    ["trailing.example.com", ["trailing/exact domain", "amp/slug"]], // "ex-amp-le": slugs match both ways
    ["ACME-SHOP", ["acme-shop/exact slug"]],
    ["square", ["square-pos/domain", "block-dashboard/description"]],
    ["acme.test", ["acme-shop/domain"]],
    ["shop.acme.test.evil", ["acme-shop/domain"]],
    ["pos", ["square-pos/slug", "lightspeed-retail/name", "toast-terminal/category"]],
    ["square-pos-terminal", ["square-pos/slug"]],
    ["retail", ["lightspeed-retail/slug"]],
    ["square pos", ["square-pos/name"]],
    ["payments", ["block-dashboard/category", "square-pos/category"]],
    ["pay", ["block-dashboard/category", "hostile/category", "square-pos/category"]],
    ["pay\\x07ments", ["hostile/category"]],
    ["checkout", ["acme-shop/description", "square-pos/description"]],
    ["com", ["square-pos/domain", "trailing/domain", "zillow/domain", "acme-shop/category"]],
    ["position tracking", []],
    ["stripe.com", []],
    ["evil", []],
    ["a b", []],
  ];
  for (const [q, expected] of cases) assert.deepEqual(hits(q), expected, `query ${JSON.stringify(q)}`);
});

Deno.test("atlas search - an empty query lists every installable entry in byte order", () => {
  assert.deepEqual(hits("  ").map((h) => h.split("/")[0]), [
    "acme-shop",
    "amp",
    "bare",
    "block-dashboard",
    "hostile",
    "lightspeed-retail",
    "longdesc",
    "square-pos",
    "toast-terminal",
    "trailing",
    "zillow",
  ]);
  assert.deepEqual(hits("", "POS"), ["toast-terminal/category"]);
  assert.deepEqual(hits("", "pay"), [
    "block-dashboard/category",
    "hostile/category",
    "square-pos/category",
  ]);
});

Deno.test("atlas search - normalises domains like a URL authority", () => {
  for (
    const q of [
      "www.squareup.com",
      "squareup.com:443",
      "squareup.com.",
      "user@squareup.com",
      "mailto:x@squareup.com",
      "squareup.com/path?q=1#f",
      "ftp://app.squareup.com",
    ]
  ) {
    assert.ok(["squareup.com", "app.squareup.com"].includes(normaliseDomain(q)), q);
  }
  assert.equal(normaliseDomain("www.www.squareup.com"), "www.squareup.com");
  assert.equal(normaliseDomain("a b"), "");
  assert.equal(normaliseDomain("//squareup.com"), "");
  assert.equal(normaliseDomain("[::1]:80"), "::1");
});

Deno.test("atlas search - a plain listing says it matched everything, not an exact domain", () => {
  const entry: AtlasEntry = {
    slug: "a",
    name: "",
    description: "",
    domains: ["a.test"],
    categories: ["shop"],
    stats: {},
    last_verified: "",
    extra: {},
  };
  assert.deepEqual(search([entry], "").map((h) => h.matchedOn), ["all"]);
  assert.deepEqual(search([entry], "", "sho").map((h) => h.matchedOn), ["category"]);
  assert.deepEqual(search([entry], "a.test").map((h) => h.matchedOn), ["exact domain"]);
});
