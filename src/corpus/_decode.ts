// Per-file decode: YAML text → typed raw entries with source locations. Syntax errors and wrong types are fatal
// problems; unknown fields and similar are warnings. The YAML side (aliases, merge keys, paths) is `_yaml_reader.ts`;
// the shapes produced are `_raw.ts`.
import { splitSelectors as splitJoined } from "./selector.ts";
import type { Diagnostic, FieldLocations, SourceLocation } from "./diagnostic.ts";
import * as rules from "./rules.ts";
import type { WireFieldProperty, WirePayload, WireProperty } from "./wire.ts";
import type { DecodeChecks, RawComponent, RawDefinition, RawFile, RawMessage, RawRequest, RawView } from "./_raw.ts";
import { type Entry, firstLine, isNullScalar, kindOf, YamlReader } from "./_yaml_reader.ts";
import type { ParsedYaml, YamlNode } from "./_yaml_nodes.ts";
import { KEYS_AT, type Place, whereKeyBelongs } from "./schema.ts";

export type {
  DecodeChecks,
  RawComponent,
  RawDefinition,
  RawFile,
  RawMessage,
  RawRef,
  RawRequest,
  RawView,
} from "./_raw.ts";

/** Files that configure tooling rather than describe the site: no unknown-field or version warnings. */
const TOOLING_FILES = new Set(["config.yaml", "config.yml", "survey.yaml", "survey.yml"]);

/** Keys of a view that, written at the file root instead, get `view-field-at-file-root`. */
const VIEW_FIELDS_AT_ROOT = new Set([...KEYS_AT.view].filter((k) => !KEYS_AT.file.has(k)));

/** Decoding state of one file. */
class FileDecoder extends YamlReader {
  readonly tooling: boolean;
  readonly config: boolean;
  readonly extracts: RawFile["extracts"] = [];

  constructor(
    file: string,
    fatal: Diagnostic[],
    warnings: Diagnostic[],
    readonly checks: DecodeChecks,
  ) {
    super(file, fatal, warnings);
    const base = (file.split(/[\\/]/).pop() ?? file).toLowerCase();
    this.tooling = TOOLING_FILES.has(base);
    this.config = base === "config.yaml" || base === "config.yml";
  }

  /** An error-severity diagnostic that does not stop the load (a check failed; the entry stays or is dropped). */
  problem(code: string, message: string, location: SourceLocation, extra: Partial<Diagnostic> = {}): void {
    this.warnings.push({ code, severity: "error", message, location, ...extra });
  }

  /** Reports a {@linkcode rules.Problem} at a node (its location is made only when there is a problem). */
  reportAt(p: rules.Problem | undefined, node: YamlNode | null): void {
    if (p) this.report(p, this.loc(node));
  }

  /** Reports a {@linkcode rules.Problem} at a location. */
  report(p: rules.Problem | undefined, location: SourceLocation, extra: Partial<Diagnostic> = {}): void {
    if (p) this.warnings.push({ code: p.code, severity: p.severity, message: p.message, location, ...extra });
  }

  /**
   * A string field that must be written as a string (messages, request/message properties): a number or boolean
   * is read as its text but reported (`field-type-invalid`), since other implementations refuse it.
   */
  text(node: YamlNode | null, what: string, key: string): string | undefined {
    const value = this.string(node, what);
    const n = this.deref(node);
    if (value !== undefined && n?.kind === "scalar" && typeof n.value !== "string") {
      this.problem(
        "field-type-invalid",
        `field "${key}" must be a string, found ${kindOf(n)}; quote the value: ${key}: ${JSON.stringify(value)}`,
        this.loc(node),
      );
    }
    return value;
  }

  /**
   * A key the switch of its place did not handle: accepted when the schema allows it there (authoring data such as
   * `snapshots`), else `unknown-field`, saying where it belongs when the schema allows it elsewhere. The switches
   * name only keys of the schema (`schema_test.ts` checks), so the schema decides what is known.
   */
  unknown(e: Entry, where: string, place: Place): void {
    if (this.tooling || KEYS_AT[place].has(e.key)) return;
    const belongs = whereKeyBelongs(e.key, place);
    this.warn(
      "unknown-field",
      `unknown field "${e.key}" in ${where}; it is ignored` +
        (belongs === undefined ? "" : ` — "${e.key}" belongs ${belongs}; move it there`),
      this.loc(e.keyNode),
    );
  }

  /** Records where the value of `key` starts (search's `file:line:col`); no field path, which costs more. */
  mark(target: { fieldAt?: FieldLocations }, key: string, node: YamlNode | null): void {
    if (node !== null) (target.fieldAt ??= {})[key] = this.at(node.start);
  }

  /** A list of strings whose items' places are recorded as `key[i]` (`memory[0]`, `memory[1]`, …). */
  markedStrings(
    target: { fieldAt?: FieldLocations },
    key: string,
    node: YamlNode | null,
    what: string,
  ): string[] | undefined {
    const at: SourceLocation[] = [];
    const list = this.strings(node, what, at);
    if (at.length > 0) {
      const fields = target.fieldAt ??= {};
      at.forEach((loc, i) => fields[`${key}[${i}]`] = loc);
    }
    return list;
  }

  // ---- entities -------------------------------------------------------------------------------------------

  decode(parsed: ParsedYaml): RawFile | undefined {
    this.begin(parsed);
    for (const err of parsed.errors) {
      this.fatal.push({
        code: "yaml-syntax",
        severity: "error",
        message: firstLine(err.message),
        location: this.at(err.offset),
      });
    }
    if (parsed.errors.length > 0) return undefined;
    const file: RawFile = {
      extracts: this.extracts,
      memory: [],
      memoryAt: [],
      components: [],
      views: [],
      requests: [],
      messages: [],
    };
    if (!parsed.hasDocument) return file;
    for (const offset of parsed.ignored) {
      this.warn(
        "ignored-document",
        "only the first YAML document of a file is read; this document is ignored (move it to its own file)",
        this.at(offset),
      );
    }
    if (parsed.cyclic) {
      this.fatal.push({
        code: "yaml-alias-limit",
        severity: "error",
        message: `alias "*${parsed.cyclic.name}" refers to a node that contains it (a cycle that never ends)`,
        location: this.loc(parsed.cyclic),
      });
      return undefined;
    }
    this.indexPaths(parsed.contents);
    for (const w of parsed.warnings) this.warn("yaml-warning", firstLine(w.message), this.at(w.offset));
    const root = parsed.contents;
    const entries = this.entries(root, "the file root");
    if (!entries) return file;
    let fileUrl: string | undefined;
    let fileUrlNode: YamlNode | null = null;
    let hasVersion = false;
    let componentsNode: YamlNode | null = null;
    let viewsCount = 0;
    for (const e of entries) {
      switch (e.key) {
        case "version": {
          hasVersion = true;
          const v = this.string(e.value, `"version"`);
          const n = this.deref(e.value);
          const quoted = n?.kind === "scalar" && typeof n.value === "string";
          const where = this.loc(e.value ?? e.keyNode);
          if (this.config) {
            if (v !== "1" || quoted) {
              this.problem(
                "config.invalid-version",
                `config.yaml has "version" ${JSON.stringify(v ?? null)}; write version: 1`,
                where,
              );
            }
          } else if (this.tooling) {
            // survey.yaml: not a corpus file; its version is its own business
          } else if (v === "1" && quoted) {
            this.warn("unsupported-version", `"version" is the string "1"; write it unquoted: version: 1`, where);
          } else if (v !== "1") {
            this.problem(
              "unsupported-version",
              `unsupported version ${JSON.stringify(v ?? null)}; this tooling supports version: 1`,
              where,
            );
          }
          break;
        }
        case "memory":
          file.memoryAt = [];
          file.memory = this.strings(e.value, `"memory"`, file.memoryAt) ?? [];
          break;
        case "components":
          componentsNode = e.keyNode;
          file.components = this.components(e.value, `"components"`);
          break;
        case "views":
          for (const item of this.items(e.value, `"views"`) ?? []) {
            const view = this.view(item);
            if (view) file.views.push(view);
          }
          viewsCount = file.views.length;
          break;
        case "requests":
          file.requests = this.requests(e.value, `"requests"`);
          break;
        case "messages":
          for (const item of this.items(e.value, `"messages"`) ?? []) {
            const m = this.message(item);
            if (m) file.messages.push(m);
          }
          break;
        case "url":
          fileUrl = this.string(e.value, `"url"`);
          fileUrlNode = e.value;
          break;
        case "snapshots":
          break; // authoring-only: attaches snapshots to the file's views, never on the wire
        default:
          if (this.tooling) break;
          if (VIEW_FIELDS_AT_ROOT.has(e.key)) {
            this.warn(
              "view-field-at-file-root",
              `"${e.key}" looks like a view field but sits at the file root, where it is ignored; put it under a ` +
                `"views:" entry, e.g. views: [{name: Home, route: /, ${e.key}: …}]`,
              this.loc(e.keyNode),
            );
          } else {
            this.unknown(e, "the file root", "file");
          }
      }
    }
    if (this.config && !hasVersion) {
      this.problem("config.invalid-version", `config.yaml has no "version"; add version: 1 at the top`, this.loc(root));
    } else if (!this.tooling && !hasVersion && entries.length > 0) {
      this.problem(
        "missing-version",
        `missing "version: 1" — every corpus file must begin with version: 1`,
        this.loc(root),
      );
    }
    if (!this.tooling && fileUrl !== undefined && componentsNode && viewsCount === 0) {
      this.warn(
        "no-views-in-file",
        `the file has "url" and "components" but no "views"; its components are global`,
        this.loc(componentsNode),
      );
    }
    if (fileUrl !== undefined) {
      for (const v of file.views) {
        if (v.url !== undefined) continue;
        v.url = fileUrl;
        this.mark(v, "url", fileUrlNode);
      }
    }
    return file;
  }

  components(node: YamlNode | null, what: string): RawComponent[] {
    const out: RawComponent[] = [];
    for (const item of this.items(node, what) ?? []) {
      const c = this.component(item);
      if (c) out.push(c);
    }
    return out;
  }

  component(node: YamlNode | null): RawComponent | undefined {
    const location = this.loc(node);
    const entries = this.entry(node, "a component");
    if (!entries) return undefined;
    let ref: Entry | undefined;
    for (const e of entries) {
      if (e.key === "$ref") {
        ref = e;
        break;
      }
    }
    if (ref) {
      const target = this.string(ref.value, `"$ref"`);
      for (const e of entries) {
        if (e === ref) continue;
        this.problem(
          "unknown-field",
          `unknown field "${e.key}" beside "$ref" — a $ref entry has exactly one key; remove "${e.key}" (the ` +
            `referenced component is used as declared) or write a full component instead`,
          this.loc(e.keyNode),
        );
      }
      if (target === undefined) {
        this.warnings.push({
          code: "ref-unresolved",
          severity: "error",
          message: `empty "$ref"; the entry is dropped`,
          location,
        });
        return undefined;
      }
      return { kind: "ref", ref: target, location };
    }
    const def: RawDefinition = {
      kind: "def",
      selectorGiven: false,
      properties: [],
      children: [],
      location,
    };
    for (const e of entries) {
      switch (e.key) {
        case "name":
          setIf(def, "name", this.string(e.value, `a component's "name"`));
          this.mark(def, "name", e.value);
          break;
        case "selector":
          this.selector(def, e.value);
          break;
        case "description":
          setIf(def, "description", this.string(e.value, `a component's "description"`));
          this.mark(def, "description", e.value);
          break;
        case "source":
          setIf(def, "source", this.string(e.value, `a component's "source"`));
          break;
        case "stability": {
          const v = this.string(e.value, `a component's "stability"`);
          setIf(def, "stability", v);
          if (v !== undefined) this.reportAt(rules.componentStability(v), e.value);
          break;
        }
        case "memory":
          setIf(def, "memory", this.markedStrings(def, "memory", e.value, `a component's "memory"`));
          break;
        case "tags":
          setIf(def, "tags", this.strings(e.value, `a component's "tags"`));
          break;
        case "properties":
          for (const item of this.items(e.value, `a component's "properties"`) ?? []) {
            const p = this.componentProperty(item, def, `properties[${def.properties.length}]`);
            if (p) def.properties.push(p);
          }
          break;
        case "children":
          def.children = this.components(e.value, `a component's "children"`);
          break;
        case "dependencies":
          setIf(def, "dependencies", this.strings(e.value, `a component's "dependencies"`));
          break;
        default:
          this.unknown(e, "a component", "component");
      }
    }
    return def;
  }

  selector(def: RawDefinition, node: YamlNode | null): void {
    const n = this.deref(node);
    if (n === null || isNullScalar(n)) return;
    def.selectorLocation = this.loc(node);
    if (n.kind === "seq") {
      const parts = this.markedStrings(def, "selector", node, `a component's "selector"`) ?? [];
      def.selectorGiven = parts.length > 0;
      def.selectorText = parts;
      def.selectors = splitJoined(parts.join(","));
    } else {
      const s = this.string(node, `a component's "selector"`);
      if (s === undefined) return;
      this.mark(def, "selector[0]", node);
      def.selectorGiven = true;
      def.selectorText = [s];
      def.selectors = splitJoined(s);
    }
    const check = this.checks.selector;
    if (!check) return;
    const texts = def.selectorText ?? [];
    for (let i = 0; i < texts.length; i++) {
      // One string: its alternatives are the selectors just split (not split again).
      const alternatives = n.kind === "seq" ? splitJoined(texts[i]!) : def.selectors!;
      for (const alternative of alternatives) {
        const p = check(alternative);
        if (!p) continue; // the location only for a problem: most selectors have none
        const at = this.loc(n.kind === "seq" ? n.items[i] ?? node : n);
        this.report(p, at, { selector: alternative, ...(def.name ? { component: def.name } : {}) });
      }
    }
  }

  /** A component's property; where its `name` is written is recorded on `owner` as `<key>.name` (for search). */
  componentProperty(
    node: YamlNode | null,
    owner: { fieldAt?: FieldLocations },
    key: string,
  ): WireProperty | undefined {
    const entries = this.entry(node, "a component property");
    if (!entries) return undefined;
    const p: WireProperty = { name: "", extract: "" };
    for (const e of entries) {
      if (e.key === "name") {
        p.name = this.string(e.value, `a property's "name"`) ?? "";
        this.mark(owner, `${key}.name`, e.value);
        if (p.name) this.reportAt(rules.propertyName(p.name, "property-invalid-name"), e.value);
      } else if (e.key === "extract") {
        p.extract = this.string(e.value, `a property's "extract"`) ?? "";
        this.extracts.push({ extract: p.extract, location: this.loc(e.value) });
      } else if (e.key === "transform") {
        const t = this.string(e.value, `a property's "transform"`);
        setIf(p, "transform", t);
        if (t !== undefined) this.reportAt(rules.transform(t), e.value);
      } else this.unknown(e, "a component property", "componentProperty");
    }
    if (!p.name) this.warn("property-missing-name", 'component property without a "name"', this.loc(node));
    if (!p.extract) this.warn("property-missing-extract", 'component property without an "extract"', this.loc(node));
    return p;
  }

  fieldProperties(node: YamlNode | null, owner: "request" | "message"): WireFieldProperty[] | undefined {
    const items = this.items(node, `a ${owner}'s "properties"`);
    if (!items) return undefined;
    const out: WireFieldProperty[] = [];
    for (const item of items) {
      const entries = this.entry(item, `a ${owner} property`);
      if (!entries) continue;
      const p: WireFieldProperty = { name: "", source: "" };
      const at: Record<string, SourceLocation> = {};
      for (const e of entries) {
        switch (e.key) {
          case "name":
          case "source":
            p[e.key] = this.text(e.value, `a property's "${e.key}"`, e.key) ?? "";
            at[e.key] = this.loc(e.value ?? e.keyNode);
            break;
          case "field":
          case "pattern":
            setIf(p, e.key, this.text(e.value, `a property's "${e.key}"`, e.key));
            at[e.key] = this.loc(e.value ?? e.keyNode);
            break;
          default:
            this.unknown(e, `a ${owner} property`, "fieldProperty");
        }
      }
      const here = this.loc(item);
      for (const problem of rules.fieldProperty(p, owner)) this.report(problem, at[problem.field] ?? here);
      out.push(p);
    }
    return out;
  }

  payload(node: YamlNode | null, what: string): WirePayload | undefined {
    const entries = this.entries(node, what);
    if (!entries) return undefined;
    const payload: WirePayload = {};
    for (const e of entries) {
      if (e.key !== "fields") {
        this.unknown(e, what, "payload");
        continue;
      }
      const fields: NonNullable<WirePayload["fields"]> = [];
      for (const item of this.items(e.value, `"fields" of ${what}`) ?? []) {
        const fe = this.entry(item, `a field of ${what}`);
        if (!fe) continue;
        const field: { name: string; type?: string; description?: string } = { name: "" };
        for (const f of fe) {
          if (f.key === "name") field.name = this.string(f.value, `a field's "name"`) ?? "";
          else if (f.key === "type") setIf(field, "type", this.string(f.value, `a field's "type"`));
          else if (f.key === "description") {
            setIf(field, "description", this.string(f.value, `a field's "description"`));
          } else this.unknown(f, `a field of ${what}`, "payloadField");
        }
        fields.push(field);
      }
      if (fields.length > 0) payload.fields = fields;
    }
    return payload;
  }

  requests(node: YamlNode | null, what: string): RawRequest[] {
    const out: RawRequest[] = [];
    for (const item of this.items(node, what) ?? []) {
      const r = this.request(item);
      if (r) out.push(r);
    }
    return out;
  }

  request(node: YamlNode | null): RawRequest | undefined {
    const entries = this.entry(node, "a request");
    if (!entries) return undefined;
    const r: RawRequest = { location: this.loc(node) };
    for (const e of entries) {
      switch (e.key) {
        case "name":
        case "route":
        case "description":
          this.mark(r, e.key, e.value);
          setIf(r, e.key, this.string(e.value, `a request's "${e.key}"`));
          break;
        case "method":
        case "source":
          setIf(r, e.key, this.string(e.value, `a request's "${e.key}"`));
          break;
        case "request":
        case "response":
          setIf(r, e.key, this.payload(e.value, `a request's "${e.key}"`));
          break;
        case "headers": {
          const he = this.entries(e.value, `a request's "headers"`);
          if (!he) break;
          const headers: Record<string, string> = {};
          for (const h of he) headers[h.key] = this.string(h.value, `header "${h.key}"`) ?? "";
          r.headers = headers;
          break;
        }
        case "memory":
          setIf(r, "memory", this.markedStrings(r, "memory", e.value, `a request's "memory"`));
          break;
        case "tags":
          setIf(r, "tags", this.strings(e.value, `a request's "tags"`));
          break;
        case "properties":
          setIf(r, "properties", this.fieldProperties(e.value, "request"));
          break;
        default:
          this.unknown(e, "a request", "request");
      }
    }
    return r;
  }

  message(node: YamlNode | null): RawMessage | undefined {
    const entries = this.entry(node, "a message");
    if (!entries) return undefined;
    const m: RawMessage = { location: this.loc(node) };
    for (const e of entries) {
      switch (e.key) {
        case "name":
        case "level":
        case "message":
        case "description":
        case "source":
          setIf(m, e.key, this.text(e.value, `a message's "${e.key}"`, e.key));
          if (e.key === "name" || e.key === "description") this.mark(m, e.key, e.value);
          if (e.key === "message" && m.message !== undefined) {
            this.reportAt(rules.messageRegex(m.message), e.value);
          }
          break;
        case "properties":
          setIf(m, "properties", this.fieldProperties(e.value, "message"));
          break;
        default:
          this.unknown(e, "a message", "message");
      }
    }
    return m;
  }

  /** A view's `access: {status, reason}`: checked, authoring-only. */
  access(node: YamlNode | null): void {
    const entries = this.entries(node, `a view's "access"`);
    if (!entries) return;
    let status: string | undefined;
    let reason: string | undefined;
    let statusAt = this.loc(node);
    for (const e of entries) {
      if (e.key === "status") {
        status = this.string(e.value, `"access.status"`);
        statusAt = this.loc(e.value ?? e.keyNode);
      } else if (e.key === "reason") reason = this.string(e.value, `"access.reason"`);
      else this.unknown(e, `a view's "access"`, "access");
    }
    for (const p of rules.access(status, reason)) this.report(p, statusAt);
  }

  view(node: YamlNode | null): RawView | undefined {
    const location = this.loc(node);
    const entries = this.entry(node, "a view");
    if (!entries) return undefined;
    const v: RawView = { memory: [], components: [], requests: [], location };
    for (const e of entries) {
      switch (e.key) {
        case "name":
        case "route":
        case "url":
        case "description":
          setIf(v, e.key, this.string(e.value, `a view's "${e.key}"`));
          this.mark(v, e.key, e.value);
          break;
        case "memory":
          v.memory = this.markedStrings(v, "memory", e.value, `a view's "memory"`) ?? [];
          break;
        case "components":
          v.components = this.components(e.value, `a view's "components"`);
          break;
        case "requests":
          v.requests = this.requests(e.value, `a view's "requests"`);
          break;
        case "tags":
        case "dependencies":
          setIf(v, e.key, this.strings(e.value, `a view's "${e.key}"`));
          break;
        case "source":
          setIf(v, "source", this.string(e.value, `a view's "source"`));
          break;
        case "stability": {
          const s = this.string(e.value, `a view's "stability"`);
          if (s !== undefined) this.reportAt(rules.viewStability(s), e.value);
          break;
        }
        case "access":
          this.access(e.value);
          break;
        default:
          this.unknown(e, "a view", "view");
      }
    }
    return v;
  }
}

function setIf<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

/**
 * Decodes one corpus file from its parsed YAML (`_yaml_fast.ts`, else `_yaml_library.ts`). Fatal problems go to
 * `fatal`, everything else to `warnings`; returns `undefined` when the file could not be decoded at all (syntax
 * errors).
 */
export function decodeFile(
  file: string,
  parsed: ParsedYaml,
  fatal: Diagnostic[],
  warnings: Diagnostic[],
  checks: DecodeChecks = {},
): RawFile | undefined {
  const before = fatal.length;
  const decoded = new FileDecoder(file, fatal, warnings, checks).decode(parsed);
  return fatal.length === before ? decoded : undefined;
}
