/**
 * The tool version. It lives in one place, `deno.json` `version`, read through a JSON import so `deno run`,
 * the tests and `deno compile` all see the same value. The release workflow refuses a tag that differs.
 *
 * @module
 */
import config from "../deno.json" with { type: "json" };

/** mapper's semantic version, e.g. `0.1.0`. */
export const VERSION: string = config.version;

/** The line `mapper version` and `mapper --version` print: `mapper <semver>` and a newline. */
export function versionLine(): string {
  return `mapper ${VERSION}\n`;
}
