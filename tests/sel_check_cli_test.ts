/**
 * `mapper sel-check` as a user runs it, on captured trees written to a temporary directory: per-root counts, the
 * listing and its limits, the JSON report, and every refusal (invalid CSS with its position, what a capture cannot
 * answer, a file that is not a tree) with its exit code.
 */
import assert from "node:assert/strict";
import { tempDir } from "./_helpers.ts";
import { firstAsSubprocess } from "./_in_process.ts";
import { frame, h, shadow, tree } from "../src/offline/_testing.ts";

function catalog() {
  return tree(
    h(
      "html",
      {},
      h(
        "body",
        {},
        h(
          "ul",
          { class: "cards" },
          h("li", { class: "card", "data-sku": "1", $: { role: "listitem", name: "Basalt Mug $12" } }),
          h("li", { class: "card", "data-sku": "2", $: { role: "listitem", name: "Clay Cup" } }),
          h("li", { class: "card sold", "data-sku": "3", $: { role: "listitem", visible: false } }),
        ),
        h("x-rating", {}, shadow(h("button", { class: "star", $: { role: "button", name: "1 star" } }))),
        h("iframe", {}, frame("https://shop.test/ad", h("html", {}, h("body", {}, h("button", { class: "star" }))))),
        h("div", { "data-long": "aaaa", $: { cut: ["data-long"] } }),
      ),
    ),
  ).tree;
}

async function withTrees(run: (dir: { join: (...p: string[]) => string; path: string }) => Promise<void>) {
  await using dir = await tempDir();
  const t = catalog();
  t.view = { name: "Catalog", route: "/" };
  await Deno.writeTextFile(dir.join("a.snap.tree.json"), JSON.stringify(t));
  await Deno.writeTextFile(dir.join("b.snap.tree.json"), JSON.stringify({ ...t, url: "https://shop.test/b" }));
  await run(dir);
}

// The first run is a subprocess, the many cases after it run in this process (`_in_process.ts`).
const run = firstAsSubprocess();
const sel = (args: string[], cwd: string) => run(["sel-check", ...args], { cwd, env: { HOME: cwd } });

Deno.test("sel-check - lists the matches of one tree with their element, role and name; hidden ones counted", async () => {
  await withTrees(async (dir) => {
    const r = await sel(["li.card", "a.snap.tree.json"], dir.path);
    assert.equal(r.stderr, "");
    assert.equal(r.code, 0);
    assert.equal(
      r.stdout,
      [
        "a.snap.tree.json  https://shop.test/ · view Catalog",
        "3 matches (1 hidden)",
        " id  element                role      name",
        '  4  li.card[data-sku="1"]  listitem  "Basalt Mug $12"',
        '  5  li.card[data-sku="2"]  listitem  "Clay Cup"',
        "1 hidden not listed (--include-hidden)",
        "",
      ].join("\n"),
    );
    const all = await sel(["li.card", "a.snap.tree.json", "--include-hidden", "--limit", "2"], dir.path);
    assert.match(all.stdout, /^ {2}5 {2}li\.card\[data-sku="2"\]/m);
    assert.match(all.stdout, /\n… 1 more \(--limit 3\)\n$/);
  });
});

Deno.test("sel-check - answers per root like querySelectorAll: shadow roots and frames are separate, never crossed", async () => {
  await withTrees(async (dir) => {
    const r = await sel(["button.star", "a.snap.tree.json"], dir.path);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^2 matches · shadow root of #7 1 · frame #9 1$/m);
    assert.match(r.stdout, /^ {2}8 {2}button\.star {2}button {3}"1 star" {4}shadow root of #7$/m);
    assert.match(r.stdout, /^ 12 {2}button\.star {2}generic {14}frame #9$/m);
    const crossing = await sel(["x-rating button", "a.snap.tree.json"], dir.path);
    assert.equal(crossing.code, 1);
    assert.match(crossing.stdout, /^no match$/m);
  });
});

Deno.test("sel-check - several files: a block each and a total; --json reports every field", async () => {
  await withTrees(async (dir) => {
    const r = await sel(["li.card", "a.snap.tree.json", "b.snap.tree.json"], dir.path);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\n\nb\.snap\.tree\.json {2}https:\/\/shop\.test\/b · view Catalog\n/);
    assert.match(r.stdout, /\n\n6 matches in 2 of 2 files\n$/);
    const j = await sel(["li.card:not(.sold)", "a.snap.tree.json", "--json"], dir.path);
    assert.equal(j.code, 0, j.stderr);
    const report = JSON.parse(j.stdout);
    assert.equal(report.schema, 1);
    assert.equal(report.total, 2);
    const f = report.files[0];
    assert.deepEqual(
      { ...f, matches: f.matches.length },
      {
        file: "a.snap.tree.json",
        format: "mapper",
        url: "https://shop.test/",
        title: "Test",
        view: "Catalog",
        capturedAt: "2026-06-07T19:30:00.000Z",
        count: 2,
        hidden: 0,
        unknown: null,
        roots: [{ kind: "document", host: null, url: null, count: 2 }],
        matches: 2,
        listed: 2,
        truncated: false,
      },
    );
    assert.deepEqual(f.matches[0], {
      id: 4,
      tag: "li",
      element: 'li.card[data-sku="1"]',
      attrs: { class: "card", "data-sku": "1" },
      role: "listitem",
      name: "Basalt Mug $12",
      visible: true,
      root: "document",
      host: null,
    });
  });
});

Deno.test("sel-check - nothing matched is exit 1; invalid CSS is exit 2 naming the character", async () => {
  await withTrees(async (dir) => {
    const none = await sel(["nav a", "a.snap.tree.json"], dir.path);
    assert.equal(none.code, 1);
    assert.equal(none.stdout, "a.snap.tree.json  https://shop.test/ · view Catalog\nno match\n");
    const bad = await sel(["li[data-sku=", "a.snap.tree.json"], dir.path);
    assert.equal(bad.code, 2);
    assert.equal(bad.stdout, "");
    assert.match(bad.stderr, /^mapper sel-check: invalid selector "li\[data-sku=" at character \d+: .+ — fix the CSS/);
    // jQuery extensions css-select knows but browsers refuse are invalid, not evaluated.
    const jquery = await sel([":contains(Mug)", "a.snap.tree.json"], dir.path);
    assert.equal(jquery.code, 2);
    assert.match(jquery.stderr, /unknown pseudo-class: "contains"/);
  });
});

Deno.test("sel-check - what a capture cannot answer is '?', exit 1, never 0 matches", async () => {
  await withTrees(async (dir) => {
    const cut = await sel(['[data-long^="a"]', "a.snap.tree.json", "--json"], dir.path);
    assert.equal(cut.code, 1);
    assert.match(JSON.parse(cut.stdout).files[0].unknown, /value of "data-long" on <div> #13 was cut/);
    const text = await sel(['[data-long^="a"]', "a.snap.tree.json"], dir.path);
    assert.match(text.stdout, /^\? cannot answer from this capture: the value of "data-long"/m);
    const hover = await sel(["li.card:hover", "a.snap.tree.json"], dir.path);
    assert.equal(hover.code, 1);
    assert.equal(hover.stdout, "");
    assert.match(
      hover.stderr,
      /^mapper sel-check: cannot check "li\.card:hover" offline: .*:hover.* — check it on the live page/,
    );
  });
});

Deno.test("sel-check - a file that is not a tree fails in one line naming it and the place in the JSON", async () => {
  await withTrees(async (dir) => {
    const t = catalog() as unknown as { root: { children: Array<{ attrs: unknown }> } };
    t.root.children[0]!.attrs = [];
    await Deno.writeTextFile(dir.join("bad.json"), JSON.stringify(t));
    const r = await sel(["li", "a.snap.tree.json", "bad.json"], dir.path);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.match(
      r.stderr,
      /^mapper sel-check: bad\.json: root\.children\[0\]\.attrs: expected an object of strings, found an array — /,
    );
    const missing = await sel(["li", "nope.json"], dir.path);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^mapper sel-check: no tree file "nope\.json"/);
    const usage = await sel(["li"], dir.path);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /missing required argument 'file'/);
  });
});
