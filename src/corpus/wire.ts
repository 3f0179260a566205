/**
 * The compiled corpus as `/mapper` serves it (the wire format; JSON Schema in
 * `assets/schema/compiled-corpus.schema.json`). Types only: what `compile` produces and every consumer reads.
 *
 * @module
 */
/** A component property declaration (draft extension; passed through as written). */
export interface WireProperty {
  name: string;
  /** How the value is read (authoring spec §6; evaluated by `assets/extension/resolver.js`). */
  extract: string;
  /** Applied to the cleaned value: `first_word`, `number`, `match:REGEX`, … (absent when not declared). */
  transform?: string;
}

/** A request/message property declaration. */
export interface WireFieldProperty {
  name: string;
  source: string;
  field?: string;
  pattern?: string;
}

/** A compiled (flattened) component. */
export interface WireComponent {
  name: string;
  /** Its selectors joined with `", "`: one string for `querySelectorAll`. */
  selector: string;
  /** Names of ancestor components, root first; `[]` for top-level components. */
  parentChain: string[];
  /** Always present, `[]` when none. */
  properties: WireProperty[];
  memory?: string[];
  tags?: string[];
  source?: string;
  stability?: string;
}

/** A request/response payload description. */
export interface WirePayload {
  fields?: Array<{ name: string; type?: string; description?: string }>;
}

/** A named API request. */
export interface WireRequest {
  name: string;
  route: string;
  method?: string;
  description?: string;
  source?: string;
  request?: WirePayload;
  response?: WirePayload;
  headers?: Record<string, string>;
  memory?: string[];
  tags?: string[];
  properties?: WireFieldProperty[];
}

/** A named console message. */
export interface WireMessage {
  name: string;
  level?: string;
  message?: string;
  description?: string;
  source?: string;
  properties?: WireFieldProperty[];
}

/** A compiled view. */
export interface WireView {
  name: string;
  route?: string;
  memory: string[];
  components: WireComponent[];
  requests: WireRequest[];
}

/** The compiled corpus served on `/mapper` (service description §2.6). All top-level keys are always present. */
export interface WireCorpus {
  /** Basename of the directory the server was started in. */
  site: string;
  /** Unix milliseconds of the compile; new at each successful compile. */
  version: number;
  memory: string[];
  globals: WireComponent[];
  views: WireView[];
  requests: WireRequest[];
  messages: WireMessage[];
}
