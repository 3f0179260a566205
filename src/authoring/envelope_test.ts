import assert from "node:assert/strict";
import { makeEnvelope, outputFormat, renderDiagnosticLines, renderGithub, summaryLine } from "./envelope.ts";

const diag = {
  code: "missing-route",
  severity: "error" as const,
  message: 'view "Home" has no route, add one: x',
  location: { file: ".mapper/views/home.yaml", line: 4, column: 5, path: "views[0]" },
  component: "Home",
};

Deno.test("envelope - files are corpus-relative, positions 1-based, ok false on an error", () => {
  const env = makeEnvelope(
    [diag, { ...diag, severity: "warning", location: { file: ".mapper", line: 0, column: 0 } }],
    ".mapper",
    null,
  );
  assert.equal(env.ok, false);
  assert.deepEqual(env.diagnostics[0], {
    code: "missing-route",
    severity: "error",
    message: diag.message,
    file: "views/home.yaml",
    line: 4,
    column: 5,
    path: "views[0]",
    component: "Home",
  });
  assert.equal(env.diagnostics[1]!.file, null);
  assert.equal(env.diagnostics[1]!.line, null);
  assert.equal(env.diagnostics[1]!.path, null);
});

Deno.test("envelope - github annotations escape data and properties", () => {
  const env = makeEnvelope(
    [{
      ...diag,
      message: "50% bad\nnext",
      location: { ...diag.location, file: "a,b/.mapper/views/home.yaml" },
    }],
    "a,b/.mapper",
    null,
  );
  assert.equal(
    renderGithub(env.diagnostics, { dir: "a,b/.mapper", cwd: "/repo" }),
    "::error file=a%2Cb/.mapper/views/home.yaml,line=4,col=5,title=missing-route::50%25 bad%0Anext (views[0])\n",
  );
});

Deno.test("envelope - text lines and summary", () => {
  const env = makeEnvelope([diag], ".mapper", null);
  assert.equal(
    renderDiagnosticLines(env.diagnostics),
    `views/home.yaml:4:5: error missing-route: ${diag.message}\n`,
  );
  assert.equal(summaryLine(env.diagnostics), "✗ 1 error, 0 warnings");
  assert.equal(summaryLine([]), "✓ no problems");
  assert.equal(summaryLine([{ severity: "warning" }]), "✓ no errors (1 warning)");
});

Deno.test("envelope - --json is --format json; unknown formats are usage errors", () => {
  assert.equal(outputFormat({ json: true }), "json");
  assert.equal(outputFormat({ format: "github" }), "github");
  assert.equal(outputFormat({}), "text");
  assert.throws(() => outputFormat({ format: "xml" }), /unknown --format "xml"/);
});
