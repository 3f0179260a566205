/**
 * `mapper match`, `explain`, `stats` and `init` as a user runs them (subprocesses on main.ts): stdout, stderr and
 * exit code, text and `--json`. The fixture declares `/a/**` before `/*` + `/b` so precedence, not order, decides.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "./_helpers.ts";
import { firstOfEachCommand } from "./_in_process.ts";

/** Each command's first call of the file runs as a subprocess, its later calls in this process. */
const run = firstOfEachCommand();

const DIR = join(import.meta.dirname!, "fixtures", "resolver", ".mapper");

/** The entry names of a directory, sorted. */
async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) out.push(e.name);
  return out.sort();
}

async function json(args: string[], cwd?: string) {
  const r = await run([...args, "--json"], cwd === undefined ? {} : { cwd });
  return { ...r, body: JSON.parse(r.stdout) };
}

// ---- match

Deno.test("match - for /a/b the more specific /*/b beats /a/** declared before it", async () => {
  const { code, stderr, body } = await json(["match", "/a/b", "--dir", DIR]);
  assert.equal(stderr, "");
  assert.equal(code, 0);
  assert.equal(body.ok, true);
  assert.deepEqual(body.diagnostics, []);
  assert.equal(body.result.view.name, "StarB");
  assert.equal(body.result.view.score, 4);
  assert.deepEqual(body.result.view.tags, ["demo"]);
  assert.deepEqual(body.result.view.dependencies, ["src/b/**"]);
  assert.equal(body.result.view.url, "https://shop.example/");
  assert.equal(body.result.view.file, "views.yaml");
  assert.deepEqual(body.result.views.map((v: { name: string; score: number }) => [v.name, v.score]), [
    ["StarB", 4],
    ["Section", 3],
  ]);
  assert.deepEqual(body.result.tiedViews, []);
});

Deno.test("match - a tie goes to the first declared view, and the tie is named", async () => {
  const { code, body } = await json(["match", "https://shop.example/x/y", "--dir", DIR]);
  assert.equal(code, 0);
  assert.equal(body.result.view.name, "TieX");
  assert.deepEqual(body.result.view.params, { id: "y" });
  assert.deepEqual(body.result.tiedViews, ["TieX", "TieY"]);
});

Deno.test("match - params, unshadowed globals then the view's components, requests by method", async () => {
  const get = await json(["match", "/items/42?ref=home#top", "--method", "get", "--dir", DIR]);
  assert.equal(get.code, 0);
  assert.deepEqual(get.body.result.view.params, { id: "42" });
  assert.deepEqual(
    get.body.result.components.map((c: { name: string; scope: string; scopedToView?: string }) => [
      c.name,
      c.scope,
      c.scopedToView ?? null,
    ]),
    [["Footer", "global", null], ["Header", "view-scoped", "Item"], ["Card", "view-scoped", "Item"]],
  );
  assert.deepEqual(get.body.result.components[1].selectors, ["#header.item"]);
  assert.equal(get.body.result.method, "GET");
  assert.deepEqual(get.body.result.requests.map((r: { name: string; scope: string }) => `${r.name}:${r.scope}`), [
    "Session:global",
    "Track:global",
    "Stock:view-scoped",
  ]);
  const post = await json(["match", "/items/42", "--method", "POST", "--dir", DIR]);
  assert.deepEqual(post.body.result.requests.map((r: { name: string }) => r.name), ["Track", "AddToCart"]);
});

Deno.test("match - text output names the view, its params, other matches, components and requests", async () => {
  const { code, stdout, stderr } = await run(["match", "/items/7", "--method", "POST", "--dir", DIR]);
  assert.equal(stderr, "");
  assert.equal(code, 0);
  assert.equal(
    stdout,
    [
      "view Item  /items/:id  (score 5, views.yaml:11)",
      "params id=7",
      "components (3)",
      "  Footer  global       #footer",
      "  Header  view-scoped  #header.item",
      "  Card    view-scoped  .card",
      "requests accepting POST (2)",
      "  ANY    /api/track  Track  global",
      "  POST   /api/cart  AddToCart  view-scoped",
      "",
    ].join("\n"),
  );
});

Deno.test("match - a URL no view matches gets the globals only and view null, still ok", async () => {
  const { code, body } = await json(["match", "/nowhere/at/all", "--dir", DIR]);
  assert.equal(code, 0);
  assert.equal(body.ok, true);
  assert.equal(body.result.view, null);
  assert.deepEqual(body.result.views, []);
  assert.deepEqual(body.result.components.map((c: { name: string }) => c.name), ["Header", "Footer"]);
  const text = await run(["match", "/nowhere", "--dir", DIR]);
  assert.match(text.stdout, /^no view matches \/nowhere \(globals only\)\n/);
});

Deno.test("match - no corpus anywhere is a usage error (exit 2) with a corpus-not-found envelope", async () => {
  await using tmp = await tempDir();
  const r = await json(["match", "/"], tmp.path);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, "");
  assert.equal(r.body.ok, false);
  assert.equal(r.body.diagnostics[0].code, "corpus-not-found");
  const text = await run(["match", "/"], { cwd: tmp.path });
  assert.equal(text.code, 2);
  assert.equal(text.stdout, "");
  assert.match(text.stderr, /^mapper match: no \.mapper\/ directory here or in any parent of .* — .*mapper init/);
});

Deno.test("match - finds the corpus walking up from a subdirectory", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, ".mapper"));
  await Deno.writeTextFile(join(tmp.path, ".mapper", "v.yaml"), "version: 1\nviews:\n  - name: Only\n    route: /**\n");
  await Deno.mkdir(join(tmp.path, "src", "deep"), { recursive: true });
  const r = await json(["match", "/q"], join(tmp.path, "src", "deep"));
  assert.equal(r.code, 0);
  assert.equal(r.body.result.view.name, "Only");
});

// ---- explain

Deno.test("explain - every definition of a name, global first, with file, line and scope", async () => {
  const { code, body } = await json(["explain", "Header", "--dir", DIR]);
  assert.equal(code, 0);
  assert.deepEqual(
    body.result.hits.map((h: { type: string; scope: string; view?: string; file: string; line: number }) => [
      h.type,
      h.scope,
      h.view ?? null,
      `${h.file}:${h.line}`,
    ]),
    [["component", "global", null, "shared.yaml:4"], ["component", "view-scoped", "Item", "views.yaml:14"]],
  );
  assert.deepEqual(body.result.hits[0].entry, { name: "Header", selector: ["#header"] });
  assert.deepEqual(body.result.hits.map((h: { path: string }) => h.path), ["components[0]", "views[2].components[0]"]);
});

Deno.test("explain - a global lists the views that $ref it; the expansion is not a second definition", async () => {
  const { stdout, code } = await run(["explain", "Footer", "--dir", DIR]);
  assert.equal(code, 0);
  assert.equal(
    stdout,
    [
      "component Footer  global  shared.yaml:6",
      "  selector: #footer",
      "  properties: year (text first_number)",
      "  referenced by: Home",
      "",
    ].join("\n"),
  );
});

Deno.test("explain - views, requests and messages by name", async () => {
  const view = await json(["explain", "Item", "--dir", DIR]);
  assert.deepEqual(view.body.result.hits[0].entry, {
    name: "Item",
    route: "/items/:id",
    url: "https://shop.example/",
    components: ["Header", "Card"],
    requests: ["Stock", "AddToCart"],
  });
  const request = await json(["explain", "Stock", "--dir", DIR]);
  assert.deepEqual(request.body.result.hits.map((h: { type: string; view: string }) => [h.type, h.view]), [[
    "request",
    "Item",
  ]]);
  assert.equal(request.body.result.hits[0].entry.method, "get");
  const message = await json(["explain", "Boom", "--dir", DIR]);
  assert.deepEqual(message.body.result.hits[0].entry, { name: "Boom", level: "error", message: "boom" });
});

Deno.test("explain - an unknown name: text exits 1 naming the near names; --json is ok with suggestions", async () => {
  const text = await run(["explain", "header", "--dir", DIR]);
  assert.equal(text.code, 1);
  assert.equal(text.stdout, "");
  assert.equal(
    text.stderr,
    'mapper explain: no component, view, request or message is named "header" — did you mean "Header"? ' +
      "(names are case-sensitive)\n",
  );
  const { code, body } = await json(["explain", "Stok", "--dir", DIR]);
  assert.equal(code, 0);
  assert.equal(body.ok, true);
  assert.deepEqual(body.result.hits, []);
  assert.deepEqual(body.result.suggestions, ["Stock"]);
});

// ---- stats

Deno.test("stats - totals and per-view rows, in result and flat at the top level", async () => {
  const { code, stderr, body } = await json(["stats", "--dir", DIR]);
  assert.equal(stderr, "");
  assert.equal(code, 0);
  const expected = {
    views: 6,
    components: 3,
    requests: 4,
    messages: 1,
    properties: 2,
    memory: 0,
    per_view: [
      { name: "Section", route: "/a/**", components: 0, requests: 0 },
      { name: "StarB", route: "/*/b", components: 0, requests: 0 },
      { name: "Item", route: "/items/:id", components: 2, requests: 2 },
      { name: "TieX", route: "/x/:id", components: 0, requests: 0 },
      { name: "TieY", route: "/:section/y", components: 0, requests: 0 },
      { name: "Home", route: "/", components: 1, requests: 0 },
    ],
  };
  assert.deepEqual(body.result, expected);
  assert.deepEqual({ ...body, ok: undefined, diagnostics: undefined, result: undefined }, {
    ok: undefined,
    diagnostics: undefined,
    result: undefined,
    ...expected,
  });
  const text = await run(["stats", "--dir", DIR]);
  assert.equal(text.code, 0);
  assert.match(
    text.stdout,
    /^corpus .*\n6 views · 3 components · 4 requests · 1 message · 2 properties · 0 memory notes\n/,
  );
  assert.match(text.stdout, /\nVIEW {5}ROUTE {8}COMPONENTS {2}REQUESTS\n/);
  assert.match(text.stdout, /\nItem {5}\/items\/:id {12}2 {9}2\n/);
});

Deno.test("stats - a corpus with errors gets no counts: ok false, an error string, exit 1", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, ".mapper"));
  await Deno.writeTextFile(join(tmp.path, ".mapper", "a.yaml"), "version: 1\ncomponents:\n  - name: NoSelector\n");
  const { code, body } = await json(["stats"], tmp.path);
  assert.equal(code, 1);
  assert.equal(body.ok, false);
  assert.equal(body.result, null);
  assert.equal(body.views, undefined);
  assert.match(body.error, /has 1 error: no statistics/);
  assert.equal(body.diagnostics[0].code, "missing-selector");
  assert.equal(body.diagnostics[0].file, "a.yaml");
  const text = await run(["stats"], { cwd: tmp.path });
  assert.equal(text.code, 1);
  assert.match(text.stdout, /a\.yaml:3:5: error missing-selector: .*\n✗ 1 error, 0 warnings\n.*mapper validate/);
});

Deno.test("stats - a YAML syntax error is reported in the envelope, exit 1, nothing else on stdout", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, ".mapper"));
  await Deno.writeTextFile(join(tmp.path, ".mapper", "bad.yaml"), "views: [\n");
  const { code, body } = await json(["stats"], tmp.path);
  assert.equal(code, 1);
  assert.equal(body.ok, false);
  assert.equal(body.diagnostics[0].file, "bad.yaml");
  assert.equal(body.diagnostics[0].severity, "error");
});

Deno.test("stats - text mode refuses an empty corpus with one line", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, ".mapper"));
  const r = await run(["stats"], { cwd: tmp.path });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.equal(
    r.stderr,
    "mapper stats: the corpus in \".mapper\" is empty (no views, no components) — add a view (see 'mapper init'), " +
      "or pass the right directory with --dir\n",
  );
});

// ---- init

Deno.test("init - scaffolds a corpus validate passes without a finding, that match and stats read", async () => {
  await using tmp = await tempDir();
  const r = await run(["init"], { cwd: tmp.path });
  assert.equal(r.stderr, "");
  assert.equal(r.code, 0);
  assert.match(
    r.stdout,
    /^created \.mapper\/config\.yaml\ncreated \.mapper\/components\.yaml\ncreated \.mapper\/views\/example\.yaml\n\nNext/,
  );
  for (const command of [["validate"], ["lint"], ["fmt", "--check"]]) {
    const clean = await json(command, tmp.path);
    assert.equal(clean.code, 0, command.join(" "));
    assert.deepEqual(clean.body.diagnostics, [], command.join(" "));
  }
  const stats = await json(["stats"], tmp.path);
  assert.equal(stats.code, 0);
  assert.deepEqual(stats.body.diagnostics, []);
  assert.equal(stats.body.views, 1);
  const match = await json(["match", "http://localhost:3000/"], tmp.path);
  assert.equal(match.body.result.view.name, "Home");
  assert.deepEqual(match.body.result.components.map((c: { name: string }) => c.name), ["ExampleButton"]);
});

Deno.test("init - a second run creates nothing and changes nothing", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, "site"));
  const first = await json(["init", "--dir", "site/.mapper"], tmp.path);
  assert.deepEqual(first.body.result, {
    created: ["config.yaml", "components.yaml", "views/example.yaml"],
    skipped: [],
  });
  const file = join(tmp.path, "site", ".mapper", "views", "example.yaml");
  await Deno.writeTextFile(file, "version: 1\n# mine\n");
  const again = await run(["init", "--dir", "site/.mapper"], { cwd: tmp.path });
  assert.equal(again.code, 0);
  assert.equal(again.stdout, "site/.mapper is already scaffolded — nothing to do.\n");
  assert.equal(await Deno.readTextFile(file), "version: 1\n# mine\n");
});

Deno.test("init - refuses a directory that already holds a corpus, writing nothing", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, ".mapper"));
  await Deno.writeTextFile(join(tmp.path, ".mapper", "shop.yaml"), "version: 1\n");
  const r = await run(["init"], { cwd: tmp.path });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.match(
    r.stderr,
    /^mapper init: "\.mapper" already holds a corpus \(1 file, e\.g\. "shop\.yaml"\); nothing was/,
  );
  assert.deepEqual(await names(join(tmp.path, ".mapper")), ["shop.yaml"]);
});

Deno.test("init - refuses a missing parent (exit 2) and a symlinked views/ directory, creating nothing", async () => {
  await using tmp = await tempDir();
  const missing = await run(["init", "--dir", "no/such/.mapper"], { cwd: tmp.path });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^mapper init: the parent of "no\/such\/\.mapper" does not exist — create "no\/such"/);
  assert.deepEqual(await names(tmp.path), []);
  await Deno.mkdir(join(tmp.path, ".mapper"));
  await Deno.mkdir(join(tmp.path, "elsewhere"));
  await Deno.symlink(join(tmp.path, "elsewhere"), join(tmp.path, ".mapper", "views"));
  const linked = await run(["init"], { cwd: tmp.path });
  assert.equal(linked.code, 1);
  assert.match(linked.stderr, /^mapper init: "\.mapper\/views" is a symbolic link — pass a plain directory/);
  assert.deepEqual(await names(join(tmp.path, "elsewhere")), []);
  assert.deepEqual(await names(join(tmp.path, ".mapper")), ["views"]);
});

Deno.test({
  name: "init - a link planted at a scaffold file is kept, its target never written",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using tmp = await tempDir();
    await Deno.mkdir(join(tmp.path, ".mapper"));
    const victim = join(tmp.path, "victim");
    await Deno.symlink(victim, join(tmp.path, ".mapper", "config.yaml"));
    const r = await json(["init"], tmp.path);
    assert.equal(r.code, 0);
    assert.deepEqual(r.body.result.skipped, ["config.yaml"]);
    await assert.rejects(Deno.lstat(victim), Deno.errors.NotFound);
    assert.ok((await Deno.lstat(join(tmp.path, ".mapper", "config.yaml"))).isSymlink);
    assert.equal((await Deno.stat(join(tmp.path, ".mapper", "components.yaml"))).mode! & 0o777, 0o644);
  },
});
