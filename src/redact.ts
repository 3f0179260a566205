/**
 * URLs as mapper prints or stores them: secrets in them are never shown. A query or fragment parameter whose name
 * looks like a credential (`token`, `session`, `sig`, `auth`, `key`, `code`, `pass` anywhere in it, any case:
 * `access_token`, `X-Amz-Signature`, `api_key`, `password`) keeps its name and loses its value (`REDACTED`), and
 * so does the password of a `user:password@` part. Works on any text (a URL the parser refuses too), so it can be
 * applied before a URL is echoed in an error. One implementation for every place a URL is shown or kept (the
 * export's messages, the transport policy's refusals, captured trees).
 *
 * @module
 */

/** What a redacted value is replaced with. */
export const REDACTED = "REDACTED";

/** Parameter names whose values are secrets. */
const SECRET_NAME = /token|session|sig|auth|key|code|pass/i;

/** `name=value` pairs after `?`, `&`, `;` or `#` (a fragment may carry them too, as OAuth's implicit flow does). */
const PARAMETER = /([?&;#])([^=&;#?]*)=([^&;#]*)/g;
/** The password of `scheme://user:password@host`. */
const USERINFO = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#@:]*):[^/?#@]*@/;

/** The text of a URL with every secret value replaced by {@linkcode REDACTED}. */
export function redactUrl(text: string): string {
  return text
    .replace(USERINFO, `$1:${REDACTED}@`)
    .replace(PARAMETER, (whole, lead: string, name: string, value: string) => {
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // a malformed escape: judge the name as written
      }
      return value !== "" && SECRET_NAME.test(decoded) ? `${lead}${name}=${REDACTED}` : whole;
    });
}
