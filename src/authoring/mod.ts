/**
 * Authoring: the commands that tell corpus authors when their map is wrong (`validate`, `lint`, `fmt`, and the
 * resolver's `stats`, `match`, `explain`, `init`) and the one output shape they share — the `--json` envelope
 * `{ok, diagnostics, result}` with its text and GitHub-annotation renderings (authoring.md §2, §10).
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
  usageFailure,
  writeEnvelope,
} from "./envelope.ts";
export { DEFAULT_CORPUS_DIR, findCorpusDir, resolveCorpusDir } from "./dir.ts";
