/**
 * Which URLs the session opens in a tab: the web (`http:`, `https:`) and `about:blank`, and nothing else unless the
 * user allowed its scheme (`--allow-scheme SCHEME` on the command, `mapper mcp --allow-scheme SCHEME` for an MCP
 * client). An agent that a page talked into it could otherwise open `file:///etc/passwd` (or `~/.ssh/…`) and read
 * it back with `eval`, `snapshot` or `screenshot`, drive the browser's own pages (`chrome:`, `devtools:`,
 * `chrome-extension:`), or run script through `javascript:`; `view-source:`, `data:`, `blob:` and `filesystem:` are
 * refused as well (an allow-list: schemes a future browser adds are refused too). The daemon decides (it is the
 * trust boundary): every route that navigates checks here, whatever client called it; the CLI checks the start URL
 * too, so a refused one fails before a browser starts.
 *
 * @module
 */
import { PolicyError, UsageError } from "../errors.ts";
import { quote } from "../terminal.ts";

/** The schemes opened without being allowed. */
export const WEB_SCHEMES: readonly string[] = ["http", "https"];

/** Why a URL is not opened, and how the user allows it. */
export interface SchemeRefusal {
  /** One clause naming the URL and its scheme. */
  message: string;
  /** How to allow it. */
  hint: string;
}

/** A scheme name as `--allow-scheme` takes it: letters, digits, `+`, `-`, `.`, any case, an optional trailing `:`. */
const SCHEME = /^[a-z][a-z0-9+.-]*:?$/i;

/**
 * The allowed schemes from `--allow-scheme` values (repeatable, or comma-separated), lower case without `:`, and
 * the first value that is not a scheme name, if any (the caller reports it as a usage error).
 */
export function parseAllowSchemes(values: readonly string[] | undefined): { schemes: string[]; bad?: string } {
  const schemes: string[] = [];
  for (const value of values ?? []) {
    for (const part of value.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
      if (!SCHEME.test(part)) return { schemes, bad: part };
      const scheme = part.toLowerCase().replace(/:$/, "");
      if (!schemes.includes(scheme)) schemes.push(scheme);
    }
  }
  return { schemes };
}

/** `--allow-scheme` as the user gave it, checked: scheme names, lower case; a bad value is a usage error. */
export function schemesOption(values: readonly string[] | undefined): string[] {
  const { schemes, bad } = parseAllowSchemes(values);
  if (bad !== undefined) {
    throw new UsageError(`--allow-scheme ${quote(bad)} is not a URL scheme`, {
      hint: "name one, e.g. --allow-scheme file",
    });
  }
  return schemes;
}

/** Throws the {@linkcode PolicyError} of {@linkcode schemeRefusal} when `url` is refused (a start URL, checked early). */
export function assertOpenable(url: string | undefined, allowed: readonly string[]): void {
  const refused = url === undefined ? undefined : schemeRefusal(url, allowed);
  if (refused) throw new PolicyError(refused.message, { hint: refused.hint });
}

/** The allowed schemes a request body carries (`allowSchemes`: strings); anything else allows nothing. */
export function allowedSchemes(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return parseAllowSchemes(value.filter((v): v is string => typeof v === "string")).schemes;
}

/**
 * Why the session will not open `url` (an absolute URL), or `undefined` when it may: a web URL, `about:blank`, or
 * a URL whose scheme is in `allowed`.
 */
export function schemeRefusal(url: string, allowed: readonly string[] = []): SchemeRefusal | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined; // not a URL: the caller's own check says so
  }
  const scheme = parsed.protocol.replace(/:$/, "");
  if (WEB_SCHEMES.includes(scheme) || allowed.includes(scheme)) return undefined;
  if (scheme === "about" && parsed.pathname === "blank") return undefined;
  return {
    message: `refusing to open ${quote(url)}: ${scheme}: URLs are opened only when you allow them ` +
      `(they can show local files or the browser's own pages)`,
    hint: `if you mean it, pass --allow-scheme ${scheme} (an MCP server: 'mapper mcp --allow-scheme ${scheme}')`,
  };
}
