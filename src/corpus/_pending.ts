// Placeholder implementations until the corpus work lands; replaced by the real modules.
import type { CorpusService, CorpusServiceOptions, CorpusStats, Diagnostic, WireCorpus } from "./mod.ts";

/** The loaded, merged corpus (opaque to other areas). */
export type Corpus = { readonly __corpus: unique symbol };

export function load(dir: string): Promise<{ corpus: Corpus; diagnostics: Diagnostic[] }> {
  return Promise.reject(new Error(`corpus loader not implemented yet: ${dir}`));
}
export function compile(_corpus: Corpus, _meta: { site: string; version: number }): WireCorpus {
  throw new Error("not implemented yet");
}
export function stats(_corpus: Corpus): CorpusStats {
  throw new Error("not implemented yet");
}
export function startCorpusService(_options: CorpusServiceOptions): Promise<CorpusService> {
  return Promise.reject(new Error("not implemented yet"));
}
