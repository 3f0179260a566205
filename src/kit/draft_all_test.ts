import assert from "node:assert/strict";
import { MAX_PAGES, planPages, sameStructure, viewFileName } from "./draft_all.ts";
import type { DraftResult } from "./draft.ts";
import { type FoundLink, unsafeLink } from "./discover.ts";

const O = "http://127.0.0.1:8000";
const link = (path: string, attrs: Record<string, string> = {}): FoundLink => {
  const url = new URL(path, O).href;
  const unsafe = unsafeLink(attrs, url);
  return { url, visible: true, ...(unsafe ? { unsafe } : {}) };
};

Deno.test("unsafeLink - non-GET, downloads and logout-like or destructive URLs; reading links are safe", () => {
  assert.equal(unsafeLink({ "data-method": "delete" }, `${O}/items/1`), "a DELETE link");
  assert.equal(unsafeLink({ "data-turbo-method": "post" }, `${O}/cart`), "a POST link");
  assert.equal(unsafeLink({ download: "" }, `${O}/report.csv`), "a download");
  for (
    const path of ["/logout", "/account/sign-out", "/session/logoff?next=/", "/items/3/delete", "/x?action=remove"]
  ) {
    assert.ok(unsafeLink({}, O + path), path);
  }
  for (const path of ["/", "/items/1", "/about", "/exits-and-entrances", "/blog/removal-men", "/catalog?sort=price"]) {
    assert.equal(unsafeLink({ "data-method": "get" }, O + path), undefined, path);
  }
});

Deno.test("planPages - one page per route pattern, the current one first; other origins and unsafe links left", () => {
  const { pages, skipped } = planPages(`${O}/?tab=1`, [
    link("/items/1"),
    link("/items/2"),
    link("/items/3#x"),
    link("/about"),
    link("/"),
    link("/logout"),
    link("/items/1", { "data-method": "delete" }),
    { url: "http://example.test/elsewhere", visible: true },
  ], undefined);
  assert.deepEqual(pages, [
    { route: "/", url: `${O}/?tab=1`, links: 1, others: [] },
    { route: "/about", url: `${O}/about`, links: 1, others: [] },
    { route: "/items/:id", url: `${O}/items/1`, links: 3, others: [`${O}/items/2`, `${O}/items/3`] },
  ]);
  assert.deepEqual(skipped, [
    { url: `${O}/logout`, why: "not followed: reads as logout" },
    { url: `${O}/items/1`, why: "not followed: a DELETE link" },
  ]);
});

Deno.test("planPages - bounded: past the bound a page is named, never drafted", () => {
  const links = Array.from(
    { length: 30 },
    (_, i) => link(`/topic${String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26))}`),
  );
  const { pages, skipped } = planPages(`${O}/`, links, undefined);
  assert.equal(pages.length, MAX_PAGES);
  assert.equal(pages[0]!.route, "/");
  assert.equal(skipped.length, 31 - MAX_PAGES);
  assert.match(skipped[0]!.why, /^past the bound of 20 pages$/);
});

Deno.test("viewFileName - the view's name in kebab case", () => {
  assert.equal(viewFileName("OurMugs"), "our-mugs.yaml");
  assert.equal(viewFileName("Item2"), "item2.yaml");
});

Deno.test("sameStructure - pages sharing three quarters of their components fold; a shared frame alone does not", () => {
  const of = (...selectors: string[]) =>
    ({ components: selectors.map((selector) => ({ kind: "cluster", selector })) }) as unknown as DraftResult;
  const frame = ["header", "nav", "nav a", "main"];
  assert.ok(sameStructure(of(...frame, "li.item", "button#buy"), of(...frame, "li.item", "button#buy")));
  // One optional section missing of eight: still one structure.
  const page = [...frame, "li.item", "button#buy", "p.price", "ul.reviews"];
  assert.ok(sameStructure(of(...page), of(...page.slice(0, -1))));
  assert.ok(!sameStructure(of(...frame, "form", "input[name=email]"), of(...frame, "li.step", "li.step button")));
  assert.ok(sameStructure(of(), of()));
});
