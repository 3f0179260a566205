/**
 * Properties of captured requests and console messages, as the corpus declares them (`requests[].properties`,
 * `messages[].properties`: `{name, source, field?, pattern?}`), extracted for the `[Match] … {name=value}` list
 * lines and the `Properties:` block of `get`.
 *
 * Sources: `req.body` / `rsp.body` (JSON: `field` is a dotted path, `items.0.id`; any body: `pattern` is a regular
 * expression, group 1 else the whole match), `req.headers` / `rsp.headers` (`field` names the header,
 * case-insensitive), `url` (the request URL), for messages `stack` (`field`:
 * `top.function`, `top.file`, `top.line`, `top.column`, `0.…` the same; deeper frames are not captured, so they
 * have no value; `top` = `function (url:line:column)`). With both
 * `field` and `pattern`, the pattern runs on the field's value. Missing values are omitted, never invented; values
 * are cut to 120 characters. The first matched definition that declares properties supplies them.
 *
 * @module
 */
import type { WireCorpus, WireFieldProperty } from "../corpus/mod.ts";
import type { Frame, Header } from "./daemon_api.ts";

/** Longest property value kept. */
const MAX_VALUE = 120;

/** The property declarations of each request and message name (first declaration with properties wins). */
export interface FieldDefs {
  request(name: string): readonly WireFieldProperty[];
  message(name: string): readonly WireFieldProperty[];
}

/** Indexes a corpus's request and message properties by name. */
export function fieldDefs(wire: WireCorpus | undefined): FieldDefs {
  const requests = new Map<string, WireFieldProperty[]>();
  const messages = new Map<string, WireFieldProperty[]>();
  for (const r of [...(wire?.requests ?? []), ...(wire?.views ?? []).flatMap((v) => v.requests ?? [])]) {
    if (r.properties?.length && !requests.has(r.name)) requests.set(r.name, r.properties);
  }
  for (const m of wire?.messages ?? []) {
    if (m.properties?.length && !messages.has(m.name)) messages.set(m.name, m.properties);
  }
  return { request: (n) => requests.get(n) ?? [], message: (n) => messages.get(n) ?? [] };
}

/** Where request property values come from; bodies are read lazily (only when a property needs them). */
export interface RequestSources {
  url: string;
  requestHeaders: readonly Header[];
  responseHeaders: readonly Header[];
  requestBody(): Promise<string | undefined>;
  responseBody(): Promise<string | undefined>;
}

/** Where message property values come from. */
export interface MessageSources {
  text: string;
  frame?: Frame | undefined;
}

function clean(v: string): string {
  const s = v.replace(/\s+/g, " ").trim();
  return s.length > MAX_VALUE ? s.slice(0, MAX_VALUE) : s;
}

function applyPattern(value: string, pattern: string | undefined): string | undefined {
  if (pattern === undefined || pattern === "") return value;
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch {
    return undefined;
  }
  const m = re.exec(value);
  if (!m) return undefined;
  return m[1] ?? m[0];
}

function jsonField(text: string, path: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  for (const key of path.split(".").filter(Boolean)) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

function header(headers: readonly Header[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find((h) => h.name.toLowerCase() === lower)?.value;
}

/** Extracts a request's declared properties, in declaration order; missing values are left out. */
export async function requestFields(
  props: readonly WireFieldProperty[],
  src: RequestSources,
): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const p of props) {
    let raw: string | undefined;
    if (p.source === "url") raw = src.url;
    else if (p.source === "req.headers" || p.source === "rsp.headers") {
      raw = p.field
        ? header(p.source === "req.headers" ? src.requestHeaders : src.responseHeaders, p.field)
        : undefined;
    } else if (p.source === "req.body" || p.source === "rsp.body") {
      const body = await (p.source === "req.body" ? src.requestBody() : src.responseBody()).catch(() => undefined);
      raw = body === undefined ? undefined : p.field ? jsonField(body, p.field) : body;
    }
    const value = raw === undefined ? undefined : applyPattern(raw, p.pattern);
    if (value !== undefined && clean(value) !== "") out.push([p.name, clean(value)]);
  }
  return out;
}

/** Extracts a console message's declared properties, in declaration order. */
export function messageFields(props: readonly WireFieldProperty[], src: MessageSources): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const p of props) {
    let raw: string | undefined;
    if (p.source === "stack" && src.frame) {
      // Only the top frame is captured: `top.X` and `0.X` have a value, deeper frames never do.
      const f = src.frame;
      const m = /^(top|0)(?:\.(function|file|url|line|column))?$/.exec(p.field ?? "top");
      const part = m ? m[2] ?? "" : undefined;
      if (part === "") raw = `${f.function ? `${f.function} ` : ""}(${f.url}:${f.line}:${f.column})`;
      else if (part === "function") raw = f.function || undefined;
      else if (part === "file" || part === "url") raw = f.url;
      else if (part === "line") raw = String(f.line);
      else if (part === "column") raw = String(f.column);
    }
    const value = raw === undefined ? undefined : applyPattern(raw, p.pattern);
    if (value !== undefined && clean(value) !== "") out.push([p.name, clean(value)]);
  }
  return out;
}
