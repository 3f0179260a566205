/**
 * Test helpers of the browser area: a scripted CDP connection (events pushed by the test, `Network.getResponseBody`
 * answered from a map) and shortcuts that emit a page attach and a finished request.
 *
 * @module
 */
import type { CdpConnection, CdpEvent } from "./cdp.ts";
import { CdpError } from "./cdp.ts";

/** Emits one CDP event into the collector. */
export type Emit = (method: string, params: Record<string, unknown>, sessionId?: string) => void;

/** A scripted connection and what was sent on it. */
export interface FakeCdp {
  cdp: CdpConnection;
  sent: Array<{ method: string; sessionId: string | undefined }>;
  /** Response bodies by request id; a missing id answers like Chromium does for an evicted body. */
  bodies: Map<string, string>;
  emit: Emit;
}

/** A scripted browser connection: events are pushed by the test; commands answer from `bodies` (or fail). */
export function fakeCdp(): FakeCdp {
  const sent: Array<{ method: string; sessionId: string | undefined }> = [];
  const bodies = new Map<string, string>();
  const fake = {
    onEvent: (_e: CdpEvent) => {},
    isClosed: false,
    send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<unknown> {
      sent.push({ method, sessionId });
      if (method === "Network.getResponseBody") {
        const body = bodies.get(String(params.requestId));
        if (body === undefined) {
          return Promise.reject(new CdpError(method, -32000, "No resource with given identifier found"));
        }
        return Promise.resolve({ body, base64Encoded: false });
      }
      // The browser lists no tab unless a test answers Target.getTargets itself.
      if (method === "Target.getTargets") return Promise.resolve({ targetInfos: [] });
      return Promise.resolve({});
    },
  };
  const emit = (method: string, params: Record<string, unknown>, sessionId?: string) =>
    fake.onEvent({ method, params, sessionId });
  return { cdp: fake as unknown as CdpConnection, sent, bodies, emit };
}

/** Lets the collector's pending body fetches settle. */
export const settle = (): Promise<unknown> => new Promise((r) => setTimeout(r, 0));

/** Attaches a page target (`T1` on session `S1` unless given). */
export function page(emit: Emit, sessionId = "S1", targetId = "T1"): void {
  emit("Target.attachedToTarget", {
    sessionId,
    targetInfo: { targetId, type: "page", url: "http://127.0.0.1:1/" },
    waitingForDebugger: true,
  });
}

/** Emits a request that was sent, answered (`status`, `text/plain`) and finished. */
export function fetchDone(
  emit: Emit,
  requestId: string,
  status = 200,
  type = "Fetch",
  sessionId = "S1",
): void {
  emit("Network.requestWillBeSent", {
    requestId,
    type,
    timestamp: 1,
    wallTime: 1795298000,
    request: { method: "GET", url: `http://127.0.0.1:1/${requestId}`, headers: {} },
  }, sessionId);
  emit("Network.responseReceived", {
    requestId,
    type,
    timestamp: 1.01,
    response: { status, statusText: "", headers: { "Content-Type": "text/plain" }, mimeType: "text/plain" },
  }, sessionId);
  emit("Network.loadingFinished", { requestId, timestamp: 1.02, encodedDataLength: 10 }, sessionId);
}
