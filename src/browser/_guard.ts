/**
 * The one request guard of the session daemon's HTTP server. It wraps the daemon's whole handler, so every route,
 * present or added later, is covered; it decides before any work (no body read, no routing, no CDP call).
 *
 * Rules, in order:
 * 1. `Host` must be exactly `127.0.0.1:<port>` (the address the daemon listens on): a page that rebinds its own
 *    name to 127.0.0.1 (DNS rebinding) sends its own name and is refused.
 * 2. The corpus paths (`/mapper`, `/mapper/version`) are public beyond that: the corpus is what `serve-mapper`
 *    serves to anyone (CORS `*`), and the extension polls them.
 * 3. Everything else needs no `Origin` or exactly the bundled extension's (`chrome-extension://<id>`): a web page's
 *    `fetch` or form post always carries its own origin.
 * 4. The corpus health (`/mapper/diagnostics`) needs no more: the extension polls it without the secret. A page
 *    never reads it (it names files by their absolute paths, which tell a user name and a project's place).
 * 5. Everything else (the devtools API) needs `Authorization: Bearer <session secret>` too (the secret is in the
 *    0600 session file only; compared in constant time).
 *
 * A refusal is 403 with a JSON error (`code` `forbidden_host`, `forbidden_origin` or `forbidden_secret`).
 *
 * @module
 */

/** What the guard checks against. */
export interface Access {
  /** The port the daemon listens on (set once it is bound). */
  port: number;
  /** The session secret (hex). */
  secret: string;
  /** The bundled extension's origin, `chrome-extension://<id>`, when known. */
  extensionOrigin: string | undefined;
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
  const host = req.headers.get("host");
  if (host !== `127.0.0.1:${access.port}`) {
    return forbidden("forbidden_host", `this server answers only to Host 127.0.0.1:${access.port}`);
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
    return forbidden("forbidden_origin", "the devtools API does not answer web pages");
  }
  if (isExtensionPath(pathname)) return undefined;
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
