/**
 * The network record the collector keeps per request: its shape, its header lists (cut to bounded sizes) and its
 * estimated size in the rings' shared budget.
 *
 * @module
 */
import type { Header, NetworkEntry } from "./daemon_api.ts";
import { capText } from "./_pipe.ts";

/** Longest header value kept. */
export const HEADER_VALUE_CAP = 8 * 1024;
/** Most bytes of one header list kept; the rest is replaced by one `x-mapper-truncated` header. */
export const HEADERS_CAP = 32 * 1024;

/** A network record plus what only the daemon needs. */
export interface NetworkRecord extends NetworkEntry {
  /**
   * The URL of the page the tab showed when the request was sent (its top-level document), which decides the view
   * whose requests may name it; absent when unknown (a tab seen only after it loaded, before any request).
   */
  page?: string;
  requestHeaders: Header[];
  responseHeaders: Header[];
  sessionId: string;
  /** The session the response arrived on (where its body lives). */
  bodySessionId: string;
  requestId: string;
  /** Monotonic CDP timestamp of the start (seconds). */
  t0: number;
  postData?: string;
  body?: Uint8Array;
  /** Why the retained body is missing, when retention was attempted and failed. */
  bodyNote?: string;
  /** Decoded response bytes received so far (`Network.dataReceived`). */
  received?: number;
}

/** A header object as recorded: values cut at {@linkcode HEADER_VALUE_CAP}, the list at {@linkcode HEADERS_CAP}. */
export function headerList(h: unknown): Header[] {
  if (!h || typeof h !== "object") return [];
  const out: Header[] = [];
  let bytes = 0;
  let left = 0;
  let leftBytes = 0;
  for (const [rawName, value] of Object.entries(h as Record<string, unknown>)) {
    const name = capText(rawName, 256);
    // Chromium joins repeated headers with "\n".
    for (const v of String(value).split("\n")) {
      const kept = capText(v, HEADER_VALUE_CAP);
      if (bytes + name.length + kept.length > HEADERS_CAP) {
        left++;
        leftBytes += rawName.length + v.length;
        continue;
      }
      bytes += name.length + kept.length;
      out.push({ name, value: kept });
    }
  }
  out.sort((
    a,
    b,
  ) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0));
  if (left > 0) {
    out.push({ name: "x-mapper-truncated", value: `${left} more headers (${leftBytes} bytes) not recorded` });
  }
  return out;
}

/** Estimated bytes of a network record, without its retained body (bodies have their own budget). */
export function networkSize(r: NetworkRecord): number {
  let n = r.url.length + (r.page?.length ?? 0) + r.method.length + r.statusText.length + (r.postData?.length ?? 0) +
    (r.failure?.length ?? 0) + (r.mimeType?.length ?? 0);
  for (const h of r.requestHeaders) n += h.name.length + h.value.length + 16;
  for (const h of r.responseHeaders) n += h.name.length + h.value.length + 16;
  return 256 + 2 * n;
}
