/**
 * Every bundled asset, embedded through text imports so `deno run`, the tests and `deno compile` see the same
 * bytes. This is the only module that knows where assets live; a test proves every file under `assets/` is listed
 * here.
 *
 * @module
 */
import skillAuthoring from "../assets/skills/mapper-authoring/SKILL.md" with { type: "text" };
import skillBrowser from "../assets/skills/mapper-browser/SKILL.md" with { type: "text" };
import extensionManifest from "../assets/extension/manifest.json" with { type: "text" };

/** Every asset, keyed by its path relative to `assets/` (forward slashes). */
export const ASSETS: Readonly<Record<string, string>> = Object.freeze({
  "skills/mapper-authoring/SKILL.md": skillAuthoring,
  "skills/mapper-browser/SKILL.md": skillBrowser,
  "extension/manifest.json": extensionManifest,
});

/** The assets below a folder (e.g. `skills/mapper-browser/`), keyed by path relative to that folder, sorted. */
export function assetsUnder(prefix: string): Array<[relativePath: string, content: string]> {
  const dir = prefix.endsWith("/") ? prefix : `${prefix}/`;
  return Object.entries(ASSETS)
    .filter(([path]) => path.startsWith(dir))
    .map(([path, content]): [string, string] => [path.slice(dir.length), content])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The names of the bundled skills, in name order (`mapper-authoring`, `mapper-browser`). */
export function skillNames(): string[] {
  const names = new Set<string>();
  for (const path of Object.keys(ASSETS)) {
    const m = /^skills\/([^/]+)\//.exec(path);
    if (m?.[1]) names.add(m[1]);
  }
  return [...names].sort();
}

/** One asset's content; throws if the path is not bundled (a programming error). */
export function asset(path: string): string {
  const content = ASSETS[path];
  if (content === undefined) throw new Error(`asset not bundled: "${path}"`);
  return content;
}
