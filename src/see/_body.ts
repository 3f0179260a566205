/**
 * The page routes' shape and their body-field readers, shared by the seeing routes (`routes.ts`) and the acting
 * routes (`act_routes.ts`) without an import cycle between them.
 *
 * @module
 */
import { PageError } from "./api.ts";
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
