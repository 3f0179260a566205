// `mapper validate`, `lint` and `fmt` as a user runs them: the envelope, the text and GitHub renderings, exit codes,
// the corpus walk-up, `--warn-only`, and fmt's canonical output (idempotent, comments kept, invalid files untouched).
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, tempDir } from "./_helpers.ts";
import { firstOfEachCommand } from "./_in_process.ts";

/** Each command's first call of the file runs as a subprocess, its later calls in this process. */
const run = firstOfEachCommand();

const FIXTURES = join(ROOT, "tests", "fixtures", "authoring");

async function writeCorpus(root: string, files: Record<string, string>): Promise<string> {
  const dir = join(root, ".mapper");
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, name), text);
  }
  return dir;
}

const CLEAN = "version: 1\nviews:\n  - name: Home\n    route: /\n";

Deno.test("validate - a clean corpus prints the summary and exits 0", async () => {
  await using tmp = await tempDir();
  const dir = await writeCorpus(tmp.path, { "home.yaml": CLEAN });
  const r = await run(["validate", "--dir", dir]);
  assert.deepEqual(r, { code: 0, stdout: "✓ no problems (1 file)\n", stderr: "" });
});

Deno.test("validate - the --json envelope has ok, diagnostics and result, and nothing else on stdout", async () => {
  const dir = join(FIXTURES, "missing-route", ".mapper");
  const r = await run(["validate", "--dir", dir, "--json"]);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, "");
  const envelope = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(envelope), ["ok", "diagnostics", "result"]);
  assert.equal(envelope.ok, false);
  assert.deepEqual(envelope.result, { files: 1, errors: 1, warnings: 0 });
  const [d] = envelope.diagnostics;
  assert.deepEqual(Object.keys(d), ["code", "severity", "message", "file", "line", "column", "path", "component"]);
  assert.deepEqual({ ...d, message: undefined }, {
    code: "missing-route",
    severity: "error",
    message: undefined,
    file: "a.yaml",
    line: 3,
    column: 5,
    path: "views[0]",
    component: "Home",
  });
  assert.match(d.message, /add route: \/path/);
});

Deno.test("validate - text output names file:line:col, severity, code and the fix", async () => {
  const dir = join(FIXTURES, "selector-invalid", ".mapper");
  const r = await run(["validate", "--dir", dir]);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, "");
  assert.match(r.stdout, /^a\.yaml:7:19: error selector-invalid: selector parse error in "div\[\[\[": .*\n/);
  assert.match(r.stdout, /\n✗ 1 error, 0 warnings \(1 file\)\n$/);
});

Deno.test("validate - --format github prints workflow annotations with paths relative to the working directory", async () => {
  const r = await run([
    "validate",
    "--dir",
    "tests/fixtures/authoring/selector-invalid/.mapper",
    "--format",
    "github",
  ]);
  assert.equal(r.code, 1);
  const [line, summary] = r.stdout.trimEnd().split("\n");
  assert.match(
    line!,
    /^::error file=tests\/fixtures\/authoring\/selector-invalid\/\.mapper\/a\.yaml,line=7,col=19,title=selector-invalid::selector parse error in "div\[\[\["/,
  );
  assert.match(line!, /\(views\[0\]\.components\[0\]\.selector\)$/);
  assert.equal(summary, "✗ 1 error, 0 warnings (1 file)");
});

Deno.test("validate - warnings alone exit 0; --format github marks them ::warning", async () => {
  const dir = join(FIXTURES, "unknown-field", ".mapper");
  const r = await run(["validate", "--dir", dir, "--format", "github"], { cwd: join(FIXTURES, "unknown-field") });
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^::warning file=\.mapper\/a\.yaml,line=5,col=5,title=unknown-field::/);
});

Deno.test("validate - without --dir the nearest .mapper/ above the working directory is used", async () => {
  await using tmp = await tempDir();
  await writeCorpus(tmp.path, { "home.yaml": "views:\n  - name: Home\n    route: /\n" });
  await Deno.mkdir(tmp.join("src", "deep"), { recursive: true });
  const r = await run(["validate"], { cwd: tmp.join("src", "deep") });
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^home\.yaml:1:1: error missing-version: /);
});

Deno.test("validate - no corpus is a usage error (exit 2); with --json an envelope says corpus-not-found", async () => {
  await using tmp = await tempDir();
  const text = await run(["validate", "--dir", "nope"], { cwd: tmp.path });
  assert.equal(text.code, 2);
  assert.equal(text.stdout, "");
  assert.match(text.stderr, /^mapper validate: corpus directory "nope" does not exist or is not a directory — /);
  const json = await run(["validate", "--json"], { cwd: tmp.path });
  assert.equal(json.code, 2);
  const envelope = JSON.parse(json.stdout);
  assert.equal(envelope.ok, false);
  assert.equal(envelope.result, null);
  assert.deepEqual(envelope.diagnostics.map((d: { code: string }) => d.code), ["corpus-not-found"]);
});

Deno.test("validate - an unknown --format is a usage error naming the formats", async () => {
  const r = await run(["validate", "--dir", "tests/fixtures/authoring/no-views/.mapper", "--format", "xml"]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^mapper validate: unknown --format "xml" — use one of text, json, github\n/);
});

Deno.test("lint - exit 1 on any finding; --warn-only passes warnings but never hides errors", async () => {
  const warnOnly = join(FIXTURES, "name-case", ".mapper");
  const strict = await run(["lint", "--dir", warnOnly]);
  assert.equal(strict.code, 1);
  assert.match(
    strict.stdout,
    /^a\.yaml:6:9: warning name-case: component name "price" should start with an upper-case/,
  );
  const relaxed = await run(["lint", "--dir", warnOnly, "--warn-only", "--json"]);
  assert.equal(relaxed.code, 0);
  assert.equal(JSON.parse(relaxed.stdout).ok, true);
  const errors = await run(["lint", "--dir", join(FIXTURES, "selector-invalid", ".mapper"), "--warn-only"]);
  assert.equal(errors.code, 1);
  assert.match(errors.stdout, /error selector-invalid/);
});

Deno.test("lint - re-emits validate's findings with their own codes (merge-collision-view), not a wrapper", async () => {
  const r = await run(["lint", "--dir", join(FIXTURES, "merge-collision-view", ".mapper"), "--json"]);
  const envelope = JSON.parse(r.stdout);
  assert.deepEqual(envelope.diagnostics.map((d: { code: string }) => d.code), ["merge-collision-view"]);
  assert.deepEqual(envelope.result, { errors: 0, warnings: 1 });
  assert.equal(r.code, 1);
});

const MESSY = [
  "# Shop corpus — maintained by the web team.",
  "# Keep views sorted.",
  "views:",
  "  - {route: /p/:id, name: Product}   # detail page",
  "  # the landing page",
  '  - name: "Home"',
  "    dependencies: [src/b.ts, src/a.ts, src/b.ts]",
  "    route: '/'",
  "components:",
  "  - name: Footer",
  "    selector: 'footer'",
  "  - selector: \"[data-testid='logo']\"",
  "    name: Brand",
  "version: 1",
  "",
].join("\n");

const CANONICAL = [
  "# Shop corpus — maintained by the web team.",
  "# Keep views sorted.",
  "",
  "version: 1",
  "views:",
  "  # the landing page",
  "  - name: Home",
  "    route: /",
  "    dependencies:",
  "      - src/a.ts",
  "      - src/b.ts",
  "",
  "  - name: Product",
  "    route: /p/:id",
  "    # detail page",
  "components:",
  "  - name: Brand",
  "    selector: \"[data-testid='logo']\"",
  "",
  "  - name: Footer",
  "    selector: footer",
  "",
].join("\n");

Deno.test("fmt - writes the canonical format, keeps the header and comments, and is idempotent", async () => {
  await using tmp = await tempDir();
  const dir = await writeCorpus(tmp.path, { "shop.yaml": MESSY });
  const posix = Deno.build.os !== "windows";
  if (posix) await Deno.chmod(join(dir, "shop.yaml"), 0o640);
  const first = await run(["fmt", "--dir", dir]);
  assert.deepEqual(first, { code: 0, stdout: "formatted shop.yaml\n1 of 1 file reformatted\n", stderr: "" });
  assert.equal(await Deno.readTextFile(join(dir, "shop.yaml")), CANONICAL);
  if (posix) assert.equal((await Deno.stat(join(dir, "shop.yaml"))).mode! & 0o777, 0o640, "the file keeps its mode");
  const second = await run(["fmt", "--dir", dir, "--json"]);
  assert.equal(second.code, 0);
  assert.deepEqual(JSON.parse(second.stdout).result.files, [{ path: "shop.yaml", changed: false }]);
  assert.equal(await Deno.readTextFile(join(dir, "shop.yaml")), CANONICAL);
  const check = await run(["fmt", "--check", "--dir", dir]);
  assert.equal(check.code, 0);
  const left = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name);
  assert.deepEqual(left, ["shop.yaml"], "no temp file left behind");
});

Deno.test("fmt --check - names each non-canonical file, exits 1 and writes nothing", async () => {
  await using tmp = await tempDir();
  const dir = await writeCorpus(tmp.path, { "shop.yaml": MESSY, "ok.yaml": CLEAN });
  const r = await run(["fmt", "--check", "--dir", dir]);
  assert.equal(r.code, 1);
  assert.equal(
    r.stdout,
    "shop.yaml: warning fmt.not-canonical: not in the canonical format; run 'mapper fmt' to rewrite it\n" +
      "1 of 2 files not canonical — ✓ no errors (1 warning)\n",
  );
  assert.equal(await Deno.readTextFile(join(dir, "shop.yaml")), MESSY);
});

Deno.test("fmt - a file with an error is never touched (fmt.schema-invalid); the others are formatted", async () => {
  await using tmp = await tempDir();
  const broken = "views:\n  - {name: Home}\nversion: 1\n";
  const dir = await writeCorpus(tmp.path, { "broken.yaml": broken, "shop.yaml": MESSY });
  const r = await run(["fmt", "--dir", dir, "--json"]);
  assert.equal(r.code, 1);
  const envelope = JSON.parse(r.stdout);
  assert.deepEqual(envelope.diagnostics.map((d: { code: string; file: string }) => `${d.code} ${d.file}`), [
    "fmt.schema-invalid broken.yaml",
  ]);
  assert.equal(await Deno.readTextFile(join(dir, "broken.yaml")), broken);
  assert.equal(await Deno.readTextFile(join(dir, "shop.yaml")), CANONICAL);
});

Deno.test("fmt - YAML of the wrong shape is fmt.schema-invalid; only a YAML syntax error is fmt.parse-error", async () => {
  await using tmp = await tempDir();
  const shape = "version: 1\ncomponents:\n  Foo:\n    selector: a\n";
  const syntax = "version: 1\nviews: [\n";
  const dir = await writeCorpus(tmp.path, { "shape.yaml": shape, "syntax.yaml": syntax });
  const r = await run(["fmt", "--dir", dir, "--json"]);
  assert.equal(r.code, 1);
  const found = JSON.parse(r.stdout).diagnostics.map((d: Record<string, unknown>) =>
    `${d.code} ${d.file}:${d.line} ${d.message}`
  );
  assert.deepEqual(found, [
    'fmt.schema-invalid shape.yaml:3 the file has 1 error (first: line 3 "components" must be a list, found a ' +
    "mapping); fix it (mapper validate) — the file is left untouched",
    found[1],
  ]);
  assert.match(found[1], /^fmt\.parse-error syntax\.yaml:3 /);
  assert.equal(await Deno.readTextFile(join(dir, "shape.yaml")), shape);
});

Deno.test("fmt - matchesExpected compares with .expected/<path>, which is not itself corpus", async () => {
  await using tmp = await tempDir();
  const dir = await writeCorpus(tmp.path, {
    "shop.yaml": MESSY,
    ".expected/shop.yaml": CANONICAL,
  });
  const r = await run(["fmt", "--check", "--dir", dir, "--json"]);
  assert.deepEqual(JSON.parse(r.stdout).result.files, [{ path: "shop.yaml", changed: true, matchesExpected: true }]);
});

Deno.test("validate - a bad flag with --json still prints an envelope (usage) and exits 2", async () => {
  const r = await run(["validate", "--bogus", "--json"]);
  assert.equal(r.code, 2);
  const envelope = JSON.parse(r.stdout);
  assert.deepEqual(envelope.diagnostics.map((d: { code: string }) => d.code), ["usage"]);
  assert.equal(envelope.ok, false);
  assert.match(r.stderr, /^mapper validate: unknown option '--bogus'/);
});
