/**
 * The page routes' shape and their body-field readers, shared by the seeing routes (`routes.ts`) and the acting
 * routes (`act_routes.ts`) without an import cycle between them.
 *
 * @module
 */
import { allowedSchemes, schemeRefusal } from "../../browser/mod.ts";
import { PageError } from "../page_api.ts";
import type { PageEngine } from "./engine.ts";

/** One page route. `body` is the parsed JSON object of the request (`{}` when empty). */
export type PageRoute = (engine: PageEngine, body: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** A string field of a body, or `undefined`; a non-string is a usage error. */
export function str(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new PageError("bad_request", `"${key}" must be a string`, { status: 400 });
  return v;
}

/** A number field of a body, or `undefined`. */
export function num(body: Record<string, unknown>, key: string): number | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) {
    throw new PageError("bad_request", `"${key}" must be a number`, { status: 400 });
  }
  return v;
}

/**
 * A URL field the tab is to be sent to, or `undefined`: refused (403 `scheme_refused`) unless it is a web URL,
 * `about:blank`, or its scheme is in the body's `allowSchemes` (the user's `--allow-scheme`). The daemon's check:
 * every route that navigates reads its URL through here.
 */
export function openableUrl(body: Record<string, unknown>, key: string): string | undefined {
  const url = str(body, key);
  if (url === undefined) return undefined;
  const refused = schemeRefusal(url, allowedSchemes(body.allowSchemes));
  if (refused) throw new PageError("scheme_refused", refused.message, { hint: refused.hint, status: 403 });
  return url;
}
