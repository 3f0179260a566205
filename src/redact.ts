/**
 * URLs as mapper prints or stores them: secrets in them are never shown. A query or fragment parameter whose name
 * names a credential keeps its name and loses its value (`REDACTED`), and so does the password of a
 * `user:password@` part. A name is judged by its words (split at `_`, `-`, `.`, digits and camelCase, any case), never
 * by a fragment of one: `access_token`, `X-Amz-Signature`, `apiKey`, `PHPSESSID`, `client_secret`, `password` and
 * `auth` are secrets; `author`, `keyword`, `zipcode`, `passenger`, `signal` are not. `code` alone is OAuth's
 * authorization code; beside another word it is a secret only with one that says so (`auth_code`,
 * `verification_code`), not `zip_code` or `promo_code`. Works on any text (a URL the parser refuses too), so it can be
 * applied before a URL is echoed in an error. One implementation for every place a URL is shown or kept (the
 * export's messages, the transport policy's refusals, captured trees).
 *
 * @module
 */

/** What a redacted value is replaced with. */
export const REDACTED = "REDACTED";

/** Words that make a parameter's value a secret wherever they stand in its name. */
const SECRET_WORDS = new Set(
  ("token tokens accesstoken authtoken idtoken refreshtoken session sessionid sessid jsessionid phpsessid sig " +
    "signature auth oauth authorization key apikey secret passcode pass password passwd passphrase").split(" "),
);
/** Words that make `code` beside them a secret (`auth_code`); `code` alone is one too. */
const CODE_QUALIFIERS = new Set(
  "access activation auth authorization confirm confirmation device login mfa oauth otp reset security sms totp verification verify"
    .split(" "),
);

/** The lower-case words of a parameter name: `X-Amz-Signature` → x, amz, signature; `APIKey2` → api, key, 2. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])(\d)|(\d)([A-Za-z])/g, "$1$3 $2$4")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

/** Whether a parameter name names a credential (see the module documentation). */
export function secretName(name: string): boolean {
  const words = nameWords(name);
  if (words.some((w) => SECRET_WORDS.has(w))) return true;
  if (!words.includes("code")) return false;
  return words.length === 1 || words.some((w) => CODE_QUALIFIERS.has(w));
}

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
      return value !== "" && secretName(decoded) ? `${lead}${name}=${REDACTED}` : whole;
    });
}
