import assert from "node:assert/strict";
import { checkEntry, FRONT_MATTER_KEYS } from "./entry_rules.ts";
import { validateCatalog } from "./validate.ts";

const VALID: Record<string, unknown> = {
  slug: "demo-shop",
  name: "Demo shop",
  site_url: "https://shop.example/",
  domains: ["shop.example"],
  description: "A shop.",
  categories: ["commerce"],
  author: "someone",
  created: "2026-01-01",
  updated: "2026-01-02",
  last_verified: "2026-01-03",
  cli_version: "0.1.0",
  spec_version: 1,
  method: "browser",
  auth: "none",
};

const codes = (entry: Record<string, unknown>, source: "front-matter" | "index") =>
  checkEntry(entry, { source }).map((p) => `${p.code} ${p.path.join(".")}`);

Deno.test("entry rules - a complete entry passes; each of the 14 keys is required", () => {
  assert.deepEqual(codes(VALID, "front-matter"), []);
  assert.deepEqual(codes({ ...VALID, stats: { views: 1 }, commit: null }, "index"), []);
  for (const key of FRONT_MATTER_KEYS.filter((k) => k !== "slug")) {
    const { [key]: _, ...rest } = VALID;
    assert.deepEqual(codes(rest, "front-matter"), ["missing-field "], key);
  }
});

Deno.test("entry rules - http:// site_url, bad enums, formats and bounds are refused", () => {
  assert.deepEqual(codes({ ...VALID, site_url: "http://shop.example/" }, "front-matter"), ["site-url site_url"]);
  assert.deepEqual(codes({ ...VALID, site_url: "https://a b/" }, "front-matter"), ["site-url site_url"]);
  assert.deepEqual(
    codes({ ...VALID, method: "manual", categories: ["shopping"], created: "2026-1-1", name: "" }, "index"),
    ["out-of-range name", "not-allowed categories.0", "bad-format created", "not-allowed method"],
  );
  assert.deepEqual(codes({ ...VALID, slug: "Demo_Shop" }, "index"), ["slug-format slug"]);
  assert.deepEqual(codes({ ...VALID, slug: "../x", name: 5 }, "index"), ["unsafe-slug slug"], "nothing else of it");
});

Deno.test("entry rules - unknown keys: refused in front matter (a typo), allowed in an index entry", () => {
  assert.deepEqual(codes({ ...VALID, catgories: ["docs"] }, "front-matter"), ["unknown-field catgories"]);
  assert.deepEqual(codes({ ...VALID, catgories: ["docs"], per_view: [] }, "index"), []);
});

Deno.test("entry rules - atlas validate reports, for an index entry, what the build reports for its front matter", () => {
  const cases: Array<Record<string, unknown>> = [
    VALID,
    { ...VALID, site_url: "http://x.example/" },
    { ...VALID, domains: ["UPPER.example", "ok.example", "ok.example"] },
    { ...VALID, spec_version: 0, auth: "password" },
    { ...VALID, description: "x".repeat(141) },
    { slug: "bare" },
  ];
  for (const entry of cases) {
    const build = checkEntry(entry, { source: "front-matter" }).map((p) => p.code);
    const { problems } = validateCatalog(
      new TextEncoder().encode(JSON.stringify({ schema_version: 1, entries: [entry] })),
    );
    assert.deepEqual(problems.map((p) => p.code), build, JSON.stringify(entry));
  }
});
