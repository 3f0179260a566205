/**
 * The list filters of `console list` / `network list`, checked before they reach the daemon, so a typo is an error
 * naming the valid values instead of an empty list an agent would read as "nothing happened".
 *
 * `--level` and `--type` are checked locally; `--tab` against the session's tabs (only when the filtered list came
 * back empty: a tab that was closed still names the entries it left in the buffer).
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { escapeControls } from "../terminal.ts";
import { LEVELS } from "../browser/daemon_api.ts";

/** The CDP `Network.ResourceType` values, as the collector records them. */
export const RESOURCE_TYPES = [
  "Document",
  "Stylesheet",
  "Image",
  "Media",
  "Font",
  "Script",
  "TextTrack",
  "XHR",
  "Fetch",
  "Prefetch",
  "EventSource",
  "WebSocket",
  "Manifest",
  "SignedExchange",
  "Ping",
  "CSPViolationReport",
  "Preflight",
  "FedCM",
  "Other",
] as const;

/** Checks a `--level` comma list (`warning` is read as `warn`); returns it normalized. */
export function parseLevels(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const levels = raw.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean).map((
    l,
  ) => (l === "warning" ? "warn" : l));
  for (const l of levels) {
    if (!(LEVELS as readonly string[]).includes(l)) {
      throw new UsageError(`unknown level "${escapeControls(l)}"`, {
        hint: `use a comma list of ${LEVELS.join(", ")}`,
      });
    }
  }
  return levels.join(",");
}

/** Checks `--type` against the CDP resource types (case-insensitive); returns it as given. */
export function parseResourceType(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const t = raw.trim().toLowerCase();
  if (!RESOURCE_TYPES.some((r) => r.toLowerCase() === t)) {
    throw new UsageError(`unknown resource type "${escapeControls(raw)}"`, {
      hint: `use one of ${RESOURCE_TYPES.join(", ")}`,
    });
  }
  return raw.trim();
}

/**
 * Checks `--tab` against the session's tabs (the daemon matches a full id or a prefix, case-insensitive): throws
 * a usage error listing the valid tab ids when it matches none.
 */
export function checkTab(tab: string, tabs: ReadonlyArray<{ id: string; url: string }>): void {
  const t = tab.toUpperCase();
  if (tabs.some((x) => x.id.toUpperCase().startsWith(t))) return;
  const valid = tabs.map((x) => `${x.id.slice(0, 8)} (${escapeControls(x.url).slice(0, 60)})`);
  throw new UsageError(`no tab of this session has the id "${escapeControls(tab)}"`, {
    hint: valid.length === 0 ? "the session has no tab open" : `use one of ${valid.join(", ")}`,
  });
}
