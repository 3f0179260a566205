// The extension's corpus-health summary (assets/extension/diagnostics.js): the level the side panel's dot shows
// (green / amber / red), its line, and the file:line:col problems it lists.
import assert from "node:assert/strict";
import {
  diagnosticLine,
  isDiagnosticsReport,
  MAX_ITEMS,
  summarizeDiagnostics,
} from "../assets/extension/diagnostics.js";

const d = (severity: "error" | "warning", code: string, line: number | null = 4) => ({
  code,
  severity,
  message: `${code} happened; fix it`,
  file: line === null ? null : "views/home.yaml",
  line,
  column: line === null ? null : 5,
});

const report = (diagnostics: ReturnType<typeof d>[], stale = false) => ({
  ok: !diagnostics.some((x) => x.severity === "error"),
  diagnostics,
  result: { files: 1, errors: 0, warnings: 0 },
  version: 2,
  servedVersion: stale ? 1 : 2,
  stale,
});

Deno.test("extension diagnostics - a clean corpus is green", () => {
  const s = summarizeDiagnostics(report([]));
  assert.deepEqual([s.level, s.line, s.items], ["ok", "corpus: no problems", []]);
});

Deno.test("extension diagnostics - warnings only are amber, errors are red and listed first with file:line:col", () => {
  assert.equal(summarizeDiagnostics(report([d("warning", "unknown-field")])).level, "warn");
  const s = summarizeDiagnostics(report([d("warning", "unknown-field", 2), d("error", "missing-route", 9)]));
  assert.equal(s.level, "error");
  assert.equal(s.line, "corpus: 1 error, 1 warning");
  assert.deepEqual(s.items, [
    "views/home.yaml:9:5 error missing-route: missing-route happened; fix it",
    "views/home.yaml:2:5 warning unknown-field: unknown-field happened; fix it",
  ]);
});

Deno.test("extension diagnostics - a failed recompile is red even without listed problems (stale corpus)", () => {
  const s = summarizeDiagnostics(report([], true));
  assert.equal(s.level, "error");
  assert.match(s.line, /did not compile .*still serving the previous corpus/);
});

Deno.test("extension diagnostics - corpus-wide problems have no position; long lists are cut and counted", () => {
  assert.equal(diagnosticLine(d("warning", "no-views", null)), "warning no-views: no-views happened; fix it");
  const many = Array.from({ length: MAX_ITEMS + 3 }, () => d("warning", "unknown-field"));
  const s = summarizeDiagnostics(report(many));
  assert.equal(s.items.length, MAX_ITEMS);
  assert.equal(s.more, 3);
  assert.equal(isDiagnosticsReport(report([])), true);
  assert.equal(isDiagnosticsReport({ version: 1 }), false);
});
