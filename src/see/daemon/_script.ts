/**
 * Builds the one script evaluated in a tab's isolated world from plain ES modules embedded as text: the
 * accessible-name library, the resolver, the live-DOM module (all three exactly the files the extension loads) and
 * `page.js`. A small linker: each module becomes an expression evaluating to the object of its exports, its
 * `import { … } from "./x.js"` lines turned into destructuring of the module objects linked before it. So the
 * claim, route matching, property extraction, roles and names exist once, for the extension and the page engine.
 *
 * @module
 */
import accnameSource from "../../../assets/extension/vendor/dom_accessibility_api.js" with { type: "text" };
import resolverSource from "../../../assets/extension/resolver.js" with { type: "text" };
import liveDomSource from "../../../assets/extension/live_dom.js" with { type: "text" };
import pageTreeSource from "../page/page_tree.js" with { type: "text" };
import pageSource from "../page/page.js" with { type: "text" };

/** The global the script installs in the isolated world (never visible to the page's own scripts). */
export const SEE_GLOBAL = "__mapperSee";

/** One module to link: where it lives (an absolute URL, for resolving its imports) and its source. */
export interface ModuleText {
  /** The module's URL; relative imports resolve against it. */
  url: string;
  /** Its source. */
  source: string;
}

/** The page script's modules, in dependency order (a module imports only modules listed before it). */
export const PAGE_MODULES: readonly ModuleText[] = [
  {
    url: new URL("../../../assets/extension/vendor/dom_accessibility_api.js", import.meta.url).href,
    source: accnameSource,
  },
  { url: new URL("../../../assets/extension/resolver.js", import.meta.url).href, source: resolverSource },
  { url: new URL("../../../assets/extension/live_dom.js", import.meta.url).href, source: liveDomSource },
  { url: new URL("../page/page_tree.js", import.meta.url).href, source: pageTreeSource },
  { url: new URL("../page/page.js", import.meta.url).href, source: pageSource },
];

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

/** A module's body without its `export` keywords, `export {…}` lists and imports. */
export function stripModule(source: string): string {
  return source
    .replace(/^import\s[^;]*;\s*$/gm, "")
    .replace(/^export\s*\{[^}]*\}\s*;?\s*$/gm, "")
    .replace(/^export\s+(default\s+)?/gm, "");
}

/** A module's imports: `import { a, b as c } from "./x.js";` → `{ from: "./x.js", bindings: "a, b: c" }`. */
export function importsOf(source: string): Array<{ from: string; bindings: string }> {
  const out: Array<{ from: string; bindings: string }> = [];
  for (const m of source.matchAll(/^import\s[^;]*;/gm)) {
    const named = /^import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']\s*;$/.exec(m[0]);
    if (!named) throw new Error(`the page script links only named imports, not: ${m[0]}`);
    const bindings = named[1]!.split(",").map((p) => p.trim()).filter(Boolean)
      .map((p) => p.replace(/^([\w$]+)\s+as\s+([\w$]+)$/, "$1: $2")).join(", ");
    out.push({ from: named[2]!, bindings });
  }
  return out;
}

/**
 * Links modules (dependency order) into statements defining `__m0`, `__m1`, … — each the object of one module's
 * exports — and answers them with the variable of the last module.
 */
export function linkModules(modules: readonly ModuleText[]): { code: string; last: string } {
  const vars = new Map<string, string>();
  const parts: string[] = [];
  modules.forEach((m, i) => {
    const name = `__m${i}`;
    const imports = importsOf(m.source).map((imp) => {
      const target = vars.get(new URL(imp.from, m.url).href);
      if (target === undefined) throw new Error(`${m.url} imports ${imp.from}, which is not linked before it`);
      return `const { ${imp.bindings} } = ${target};`;
    });
    parts.push(
      [
        `const ${name} = (() => {`,
        ...imports,
        stripModule(m.source),
        `return { ${exportedNames(m.source).join(", ")} };`,
        "})();",
      ]
        .join("\n"),
    );
    vars.set(m.url, name);
  });
  return { code: parts.join("\n"), last: `__m${modules.length - 1}` };
}

/**
 * The install script: defines `globalThis.__mapperSee` (what the last module's `createSee()` answers) in the world
 * it runs in unless it is already there, and evaluates to `true`. Built from the given modules (tests pass their
 * own); one build per daemon.
 */
export function buildPageScript(modules: readonly ModuleText[] = PAGE_MODULES): string {
  const { code, last } = linkModules(modules);
  return [
    "(() => {",
    `if (globalThis.${SEE_GLOBAL}) return true;`,
    code,
    `Object.defineProperty(globalThis, ${JSON.stringify(SEE_GLOBAL)}, { value: ${last}.createSee() });`,
    "return true;",
    "})()",
  ].join("\n");
}
