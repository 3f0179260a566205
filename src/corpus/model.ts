/**
 * The loaded corpus: every file merged, `$ref`s expanded and nesting flattened, with source locations kept for
 * tooling (validate, search, the browser session). {@linkcode compile} turns it into the wire format.
 *
 * @module
 */
import type { FieldLocations, SourceLocation } from "./diagnostic.ts";
import type { WireMessage, WireProperty, WireRequest } from "./wire.ts";

/** A flattened component: one entry per declaration (children become their own entries, in pre-order). */
export interface CorpusComponent {
  /** Component name. */
  name: string;
  /** Split selectors; a child's are already composed under its ancestors' (cross product). */
  selectors: string[];
  /** Names of ancestor components, root first; `[]` at top level. */
  parentChain: string[];
  /** Properties extracted from the component. */
  properties: WireProperty[];
  /** Memory notes. */
  memory?: string[];
  /** Tags. */
  tags?: string[];
  /** Source file. */
  source?: string;
  /** Stability label. */
  stability?: string;
  /** Authoring-only; not on the wire. */
  description?: string;
  /** Authoring-only: the selector as written (one string per list item, before splitting and nesting). */
  selectorText?: string[];
  /** Authoring-only: where the `selector` value starts. */
  selectorLocation?: SourceLocation;
  /** Where the definition was written (for a `$ref` expansion: the referenced definition). */
  location: SourceLocation;
  /** Authoring-only: where each field's value starts (`name`, `description`, `selector[i]`, `memory[i]`). */
  fieldAt?: FieldLocations;
}

/** A request as declared (required `name` and `route` checked). */
export interface CorpusRequest extends WireRequest {
  /** Where it is declared. */
  location: SourceLocation;
  /** Authoring-only: where each field's value starts (`name`, `route`, `description`, `memory[i]`). */
  fieldAt?: FieldLocations;
}

/** A console message as declared (never dropped: a missing name is `""`). */
export interface CorpusMessage extends WireMessage {
  /** Where it is declared. */
  location: SourceLocation;
  /** Authoring-only: where each field's value starts (`name`, `description`). */
  fieldAt?: FieldLocations;
}

/** A view (never dropped: a missing name is `""`, a missing route stays absent). */
export interface CorpusView {
  /** View name. */
  name: string;
  /** URL route pattern. */
  route?: string;
  /** Authoring-only: the view's own `url`, else its file's. */
  url?: string;
  /** Description. */
  description?: string;
  /** Authoring-only (never on the wire): `source` glob, `tags`, `dependencies` globs as declared. */
  source?: string;
  /** Tags. */
  tags?: string[];
  /** Dependencies. */
  dependencies?: string[];
  /** Memory notes. */
  memory: string[];
  /** Components of the view. */
  components: CorpusComponent[];
  /** Requests of the view. */
  requests: CorpusRequest[];
  /** Where it is declared. */
  location: SourceLocation;
  /** Authoring-only: where each field's value starts (`name`, `route`, `url`, `description`, `memory[i]`). */
  fieldAt?: FieldLocations;
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
  /** Authoring-only: where each file-level memory note starts (parallel to `memory`). */
  memoryAt?: SourceLocation[];
  /** Components present on every view. */
  globals: CorpusComponent[];
  /** Views. */
  views: CorpusView[];
  /** Requests. */
  requests: CorpusRequest[];
  /** Messages. */
  messages: CorpusMessage[];
}
