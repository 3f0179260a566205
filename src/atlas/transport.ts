/**
 * The transport policy every atlas download obeys: HTTPS only (plain HTTP only for `localhost`, `127.0.0.1` and
 * `[::1]`), checked before any I/O and again on every redirect hop (redirects are followed by hand, at most
 * {@linkcode MAX_REDIRECTS}); a total timeout and a stall timeout; a body cap counted on bytes actually read; only
 * `200 OK` accepted. TLS verification is Deno's (custom CAs via `--cert` / `DENO_CERT`) and is never disabled.
 *
 * @module
 */
import { DataError, NetworkError, NotFoundError, PolicyError } from "../errors.ts";
import type { Io } from "../io.ts";
import { escapeTerminal } from "./_text.ts";

/** Most redirects followed for one download; one more is refused. */
export const MAX_REDIRECTS = 5;
/** Largest response body accepted (catalog or archive), in bytes: 8 MiB. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Whole-request deadline (connect, redirects, headers, body), in milliseconds. */
export const TOTAL_TIMEOUT_MS = 30_000;
/** Longest silence tolerated while waiting for headers or the next body bytes, in milliseconds. */
export const STALL_TIMEOUT_MS = 10_000;

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Why the policy refuses a URL, or `undefined` when it is allowed. `https:` to any host; `http:` only to a literal
 * loopback host (`LOCALHOST`, `127.0.0.2` or a trailing dot are refused).
 */
export function policyProblem(url: string): string | undefined {
  const shown = escapeTerminal(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `refusing "${shown}": not a valid absolute URL`;
  }
  if (parsed.protocol === "https:") return undefined;
  if (parsed.protocol === "http:") {
    const host = hostAsTyped(url);
    if (host !== undefined && LOOPBACK.has(host)) return undefined;
    return `refusing "${shown}": only HTTPS is allowed (plain HTTP only for localhost, 127.0.0.1 and [::1])`;
  }
  return `refusing "${shown}": only HTTPS is allowed (plain HTTP only for localhost, 127.0.0.1 and [::1])`;
}

/** The host exactly as written in an `http://` URL (WHATWG URL would lowercase and normalise it). */
function hostAsTyped(url: string): string | undefined {
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)/.exec(url);
  return m?.[1];
}

/** Throws {@linkcode PolicyError} when the policy refuses the URL. */
export function assertAllowed(url: string): void {
  const problem = policyProblem(url);
  if (problem !== undefined) throw new PolicyError(problem, { hint: "use an https:// URL" });
}

/**
 * Reads a local stream (a file, a pipe, stdin) with the same cap as a download, so `/dev/zero` or an endless pipe
 * fails with a {@linkcode DataError} instead of exhausting memory. `label` names the source in the message.
 */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  label: string,
  maxBytes = MAX_BODY_BYTES,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      throw new DataError(`${label} is larger than the ${maxBytes}-byte limit of a catalog`, {
        hint: "check that it is an atlas index.json",
      });
    }
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Options of {@linkcode download}. */
export interface DownloadOptions {
  /** Body cap in bytes (default {@linkcode MAX_BODY_BYTES}). */
  maxBytes?: number;
  /** Whole-request deadline (default {@linkcode TOTAL_TIMEOUT_MS}). */
  totalTimeoutMs?: number;
  /** Stall deadline (default {@linkcode STALL_TIMEOUT_MS}). */
  stallTimeoutMs?: number;
  /** What a 404 means to the caller; default a generic "not found" failure. */
  onNotFound?: () => Error;
  /** Called with the bytes received so far (for progress display). */
  onProgress?: (received: number, total: number | undefined) => void;
  /** Word used in the cap message: "install" for archives, "use" for the catalog. */
  purpose?: string;
}

/** A successful download. */
export interface Downloaded {
  bytes: Uint8Array;
  /** The URL that finally answered 200 (after redirects). */
  finalUrl: string;
}

class Stalled extends Error {}

/** Reads one chunk, failing if nothing arrives within `ms`. */
async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      reader.read(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Stalled()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GETs `url` under the transport policy and returns the whole body (bounded by the cap). Errors are typed:
 * {@linkcode PolicyError} (refused URL or redirect hop), {@linkcode NotFoundError} (404, unless `onNotFound`),
 * {@linkcode NetworkError} (everything else: status, timeout, stall, cap, DNS, TLS).
 */
export async function download(url: string, io: Io, options: DownloadOptions = {}): Promise<Downloaded> {
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  const totalMs = options.totalTimeoutMs ?? TOTAL_TIMEOUT_MS;
  const stallMs = options.stallTimeoutMs ?? STALL_TIMEOUT_MS;
  const shown = escapeTerminal(url);
  assertAllowed(url);

  const controller = new AbortController();
  const onAbort = () => controller.abort(io.signal.reason);
  io.signal.addEventListener("abort", onAbort, { once: true });
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error("timeout"));
  }, totalMs);
  const fail = (what: string, cause?: unknown) =>
    new NetworkError(`GET ${shown}: ${what}`, cause === undefined ? {} : { cause });
  /** The server could not be reached or stopped answering: the fix is on the user's side of the wire. */
  const unreachable = (what: string, cause?: unknown) =>
    new UnreachableError(`GET ${shown}: ${what}`, what, {
      hint: "check the URL and that the server is reachable, then run this again",
      ...(cause === undefined ? {} : { cause }),
    });
  const stalledError = () => unreachable(`the server sent nothing for ${stallMs / 1000} s`);
  const timeoutError = () => unreachable(`no complete answer within ${totalMs / 1000} s`);

  try {
    let current = url;
    let hops = 0;
    let response: Response;
    for (;;) {
      let stallTimer: ReturnType<typeof setTimeout> | undefined;
      try {
        response = await Promise.race([
          io.fetch(current, { redirect: "manual", signal: controller.signal }),
          new Promise<never>((_, reject) => {
            stallTimer = setTimeout(() => reject(new Stalled()), stallMs);
          }),
        ]);
      } catch (err: unknown) {
        if (err instanceof Stalled) {
          controller.abort(err);
          throw stalledError();
        }
        if (timedOut) throw timeoutError();
        if (io.signal.aborted) throw err;
        throw unreachable(networkReason(err), err);
      } finally {
        clearTimeout(stallTimer);
      }
      if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
        await response.body?.cancel();
        const location = response.headers.get("location") ?? "";
        let next: string;
        try {
          next = new URL(location, current).href;
        } catch {
          throw fail(`redirected to an invalid URL "${escapeTerminal(location)}"`);
        }
        hops++;
        if (hops > MAX_REDIRECTS) {
          throw fail(`stopped after ${MAX_REDIRECTS} redirects (the next one pointed at "${escapeTerminal(next)}")`);
        }
        const problem = policyProblem(next);
        if (problem !== undefined) {
          throw new PolicyError(`GET ${shown}: redirected to a URL the atlas policy refuses: ${problem}`);
        }
        current = next;
        continue;
      }
      break;
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw options.onNotFound?.() ?? new NotFoundError(`GET ${shown}: HTTP 404 Not Found`, { hint: "check the URL" });
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw fail(`HTTP ${response.status}${response.statusText ? ` ${escapeTerminal(response.statusText)}` : ""}`);
    }
    const declared = Number(response.headers.get("content-length") ?? NaN);
    const tooBig = () =>
      fail(`the response exceeds the ${maxBytes}-byte limit — refusing to ${options.purpose ?? "install"} it`);
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel();
      throw tooBig();
    }
    const chunks: Uint8Array[] = [];
    let received = 0;
    if (response.body) {
      const reader = response.body.getReader();
      try {
        for (;;) {
          let chunk: ReadableStreamReadResult<Uint8Array>;
          try {
            chunk = await readWithin(reader, stallMs);
          } catch (err: unknown) {
            if (err instanceof Stalled) throw stalledError();
            if (timedOut) throw timeoutError();
            if (io.signal.aborted) throw err;
            throw unreachable(networkReason(err), err);
          }
          if (chunk.done) break;
          received += chunk.value.byteLength;
          if (received > maxBytes) throw tooBig();
          chunks.push(chunk.value);
          options.onProgress?.(received, Number.isFinite(declared) ? declared : undefined);
        }
      } finally {
        await reader.cancel().catch(() => {});
      }
    }
    const bytes = new Uint8Array(received);
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.byteLength;
    }
    return { bytes, finalUrl: current };
  } finally {
    clearTimeout(deadline);
    io.signal.removeEventListener("abort", onAbort);
    if (!controller.signal.aborted) controller.abort();
  }
}

/** One readable line from a fetch failure (Deno nests the OS reason in `cause`). */
/** The server could not be reached or stopped answering (DNS, refused, TLS, stall, timeout): not an HTTP answer. */
export class UnreachableError extends NetworkError {
  constructor(message: string, readonly reason: string, options: ConstructorParameters<typeof NetworkError>[1]) {
    super(message, options);
  }
}

function networkReason(err: unknown): string {
  if (!(err instanceof Error)) return escapeTerminal(String(err));
  let message = err.message;
  const cause = err.cause;
  if (cause instanceof Error && !message.includes(cause.message)) message += `: ${cause.message}`;
  message = message.replace(/\s+/g, " ").trim();
  // Deno nests the reason as `fetch failed: error sending request for url (…): client error (Connect): <reason>`:
  // the URL is already in the message and the wrapping says nothing, so keep the innermost reason only.
  const inner = /\(Connect\): (.+)$/.exec(message)?.[1] ??
    /error sending request for url \([^)]*\): (.+)$/.exec(message)?.[1];
  return escapeTerminal(inner ?? message);
}
