/**
 * Request and response bodies: Document/XHR/Fetch response bodies retained when loading finishes, within
 * {@linkcode BODY_LIMIT} each and {@linkcode BODY_BUDGET} in all (the oldest retained go first, every drop counted;
 * one known to be over the limit is not even fetched), and any body fetched live from Chromium on demand, with an
 * error that says why when neither has it.
 *
 * @module
 */
import type { CdpConnection } from "./cdp.ts";
import { CdpError } from "./cdp.ts";
import type { NetworkRecord } from "./_network_record.ts";
import type { Targets } from "./_targets.ts";

/** Largest response body retained per request. */
export const BODY_LIMIT = 1024 * 1024;
/** Total bytes of retained response bodies. */
export const BODY_BUDGET = 50 * 1024 * 1024;

const RETAINED_TYPES = new Set(["Document", "XHR", "Fetch"]);

/** Why a body cannot be served. */
export class BodyUnavailable extends Error {}

function decodeBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Decodes a `Network.getResponseBody`/`getRequestPostData` answer to bytes. */
function bodyBytes(body: string, base64: boolean): Uint8Array {
  return base64 ? decodeBase64(body) : new TextEncoder().encode(body);
}

/** The bodies of one collector's network records. */
export class Bodies {
  #cdp: CdpConnection;
  #targets: Targets;
  #limit: number;
  #budget: number;
  #retained: NetworkRecord[] = [];
  #bytes = 0;
  #dropped = 0;

  /** Creates the store: `limit` bytes per body, `budget` bytes for all retained bodies. */
  constructor(cdp: CdpConnection, targets: Targets, limit: number = BODY_LIMIT, budget: number = BODY_BUDGET) {
    this.#cdp = cdp;
    this.#targets = targets;
    this.#limit = limit;
    this.#budget = budget;
  }

  /** Retained-body statistics. */
  stats(): { retained: number; bytes: number; dropped: number } {
    return { retained: this.#retained.length, bytes: this.#bytes, dropped: this.#dropped };
  }

  /**
   * A request finished loading on `sessionId`: retain its response body when its type is kept and it fits. The
   * fetch is asynchronous; `buffered` says whether the record is still in the ring when the body arrives.
   */
  loaded(rec: NetworkRecord, sessionId: string, buffered: (rec: NetworkRecord) => boolean): void {
    if (!RETAINED_TYPES.has(rec.resourceType)) return;
    const known = Math.max(rec.received ?? 0, rec.encodedBytes ?? 0);
    if (known > this.#limit) {
      // Not even fetched: a page must not make the daemon hold a huge body, however briefly.
      this.#dropped++;
      rec.bodyNote = `${NOT_KEPT}: ${known} bytes is over the ${size(this.#limit)} limit per body`;
      return;
    }
    this.#cdp.send("Network.getResponseBody", { requestId: rec.requestId }, sessionId)
      .then((res) => {
        const body = bodyBytes(res.body ?? "", res.base64Encoded === true);
        this.#retain(rec, body, buffered);
      })
      .catch((err: unknown) => {
        rec.bodyNote = err instanceof Error ? err.message : String(err);
      });
  }

  #retain(rec: NetworkRecord, body: Uint8Array, buffered: (rec: NetworkRecord) => boolean): void {
    if (!buffered(rec)) return;
    if (body.length > this.#limit) {
      this.#dropped++;
      rec.bodyNote = `${NOT_KEPT}: ${body.length} bytes is over the ${size(this.#limit)} limit per body`;
      return;
    }
    rec.body = body;
    rec.responseBody = "retained";
    this.#retained.push(rec);
    this.#bytes += body.length;
    while (this.#bytes > this.#budget && this.#retained.length > 0) {
      const old = this.#retained[0]!;
      this.release(old);
      this.#dropped++;
      old.bodyNote = `${NOT_KEPT}: released to stay within the ${size(this.#budget)} budget for all bodies`;
    }
  }

  /** Releases a record's retained body (its record left the ring, or the budget needs the room). */
  release(rec: NetworkRecord): void {
    if (!rec.body) return;
    const i = this.#retained.indexOf(rec);
    if (i >= 0) this.#retained.splice(i, 1);
    this.#bytes -= rec.body.length;
    delete rec.body;
    rec.responseBody = "live";
  }

  /**
   * The response body of a buffered record: retained bytes, else a live fetch from the session that saw it. When
   * neither has it, the error says why (and why the collector kept no copy, when it tried).
   */
  async responseBody(rec: NetworkRecord): Promise<Uint8Array> {
    if (rec.body) return rec.body;
    if (rec.state === "failed") throw new BodyUnavailable(`the request failed (${rec.failure ?? "unknown error"})`);
    if (rec.status === null) throw new BodyUnavailable("the request is still pending: no response has arrived");
    if (rec.redirected) throw new BodyUnavailable(`it is a redirect hop (${rec.status}); see the next request`);
    const why = (reason: string) =>
      new BodyUnavailable(rec.bodyNote?.startsWith(NOT_KEPT) ? `${reason}; ${rec.bodyNote}` : reason);
    if (!this.#targets.isOpen(rec.bodySessionId)) throw why("the tab, frame or worker that loaded it has closed");
    try {
      const res = await this.#cdp.send(
        "Network.getResponseBody",
        { requestId: rec.requestId },
        rec.bodySessionId,
        10_000,
      );
      return bodyBytes(res.body ?? "", res.base64Encoded === true);
    } catch (err: unknown) {
      throw why(friendly(err));
    }
  }

  /** The request body (POST data) of a buffered record. */
  async requestBody(rec: NetworkRecord): Promise<Uint8Array> {
    if (rec.postData !== undefined) return new TextEncoder().encode(rec.postData);
    if (!rec.hasRequestBody) throw new BodyUnavailable(`this ${rec.method} request has no request body`);
    if (!this.#targets.isOpen(rec.sessionId)) {
      throw new BodyUnavailable("the tab, frame or worker that sent it has closed");
    }
    try {
      const res = await this.#cdp.send(
        "Network.getRequestPostData",
        { requestId: rec.requestId },
        rec.sessionId,
        10_000,
      );
      return bodyBytes(res.postData ?? "", res.base64Encoded === true);
    } catch (err: unknown) {
      throw new BodyUnavailable(friendly(err));
    }
  }
}
/** How a body note starts when the collector chose not to keep a copy (the budget). */
const NOT_KEPT = "not kept by the collector";

/** `1 MB` for whole mebibytes, else bytes. */
function size(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`;
}

function friendly(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  if (/No resource with given identifier|No data found/i.test(msg)) {
    return "Chromium no longer holds it (the page navigated away or its network cache evicted the body)";
  }
  if (err instanceof CdpError && err.code === 0) return `the DevTools connection failed (${msg})`;
  return msg;
}
