/**
 * `mapper search` as a user runs it on a corpus written for the test: hit lines with file:line:col and the path to
 * the declaration, each filter, `$ref` expansions reported once, the JSON report, and the refusals.
 */
import assert from "node:assert/strict";
import { tempDir } from "./_helpers.ts";
import { firstAsSubprocess } from "./_in_process.ts";

const SHARED = `version: 1
memory:
  - Cards are sold out after 5 pm.
components:
  - name: SiteHeader
    selector: header.site
    description: The card-free header.
requests:
  - name: CartApi
    route: /api/cart
    memory:
      - Card payments only.
messages:
  - name: CardWarning
    message: card .*
    description: warns about a card
`;

const HOME = `version: 1
url: https://shop.test/
views:
  - name: Catalog
    route: /
    description: Product cards in a grid.
    memory:
      - First note.
      - The (card) grid loads lazily.
    components:
      - $ref: SiteHeader
      - name: ProductGrid
        selector: ul.grid
        children:
          - name: ProductCard
            selector:
              - li.card
              - li.tile
            memory:
              - One per product.
    requests:
      - name: Cards
        route: /api/cards
`;

async function withCorpus(run: (cwd: string) => Promise<void>): Promise<void> {
  await using dir = await tempDir();
  await Deno.mkdir(dir.join(".mapper", "views"), { recursive: true });
  await Deno.writeTextFile(dir.join(".mapper", "shared.yaml"), SHARED);
  await Deno.writeTextFile(dir.join(".mapper", "views", "home.yaml"), HOME);
  await run(dir.path);
}

// The first run is a subprocess, the many cases after it run in this process (`_in_process.ts`).
const run = firstAsSubprocess();
const search = (args: string[], cwd: string) => run(["search", ...args], { cwd, env: { HOME: cwd } });

Deno.test("search - every field that matches, with file:line:col and the path to its declaration", async () => {
  await withCorpus(async (cwd) => {
    const r = await search(["card"], cwd);
    assert.equal(r.stderr, "");
    assert.equal(r.code, 0);
    assert.equal(
      r.stdout,
      [
        "shared.yaml:3:5  memory: Cards are sold out after 5 pm.",
        "shared.yaml:7:18  SiteHeader  description: The card-free header.",
        "shared.yaml:12:9  CartApi  memory: Card payments only.",
        "shared.yaml:14:11  CardWarning  name: CardWarning",
        "shared.yaml:16:18  CardWarning  description: warns about a card",
        "views/home.yaml:6:18  Catalog  description: Product cards in a grid.",
        "views/home.yaml:9:9  Catalog  memory: The (card) grid loads lazily.",
        "views/home.yaml:15:19  Catalog › ProductGrid › ProductCard  name: ProductCard",
        "views/home.yaml:17:17  Catalog › ProductGrid › ProductCard  selector: li.card",
        "views/home.yaml:22:15  Catalog › Cards  name: Cards",
        "views/home.yaml:23:16  Catalog › Cards  route: /api/cards",
        "11 hits in 2 files searched",
        "",
      ].join("\n"),
    );
  });
});

Deno.test("search - --field, --type, --case and --fixed narrow it; a $ref expansion is one hit, at its definition", async () => {
  await withCorpus(async (cwd) => {
    const selectors = await search(["^li\\.", "--field", "selector"], cwd);
    assert.deepEqual(selectors.stdout.trim().split("\n").slice(0, -1), [
      "views/home.yaml:17:17  Catalog › ProductGrid › ProductCard  selector: li.card",
      "views/home.yaml:18:17  Catalog › ProductGrid › ProductCard  selector: li.tile",
    ]);
    const header = await search(["header", "--type", "component"], cwd);
    assert.match(header.stdout, /^shared\.yaml:5:11 {2}SiteHeader {2}name: SiteHeader$/m);
    assert.doesNotMatch(header.stdout, /Catalog › SiteHeader/);
    const views = await search(["https://shop", "--type", "view", "--field", "url"], cwd);
    assert.equal(views.stdout, "views/home.yaml:2:6  Catalog  url: https://shop.test/\n1 hit in 2 files searched\n");
    const exact = await search(["Card", "--case", "--field", "memory"], cwd);
    assert.deepEqual(exact.stdout.trim().split("\n").map((l) => l.split("  ")[0]), [
      "shared.yaml:3:5",
      "shared.yaml:12:9",
      "2 hits in 2 files searched",
    ]);
    const fixed = await search(["(card)", "--fixed"], cwd);
    assert.equal(
      fixed.stdout,
      "views/home.yaml:9:9  Catalog  memory: The (card) grid loads lazily.\n1 hit in 2 files searched\n",
    );
  });
});

Deno.test("search - --json reports each hit; no hit is exit 0 naming the files searched", async () => {
  await withCorpus(async (cwd) => {
    const r = await search(["tile", "--json"], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      schema: 1,
      pattern: "tile",
      flags: "iu",
      fields: ["name", "selector", "description", "memory", "route", "url"],
      types: ["component", "view", "request", "message", "file"],
      files: 2,
      hits: [{
        file: "views/home.yaml",
        line: 18,
        column: 17,
        type: "component",
        path: ["Catalog", "ProductGrid", "ProductCard"],
        field: "selector[1]",
        value: "li.tile",
      }],
    });
    const none = await search(["zebra"], cwd);
    assert.equal(none.code, 0);
    assert.equal(none.stdout, 'no match for "zebra" in 2 files searched\n');
  });
});

Deno.test("search - a bad pattern or filter is exit 2 in one line", async () => {
  await withCorpus(async (cwd) => {
    const bad = await search(["(card"], cwd);
    assert.equal(bad.code, 2);
    assert.equal(bad.stdout, "");
    assert.match(bad.stderr, /^mapper search: invalid pattern "\(card": .*Unterminated group — .*--fixed/);
    const field = await search(["x", "--field", "title"], cwd);
    assert.equal(field.code, 2);
    assert.match(field.stderr, /^mapper search: unknown --field "title" — use one of name, selector, .* or all\n$/);
    const type = await search(["x", "--type", "views"], cwd);
    assert.equal(type.code, 2);
    const empty = await search([""], cwd);
    assert.equal(empty.code, 2);
  });
});

Deno.test("search - a property's name is a hit with the breadcrumb View › Component › property", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(dir.join(".mapper"));
  await Deno.writeTextFile(
    dir.join(".mapper", "map.yaml"),
    `version: 1
components:
  - name: Header
    selector: header
    properties:
      - name: Price_note
        extract: .note
views:
  - name: Catalog
    route: /
    components:
      - $ref: Header
      - name: Grid
        selector: ul.grid
        children:
          - name: Card
            selector: li.card
            properties:
              - name: title
                extract: h3
              - name: price
                extract: .price
`,
  );
  const r = await search(["price", "--field", "name"], dir.path);
  assert.equal(r.stderr, "");
  assert.equal(r.code, 0);
  assert.equal(
    r.stdout,
    "map.yaml:6:15  Header › Price_note  name: Price_note\n" +
      "map.yaml:21:23  Catalog › Grid › Card › price  name: price\n" +
      "2 hits in 1 file searched\n",
  );
  const exact = await search(["Price", "--case"], dir.path);
  assert.equal(exact.stdout, "map.yaml:6:15  Header › Price_note  name: Price_note\n1 hit in 1 file searched\n");
  const selectors = await search(["price", "--field", "selector"], dir.path);
  assert.equal(selectors.stdout, 'no match for "price" in 1 file searched\n');
});
