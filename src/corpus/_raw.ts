// The raw shapes a corpus file decodes to (`_decode.ts`), before cross-file checks (`_crosscheck.ts`) and loading.
import type { FieldLocations, SourceLocation } from "./diagnostic.ts";
import type * as rules from "./rules.ts";
import type { WireMessage, WireProperty, WireRequest } from "./wire.ts";

/** A component as written: either a `$ref` or a definition (children still nested). */
export type RawComponent = RawRef | RawDefinition;

/** `- $ref: Name` (sibling keys ignored, with a warning). */
export interface RawRef {
  /** Tells a reference from a definition. */
  kind: "ref";
  /** Name of the referenced component. */
  ref: string;
  /** Where it is written. */
  location: SourceLocation;
}

/** A component definition as written. */
export interface RawDefinition {
  /** Tells a definition from a reference. */
  kind: "def";
  /** Component name. */
  name?: string;
  /** Split selectors; `undefined` when the key is absent or null. */
  selectors?: string[];
  /** Whether a `selector` key had a (non-null) value, even one that splits to nothing. */
  selectorGiven: boolean;
  /** Authoring-only: the selector text(s) as written (one per list item) and where the value starts. */
  selectorText?: string[];
  /** Where the selector value starts. */
  selectorLocation?: SourceLocation;
  /** Dependencies. */
  dependencies?: string[];
  /** Description. */
  description?: string;
  /** Source file. */
  source?: string;
  /** Stability label. */
  stability?: string;
  /** Memory notes. */
  memory?: string[];
  /** Tags. */
  tags?: string[];
  /** Declared properties. */
  properties: WireProperty[];
  /** Nested child components. */
  children: RawComponent[];
  /** Where each field's value starts. */
  fieldAt?: FieldLocations;
  /** Where it is written. */
  location: SourceLocation;
}

/** A request as written (required fields checked later). */
export interface RawRequest extends Partial<WireRequest> {
  /** Where it is written. */
  location: SourceLocation;
  /** Where each field's value starts. */
  fieldAt?: FieldLocations;
}

/** A message as written. */
export interface RawMessage extends Partial<WireMessage> {
  /** Where it is written. */
  location: SourceLocation;
  /** Where each field's value starts. */
  fieldAt?: FieldLocations;
}

/** A view as written. */
export interface RawView {
  /** View name. */
  name?: string;
  /** URL route pattern. */
  route?: string;
  /** The view's `url` key as written. */
  url?: string;
  /** Description. */
  description?: string;
  /** Source file. */
  source?: string;
  /** Dependencies. */
  dependencies?: string[];
  /** Tags. */
  tags?: string[];
  /** Memory notes. */
  memory: string[];
  /** Components of the view. */
  components: RawComponent[];
  /** Requests of the view. */
  requests: RawRequest[];
  /** Where each field's value starts. */
  fieldAt?: FieldLocations;
  /** Where it is written. */
  location: SourceLocation;
}

/** What a decoder checks beyond the schema; the expensive parts are injected so plain loads stay cheap. */
export interface DecodeChecks {
  /** Checks one selector alternative as written (CSS parse); `undefined` when fine. */
  selector?: (selector: string) => rules.Problem | undefined;
}

/** One decoded file. */
export interface RawFile {
  /** Every component property `extract:` as written, checked once all component names are known. */
  extracts: Array<{ extract: string; location: SourceLocation }>;
  /** Memory notes. */
  memory: string[];
  /** Where each memory note starts. */
  memoryAt: SourceLocation[];
  /** Components declared in the file. */
  components: RawComponent[];
  /** Views declared in the file. */
  views: RawView[];
  /** Requests declared in the file. */
  requests: RawRequest[];
  /** Messages declared in the file. */
  messages: RawMessage[];
}
