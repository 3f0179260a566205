/**
 * Network capture: one {@linkcode NetworkRecord} per request and redirect hop of a recorded session, in the network
 * ring: headers (the `ExtraInfo` events' raw ones win, whichever order they arrive in), status, timing, failures;
 * small POST data copied, the response body handed to {@linkcode Bodies} when loading finishes.
 *
 * @module
 */
import type { KnownCdpEvent, Protocol } from "./cdp.ts";
import type { Header } from "./daemon_api.ts";
import { capText } from "./_pipe.ts";
import { num, str, URL_CAP } from "./_fields.ts";
import type { Ring } from "./_ring.ts";
import { type AttachedTarget, internalUrl } from "./_targets.ts";
import { headerList, type NetworkRecord } from "./_network_record.ts";
import type { Bodies } from "./_bodies.ts";
// Reason phrases for responses that arrive without one (HTTP/2 and HTTP/3 have none). The collector runs in the
// daemon only, which already loads Node compatibility, so this costs no command its start-up.
import { STATUS_CODES } from "node:http";

/** Tabs whose page URL is remembered (a long session opening many tabs forgets the oldest). */
const MAX_TABS = 1000;

/** POST data up to this size is copied when the request is sent; larger bodies are fetched on demand. */
export const POST_DATA_KEEP = 32 * 1024;

/** Records a session's requests into the network ring. */
export class NetworkCapture {
  #ring: Ring<NetworkRecord>;
  #bodies: Bodies;
  #now: () => number;
  #byRequest = new Map<string, NetworkRecord>();
  #byId = new Map<string, NetworkRecord>();
  #extraRequest = new Map<string, Header[]>();
  #extraResponse = new Map<string, { headers: Header[]; status?: number }>();
  /** The URL of each tab's top-level document, from the main frame's requests (a tab's id is its main frame's). */
  #pages = new Map<string, string>();

  /** Creates the capture writing into `ring`; `now` dates requests that arrive without a wall time. */
  constructor(ring: Ring<NetworkRecord>, bodies: Bodies, now: () => number) {
    this.#ring = ring;
    this.#bodies = bodies;
    this.#now = now;
  }

  /** Forgets a record evicted from the ring (its body is the {@linkcode Bodies}' to release). */
  evicted(r: NetworkRecord): void {
    const key = `${r.sessionId}|${r.requestId}`;
    if (this.#byRequest.get(key) === r) this.#byRequest.delete(key);
    if (this.#byId.get(r.requestId) === r) this.#byId.delete(r.requestId);
  }

  /** Handles a recorded session's `Network` events (others are ignored). */
  handle(session: AttachedTarget, ev: KnownCdpEvent): void {
    switch (ev.method) {
      case "Network.requestWillBeSent":
        return this.#requestWillBeSent(session, ev.params);
      case "Network.requestWillBeSentExtraInfo":
        return this.#requestExtra(session, ev.params);
      case "Network.responseReceived":
        return this.#responseReceived(session, ev.params);
      case "Network.responseReceivedExtraInfo":
        return this.#responseExtra(session, ev.params);
      case "Network.dataReceived": {
        const rec = this.#find(session, str(ev.params.requestId));
        if (rec) rec.received = (rec.received ?? 0) + (num(ev.params.dataLength) ?? 0);
        return;
      }
      case "Network.loadingFinished":
        return this.#loadingFinished(session, ev.params);
      case "Network.loadingFailed":
        return this.#loadingFailed(session, ev.params);
    }
  }

  #key(session: AttachedTarget, requestId: string): string {
    return `${session.id}|${requestId}`;
  }

  /** The newest record for a request: seen on this session, else on another (a worker's script is requested by
   * its parent but answered on the worker's own session). */
  #find(session: AttachedTarget, requestId: string): NetworkRecord | undefined {
    return this.#byRequest.get(this.#key(session, requestId)) ?? this.#byId.get(requestId);
  }

  #requestWillBeSent(session: AttachedTarget, p: Protocol.Network.RequestWillBeSentEvent): void {
    const requestId = str(p.requestId);
    const key = this.#key(session, requestId);
    const req: Partial<Protocol.Network.Request> = p.request ?? {};
    // Extensions' own resources (the overlay's content script modules) and what Chromium's own pages load (the
    // new-tab page) are not the site's traffic.
    if (internalUrl(str(req.url)) || internalUrl(str(p.documentURL))) return;
    const t = num(p.timestamp) ?? 0;
    const page = this.#pageOf(session, p);
    const previous = this.#byRequest.get(key);
    const redirect = p.redirectResponse;
    if (previous && redirect) {
      this.#applyResponse(previous, redirect, t);
      previous.redirected = true;
      previous.durationMs = Math.max(0, Math.round((t - previous.t0) * 1000));
    }
    const rec: NetworkRecord = {
      index: this.#ring.nextIndex(),
      tab: session.tab,
      method: str(req.method) || "GET",
      url: capText(str(req.url) + str(req.urlFragment), URL_CAP),
      state: "pending",
      status: null,
      statusText: "",
      resourceType: str(p.type) || "Other",
      ts: Math.round((num(p.wallTime) ?? this.#now() / 1000) * 1000),
      hasRequestBody: req.hasPostData === true || typeof req.postData === "string",
      responseBody: "none",
      requestHeaders: headerList(req.headers),
      responseHeaders: [],
      matches: [],
      sessionId: session.id,
      bodySessionId: session.id,
      requestId,
      t0: t,
    };
    if (page !== undefined) rec.page = page;
    // Small POST data is copied now; larger bodies (or ones the pipe cut) are fetched from Chromium on demand.
    if (typeof req.postData === "string" && req.postData.length <= POST_DATA_KEEP) rec.postData = req.postData;
    const extra = this.#extraRequest.get(key);
    if (extra) {
      rec.requestHeaders = extra;
      this.#extraRequest.delete(key);
    }
    this.#byRequest.set(key, rec);
    this.#byId.set(requestId, rec);
    this.#ring.push(rec);
  }

  /**
   * The page a request is sent from: a request of the tab's main frame carries its document's URL (the new one for
   * a navigation, the pushed one after `history.pushState`) and updates the tab's; one of a frame, worker or popup
   * inside the tab gets the tab's latest. Before the tab's first request: the page target's own URL.
   */
  #pageOf(session: AttachedTarget, p: Protocol.Network.RequestWillBeSentEvent): string | undefined {
    const doc = str(p.documentURL);
    // A dedicated worker's script is requested by the main frame too, with the worker's URL as its "document".
    const fromDocument = str(p.type) === "Document" || doc !== str(p.request?.url);
    if (session.type === "page" && str(p.frameId) === session.targetId && doc && fromDocument) {
      if (!this.#pages.has(session.tab) && this.#pages.size >= MAX_TABS) {
        this.#pages.delete(this.#pages.keys().next().value!); // the oldest tab's; tabs rarely number this many
      }
      this.#pages.set(session.tab, capText(doc, URL_CAP));
    }
    return this.#pages.get(session.tab) ?? (session.type === "page" && session.url ? session.url : undefined);
  }

  #requestExtra(session: AttachedTarget, p: Protocol.Network.RequestWillBeSentExtraInfoEvent): void {
    const key = this.#key(session, str(p.requestId));
    const headers = headerList(p.headers);
    const rec = this.#byRequest.get(key);
    if (rec) {
      rec.requestHeaders = headers;
      this.#ring.update(rec);
    } else this.#extraRequest.set(key, headers);
    // Orphans (requests never announced, e.g. Chromium's own) must not pile up.
    if (this.#extraRequest.size > 500) this.#extraRequest.clear();
  }

  #responseExtra(session: AttachedTarget, p: Protocol.Network.ResponseReceivedExtraInfoEvent): void {
    const key = this.#key(session, str(p.requestId));
    const headers = headerList(p.headers);
    const rec = this.#byRequest.get(key);
    if (rec && rec.status !== null) {
      rec.responseHeaders = headers;
      this.#ring.update(rec);
    } else {
      const status = num(p.statusCode);
      this.#extraResponse.set(key, status === undefined ? { headers } : { headers, status });
    }
    if (this.#extraResponse.size > 500) this.#extraResponse.clear();
  }

  #applyResponse(rec: NetworkRecord, r: Partial<Protocol.Network.Response>, t: number): void {
    rec.state = "complete";
    rec.status = num(r.status) ?? 0;
    rec.statusText = str(r.statusText) || STATUS_CODES[rec.status] || "";
    rec.responseHeaders = headerList(r.headers);
    if (str(r.mimeType)) rec.mimeType = str(r.mimeType);
    // The event's own timestamp can trail the load for navigations; the response timing says when headers came.
    const timing: Partial<Protocol.Network.ResourceTiming> = r.timing ?? {};
    const base = num(timing.requestTime);
    const headers = num(timing.receiveHeadersEnd);
    const at = base !== undefined && headers !== undefined && headers >= 0 ? base + headers / 1000 : t;
    rec.responseMs = Math.max(0, Math.round((at - rec.t0) * 1000));
    const key = `${rec.sessionId}|${rec.requestId}`;
    const extra = this.#extraResponse.get(key);
    if (extra && (extra.status === undefined || extra.status === rec.status)) {
      rec.responseHeaders = extra.headers;
      this.#extraResponse.delete(key);
    }
    this.#ring.update(rec);
  }

  #responseReceived(session: AttachedTarget, p: Protocol.Network.ResponseReceivedEvent): void {
    const rec = this.#find(session, str(p.requestId));
    if (!rec) return;
    this.#applyResponse(rec, p.response ?? {}, num(p.timestamp) ?? rec.t0);
    if (str(p.type)) rec.resourceType = str(p.type);
    rec.responseBody = "live";
    rec.bodySessionId = session.id;
  }

  #loadingFinished(session: AttachedTarget, p: Protocol.Network.LoadingFinishedEvent): void {
    const rec = this.#find(session, str(p.requestId));
    if (!rec) return;
    const t = num(p.timestamp) ?? rec.t0;
    rec.durationMs = Math.max(rec.responseMs ?? 0, Math.round((t - rec.t0) * 1000));
    const bytes = num(p.encodedDataLength);
    if (bytes !== undefined) rec.encodedBytes = bytes;
    if (rec.status === null) rec.state = "complete";
    this.#bodies.loaded(rec, session.id, (r) => this.#ring.get(r.index) === r);
  }

  #loadingFailed(session: AttachedTarget, p: Protocol.Network.LoadingFailedEvent): void {
    const rec = this.#find(session, str(p.requestId));
    if (!rec) return;
    const t = num(p.timestamp) ?? rec.t0;
    rec.durationMs = Math.max(rec.responseMs ?? 0, Math.round((t - rec.t0) * 1000));
    const reason = str(p.errorText) || (p.canceled === true ? "net::ERR_ABORTED" : "unknown error");
    rec.failure = str(p.blockedReason) ? `${reason} (blocked: ${str(p.blockedReason)})` : reason;
    if (str(p.type)) rec.resourceType = str(p.type);
    // A response that arrived and was then abandoned (a 404 script) keeps its status; the failure stays recorded.
    if (rec.status !== null) return;
    rec.state = "failed";
    rec.responseBody = "none";
  }
}
