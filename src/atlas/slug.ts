/**
 * The slug rule (the only catalog field that reaches a URL or the file system) and the path-segment escaping used
 * to put a slug into an archive URL template.
 *
 * @module
 */
import { hasControl } from "./_text.ts";

/**
 * Why a slug cannot be installed, or `undefined` when it can. Checked in this order: empty, unpaired surrogate
 * (invalid UTF-8 on the wire), control character, path separator, `..`.
 */
export function slugProblem(slug: string): string | undefined {
  if (slug === "") return "is empty";
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(slug)) {
    return "is not valid UTF-8";
  }
  if (hasControl(slug)) return "contains a control character";
  if (/[/\\]/.test(slug)) return "contains a path separator";
  if (slug.includes("..")) return 'contains ".."';
  return undefined;
}

const SEGMENT_SAFE = /^[A-Za-z0-9\-_.~$&+:=@]$/;

/**
 * Escapes a slug as one URL path segment (Go's `url.PathEscape`): `A–Z a–z 0–9 - _ . ~ $ & + : = @` stay, every
 * other byte of the UTF-8 form becomes `%XX`. Unlike `encodeURIComponent`, `! ' ( ) *` are escaped too.
 */
export function pathEscape(slug: string): string {
  let out = "";
  for (const ch of slug) {
    if (SEGMENT_SAFE.test(ch)) {
      out += ch;
      continue;
    }
    for (const byte of new TextEncoder().encode(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
