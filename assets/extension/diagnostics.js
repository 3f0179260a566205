// @ts-check
// What the panels show about the corpus's own health: the server's `/mapper/diagnostics` report (the
// `mapper validate --json` envelope of the last compile, plus `stale` when the last recompile failed) reduced to a
// level (ok / warn / error), one status line and the first problems as `file:line:col` lines. Pure: no DOM, no
// chrome.* — Deno type-checks and tests it, the service worker and the panels import it.

/**
 * @typedef {{ code: string, severity: "error" | "warning", message: string, file: string | null,
 *   line: number | null, column: number | null }} Diagnostic
 * @typedef {{ ok: boolean, diagnostics: Diagnostic[], result: { files: number, errors: number, warnings: number },
 *   version: number, servedVersion: number, stale: boolean }} DiagnosticsReport
 * @typedef {{ level: "ok" | "warn" | "error", errors: number, warnings: number, stale: boolean, line: string,
 *   items: string[], more: number }} DiagnosticsSummary
 */

/** How many problems the panel lists (the rest are counted). */
export const MAX_ITEMS = 20;

/**
 * Whether a parsed JSON body is a diagnostics report.
 * @param {unknown} body
 * @returns {body is DiagnosticsReport}
 */
export function isDiagnosticsReport(body) {
  if (typeof body !== "object" || body === null) return false;
  const b = /** @type {Record<string, unknown>} */ (body);
  return typeof b.ok === "boolean" && Array.isArray(b.diagnostics) && typeof b.result === "object" &&
    b.result !== null;
}

/**
 * One problem as a line: `views/home.yaml:4:5 error missing-route: …` (no position for corpus-wide problems).
 * @param {Diagnostic} d
 * @returns {string}
 */
export function diagnosticLine(d) {
  const where = d.file === null ? "" : d.line === null ? `${d.file} ` : `${d.file}:${d.line}:${d.column ?? 1} `;
  return `${where}${d.severity} ${d.code}: ${d.message}`;
}

/**
 * @param {number} n
 * @param {string} word
 */
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Reduces a report to what the panels show. Errors first, then warnings, each in the server's order.
 * @param {DiagnosticsReport} report
 * @returns {DiagnosticsSummary}
 */
export function summarizeDiagnostics(report) {
  const errors = report.diagnostics.filter((d) => d.severity === "error");
  const warnings = report.diagnostics.filter((d) => d.severity !== "error");
  const stale = report.stale === true;
  const level = errors.length > 0 || stale ? "error" : warnings.length > 0 ? "warn" : "ok";
  const counts = errors.length + warnings.length === 0
    ? "no problems"
    : `${plural(errors.length, "error")}, ${plural(warnings.length, "warning")}`;
  const line = stale
    ? `the last edit did not compile (${counts}); still serving the previous corpus`
    : `corpus: ${counts}`;
  const ordered = [...errors, ...warnings];
  return {
    level,
    errors: errors.length,
    warnings: warnings.length,
    stale,
    line,
    items: ordered.slice(0, MAX_ITEMS).map(diagnosticLine),
    more: Math.max(0, ordered.length - MAX_ITEMS),
  };
}
