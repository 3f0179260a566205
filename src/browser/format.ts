/**
 * Text layouts of `mapper console list|get` and `mapper network list|get`, terminal
 * safety (control characters escaped, binary bodies never printed raw) and secret redaction.
 *
 * The lists are rendered by the daemon (`GET /devtools/console?format=text`, see `daemon_api.ts`), where this code is warm,
 * and printed by the CLI as they come; the entry layouts are rendered by the CLI. Both sides import this one module.
 *
 * @module
 */
import type { ConsoleEntry, Header, ListPayload, NetworkEntry } from "./daemon_api.ts";
import { escapeControls, indentedBlock } from "../terminal.ts";

/** Bytes of a response body previewed inline. */
export const PREVIEW_BYTES = 4096;
/** Header values longer than this are cut in `network get`. */
export const HEADER_CUT = 512;

/**
 * Page text on one line of ours (console text in a list, URLs, headers, property values): newlines, control, line
 * and format characters shown as `\n`, `\xNN`, `\uNNNN` ({@linkcode escapeControls}), so no entry can print a line
 * that looks like another entry.
 */
const oneLine = (s: string): string => escapeControls(s);

/** The status column: `200 OK`, `pending`, or `failed: <reason>`. */
export function statusText(e: NetworkEntry): string {
  if (e.state === "failed") return `failed: ${oneLine(e.failure ?? "unknown error")}`;
  if (e.status === null) return "pending";
  return e.statusText ? `${e.status} ${oneLine(e.statusText)}` : String(e.status);
}

function overflow(dropped: number, what: string): string[] {
  return dropped > 0 ? [`(${dropped} earlier ${what} entries dropped — buffer overflowed)`] : [];
}

/** The match slot of a list line: `[Name]`, `[A, B]`, or `[--]` when nothing in the corpus classified it. */
export function matchSlot(matches: readonly string[]): string {
  return matches.length === 0 ? "[--]" : `[${matches.map((m) => oneLine(m)).join(", ")}]`;
}

/** The trailing extracted properties: ` {name=value, …}` sorted by name, or `""`. */
export function propsSuffix(props: Readonly<Record<string, string>> | undefined): string {
  if (!props) return "";
  const keys = Object.keys(props).sort();
  if (keys.length === 0) return "";
  return ` {${keys.map((k) => `${oneLine(k)}=${oneLine(props[k]!)}`).join(", ")}}`;
}

/** Slots of a listing, padded to the widest one. */
function slots(entries: ReadonlyArray<{ matches: readonly string[] }>): string[] {
  const raw = entries.map((e) => matchSlot(e.matches));
  const width = Math.max(0, ...raw.map((s) => s.length));
  return raw.map((s) => s.padEnd(width));
}

/**
 * `console list`: `[index] [Match] level text {props}`, with `[tab8]` after the level when the listed entries span
 * tabs. The slot is `[--]` when no corpus message matched; slots are padded to the widest in the listing.
 */
export function formatConsoleList(p: ListPayload<ConsoleEntry>): string {
  const lines: string[] = [];
  if (p.entries.length === 0) lines.push("No console messages captured.");
  const multi = new Set(p.entries.map((e) => e.tab)).size > 1;
  const slot = slots(p.entries);
  p.entries.forEach((e, i) => {
    const tab = multi ? `[${e.tab.slice(0, 8)}] ` : "";
    lines.push(
      `[${e.index}] ${slot[i]} ${e.level.padEnd(9)} ${tab}${oneLine(e.text)}${propsSuffix(e.properties)}`,
    );
  });
  lines.push(...overflow(p.dropped, "console"));
  return lines.join("\n") + "\n";
}

/**
 * `console get`: header line, the text (every line of it indented, so none passes for one of ours), then source,
 * time and matches.
 */
export function formatConsoleGet(e: ConsoleEntry): string {
  const lines = [`[${e.index}] ${e.level}  (tab ${e.tab.slice(0, 8)})`, indentedBlock(e.text)];
  if (e.frame) {
    const where = `${oneLine(e.frame.url)}:${e.frame.line}:${e.frame.column}`;
    lines.push(`Source: ${e.frame.function ? `${oneLine(e.frame.function)} (${where})` : where}`);
  }
  lines.push(`Time: ${new Date(e.ts).toISOString()}`);
  if (e.matches.length > 0) lines.push(`Matches: ${e.matches.join(", ")}`);
  lines.push(...propertiesBlock(e.properties));
  return lines.join("\n") + "\n";
}

function propertiesBlock(props: Readonly<Record<string, string>> | undefined): string[] {
  const keys = Object.keys(props ?? {}).sort();
  if (!props || keys.length === 0) return [];
  return ["Properties:", ...keys.map((k) => `  ${oneLine(k)} = ${oneLine(props[k]!)}`)];
}

/** `network list`: `[index] [Match] method url → status (resourceType) {props}`. */
export function formatNetworkList(p: ListPayload<NetworkEntry>): string {
  const lines: string[] = [];
  if (p.entries.length === 0) lines.push("No network requests captured.");
  const slot = slots(p.entries);
  p.entries.forEach((e, i) => {
    lines.push(
      `[${e.index}] ${slot[i]} ${oneLine(e.method)} ${oneLine(e.url)} → ${statusText(e)} (${e.resourceType})${
        propsSuffix(e.properties)
      }`,
    );
  });
  lines.push(...overflow(p.dropped, "network"));
  return lines.join("\n") + "\n";
}

function headerBlock(title: string, headers: readonly Header[]): string[] {
  if (headers.length === 0) return [];
  const out = [`${title}:`];
  for (const h of headers) {
    let v = oneLine(h.value);
    const bytes = new TextEncoder().encode(v);
    if (bytes.length > HEADER_CUT) {
      v = `${new TextDecoder().decode(bytes.subarray(0, HEADER_CUT)).replace(/\uFFFD$/, "")}…(truncated)`;
    }
    out.push(`  ${oneLine(h.name)}: ${v}`);
  }
  return out;
}

/** `network get` metadata block (headers already redacted as wanted). */
export function formatNetworkHead(e: NetworkEntry): string {
  const lines = [
    `Method: ${oneLine(e.method)}`,
    `URL: ${oneLine(e.url)}`,
    `Resource Type: ${e.resourceType}`,
    `Status: ${statusText(e)}`,
    `Tab: ${e.tab}`,
  ];
  if (e.failure && e.state !== "failed") {
    lines.push(`Failure: ${oneLine(e.failure)} (after the response arrived)`);
  }
  const timing = [`started ${new Date(e.ts).toISOString()}`];
  if (e.responseMs !== undefined) timing.push(`response after ${e.responseMs} ms`);
  if (e.durationMs !== undefined) {
    timing.push(`${e.state === "failed" ? "failed" : "finished"} after ${e.durationMs} ms`);
  }
  lines.push(`Timing: ${timing.join(", ")}`);
  if (e.matches.length > 0) lines.push(`Matches: ${e.matches.join(", ")}`);
  lines.push(...propertiesBlock(e.properties));
  lines.push(
    ...headerBlock("Request Headers", e.requestHeaders ?? []),
    ...headerBlock("Response Headers", e.responseHeaders ?? []),
  );
  return lines.join("\n") + "\n";
}

const TEXTUAL =
  /^(text\/|application\/(json|[\w.+-]*\+json|javascript|ecmascript|x-javascript|xml|[\w.+-]*\+xml|x-www-form-urlencoded|graphql|yaml|x-yaml|csv|x-ndjson)|image\/svg\+xml)/i;

/** Decodes a body as text when its content type says text (or says nothing) and it is valid UTF-8 without NULs. */
export function bodyText(bytes: Uint8Array, contentType: string): string | undefined {
  const type = contentType.split(";")[0]!.trim();
  if (type && type !== "application/octet-stream" && !TEXTUAL.test(type)) return undefined;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    if (text.includes("\u0000")) return undefined;
    return text;
  } catch {
    return undefined;
  }
}

/**
 * The `network get` line saying a request has a body (POST data), and how to get it: text output never shows the
 * request body itself, so without this line an agent would not know it exists.
 */
export function formatRequestBodyNote(body: { size: number; contentType: string } | { reason: string }): string {
  if ("reason" in body) return `Request Body: present, unavailable (${oneLine(body.reason)})\n`;
  const type = oneLine(body.contentType.split(";")[0]!.trim()) || "unknown type";
  return `Request Body: ${body.size} bytes, ${type} — save it with --request-file FILE (or see it with --json)\n`;
}

/** The inline body preview: `(empty)`, the text, the first 4096 bytes with a header, or a binary placeholder. */
export function formatBodyPreview(title: string, bytes: Uint8Array, contentType: string, fileFlag: string): string {
  if (bytes.length === 0) return `${title}: (empty)\n`;
  const type = contentType.split(";")[0]!.trim() || "unknown type";
  const cut = bytes.length > PREVIEW_BYTES ? bytes.subarray(0, PREVIEW_BYTES) : bytes;
  // Validate on the whole body (a cut may split a character); show the cut part.
  const whole = bodyText(bytes, contentType);
  if (whole === undefined) return `${title}: <binary, ${bytes.length} bytes, ${oneLine(type)} — use ${fileFlag}>\n`;
  const text = bytes.length > PREVIEW_BYTES ? new TextDecoder().decode(cut, { stream: true }) : whole;
  const head = bytes.length > PREVIEW_BYTES
    ? `${title} (first ${PREVIEW_BYTES} of ${bytes.length} bytes; use ${fileFlag} for the full body):`
    : `${title}:`;
  // Indented under the title: no line of the body can pass for a line of ours.
  return `${head}\n${indentedBlock(text.endsWith("\n") ? text.slice(0, -1) : text)}\n`;
}
