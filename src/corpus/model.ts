/**
 * The loaded corpus: every file merged, `$ref`s expanded and nesting flattened, with source locations kept for
 * tooling (validate, search, the browser session). {@linkcode compile} turns it into the wire format.
 *
 * @module
 */
import type { SourceLocation, WireMessage, WireProperty, WireRequest } from "./mod.ts";

/** A flattened component: one entry per declaration (children become their own entries, in pre-order). */
export interface CorpusComponent {
  name: string;
  /** Split selectors; a child's are already composed under its ancestors' (cross product). */
  selectors: string[];
  /** Names of ancestor components, root first; `[]` at top level. */
  parentChain: string[];
  properties: WireProperty[];
  memory?: string[];
  tags?: string[];
  source?: string;
  stability?: string;
  /** Authoring-only; not on the wire. */
  description?: string;
  /** Authoring-only: the selector as written (one string per list item, before splitting and nesting). */
  selectorText?: string[];
  /** Authoring-only: where the `selector` value starts. */
  selectorLocation?: SourceLocation;
  /** Where the definition was written (for a `$ref` expansion: the referenced definition). */
  location: SourceLocation;
}

/** A request as declared (required `name` and `route` checked). */
export interface CorpusRequest extends WireRequest {
  location: SourceLocation;
}

/** A console message as declared (never dropped: a missing name is `""`). */
export interface CorpusMessage extends WireMessage {
  location: SourceLocation;
}

/** A view (never dropped: a missing name is `""`, a missing route stays absent). */
export interface CorpusView {
  name: string;
  route?: string;
  /** Authoring-only: the view's own `url`, else its file's. */
  url?: string;
  description?: string;
  /** Authoring-only (never on the wire): `source` glob, `tags`, `dependencies` globs as declared. */
  source?: string;
  tags?: string[];
  dependencies?: string[];
  memory: string[];
  components: CorpusComponent[];
  requests: CorpusRequest[];
  location: SourceLocation;
}

/**
 * The merged corpus of one directory, in load order (files lexically, depth-first; entries as written). Treat it as
 * read-only: with a load cache it shares data with the next load.
 */
export interface Corpus {
  /** The directory as given to `load`. */
  dir: string;
  /** Every corpus file read, as walked (`dir` joined with the relative path), in load order. */
  files: string[];
  /** File-level memory, concatenated in file order. */
  memory: string[];
  globals: CorpusComponent[];
  views: CorpusView[];
  requests: CorpusRequest[];
  messages: CorpusMessage[];
}
