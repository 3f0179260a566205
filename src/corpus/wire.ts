/**
 * The compiled corpus as `/mapper` serves it (the wire format; JSON Schema in
 * `assets/schema/compiled-corpus.schema.json`). Types only: what `compile` produces and every consumer reads.
 *
 * @module
 */
/** A component property declaration (draft extension; passed through as written). */
export interface WireProperty {
  /** Property name. */
  name: string;
  /** How the value is read (authoring spec §6; evaluated by `assets/extension/resolver.js`). */
  extract: string;
  /** Applied to the cleaned value: `first_word`, `number`, `match:REGEX`, … (absent when not declared). */
  transform?: string;
}

/** A request/message property declaration. */
export interface WireFieldProperty {
  /** Property name. */
  name: string;
  /** Where the value comes from. */
  source: string;
  /** Field to read. */
  field?: string;
  /** Pattern the value matches. */
  pattern?: string;
}

/** A compiled (flattened) component. */
export interface WireComponent {
  /** Component name. */
  name: string;
  /** Its selectors joined with `", "`: one string for `querySelectorAll`. */
  selector: string;
  /**
   * A child's own selectors (not composed under its ancestors'), joined with `", "`; absent at top level. The page
   * matches them inside the shadow roots of its parent's element, where the composed selector cannot reach.
   */
  ownSelector?: string;
  /** Names of ancestor components, root first; `[]` for top-level components. */
  parentChain: string[];
  /** Always present, `[]` when none. */
  properties: WireProperty[];
  /** Memory notes. */
  memory?: string[];
  /** Tags. */
  tags?: string[];
  /** Source file. */
  source?: string;
  /** Stability label. */
  stability?: string;
}

/** A request/response payload description. */
export interface WirePayload {
  /** Payload fields. */
  fields?: Array<{ name: string; type?: string; description?: string }>;
}

/** A named API request. */
export interface WireRequest {
  /** Request name. */
  name: string;
  /** URL route pattern. */
  route: string;
  /** HTTP method. */
  method?: string;
  /** Description. */
  description?: string;
  /** Source file. */
  source?: string;
  /** Request payload. */
  request?: WirePayload;
  /** Response payload. */
  response?: WirePayload;
  /** Headers. */
  headers?: Record<string, string>;
  /** Memory notes. */
  memory?: string[];
  /** Tags. */
  tags?: string[];
  /** Properties. */
  properties?: WireFieldProperty[];
}

/** A named console message. */
export interface WireMessage {
  /** Message name. */
  name: string;
  /** Level. */
  level?: string;
  /** Message text. */
  message?: string;
  /** Description. */
  description?: string;
  /** Source file. */
  source?: string;
  /** Properties. */
  properties?: WireFieldProperty[];
}

/** A compiled view. */
export interface WireView {
  /** View name. */
  name: string;
  /** URL route pattern. */
  route?: string;
  /** Memory notes. */
  memory: string[];
  /** Components of the view. */
  components: WireComponent[];
  /** Requests of the view. */
  requests: WireRequest[];
}

/** The compiled corpus served on `/mapper`. All top-level keys are always present. */
export interface WireCorpus {
  /** Basename of the directory the server was started in. */
  site: string;
  /** Unix milliseconds of the compile; new at each successful compile. */
  version: number;
  /** Memory notes. */
  memory: string[];
  /** Components present on every view. */
  globals: WireComponent[];
  /** Views. */
  views: WireView[];
  /** Requests. */
  requests: WireRequest[];
  /** Messages. */
  messages: WireMessage[];
}
