/**
 * Renders `Runtime.consoleAPICalled` arguments the way the DevTools console shows them collapsed: printf-style
 * format specifiers applied, strings raw, `null`/`undefined` spelled out, objects and arrays previewed
 * (`{a: 1, b: 'x'}`, `(2) [1, 2]`), errors by their stack text.
 *
 * @module
 */
import { capText } from "./_pipe.ts";

/** The parts of a CDP `Runtime.RemoteObject` the renderer reads. */
export interface RemoteObject {
  type?: string;
  subtype?: string;
  className?: string;
  value?: unknown;
  unserializableValue?: string;
  description?: string;
  preview?: ObjectPreview;
}

/** A CDP `Runtime.ObjectPreview`. */
export interface ObjectPreview {
  type?: string;
  subtype?: string;
  description?: string;
  overflow?: boolean;
  properties?: PropertyPreview[];
  entries?: Array<{ key?: ObjectPreview; value?: ObjectPreview }>;
}

/** A CDP `Runtime.PropertyPreview`. */
export interface PropertyPreview {
  name: string;
  type?: string;
  subtype?: string;
  value?: string;
  valuePreview?: ObjectPreview;
}

function primitive(o: RemoteObject): string | undefined {
  if (o.unserializableValue !== undefined) return o.unserializableValue;
  switch (o.type) {
    case "undefined":
      return "undefined";
    case "string":
      return typeof o.value === "string" ? o.value : String(o.value ?? "");
    case "number":
    case "boolean":
      return o.value === undefined ? o.description ?? "" : String(o.value);
    case "bigint":
      return o.description ?? `${String(o.value ?? "")}n`;
    case "symbol":
      return o.description ?? "Symbol()";
    case "function":
      return o.description ?? "function";
  }
  if (o.subtype === "null") return "null";
  return undefined;
}

function previewValue(p: PropertyPreview): string {
  if (p.valuePreview) return nestedPreview(p.valuePreview);
  if (p.type === "string") return `'${p.value ?? ""}'`;
  if (p.type === "function") return "ƒ";
  if (p.type === "object" && p.subtype === "null") return "null";
  return p.value ?? (p.type === "undefined" ? "undefined" : "");
}

function nestedPreview(p: ObjectPreview): string {
  if (p.subtype === "array") return p.description ?? "Array";
  if (p.type === "object" && !p.subtype && (p.description === "Object" || p.description === undefined)) return "{…}";
  return p.description ?? "{…}";
}

function renderPreview(o: RemoteObject, p: ObjectPreview): string {
  const props = p.properties ?? [];
  const more = p.overflow ? ", …" : "";
  if (p.subtype === "array" || p.subtype === "typedarray") {
    const size = /\((\d+)\)/.exec(o.description ?? "")?.[1];
    const items = props.map((q) => (/^\d+$/.test(q.name) ? previewValue(q) : `${q.name}: ${previewValue(q)}`));
    const body = `[${items.join(", ")}${more}]`;
    const prefix = o.subtype === "typedarray" ? `${o.className ?? "TypedArray"}(${size ?? items.length}) ` : "";
    return size === undefined ? `${prefix}${body}` : `${prefix || `(${size}) `}${body}`;
  }
  if (p.subtype === "map" || p.subtype === "set") {
    const entries = (p.entries ?? []).map((e) =>
      e.key
        ? `${nestedPreviewOrPrimitive(e.key)} => ${nestedPreviewOrPrimitive(e.value)}`
        : nestedPreviewOrPrimitive(e.value)
    );
    return `${o.description ?? p.subtype} {${entries.join(", ")}${more}}`;
  }
  const items = props.map((q) => `${q.name}: ${previewValue(q)}`);
  const name = o.className && o.className !== "Object" ? `${o.className} ` : "";
  return `${name}{${items.join(", ")}${more}}`;
}

function nestedPreviewOrPrimitive(p: ObjectPreview | undefined): string {
  if (!p) return "undefined";
  if (p.type === "string") return `'${p.description ?? ""}'`;
  if (p.type !== "object") return p.description ?? "";
  if (p.properties && p.subtype !== "array") {
    return `{${p.properties.map((q) => `${q.name}: ${previewValue(q)}`).join(", ")}${p.overflow ? ", …" : ""}}`;
  }
  return nestedPreview(p);
}

/** Renders one argument as DevTools shows it standing alone (strings unquoted). */
export function renderObject(o: RemoteObject): string {
  const prim = primitive(o);
  if (prim !== undefined) return prim;
  if (o.subtype === "error") return o.description ?? "Error";
  if (o.subtype === "regexp" || o.subtype === "date" || o.subtype === "node" || o.subtype === "promise") {
    return o.description ?? "";
  }
  if (o.preview) return renderPreview(o, o.preview);
  if (o.value !== undefined) return JSON.stringify(o.value) ?? "";
  return o.description ?? "";
}

/**
 * Renders a whole console call: format specifiers in a leading string consume arguments, the rest join with spaces.
 * Each argument's rendering (and the formatted leading string) is cut at `argCap` with a marker naming its size.
 */
export function renderArgs(args: readonly RemoteObject[], argCap = Infinity): string {
  if (args.length === 0) return "";
  const one = (o: RemoteObject) => capText(renderObject(o), argCap);
  const parts: string[] = [];
  let rest = args;
  const first = args[0];
  if (first && first.type === "string" && typeof first.value === "string" && first.value.includes("%")) {
    let i = 1;
    const formatted = first.value.replace(/%([sdifoOc%])/g, (whole, spec: string) => {
      if (spec === "%") return "%";
      const arg = args[i];
      if (arg === undefined) return whole;
      i++;
      switch (spec) {
        case "s":
          return arg.type === "string" ? capText(String(arg.value), argCap) : one(arg);
        case "d":
        case "i": {
          const n = Number(arg.value ?? arg.description);
          return Number.isNaN(n) ? "NaN" : String(Math.trunc(n));
        }
        case "f":
          return String(Number(arg.value ?? arg.description));
        case "c":
          return "";
        default:
          return one(arg);
      }
    });
    parts.push(capText(formatted, argCap));
    rest = args.slice(i);
  } else if (first) {
    parts.push(one(first));
    rest = args.slice(1);
  }
  for (const arg of rest) parts.push(one(arg));
  return parts.join(" ");
}
