/**
 * The transport policy every atlas download obeys: HTTPS only (plain HTTP only for `localhost`, `127.0.0.1` and
 * `[::1]`), decided on ONE parse of the URL — the `URL` object the policy checked is the one fetched and the one
 * `atlas-lock.json` records — before any I/O and again on every redirect hop (redirects are followed by hand, at most
 * {@linkcode MAX_REDIRECTS}); no credentials in URLs; spellings URL parsers disagree on are refused; a total timeout and a stall timeout; a body cap counted on bytes actually read; only
 * `200 OK` accepted. TLS verification is Deno's (custom CAs via `--cert` / `DENO_CERT`) and is never disabled.
 *
 * @module
 */
import { DataError, NetworkError, NotFoundError, PolicyError } from "../errors.ts";
import type { Io } from "../io.ts";
import { concatBytes, readAllCapped, readPrefix } from "../bytes.ts";
import { escapeTerminal } from "./_text.ts";
import { redactUrl } from "../redact.ts";

/** A URL as every message shows it: secrets redacted (`?token=REDACTED`), terminal-escaped. */
function showUrl(text: string): string {
  return escapeTerminal(redactUrl(text));
}

/** Most redirects followed for one download; one more is refused. */
export const MAX_REDIRECTS = 5;
/** Largest response body accepted (catalog or archive), in bytes: 8 MiB. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Whole-request deadline (connect, redirects, headers, body), in milliseconds. */
export const TOTAL_TIMEOUT_MS = 30_000;
/** Longest silence tolerated while waiting for headers or the next body bytes, in milliseconds. */
export const STALL_TIMEOUT_MS = 10_000;

/** Hosts plain HTTP may reach, as the WHATWG parser spells them (`URL.host` without the port). */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
const LOOPBACK_HINT = "only HTTPS is allowed (plain HTTP only for localhost, 127.0.0.1 and [::1])";

/**
 * The scheme's default port, which the parser drops from `URL.host` (`http://127.0.0.1:80/` has host `127.0.0.1`).
 */
const DEFAULT_PORT: Readonly<Record<string, string>> = { "http:": "80", "https:": "443" };

/**
 * Why the authority as typed is not the one the parser read, or `undefined` when they agree. This is not a second
 * opinion on where to connect (the parsed `URL` alone decides that, and is what is fetched): it refuses every
 * spelling that two URL parsers could read differently — `\@`, `\\`, percent-encoding, credentials, decimal, hex
 * or octal IPv4, a trailing dot, a missing `//`, whitespace — so what the user sees, what the policy checks, what is
 * fetched and what `atlas-lock.json` records are one and the same host.
 */
function authorityProblem(typed: string, url: URL): string | undefined {
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/.exec(typed);
  if (m === null) return `write it as ${url.href}`;
  const authority = m[1] ?? "";
  if (authority.includes("@") || url.username !== "" || url.password !== "") {
    return "URLs with credentials (user:password@) are never used — serve the catalog without them";
  }
  // Case counts too: `LOCALHOST` is not what the parser reads, and the rule is "spelled as read", nothing looser.
  const port = DEFAULT_PORT[url.protocol];
  if (authority === url.host || (port !== undefined && authority === `${url.hostname}:${port}`)) return undefined;
  return `its host is written in a form URL parsers read differently — write it as ${url.protocol}//${url.host}/…`;
}

/** Why the policy refuses an already parsed URL (scheme, credentials, plain-HTTP host), or `undefined`. */
function parsedProblem(url: URL, shown: string): string | undefined {
  if (url.username !== "" || url.password !== "") {
    return `refusing "${shown}": URLs with credentials (user:password@) are never used`;
  }
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && LOOPBACK.has(url.hostname)) return undefined;
  return `refusing "${shown}": ${LOOPBACK_HINT}`;
}

/**
 * Parses `text` once and applies the policy to that parse; returns the `URL` to fetch (and to record) or why it
 * is refused. `base` resolves a relative redirect `Location` (a hop from an `https:` base must stay `https:`).
 * `https:` to any host; `http:` only to `localhost`, `127.0.0.1` or `[::1]`; no credentials; no backslash anywhere (WHATWG reads `\` as `/`, other
 * parsers do not); an absolute URL's host must be spelled exactly as the parser reads it (see
 * {@linkcode authorityProblem}).
 */
export function checkUrl(text: string, base?: URL): URL | { problem: string } {
  const shown = showUrl(text);
  // deno-lint-ignore no-control-regex
  if (/[\\\x00-\x20\x7f]/.test(text)) {
    return {
      problem:
        `refusing "${shown}": it contains a backslash, a space or a control character, which URL parsers read differently`,
    };
  }
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    return { problem: `refusing "${shown}": not a valid absolute URL` };
  }
  const absolute = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text);
  const schemeRelative = text.startsWith("//");
  if (absolute || schemeRelative || base === undefined) {
    const typed = schemeRelative ? `${url.protocol}${text}` : text;
    const problem = /^https?:$/.test(url.protocol) ? authorityProblem(typed, url) : undefined;
    if (problem !== undefined) return { problem: `refusing "${shown}": ${problem}` };
  }
  const problem = parsedProblem(url, shown);
  if (problem !== undefined) return { problem };
  // A redirect never leaves HTTPS for plain HTTP: plain HTTP reaches only loopback, so a catalog server could
  // otherwise steer the download onto any local service (a request the user never asked for).
  if (base?.protocol === "https:" && url.protocol !== "https:") {
    return {
      problem: `refusing "${shown}": an HTTPS download never follows a redirect to plain HTTP`,
    };
  }
  return url;
}

/**
 * Why the policy refuses a URL, or `undefined` when it is allowed (see {@linkcode checkUrl}).
 */
export function policyProblem(url: string): string | undefined {
  const checked = checkUrl(url);
  return checked instanceof URL ? undefined : checked.problem;
}

/**
 * The parsed URL to fetch, or a {@linkcode PolicyError} when the policy refuses it. Callers fetch and record this
 * object (its `href`), never the text they passed in.
 */
export function allowedUrl(url: string, hint = "use an https:// URL"): URL {
  const checked = checkUrl(url);
  if (!(checked instanceof URL)) throw new PolicyError(checked.problem, { hint });
  return checked;
}

/** Throws {@linkcode PolicyError} when the policy refuses the URL. */
export function assertAllowed(url: string): void {
  allowedUrl(url);
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
  return await readAllCapped(
    stream,
    maxBytes,
    () =>
      new DataError(`${label} is larger than the ${maxBytes}-byte limit of a catalog`, {
        hint: "check that it is an atlas index.json",
      }),
  );
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
  /** The response body. */
  bytes: Uint8Array;
  /** The URL that finally answered 200 (after redirects). */
  finalUrl: string;
  /** The URL that was fetched first (the parse the policy checked), for the lock file. */
  url: URL;
}

class Stalled extends Error {}

/**
 * One deadline for a whole exchange, tied to the user's interrupt: `controller` aborts when either comes; disposing
 * clears the timer and aborts whatever is still open (a body nobody reads).
 */
class Deadline implements Disposable {
  readonly controller = new AbortController();
  timedOut = false;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #onAbort: () => void;
  readonly #io: Io;

  constructor(io: Io, ms: number) {
    this.#io = io;
    this.#onAbort = () => this.controller.abort(io.signal.reason);
    io.signal.addEventListener("abort", this.#onAbort, { once: true });
    this.#timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error("timeout"));
    }, ms);
  }

  [Symbol.dispose](): void {
    clearTimeout(this.#timer);
    this.#io.signal.removeEventListener("abort", this.#onAbort);
    if (!this.controller.signal.aborted) this.controller.abort();
  }
}

/** `<what>: <why>` when the server could not be reached or stopped answering: the fix is on the user's side. */
function unreachableError(what: string, why: string, cause?: unknown): UnreachableError {
  return new UnreachableError(`${what}: ${why}`, why, {
    hint: "check the URL and that the server is reachable, then run this again",
    ...(cause === undefined ? {} : { cause }),
  });
}

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
export async function download(given: string | URL, io: Io, options: DownloadOptions = {}): Promise<Downloaded> {
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  const totalMs = options.totalTimeoutMs ?? TOTAL_TIMEOUT_MS;
  const stallMs = options.stallTimeoutMs ?? STALL_TIMEOUT_MS;
  // One parse: the URL object checked here is the one fetched (the text is never re-read).
  const url = typeof given === "string" ? allowedUrl(given) : given;
  const shown = showUrl(url.href);
  const refused = parsedProblem(url, shown);
  if (refused !== undefined) throw new PolicyError(refused, { hint: "use an https:// URL" });

  using deadline = new Deadline(io, totalMs);
  const controller = deadline.controller;
  const fail = (what: string, cause?: unknown) =>
    new NetworkError(`GET ${shown}: ${what}`, cause === undefined ? {} : { cause });
  /** The server could not be reached or stopped answering: the fix is on the user's side of the wire. */
  const unreachable = (what: string, cause?: unknown) => unreachableError(`GET ${shown}`, what, cause);
  const stalledError = () => unreachable(`the server sent nothing for ${stallMs / 1000} s`);
  const timeoutError = () => unreachable(`no complete answer within ${totalMs / 1000} s`);

  let current: URL = url;
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
      if (deadline.timedOut) throw timeoutError();
      if (io.signal.aborted) throw err;
      throw unreachable(networkReason(err), err);
    } finally {
      clearTimeout(stallTimer);
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
      await response.body?.cancel();
      const location = response.headers.get("location") ?? "";
      // Every hop gets the same one-parse check as the first URL: the parsed hop is what is fetched next.
      const next = checkUrl(location, current);
      hops++;
      if (hops > MAX_REDIRECTS) {
        const where = next instanceof URL ? next.href : location;
        throw fail(`stopped after ${MAX_REDIRECTS} redirects (the next one pointed at "${showUrl(where)}")`);
      }
      if (!(next instanceof URL)) {
        throw new PolicyError(`GET ${shown}: redirected to a URL the atlas policy refuses: ${next.problem}`);
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
          if (deadline.timedOut) throw timeoutError();
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
  return { bytes: concatBytes(chunks, received), finalUrl: current.href, url };
}

/** Longest reply read from an upload, in bytes (64 KiB); the rest is not read. */
export const MAX_REPLY_BYTES = 64 * 1024;

/** Options of {@linkcode post}. */
export interface PostOptions {
  /** The body's media type. */
  contentType: string;
  /** Whole-request deadline (default {@linkcode TOTAL_TIMEOUT_MS}). */
  totalTimeoutMs?: number;
  /** Reply cap (default {@linkcode MAX_REPLY_BYTES}). */
  maxReplyBytes?: number;
}

/** What the server answered an upload. */
export interface PostReply {
  /** HTTP status (never a redirect: those fail). */
  status: number;
  /** Its reason phrase, terminal-escaped. */
  statusText: string;
  /** The reply, at most the cap. */
  reply: Uint8Array;
  /** Whether the reply was longer than the cap (the rest was not read). */
  replyCut: boolean;
}

/**
 * POSTs `body` to `url` (the `URL` the caller got from {@linkcode allowedUrl}: the one parse that was checked) under
 * the same policy as downloads, and stricter: no redirect is followed at all — a 3xx answer fails naming where it
 * pointed (re-sending a body elsewhere is the caller's decision, not the server's) —, one deadline for the whole
 * exchange, a reply read up to a cap. Any status is returned; typed errors: {@linkcode PolicyError} (refused URL,
 * redirect), {@linkcode NetworkError} (unreachable, TLS, timeout).
 */
export async function post(url: URL, body: Uint8Array, io: Io, options: PostOptions): Promise<PostReply> {
  const shown = showUrl(url.href);
  const refused = parsedProblem(url, shown);
  if (refused !== undefined) throw new PolicyError(refused, { hint: "use an https:// URL" });
  const totalMs = options.totalTimeoutMs ?? TOTAL_TIMEOUT_MS;
  const maxBytes = options.maxReplyBytes ?? MAX_REPLY_BYTES;
  using deadline = new Deadline(io, totalMs);
  const controller = deadline.controller;
  const unreachable = (what: string, cause?: unknown) => unreachableError(`POST ${shown}`, what, cause);
  const failed = (err: unknown) => {
    if (deadline.timedOut) return unreachable(`no complete answer within ${totalMs / 1000} s`);
    if (io.signal.aborted) return err;
    return unreachable(networkReason(err), err);
  };
  let response: Response;
  try {
    response = await io.fetch(url, {
      method: "POST",
      body: body as Uint8Array<ArrayBuffer>,
      headers: { "content-type": options.contentType },
      redirect: "manual",
      signal: controller.signal,
    });
  } catch (err: unknown) {
    throw failed(err);
  }
  const statusText = escapeTerminal(response.statusText);
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    const location = response.headers.get("location");
    let target = "no Location";
    if (location !== null) {
      try {
        target = showUrl(new URL(location, url).origin);
      } catch {
        target = `"${showUrl(location)}"`;
      }
    }
    throw new PolicyError(
      `POST ${shown}: the server answered ${response.status}${statusText ? ` ${statusText}` : ""} (a redirect to ` +
        `${target}); redirects are never followed`,
      { hint: "send it to the final address yourself, if you trust it" },
    );
  }
  let reply: { bytes: Uint8Array; cut: boolean } = { bytes: new Uint8Array(), cut: false };
  if (response.body) {
    try {
      reply = await readPrefix(response.body, maxBytes);
    } catch (err: unknown) {
      throw failed(err);
    }
  }
  return { status: response.status, statusText, reply: reply.bytes, replyCut: reply.cut };
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
