/**
 * Builds the one script evaluated in a tab's isolated world: the resolver module's source and `page.js`, both
 * plain ES modules embedded as text, with their `export` keywords stripped and wrapped so the resolver's exports
 * reach `createSee` as one object. The same resolver file the extension loads, so route matching and property
 * extraction exist once.
 *
 * @module
 */
import resolverSource from "../../assets/extension/resolver.js" with { type: "text" };
import pageSource from "./page.js" with { type: "text" };
import accnameSource from "./vendor/dom_accessibility_api.js" with { type: "text" };

/** The global the script installs in the isolated world (never visible to the page's own scripts). */
export const SEE_GLOBAL = "__mapperSee";

/** Names a module exports (`export function|const|let|class NAME`, `export { a, b }`). */
export function exportedNames(source: string): string[] {
  const names = new Set<string>();
  for (
    const m of source.matchAll(/^export\s+(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)/gm)
  ) {
    names.add(m[1]!);
  }
  for (const m of source.matchAll(/^export\s*\{([^}]*)\}\s*;?/gm)) {
    for (const part of m[1]!.split(",")) {
      const name = part.trim().split(/\s+as\s+/).pop()?.trim();
      if (name) names.add(name);
    }
  }
  return [...names];
}

/** A module's body without its `export` keywords, `export {…}` lists and (type-only) imports. */
export function stripModule(source: string): string {
  return source
    .replace(/^import\s[^;]*;\s*$/gm, "")
    .replace(/^export\s*\{[^}]*\}\s*;?\s*$/gm, "")
    .replace(/^export\s+(default\s+)?/gm, "");
}

/** A module as an expression evaluating to the object of its exports. */
function moduleObject(source: string): string {
  return ["(() => {", stripModule(source), `return { ${exportedNames(source).join(", ")} };`, "})()"].join("\n");
}

/**
 * The install script: defines `globalThis.__mapperSee` in the world it runs in unless it is already there, and
 * evaluates to `true`. `page` exports `createSee(R, A)`: `R` is the resolver module, `A` the accessible name and
 * role computation (dom-accessibility-api). Built from the given sources (tests pass their own); one build per
 * daemon.
 */
export function buildPageScript(
  resolver: string = resolverSource,
  page: string = pageSource,
  accname: string = accnameSource,
): string {
  return [
    "(() => {",
    `if (globalThis.${SEE_GLOBAL}) return true;`,
    `const R = ${moduleObject(resolver)};`,
    `const A = ${moduleObject(accname)};`,
    stripModule(page),
    `Object.defineProperty(globalThis, ${JSON.stringify(SEE_GLOBAL)}, { value: createSee(R, A) });`,
    "return true;",
    "})()",
  ].join("\n");
}
