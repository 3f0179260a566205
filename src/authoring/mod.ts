/**
 * Authoring: the commands that tell corpus authors when their map is wrong (`validate`, `lint`, `fmt`, and the
 * resolver's `stats`, `match`, `explain`, `init`) and the one output shape they share — the `--json` envelope
 * `{ok, diagnostics, result}` with its text and GitHub-annotation renderings.
 *
 * Diagnostic codes, each with one fixture under `tests/fixtures/authoring/<code>/`:
 * - validate, errors: `missing-version`, `unsupported-version` (a quoted "1" is a warning), `field-type-invalid`,
 *   `missing-name`, `missing-route`, `missing-selector`, `ref-unresolved`, `ref-circular`, `unknown-field` beside a
 *   `$ref`, `request-property-{invalid-name,source-invalid,no-extractor,headers-require-field,pattern-invalid}`,
 *   `message-regex-invalid`, `message-property-{invalid-name,source-invalid,no-field,pattern-invalid,field-invalid}`,
 *   `stability-invalid`, `access-status-invalid`, `access-reason-required`, `selector-invalid`,
 *   `duplicate-component`, `parse-error`, `config.invalid-version`, `property-extract-invalid`,
 *   `property-invalid-name`, `property-transform-invalid`; the loader's own `empty-entry`, `selector-explosion`,
 *   `symlink-outside-corpus`.
 * - validate, warnings: `unknown-field`, `view-field-at-file-root`, `no-views-in-file`, `no-views`,
 *   `merge-collision-{view,component,message,request}`, `route-conflict`, `request-property-shadows-reserved`,
 *   `message-conflict`, `selector-unsupported`, `dependencies.self-redundant`, `dependencies.overlaps-entry`,
 *   `unknown-source`; the loader's own `ref-ambiguous`, `ignored-document`, `yaml-warning`, `symlink-dir-skipped`,
 *   `property-missing-name`, `property-missing-extract`.
 * - lint (warnings): `name-case`, `broad-tag-selector`, `id-hash-selector`, `generated-class-selector`,
 *   `deep-nesting`, `positional-selector`, `comma-in-selector`, `child-repeats-parent`, `child-never-matches`, `multi-instance-no-property`,
 *   `message-level-unknown`.
 * - fmt: `fmt.not-canonical` (warning), `fmt.parse-error`, `fmt.schema-invalid`, `fmt.order-sensitive`.
 * - usage (exit 2): `usage`, `corpus-not-found`; refused (exit 1): `corpus-untrusted` (another user controls it).
 *
 * May import `corpus` (loading and every validation check live there, so the corpus server reports the same
 * diagnostics); `corpus` never imports this area.
 *
 * @module
 */
export type {
  Envelope,
  EnvelopeDiagnostic,
  EnvelopeOptions,
  GithubOptions,
  OutputFormat,
  TextOptions,
  WriteOptions,
} from "./envelope.ts";
export {
  countSeverities,
  makeEnvelope,
  OUTPUT_FORMATS,
  outputFormat,
  renderDiagnosticLines,
  renderGithub,
  summaryLine,
  toEnvelopeDiagnostic,
  usageEnvelope,
  usageFailure,
  writeEnvelope,
} from "./envelope.ts";
export { DEFAULT_CORPUS_DIR, findCorpusDir, resolveCorpusDir } from "./dir.ts";
export { canonicalize, type CanonicalResult } from "./canonical.ts";
export { addToView, type AddToViewResult } from "./add_to_view.ts";
export type { Io, Sink } from "../io.ts";
