/**
 * `mapper atlas validate`: a clean catalog, one with every problem class at once (text and JSON golden files, each
 * problem with its JSON path and line), stdin, the schema gate, syntax errors and read failures. Exit codes exact.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertGolden, ROOT, runMapper, tempDir } from "./_helpers.ts";

const FIX = join(ROOT, "tests/fixtures/atlas");

Deno.test("atlas validate - the bundled example gallery's catalog, as atlas build writes it, is valid", async () => {
  await using home = await tempDir();
  const built = await runMapper(["atlas", "build", "--strict", "--out", home.join("site")], {
    cwd: home.path,
    env: { HOME: home.path },
  });
  assert.equal(built.code, 0, built.stderr);
  assert.equal(built.stderr, "");
  const r = await runMapper(["atlas", "validate", "site/atlas/index.json"], {
    cwd: home.path,
    env: { HOME: home.path },
  });
  assert.deepEqual([r.code, r.stdout, r.stderr], [0, "The catalog is valid (2 entries).\n", ""]);
});

Deno.test("atlas validate - reports every problem class in one run, with path and line (golden)", async () => {
  await using home = await tempDir();
  const r = await runMapper(["atlas", "validate", "many.catalog"], { cwd: FIX, env: { HOME: home.path } });
  await assertGolden("atlas/validate-many.txt", r.stdout);
  assert.equal(
    r.stderr,
    "mapper atlas validate: 34 problems in many.catalog — fix them and run 'mapper atlas validate' again\n",
  );
  assert.equal(r.code, 1);
  const json = await runMapper(["atlas", "validate", "--json", "-"], {
    cwd: FIX,
    env: { HOME: home.path },
    stdin: await Deno.readTextFile(join(FIX, "many.catalog")).catch(() => ""),
  });
  assert.equal(json.code, 1);
  const doc = JSON.parse(json.stdout);
  assert.equal(doc.schema, 1);
  assert.equal(doc.file, "<stdin>");
  assert.equal(doc.valid, false);
  assert.deepEqual(
    [...new Set(doc.problems.map((p: { code: string }) => p.code))].sort(),
    [
      "bad-format",
      "control-character",
      "duplicate-slug",
      "missing-field",
      "missing-slug",
      "not-allowed",
      "out-of-range",
      "site-url",
      "slug-format",
      "unsafe-slug",
      "wrong-type",
    ],
  );
});

Deno.test("atlas validate - the JSON report matches the golden file", async () => {
  await using home = await tempDir();
  const r = await runMapper(["atlas", "validate", "--json", "many.catalog"], { cwd: FIX, env: { HOME: home.path } });
  await assertGolden("atlas/validate-many.json", r.stdout);
});

Deno.test("atlas validate - reads stdin with no argument; schema gate, syntax errors and read failures", async () => {
  await using home = await tempDir();
  const v = (stdin: string, args: string[] = []) =>
    runMapper(["atlas", "validate", ...args], { cwd: home.path, env: { HOME: home.path }, stdin });
  let r = await v('{"schema_version":1,"entries":[]}');
  assert.deepEqual([r.code, r.stdout], [0, "The catalog is valid (0 entries).\n"]);
  r = await v('{"schema_version":2,"entries":"restructured"}');
  assert.match(
    r.stdout,
    /^ {2}<stdin>:1: schema_version: schema_version 2 is newer than this mapper understands \(1\)/,
  );
  assert.equal(r.code, 1);
  r = await v('{"schema_version":1.0,"entries":[]}');
  assert.equal(r.stdout, "  <stdin>:1: schema_version: expected an integer, found a number 1\n");
  r = await v('{"entries":[]}');
  assert.match(r.stdout, /"schema_version" is missing/);
  r = await v('{\n  "schema_version":');
  assert.equal(r.stdout, "  <stdin>:2: not valid JSON: unexpected end of input, expected a JSON value\n");
  assert.equal(
    r.stderr,
    "mapper atlas validate: 1 problem in <stdin> — fix them and run 'mapper atlas validate' again\n",
  );
  // A C1 control in an object key (JSON.stringify would keep it raw) is escaped in the JSON path too.
  r = await v('{"schema_version":1,"entries":[{"slug":"a","stats":{"v\u009b31m":1.5}}]}');
  assert.match(
    r.stdout,
    /^ {2}<stdin>:1: entries\[0\]\.stats\["v\\x9b31m"\]: expected a whole number ≥ 0, found 1\.5$/m,
  );
  r = await v("\ufeff{}");
  assert.match(r.stdout, /byte order mark/);
  r = await v("", ["nope.json"]);
  assert.equal(
    r.stderr,
    'mapper atlas validate: no such file: "nope.json" — pass the path of an index.json, or - for stdin\n',
  );
  assert.equal(r.code, 1);
  r = await v("", ["."]);
  assert.equal(
    r.stderr,
    'mapper atlas validate: cannot read ".": it is a directory — pass the path of the index.json inside it\n',
  );
  assert.equal(r.code, 1);
});

Deno.test("atlas validate - --format github prints one ::error annotation per problem at file:line, exit 1", async () => {
  await using home = await tempDir();
  const r = await runMapper(["atlas", "validate", "--format", "github", "tests/fixtures/atlas/many.catalog"], {
    env: { HOME: home.path },
  });
  assert.equal(r.code, 1);
  assert.equal(r.stderr, "");
  const lines = r.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 35);
  for (const line of lines.slice(0, -1)) {
    assert.match(line, /^::error file=tests\/fixtures\/atlas\/many\.catalog,line=\d+,title=[a-z-]+::\S/);
  }
  assert.ok(lines.some((l) => /title=duplicate-slug::entries\[\d+\]\.slug: duplicate slug/.test(l)), r.stdout);
  assert.equal(lines.at(-1), "34 problems in tests/fixtures/atlas/many.catalog");
  const clean = await runMapper(["atlas", "validate", "--format", "github", "-"], {
    env: { HOME: home.path },
    stdin: '{"schema_version":1,"entries":[]}',
  });
  assert.deepEqual([clean.code, clean.stdout], [0, "The catalog is valid (0 entries).\n"]);
});
