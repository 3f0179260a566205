/**
 * The one request guard of mapper's loopback HTTP servers: the session daemon (the corpus and the devtools API)
 * and `serve-mapper` (the corpus alone). It wraps a server's whole request handler, so every route, present or added
 * later, is covered; it decides before any work (no body read, no routing, no CDP call).
 *
 * Rules, in order:
 * 1. `Host` must be one the server is reached by (`127.0.0.1:<port>` for the daemon; the loopback names for
 *    `serve-mapper` on the loopback): a page that rebinds its own name to 127.0.0.1 (DNS rebinding) sends its own
 *    name and is refused.
 * 2. The corpus paths (`/mapper`, `/mapper/version`) are public beyond that: the corpus is served to anyone
 *    (CORS `*`), and the extension polls them.
 * 3. Everything else needs no `Origin` or exactly the bundled extension's (`chrome-extension://<id>`): a web page's
 *    `fetch` or form post always carries its own origin.
 * 4. The corpus health (`/mapper/diagnostics`) needs no more: the extension polls it without the secret. A page
 *    never reads it (it names files by their absolute paths, which tell a user name and a project's place).
 * 5. Everything else (the daemon's devtools API) needs `Authorization: Bearer <session secret>` too (the secret is
 *    in the 0600 session file only; compared in constant time). A server without a secret (`serve-mapper`) has
 *    nothing else: its handler answers 404.
 *
 * A refusal is 403 with a JSON error (`code` `forbidden_host`, `forbidden_origin` or `forbidden_secret`).
 *
 * @module
 */

/** What the guard checks against. */
export interface Access {
  /** The exact `Host` values answered (set once the port is bound); `undefined` answers any (see {@linkcode hostsFor}). */
  hosts: readonly string[] | undefined;
  /** The session secret (hex) the devtools API needs; `undefined` for a server with nothing but the corpus. */
  secret: string | undefined;
  /** The bundled extension's origin, `chrome-extension://<id>`, when known. */
  extensionOrigin: string | undefined;
}

/** Whether `host` (as `--host` takes it) is a loopback address or name. */
function isLoopback(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * The `Host` values a server bound to `host`:`port` answers: on a loopback address, the loopback names with the
 * port (`127.0.0.1`, `localhost`, `[::1]`, and the address itself); on any other address, any `Host`
 * (`undefined`): a server the user exposed to the network is reached by names it cannot know, and rebinding a name
 * to it gains a page nothing its network does not already reach.
 */
export function hostsFor(host: string, port: number): readonly string[] | undefined {
  if (!isLoopback(host)) return undefined;
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const names = new Set(["127.0.0.1", "localhost", "[::1]", bare.includes(":") ? `[${bare}]` : bare]);
  return [...names].flatMap((n) => port === 80 ? [`${n}:${port}`, n] : [`${n}:${port}`]);
}

/**
 * The id Chromium gives an extension whose manifest `key` is `keyBase64` (a DER public key): the first 128 bits of
 * its SHA-256, each hex digit mapped to `a`–`p`. The bundled extension's origin, which the guard lets in.
 */
export async function extensionId(keyBase64: string): Promise<string> {
  const der = Uint8Array.from(atob(keyBase64), (c) => c.charCodeAt(0));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", der));
  let id = "";
  for (const byte of hash.subarray(0, 16)) {
    id += String.fromCharCode(97 + (byte >> 4), 97 + (byte & 15));
  }
  return id;
}

/** The header carrying the session secret, as `Bearer <secret>`. */
export const AUTH_HEADER = "authorization";

/** Paths anyone on the loopback may read: the public corpus. */
export function isPublicPath(pathname: string): boolean {
  return pathname === "/mapper" || pathname === "/mapper/version";
}

/** Paths the extension reads without the secret (web pages never): the corpus health it polls. */
export function isExtensionPath(pathname: string): boolean {
  return pathname === "/mapper/diagnostics";
}

/** Whether two strings are equal, in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function forbidden(code: string, message: string): Response {
  return new Response(JSON.stringify({ schema: 1, error: message, code }) + "\n", {
    status: 403,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** The refusal for `req`, or `undefined` when it may proceed. */
export function refusal(req: Request, access: Access): Response | undefined {
  const host = req.headers.get("host")?.toLowerCase() ?? "";
  if (access.hosts !== undefined && !access.hosts.includes(host)) {
    return forbidden("forbidden_host", `this server answers only to Host ${access.hosts[0] ?? "(none yet)"}`);
  }
  let pathname: string;
  try {
    pathname = new URL(req.url).pathname;
  } catch {
    return forbidden("forbidden_host", "bad request URL");
  }
  if (isPublicPath(pathname)) return undefined;
  const origin = req.headers.get("origin");
  if (origin !== null && (access.extensionOrigin === undefined || origin !== access.extensionOrigin)) {
    const what = isExtensionPath(pathname) ? "the corpus health" : "the devtools API";
    return forbidden("forbidden_origin", `${what} does not answer web pages`);
  }
  if (isExtensionPath(pathname) || access.secret === undefined) return undefined;
  const auth = req.headers.get(AUTH_HEADER) ?? "";
  const given = auth.startsWith("Bearer ") ? auth.slice("Bearer ".length).trim() : "";
  if (!sameSecret(given, access.secret)) {
    return forbidden("forbidden_secret", "the devtools API needs the session secret (Authorization: Bearer …)");
  }
  return undefined;
}

/** Wraps a handler so every request passes {@linkcode refusal} first. `access()` is read per request. */
export function guarded(
  access: () => Access,
  handler: (req: Request) => Response | Promise<Response>,
): (req: Request) => Response | Promise<Response> {
  return (req) => refusal(req, access()) ?? handler(req);
}

/** A fresh session secret: 256 random bits, hex. */
export function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
