import assert from "node:assert/strict";
import { join } from "node:path";
import process from "node:process";
import { compile, CorpusLoadError, type Diagnostic, formatDiagnostic, load, LoadCache } from "./mod.ts";
import { assertWireSchema, tempCorpus } from "./_testing.ts";

/** Loads a corpus made of `files`, checks its compiled form against the schema, returns both. */
async function loadFiles(files: Record<string, string>) {
  await using c = await tempCorpus(files);
  const result = await load(c.dir);
  const wire = compile(result.corpus, { site: "site", version: 1 });
  assertWireSchema(wire);
  const rel = (d: Diagnostic) => ({ ...d, location: { ...d.location, file: d.location.file.slice(c.dir.length + 1) } });
  return { ...result, wire, diagnostics: result.diagnostics.map(rel) };
}

/** Expects the load to fail and returns its problems with paths relative to the corpus dir. */
async function loadFailure(files: Record<string, string>): Promise<string[]> {
  await using c = await tempCorpus(files);
  const err = await load(c.dir).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof CorpusLoadError, `expected a CorpusLoadError, got ${String(err)}`);
  return err.problems.map((p) => `${p.code} ${formatDiagnostic(p).slice(c.dir.length + 1)}`);
}

const codes = (ds: Diagnostic[]) =>
  ds.map((d) => `${d.code} ${d.location.file}:${d.location.line}:${d.location.column}`);

Deno.test("load - walks files in byte order per directory, depth-first", async () => {
  const mem = (m: string) => `memory: [${m}]\n`;
  const { corpus } = await loadFiles({
    "B.yaml": mem("B-upper"),
    "Sub2/c.yaml": mem("Sub2-c"),
    "a.yaml": mem("a"),
    "empty.yaml": "",
    "sub/b.yaml": mem("sub-b"),
    "z.yaml": mem("z"),
    "ä.yaml": mem("a-umlaut"),
  });
  assert.deepEqual(corpus.memory, ["B-upper", "Sub2-c", "a", "sub-b", "z", "a-umlaut"]);
  assert.deepEqual(corpus.files.map((f) => f.split("/.mapper/")[1]), [
    "B.yaml",
    "Sub2/c.yaml",
    "a.yaml",
    "empty.yaml",
    "sub/b.yaml",
    "z.yaml",
    "ä.yaml",
  ]);
});

Deno.test("load - reads .yaml and .yml in any case, dotfiles included, other extensions ignored", async () => {
  const { corpus } = await loadFiles({
    "A.YAML": "memory: [upper]\n",
    "b.Yml": "memory: [yml]\n",
    ".hidden.yaml": "memory: [hidden]\n",
    "c.yaml.bak": "memory: [bak]\n",
    "d.txt": "memory: [txt]\n",
    ".session": "memory: [session]\n",
  });
  assert.deepEqual(corpus.memory, ["hidden", "upper", "yml"]);
});

Deno.test("load - skips snapshots/ and review/ at any depth, case-sensitively", async () => {
  const { corpus } = await loadFiles({
    "snapshots/broken.yaml": "views: [\n",
    "review/list.yaml": "- a punch list\n",
    "views/snapshots/broken.yaml": "views: [\n",
    "views/deep/review/x.yaml": "views: [\n",
    "Snapshots/kept.yaml": "memory: [kept]\n",
    "snapshots.yaml": "memory: [file named like the dir]\n",
  });
  assert.deepEqual(corpus.memory, ["kept", "file named like the dir"]);
});

Deno.test("load - merges by plain append in file order without de-duplication", async () => {
  const { wire } = await loadFiles({
    "a.yaml":
      "components:\n  - {name: G, selector: .a}\nviews:\n  - {name: V, route: /a}\nrequests:\n  - {name: R, route: /r1}\n",
    "b.yaml":
      "components:\n  - {name: G, selector: .b}\nviews:\n  - {name: V, route: /b}\nrequests:\n  - {name: R, route: /r2}\n",
  });
  assert.deepEqual(wire.globals.map((g) => g.selector), [".a", ".b"]);
  assert.deepEqual(wire.views.map((v) => v.route), ["/a", "/b"]);
  assert.deepEqual(wire.requests.map((r) => r.route), ["/r1", "/r2"]);
});

Deno.test("load - an empty file and a comment-only file contribute nothing", async () => {
  const { wire, diagnostics } = await loadFiles({ "empty.yaml": "", "comments.yaml": "# nothing here\n" });
  assert.deepEqual(wire.globals, []);
  assert.deepEqual(wire.views, []);
  assert.deepEqual(diagnostics, []);
});

Deno.test("load - reads only the first document of a multi-document file and says so", async () => {
  const { corpus, diagnostics } = await loadFiles({
    "multi.yaml": "memory: [doc1]\n---\nmemory: [doc2]\n",
  });
  assert.deepEqual(corpus.memory, ["doc1"]);
  assert.deepEqual(codes(diagnostics), ["missing-version multi.yaml:1:1", "ignored-document multi.yaml:2:1"]);
});

Deno.test("load - anchors, aliases and merge keys resolve", async () => {
  const { wire } = await loadFiles({
    "a.yaml": [
      "version: 1",
      "x-shared: &props",
      "  - {name: title, extract: text}",
      "components:",
      "  - &card",
      "    name: Card",
      "    selector: .card",
      "    properties: *props",
      "  - <<: *card",
      "    name: WideCard",
      "    selector: .card.wide",
      "",
    ].join("\n"),
  });
  assert.deepEqual(wire.globals, [
    { name: "Card", selector: ".card", parentChain: [], properties: [{ name: "title", extract: "text" }] },
    { name: "WideCard", selector: ".card.wide", parentChain: [], properties: [{ name: "title", extract: "text" }] },
  ]);
});

Deno.test("load - alias inflation is refused instead of exhausting memory", async () => {
  // Each level holds ten aliases of the previous one: 10^8 components once expanded, all correctly typed.
  const lines = ["x-levels:", "  - &c0 {name: X, selector: x}"];
  for (let i = 1; i < 9; i++) {
    lines.push(`  - &c${i} {name: X, selector: x, children: [${Array(10).fill(`*c${i - 1}`).join(", ")}]}`);
  }
  lines.push("components: [*c8]");
  const problems = await loadFailure({ "bomb.yaml": lines.join("\n") + "\n" });
  assert.ok(problems.some((p) => p.startsWith("yaml-alias-limit bomb.yaml:")), problems.join("\n"));
});

Deno.test("load - a self-referencing anchor is a clean load error, never endless recursion", async () => {
  for (
    const yaml of [
      "components:\n  - &a {name: A, selector: a, children: [*a]}\n",
      "components:\n  - &a\n    name: A\n    selector: a\n    children:\n      - name: B\n        selector: b\n        children: [*a]\n",
      "components:\n  - &a {name: A, selector: a, <<: *a}\n",
      "views:\n  - &v {name: V, route: /, components: [{name: C, selector: c, children: [*v]}]}\n",
    ]
  ) {
    const problems = await loadFailure({ "cycle.yaml": yaml });
    assert.ok(
      problems.some((p) =>
        /^yaml-alias-limit cycle\.yaml:\d+:\d+: alias "\*[av]" refers to a node that contains it/.test(p)
      ),
      `${yaml}\n${problems.join("\n")}`,
    );
  }
  // An alias of an EARLIER complete node is fine (not a cycle).
  const { wire } = await loadFiles({
    "ok.yaml": "x-shared: &s {name: S, selector: s}\ncomponents:\n  - {name: A, selector: a, children: [*s, *s]}\n",
  });
  assert.equal(wire.globals.length, 3);
});

Deno.test("load - scalars of other types are read as written", async () => {
  const { wire } = await loadFiles({
    "a.yaml": "views:\n  - name: 404\n    route: /x\n    memory: [1.50, true]\n",
  });
  assert.deepEqual(wire.views[0], { name: "404", route: "/x", memory: ["1.50", "true"], components: [], requests: [] });
});

Deno.test("load - $ref expands a root component with its whole subtree, in globals, views and children", async () => {
  const { wire, diagnostics } = await loadFiles({
    "a.yaml": [
      "components:",
      "  - name: Header",
      "    selector: '#h'",
      "    children:",
      "      - {name: Logo, selector: .logo}",
      "  - {name: Footer, selector: footer}",
      "  - $ref: Footer",
      "views:",
      "  - name: V",
      "    route: /",
      "    components:",
      "      - $ref: Header",
      "      - name: Hero",
      "        selector: .hero",
      "        children:",
      "          - $ref: Footer",
      "",
    ].join("\n"),
  });
  assert.deepEqual(wire.globals.map((g) => [g.name, g.selector, g.parentChain]), [
    ["Header", "#h", []],
    ["Logo", "#h .logo", ["Header"]],
    ["Footer", "footer", []],
    ["Footer", "footer", []],
  ]);
  assert.deepEqual(wire.views[0]!.components.map((g) => [g.name, g.selector, g.parentChain]), [
    ["Header", "#h", []],
    ["Logo", "#h .logo", ["Header"]],
    ["Hero", ".hero", []],
    ["Footer", ".hero footer", ["Hero"]],
  ]);
  assert.deepEqual(diagnostics.filter((d) => d.code !== "missing-version"), []);
});

Deno.test("load - sibling keys beside $ref are ignored and are an unknown-field error", async () => {
  const { wire, diagnostics } = await loadFiles({
    "a.yaml":
      "components:\n  - {name: F, selector: f}\nviews:\n  - name: V\n    components:\n      - $ref: F\n        selector: .other\n",
  });
  assert.equal(wire.views[0]!.components[0]!.selector, "f");
  assert.deepEqual(codes(diagnostics).filter((c) => c.startsWith("unknown-")), ["unknown-field a.yaml:7:9"]);
  assert.equal(diagnostics.find((d) => d.code === "unknown-field")!.severity, "error");
});

Deno.test("load - $ref to a duplicated name uses the first declaration (spec), with a warning", async () => {
  const { wire, diagnostics } = await loadFiles({
    "a.yaml": "components:\n  - {name: G2, selector: .first}\n",
    "b.yaml":
      "components:\n  - {name: G2, selector: .second}\nviews:\n  - name: V\n    components:\n      - $ref: G2\n",
  });
  assert.equal(wire.views[0]!.components[0]!.selector, ".first");
  const d = diagnostics.find((x) => x.code === "ref-ambiguous");
  assert.ok(d);
  assert.equal(d.severity, "warning");
  assert.match(d.message, /a\.yaml:2.*not .*b\.yaml:2/);
});

Deno.test("load - unresolved $ref is dropped with ref-unresolved", async () => {
  const { wire, diagnostics } = await loadFiles({
    "a.yaml": "views:\n  - name: V\n    route: /\n    components:\n      - $ref: Missing\n",
  });
  assert.deepEqual(wire.views[0]!.components, []);
  assert.deepEqual(codes(diagnostics), ["missing-version a.yaml:1:1", "ref-unresolved a.yaml:5:9"]);
  assert.equal(diagnostics.find((d) => d.code === "ref-unresolved")!.severity, "error");
});

Deno.test("load - a self-referencing $ref emits one level of self-expansion, then the cycle is cut", async () => {
  const { wire, diagnostics } = await loadFiles({
    "a.yaml": "components:\n  - name: Loop\n    selector: '#loop'\n    children:\n      - $ref: Loop\n",
  });
  assert.deepEqual(wire.globals, [
    { name: "Loop", selector: "#loop", parentChain: [], properties: [] },
    { name: "Loop", selector: "#loop #loop", ownSelector: "#loop", parentChain: ["Loop"], properties: [] },
  ]);
  assert.deepEqual(codes(diagnostics).filter((c) => c.startsWith("ref")), ["ref-circular a.yaml:5:9"]);
});

Deno.test("load - a mutual $ref cycle terminates with ref-circular", async () => {
  const { corpus, diagnostics } = await loadFiles({
    "a.yaml": [
      "components:",
      "  - {name: A, selector: .a, children: [{$ref: B}]}",
      "  - {name: B, selector: .b, children: [{$ref: A}]}",
      "views:",
      "  - {name: V, components: [{$ref: A}]}",
      "",
    ].join("\n"),
  });
  assert.deepEqual(corpus.views[0]!.components.map((c) => c.selectors[0]), [".a", ".a .b"]);
  assert.ok(diagnostics.some((d) => d.code === "ref-circular"));
});

Deno.test("load - components without name or selector are dropped with their subtree and a diagnostic", async () => {
  const { wire, diagnostics } = await loadFiles({
    "a.yaml": [
      "version: 1",
      "components:",
      "  - selector: .nameless",
      "    children: [{name: Orphan, selector: .o}]",
      "  - name: NoSelector",
      "  - name: EmptyList",
      "    selector: []",
      "  - name: OnlyCommas",
      "    selector: ' , , '",
      "  - name: Kept",
      "    selector: .kept",
      "",
    ].join("\n"),
  });
  assert.deepEqual(wire.globals.map((g) => g.name), ["Kept"]);
  assert.deepEqual(codes(diagnostics), [
    "missing-name a.yaml:3:5",
    "missing-selector a.yaml:5:5",
    "missing-selector a.yaml:6:5",
    "missing-selector a.yaml:8:5",
  ]);
  assert.ok(diagnostics.every((d) => d.severity === "error"));
});

Deno.test("load - requests need name and route; views and messages are never dropped", async () => {
  const { wire, diagnostics } = await loadFiles({
    "a.yaml": [
      "version: 1",
      "requests:",
      "  - {route: /nameless}",
      "  - {name: NoRoute}",
      "  - {name: Ok, route: /ok, method: get}",
      "views:",
      "  - route: /unnamed",
      "  - name: NoRoute",
      "messages:",
      "  - level: error",
      "",
    ].join("\n"),
  });
  assert.deepEqual(wire.requests, [{ name: "Ok", route: "/ok", method: "get" }]);
  assert.deepEqual(wire.views, [
    { name: "", route: "/unnamed", memory: [], components: [], requests: [] },
    { name: "NoRoute", memory: [], components: [], requests: [] },
  ]);
  assert.deepEqual(wire.messages, [{ name: "", level: "error" }]);
  assert.deepEqual(codes(diagnostics), [
    "missing-name a.yaml:3:5",
    "missing-route a.yaml:4:5",
    "missing-name a.yaml:7:5",
    "missing-route a.yaml:8:5",
    "missing-name a.yaml:10:5",
  ]);
});

Deno.test("load - selector lists are joined then split on top-level commas", async () => {
  const { corpus } = await loadFiles({
    "a.yaml": [
      "components:",
      `  - name: L`,
      `    selector: ['a, b', '  c  ', '', 'd[x="1,2"]', "e:not(.f, .g)"]`,
      `  - name: S`,
      `    selector: 'a[title=''x,y''], b\\,c, d'`,
      "",
    ].join("\n"),
  });
  assert.deepEqual(corpus.globals[0]!.selectors, ["a", "b", "c", 'd[x="1,2"]', "e:not(.f, .g)"]);
  assert.deepEqual(corpus.globals[1]!.selectors, ["a[title='x,y']", "b\\,c", "d"]);
});

Deno.test("load - nesting flattens in pre-order with cross products and root-first parentChain", async () => {
  const { wire } = await loadFiles({
    "a.yaml": [
      "components:",
      "  - name: GlobalFooter",
      "    selector: '#ac-globalfooter, #global-footersection'",
      "    children:",
      "      - name: Legal",
      "        selector: '.ac-gf-sosumi, .as-globalfooter-sosumi'",
      "        children:",
      "          - {name: Link, selector: a}",
      "      - {name: Second, selector: .second}",
      "  - {name: After, selector: .after}",
      "",
    ].join("\n"),
  });
  assert.deepEqual(wire.globals.map((g) => [g.name, g.selector, g.parentChain]), [
    ["GlobalFooter", "#ac-globalfooter, #global-footersection", []],
    [
      "Legal",
      "#ac-globalfooter .ac-gf-sosumi, #ac-globalfooter .as-globalfooter-sosumi, #global-footersection .ac-gf-sosumi, #global-footersection .as-globalfooter-sosumi",
      ["GlobalFooter"],
    ],
    [
      "Link",
      "#ac-globalfooter .ac-gf-sosumi a, #ac-globalfooter .as-globalfooter-sosumi a, #global-footersection .ac-gf-sosumi a, #global-footersection .as-globalfooter-sosumi a",
      ["GlobalFooter", "Legal"],
    ],
    ["Second", "#ac-globalfooter .second, #global-footersection .second", ["GlobalFooter"]],
    ["After", ".after", []],
  ]);
});

Deno.test("load - unknown fields are warnings with their position; tooling files are exempt", async () => {
  const { wire, diagnostics } = await loadFiles({
    "config.yaml": "version: 1\nname: profile\nsnapshot: {wait: 2}\n",
    "a.yaml": [
      "version: 1",
      "signals: []",
      "route: /oops",
      "components:",
      "  - name: C",
      "    selector: .c",
      "    uses: Other",
      "    properties:",
      "      - {name: p, extract: text, transform: slug, shape: round}",
      "views:",
      "  - name: V",
      "    route: /",
      "    colour: red",
      "",
    ].join("\n"),
  });
  assert.deepEqual(codes(diagnostics), [
    "unknown-field a.yaml:2:1",
    "view-field-at-file-root a.yaml:3:1",
    "unknown-field a.yaml:7:5",
    "unknown-field a.yaml:9:51",
    "unknown-field a.yaml:13:5",
  ]);
  assert.ok(diagnostics.every((d) => d.severity === "warning"));
  assert.deepEqual(wire.globals[0]!.properties, [{ name: "p", extract: "text", transform: "slug" }]);
});

Deno.test("load - missing or unsupported version is a warning", async () => {
  const { diagnostics } = await loadFiles({ "a.yaml": "memory: [x]\n", "b.yaml": "version: 2\n" });
  assert.deepEqual(codes(diagnostics), ["missing-version a.yaml:1:1", "unsupported-version b.yaml:1:10"]);
});

Deno.test("load - fatal problems across all files are listed together with positions", async () => {
  const problems = await loadFailure({
    "a.yaml": "version: 1\nviews: [\n  a\n",
    "b.yaml": "version: 1\nviews: hello\ncomponents:\n  - name: X\n    selector: {a: 1}\n",
    "c.yaml": "- a\n- b\n",
    "d.yaml": "a: 1\na: 2\n",
    "e.yaml": "version: 1\ncomponents:\n\t- name: x\n",
    "ok.yaml": "version: 1\n",
  });
  assert.equal(problems.length, 6, problems.join("\n"));
  assert.match(problems[0]!, /^yaml-syntax a\.yaml:4:1: /);
  assert.equal(problems[1], `type-mismatch b.yaml:2:8: "views" must be a list, found a string`);
  assert.equal(problems[2], `type-mismatch b.yaml:5:15: a component's "selector" must be a string, found a mapping`);
  assert.equal(problems[3], "type-mismatch c.yaml:1:1: the file root must be a mapping, found a list");
  assert.match(problems[4]!, /^yaml-syntax d\.yaml:2:1: .*unique/);
  assert.match(problems[5]!, /^yaml-syntax e\.yaml:3:1: /);
});

Deno.test("load - a missing directory or a file in its place fails with a hint", async () => {
  await using c = await tempCorpus();
  const missing = await load(join(c.root, "nope")).then(() => undefined, (e: unknown) => e);
  assert.ok(missing instanceof CorpusLoadError);
  assert.equal(missing.problems[0]!.code, "dir-not-found");
  assert.match(missing.hint ?? "", /mapper atlas add/);
  await Deno.writeTextFile(join(c.root, "file"), "x");
  const file = await load(join(c.root, "file")).then(() => undefined, (e: unknown) => e);
  assert.ok(file instanceof CorpusLoadError);
  assert.equal(file.problems[0]!.code, "not-a-directory");
});

Deno.test("load - invalid UTF-8 is a fatal problem", async () => {
  await using c = await tempCorpus();
  await Deno.writeFile(join(c.dir, "bad.yaml"), new Uint8Array([0x6d, 0x3a, 0x20, 0xff, 0xfe, 0x0a]));
  const err = await load(c.dir).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof CorpusLoadError);
  assert.equal(err.problems[0]!.code, "file-encoding");
});

Deno.test("load - a byte-order mark is not part of the text: positions on the first line are as without it", async () => {
  const { corpus, diagnostics } = await loadFiles({
    "a.yaml": "\uFEFFversion: 2\nmemory: [a]\n",
    "b.yaml": "\uFEFFversion: 1\nmemory: [b]\n",
  });
  assert.deepEqual(
    diagnostics.filter((d) => d.code !== "no-views").map((d) =>
      `${d.code} ${d.location.file}:${d.location.line}:${d.location.column}`
    ),
    [
      "unsupported-version a.yaml:1:10",
    ],
  );
  assert.deepEqual(corpus.memory, ["a", "b"]);
});

Deno.test("load - a file that holds a real U+FFFD (valid UTF-8) loads with it", async () => {
  await using c = await tempCorpus({ "a.yaml": 'version: 1\nmemory: ["a \uFFFD b"]\n' });
  const { corpus } = await load(c.dir);
  assert.deepEqual(corpus.memory, ["a \uFFFD b"]);
});

Deno.test("load - symlinked files inside the corpus are read, symlinked directories are skipped with a warning", async () => {
  await using c = await tempCorpus({ "real/a.yaml": "memory: [real]\n", "shared/b.yml": "memory: [linked]\n" });
  await using other = await tempCorpus({ "b.yaml": "memory: [outside]\n" });
  await Deno.symlink(join(c.dir, "shared", "b.yml"), join(c.dir, "link.yaml"));
  await Deno.symlink(other.dir, join(c.dir, "linkdir"));
  const { corpus, diagnostics } = await load(c.dir);
  assert.deepEqual(corpus.memory, ["linked", "real", "linked"]);
  assert.ok(diagnostics.some((d) => d.code === "symlink-dir-skipped"));
});

Deno.test("load - a symlinked file resolving outside the corpus is not read; the diagnostic names the link only", async () => {
  await using c = await tempCorpus({ "a.yaml": "memory: [mine]\n" });
  // Another user's link to a file of the victim: a corpus-shaped secret, and one that is not (a .pgpass line).
  await using other = await tempCorpus({
    "notes.yaml": "memory: [s3cr3t-token]\n",
    "pgpass": "db.internal:5432:prod:admin:S3cr3tP4ss!\n",
  });
  await Deno.symlink(join(other.dir, "notes.yaml"), join(c.dir, "b.yaml"));
  await Deno.symlink(join(other.dir, "pgpass"), join(c.dir, "c.yaml"));
  const { corpus, diagnostics } = await load(c.dir, { validate: true });
  assert.deepEqual(corpus.memory, ["mine"]);
  const outside = diagnostics.filter((d) => d.code === "symlink-outside-corpus");
  assert.deepEqual(outside.map((d) => [d.location.file, d.severity]), [
    [join(c.dir, "b.yaml"), "error"],
    [join(c.dir, "c.yaml"), "error"],
  ]);
  const text = JSON.stringify(diagnostics);
  for (const leak of ["s3cr3t", "S3cr3t", "db.internal", other.dir]) assert.ok(!text.includes(leak), leak);
});

Deno.test("load - a file swapped for a link out of the corpus between two loads is not read either", async () => {
  await using c = await tempCorpus({ "a.yaml": "memory: [mine]\n" });
  await using other = await tempCorpus({ "x.yaml": "memory: [theirs]\n" });
  const cache = new LoadCache();
  await load(c.dir, { cache });
  await Deno.remove(join(c.dir, "a.yaml"));
  await Deno.symlink(join(other.dir, "x.yaml"), join(c.dir, "a.yaml"));
  const { corpus, diagnostics } = await load(c.dir, { cache, changed: [join(c.dir, "a.yaml")] });
  assert.deepEqual(corpus.memory, []);
  assert.ok(diagnostics.some((d) => d.code === "symlink-outside-corpus"));
});

Deno.test("load - a type error never quotes the value: a secrets file is one plain YAML string", async () => {
  const problems = await loadFailure({
    "a.yaml": "db.internal:5432:prod:admin:S3cr3tP4ss!\n",
    "b.yaml": "views: 12345\n",
  });
  assert.deepEqual(problems, [
    "type-mismatch a.yaml:1:1: the file root must be a mapping, found a string",
    `type-mismatch b.yaml:1:8: "views" must be a list, found a number`,
  ]);
});

Deno.test("load - problem paths are the corpus directory joined with the relative path", async () => {
  await using c = await tempCorpus({ "views/a.yaml": "views: [\n" });
  const err = await load(c.dir).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof CorpusLoadError);
  assert.equal(err.problems[0]!.location.file, join(c.dir, "views", "a.yaml"));
});

Deno.test("load - exponential $ref expansion fails instead of exhausting memory", async () => {
  const lines = ["components:", "  - {name: A0, selector: a}"];
  for (let i = 1; i < 7; i++) {
    lines.push(`  - {name: A${i}, selector: a, children: [${Array(10).fill(`{$ref: A${i - 1}}`).join(", ")}]}`);
  }
  const problems = await loadFailure({ "refs.yaml": lines.join("\n") + "\n" });
  assert.ok(problems.some((p) => p.startsWith("corpus-too-large refs.yaml:")), problems.join("\n"));
});

Deno.test("load - a nested cross product beyond the selector limit is dropped with a diagnostic", async () => {
  const alts = (p: string) => Array.from({ length: 40 }, (_, i) => `.${p}${i}`).join(", ");
  const { wire, diagnostics } = await loadFiles({
    "a.yaml": `components:\n  - name: P\n    selector: '${
      alts("p")
    }'\n    children:\n      - name: C\n        selector: '${alts("c")}'\n`,
  });
  assert.deepEqual(wire.globals.map((g) => g.name), ["P"]);
  assert.ok(diagnostics.some((d) => d.code === "selector-explosion"));
});

Deno.test("load - a load cache reuses unchanged files and gives the same result as a fresh load", async () => {
  await using c = await tempCorpus({
    "a.yaml": "version: 1\nmemory: [a]\ncomponents:\n  - {name: A, selector: .a, bogus: 1}\n",
    "b.yaml": "version: 1\nviews:\n  - {name: V, route: /, components: [{$ref: A}]}\n",
  });
  const cache = new LoadCache();
  const first = await load(c.dir, { cache });
  assert.deepEqual(first, await load(c.dir));
  await c.write("b.yaml", "version: 1\nviews:\n  - {name: W, route: /w, components: [{$ref: A}]}\n");
  await c.write("c.yaml", "version: 1\nmemory: [c]\n");
  const second = await load(c.dir, { cache });
  assert.deepEqual(second, await load(c.dir));
  assert.equal(second.corpus.views[0]!.name, "W");
  assert.deepEqual(second.diagnostics.map((d) => d.code), ["unknown-field"]);
  await Deno.remove(join(c.dir, "a.yaml"));
  const third = await load(c.dir, { cache });
  assert.deepEqual(third, await load(c.dir));
  assert.deepEqual(third.corpus.memory, ["c"]);
});

Deno.test("load - empty list items are dropped with a diagnostic", async () => {
  const { wire, diagnostics } = await loadFiles({
    "a.yaml": "version: 1\ncomponents:\n  -\nviews:\n  -\n  - {name: V}\nrequests:\n  - \n",
  });
  assert.deepEqual(wire.globals, []);
  assert.equal(wire.views.length, 1);
  assert.deepEqual(codes(diagnostics).filter((c) => c.startsWith("empty-entry")).length, 3);
});

Deno.test("load - empty items of string lists are skipped with a warning", async () => {
  const { wire, diagnostics } = await loadFiles({
    "a.yaml": "version: 1\nmemory: [a, ~, b]\ncomponents:\n  - name: C\n    selector: [.c, null]\n    tags:\n      -\n",
  });
  assert.deepEqual(wire.memory, ["a", "b"]);
  assert.equal(wire.globals[0]!.selector, ".c");
  assert.deepEqual(wire.globals[0]!.tags, []);
  assert.deepEqual(codes(diagnostics), [
    "empty-entry a.yaml:2:13",
    "empty-entry a.yaml:5:20",
    "empty-entry a.yaml:7:8",
  ]);
  assert.ok(diagnostics.every((d) => d.severity === "warning"));
});

Deno.test("load - the environment is intact after parsing, even when parsing fails", async () => {
  const before = process.env;
  await loadFiles({ "a.yaml": "memory: [a]\n" });
  await loadFailure({ "b.yaml": "views: [\n" });
  assert.equal(process.env, before);
  assert.equal(process.env.PATH, Deno.env.get("PATH"));
});

Deno.test("load - YAML parser warnings (an unknown tag) become diagnostics; the value is read as text", async () => {
  const { wire, diagnostics } = await loadFiles({ "a.yaml": "version: 1\nmemory: [!custom note]\n" });
  assert.deepEqual(wire.memory, ["note"]);
  assert.deepEqual(codes(diagnostics), ["yaml-warning a.yaml:2:10"]);
  assert.match(diagnostics[0]!.message, /!custom/);
});

Deno.test("load - file url defaults each view's url; url and components without views warns", async () => {
  const { corpus, wire, diagnostics } = await loadFiles({
    "a.yaml":
      "version: 1\nurl: https://a.example/\nviews:\n  - {name: A, route: /}\n  - {name: B, route: /b, url: https://b.example/}\n",
    "b.yaml": "version: 1\nurl: https://c.example/\ncomponents:\n  - {name: C, selector: .c}\n",
    "survey.yaml": "version: 1\nanything: goes\n",
  });
  assert.deepEqual(corpus.views.map((v) => v.url), ["https://a.example/", "https://b.example/"]);
  assert.ok(!JSON.stringify(wire).includes("example"), "url leaked to the wire");
  assert.deepEqual(wire.globals.map((g) => g.name), ["C"]);
  assert.deepEqual(codes(diagnostics), ["no-views-in-file b.yaml:3:1"]);
});

Deno.test("load - component properties missing name or extract are kept as empty strings, with warnings", async () => {
  const { wire, diagnostics } = await loadFiles({
    "a.yaml":
      "version: 1\ncomponents:\n  - name: C\n    selector: .c\n    properties:\n      - {extract: text}\n      - {name: n}\n",
  });
  assert.deepEqual(wire.globals[0]!.properties, [{ name: "", extract: "text" }, { name: "n", extract: "" }]);
  assert.deepEqual(codes(diagnostics), ["property-missing-name a.yaml:6:9", "property-missing-extract a.yaml:7:9"]);
});

Deno.test("load - each alternative of a selector is checked on its own, at the selector's place, one string or a list", async () => {
  await using c = await tempCorpus({
    "a.yaml": [
      "version: 1",
      "components:",
      "  - name: One",
      "    selector: '.ok, div >> p, p ~~ a'",
      "  - name: List",
      "    selector:",
      "      - .fine",
      "      - 'div, a[[b'",
      "",
    ].join("\n"),
  });
  const { diagnostics } = await load(c.dir, { validate: true, sources: false });
  const found = diagnostics.filter((d) => d.code === "selector-invalid").map((d) =>
    `${d.component} ${JSON.stringify(d.selector)} ${d.location.line}:${d.location.column} ${d.location.path}`
  );
  assert.deepEqual(found, [
    'One "div >> p" 4:15 components[0].selector',
    'One "p ~~ a" 4:15 components[0].selector',
    'List "a[[b" 8:9 components[1].selector[1]',
  ]);
});

Deno.test("load - field paths stop 64 levels down (a deeper node's problem has a place but no path)", async () => {
  // Each `children` level nests two YAML levels (the list, then its item): component i is a mapping at depth 2i+2,
  // the item of its selector list at depth 2i+4.
  const level = (i: number): string => {
    const pad = "  ".repeat(i * 2);
    const head = `${pad}- name: C${i}\n${pad}  selector: ["p ~~ a"]\n`;
    return i === 40 ? head : `${head}${pad}  children:\n${level(i + 1)}`;
  };
  await using c = await tempCorpus({ "a.yaml": `version: 1\ncomponents:\n${level(0)}` });
  const { diagnostics } = await load(c.dir, { validate: true, sources: false });
  const problems = diagnostics.filter((d) => d.code === "selector-invalid");
  assert.deepEqual(problems.map((d) => d.location.line), Array.from({ length: 41 }, (_, i) => 4 + 3 * i));
  const paths = problems.map((d) => d.location.path);
  assert.deepEqual(paths.slice(0, 2), ["components[0].selector[0]", "components[0].children[0].selector[0]"]);
  // The last with a path is that of component 30, at depth 64.
  assert.equal(paths[30], `components[0]${".children[0]".repeat(30)}.selector[0]`);
  assert.deepEqual(paths.slice(31), Array(10).fill(undefined));
});

Deno.test("load - deferCrossChecks: the checks across files run when diagnostics are first read, with the same result", async () => {
  // Problems only the checks across files find (a route conflict, a merge collision, a duplicate), beside a file's own.
  await using c = await tempCorpus({
    "a.yaml": [
      "version: 1",
      "components:",
      "  - {name: Nav, selector: nav}",
      "  - {name: Nav, selector: nav}",
      "views:",
      "  - {name: Home, route: /, components: [{name: Hero, selector: '.hero'}]}",
      "",
    ].join("\n"),
    "b.yaml": [
      "version: 1",
      "bogus: 1",
      "views:",
      "  - {name: Home, route: /home}",
      "  - {name: Start, route: /}",
      "",
    ].join("\n"),
  });
  const eager = await load(c.dir, { validate: true, sources: false });
  const deferred = await load(c.dir, { validate: true, sources: false, deferCrossChecks: true });
  assert.equal(typeof Object.getOwnPropertyDescriptor(deferred, "diagnostics")?.get, "function", "made on first read");
  // The corpus is compiled (and served) before they run: that changes nothing they find.
  assert.deepEqual(
    compile(deferred.corpus, { site: "s", version: 1 }),
    compile(eager.corpus, { site: "s", version: 1 }),
  );
  const found = codes(deferred.diagnostics);
  assert.deepEqual(found, codes(eager.diagnostics));
  for (const code of ["route-conflict", "merge-collision-view", "duplicate-component", "unknown-field"]) {
    assert.ok(found.some((line) => line.startsWith(`${code} `)), `${code} in ${found.join(", ")}`);
  }
  assert.equal(deferred.diagnostics, deferred.diagnostics, "made once");
  // With the disk lookup of globs the load checks everything before it returns.
  const sourced = await load(c.dir, { validate: true, deferCrossChecks: true });
  assert.equal(Object.getOwnPropertyDescriptor(sourced, "diagnostics")?.get, undefined);
});
