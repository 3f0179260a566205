// Every diagnostic code `validate`, `lint` and `fmt` can report, each from its own small fixture under
// tests/fixtures/authoring/<code>/.mapper/, run as a user would (`mapper <command> --dir … --json`): the fixture
// yields exactly that code, with its severity, file, line, column and field path, and the documented exit code.
// The first case of each command runs as a subprocess; the others go through the CLI's one top-level handler in
// this process (a Deno start per code was most of this file's time), with the same assertions.
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, runMapper } from "./_helpers.ts";
import { runInProcess } from "./_in_process.ts";

const FIXTURES = join(ROOT, "tests", "fixtures", "authoring");

interface Case {
  code: string;
  severity: "error" | "warning";
  /** `file:line:column path` of the diagnostic (`-` for corpus-wide, no position or no path). */
  at: string;
  command?: string[];
}

const cases: Case[] = [
  { code: "missing-version", severity: "error", at: "a.yaml:1:1 " },
  { code: "unsupported-version", severity: "error", at: "a.yaml:1:10 version" },
  { code: "unknown-field", severity: "warning", at: "a.yaml:5:5 views[0].colour" },
  { code: "view-field-at-file-root", severity: "warning", at: "a.yaml:2:1 route" },
  { code: "no-views-in-file", severity: "warning", at: "a.yaml:3:1 components" },
  { code: "no-views", severity: "warning", at: "-:-:- -" },
  { code: "field-type-invalid", severity: "error", at: "a.yaml:7:12 messages[0].level" },
  { code: "missing-name", severity: "error", at: "a.yaml:6:9 views[0].components[0]" },
  { code: "missing-route", severity: "error", at: "a.yaml:3:5 views[0]" },
  { code: "missing-selector", severity: "error", at: "a.yaml:6:9 views[0].components[0]" },
  { code: "ref-unresolved", severity: "error", at: "a.yaml:6:9 views[0].components[0]" },
  { code: "ref-circular", severity: "error", at: "a.yaml:6:9 components[0].children[0]" },
  { code: "merge-collision-view", severity: "warning", at: "b.yaml:3:5 views[0]" },
  { code: "merge-collision-component", severity: "warning", at: "b.yaml:3:5 components[0]" },
  { code: "merge-collision-message", severity: "warning", at: "a.yaml:9:5 messages[1]" },
  { code: "merge-collision-request", severity: "warning", at: "a.yaml:8:5 requests[1]" },
  { code: "route-conflict", severity: "warning", at: "a.yaml:5:5 views[1]" },
  { code: "request-property-invalid-name", severity: "error", at: "a.yaml:9:15 requests[0].properties[0].name" },
  { code: "request-property-source-invalid", severity: "error", at: "a.yaml:10:17 requests[0].properties[0].source" },
  { code: "request-property-no-extractor", severity: "error", at: "a.yaml:9:9 requests[0].properties[0]" },
  {
    code: "request-property-headers-require-field",
    severity: "error",
    at: "a.yaml:10:17 requests[0].properties[0].source",
  },
  {
    code: "request-property-pattern-invalid",
    severity: "error",
    at: "a.yaml:11:18 requests[0].properties[0].pattern",
  },
  {
    code: "request-property-shadows-reserved",
    severity: "warning",
    at: "a.yaml:9:15 requests[0].properties[0].name",
  },
  { code: "message-regex-invalid", severity: "error", at: "a.yaml:8:14 messages[0].message" },
  { code: "message-property-invalid-name", severity: "error", at: "a.yaml:9:15 messages[0].properties[0].name" },
  { code: "message-property-source-invalid", severity: "error", at: "a.yaml:10:17 messages[0].properties[0].source" },
  { code: "message-property-no-field", severity: "error", at: "a.yaml:9:9 messages[0].properties[0]" },
  {
    code: "message-property-pattern-invalid",
    severity: "error",
    at: "a.yaml:12:18 messages[0].properties[0].pattern",
  },
  { code: "message-property-field-invalid", severity: "error", at: "a.yaml:11:16 messages[0].properties[0].field" },
  { code: "message-conflict", severity: "warning", at: "a.yaml:9:5 messages[1]" },
  { code: "stability-invalid", severity: "error", at: "a.yaml:5:16 views[0].stability" },
  { code: "access-status-invalid", severity: "error", at: "a.yaml:6:15 views[0].access.status" },
  { code: "access-reason-required", severity: "error", at: "a.yaml:6:15 views[0].access.status" },
  { code: "selector-invalid", severity: "error", at: "a.yaml:7:19 views[0].components[0].selector" },
  { code: "selector-unsupported", severity: "warning", at: "a.yaml:7:19 views[0].components[0].selector" },
  { code: "duplicate-component", severity: "error", at: "a.yaml:8:9 views[0].components[1]" },
  { code: "parse-error", severity: "error", at: "a.yaml:3:1 -" },
  { code: "config.invalid-version", severity: "error", at: "config.yaml:1:10 version" },
  { code: "dependencies.self-redundant", severity: "warning", at: "a.yaml:3:5 views[0].dependencies" },
  { code: "dependencies.overlaps-entry", severity: "warning", at: "a.yaml:6:5 views[1].dependencies" },
  { code: "unknown-source", severity: "warning", at: "a.yaml:3:5 views[0].source" },
  {
    code: "property-extract-invalid",
    severity: "error",
    at: "a.yaml:10:22 views[0].components[0].properties[0].extract",
  },
  {
    code: "property-invalid-name",
    severity: "error",
    at: "a.yaml:9:19 views[0].components[0].properties[0].name",
  },
  {
    code: "property-transform-invalid",
    severity: "error",
    at: "a.yaml:11:24 views[0].components[0].properties[0].transform",
  },
  // lint rules
  ...[
    ["name-case", "a.yaml:6:9 views[0].components[0]"],
    ["broad-tag-selector", "a.yaml:4:15 components[0].selector"],
    ["id-hash-selector", "a.yaml:7:19 views[0].components[0].selector"],
    ["generated-class-selector", "a.yaml:7:19 views[0].components[0].selector"],
    ["deep-nesting", "a.yaml:7:19 views[0].components[0].selector"],
    ["positional-selector", "a.yaml:7:19 views[0].components[0].selector"],
    ["comma-in-selector", "a.yaml:7:19 views[0].components[0].selector"],
    ["child-repeats-parent", "a.yaml:10:23 views[0].components[0].children[0].selector"],
    ["child-never-matches", "a.yaml:10:23 views[0].components[0].children[0].selector"],
    ["multi-instance-no-property", "a.yaml:3:5 components[0]"],
    ["message-level-unknown", "a.yaml:6:5 messages[0]"],
  ].map(([code, at]): Case => ({ code: code!, severity: "warning", at: at!, command: ["lint"] })),
  // fmt
  { code: "fmt.not-canonical", severity: "warning", at: "a.yaml:-:- -", command: ["fmt", "--check"] },
  { code: "fmt.schema-invalid", severity: "error", at: "a.yaml:3:5 -", command: ["fmt", "--check"] },
  { code: "fmt.order-sensitive", severity: "error", at: "a.yaml:-:- -", command: ["fmt", "--check"] },
];

const show = (v: unknown) => v === null ? "-" : String(v);

const spawned = new Set<string>();
for (const c of cases) {
  const command = c.command ?? ["validate"];
  const run = spawned.has(command[0]!) ? runInProcess : runMapper;
  spawned.add(command[0]!);
  Deno.test(`${command[0]} - ${c.code} is reported as a ${c.severity} at ${c.at}`, async () => {
    const dir = join(FIXTURES, c.code, ".mapper");
    const { code, stdout, stderr } = await run([...command, "--dir", dir, "--json"]);
    assert.equal(stderr, "");
    const envelope = JSON.parse(stdout);
    const found = envelope.diagnostics.map((d: Record<string, unknown>) =>
      `${d.code} ${d.severity} ${show(d.file)}:${show(d.line)}:${show(d.column)} ${show(d.path)}`
    );
    assert.deepEqual(found, [`${c.code} ${c.severity} ${c.at}`]);
    for (const d of envelope.diagnostics) assert.ok(String(d.message).length > 20, "a message that names the fix");
    const failing = c.severity === "error" || command[0] !== "validate";
    assert.equal(envelope.ok, !failing);
    assert.equal(code, failing ? 1 : 0);
  });
}

Deno.test("fmt - fmt.parse-error leaves the broken file untouched and still checks the others", async () => {
  const dir = join(FIXTURES, "fmt.parse-error", ".mapper");
  const before = await Deno.readTextFile(join(dir, "a.yaml"));
  const { code, stdout } = await runMapper(["fmt", "--check", "--dir", dir, "--json"]);
  const envelope = JSON.parse(stdout);
  assert.deepEqual(
    envelope.diagnostics.map((d: Record<string, unknown>) => `${d.code} ${d.severity} ${d.file}:${show(d.line)}`),
    ["fmt.parse-error error a.yaml:3", "fmt.not-canonical warning b.yaml:-"],
  );
  assert.deepEqual(envelope.result.files, [{ path: "a.yaml", changed: false }, { path: "b.yaml", changed: true }]);
  assert.equal(code, 1);
  assert.equal(await Deno.readTextFile(join(dir, "a.yaml")), before);
});
