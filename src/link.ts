/**
 * The one linker of mapper's plain ES modules into one classic script: the page engine's script for a tab's isolated
 * world (`src/see/daemon/_script.ts`) and the extension's content script (`src/browser/extension.ts`), so neither needs a
 * module loader in the page. Each module becomes an expression evaluating to the object of its exports; its
 * `import { … } from "./x.js"` lines (and `export { … } from "./x.js"` re-exports) turn into destructuring of the
 * module objects linked before it. Only what these modules use is understood: named imports and exports, at the start
 * of a line; anything else is refused rather than linked wrong.
 *
 * @module
 */

/** One module to link: where it lives (an absolute URL, for resolving its imports) and its source. */
export interface ModuleText {
  /** The module's URL; relative imports resolve against it. */
  url: string;
  /** Its source. */
  source: string;
}

/** `export { a, b as c } from "./x.js";`: a re-export, linked like an import whose bindings are exported. */
const RE_EXPORT = /^export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']\s*;/gm;

/** Names a module exports (`export function|const|let|class NAME`, `export { a, b }`, `export { a } from "…"`). */
export function exportedNames(source: string): string[] {
  const names = new Set<string>();
  for (
    const m of source.matchAll(/^export\s+(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)/gm)
  ) {
    names.add(m[1]!);
  }
  for (const m of source.matchAll(/^export\s*\{([^}]*)\}\s*(?:from\s*["'][^"']+["']\s*)?;?/gm)) {
    for (const part of m[1]!.split(",")) {
      const name = part.trim().split(/\s+as\s+/).pop()?.trim();
      if (name) names.add(name);
    }
  }
  return [...names];
}

/** A module's body without its `export` keywords, `export {…}` lists, re-exports and imports. */
export function stripModule(source: string): string {
  return source
    .replace(/^import\s[^;]*;\s*$/gm, "")
    .replace(new RegExp(`${RE_EXPORT.source}\\s*$`, "gm"), "")
    .replace(/^export\s*\{[^}]*\}\s*;?\s*$/gm, "")
    .replace(/^export\s+(default\s+)?/gm, "");
}

/** `a, b as c` → `a, b: c` (destructuring of the module object). */
function bindingsOf(list: string): string {
  return list.split(",").map((p) => p.trim()).filter(Boolean)
    .map((p) => p.replace(/^([\w$]+)\s+as\s+([\w$]+)$/, "$1: $2")).join(", ");
}

/**
 * A module's imports and re-exports: `import { a, b as c } from "./x.js";` → `{ from: "./x.js", bindings: "a, b: c" }`.
 */
export function importsOf(source: string): Array<{ from: string; bindings: string }> {
  const out: Array<{ from: string; bindings: string }> = [];
  for (const m of source.matchAll(/^import\s[^;]*;/gm)) {
    const named = /^import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']\s*;$/.exec(m[0]);
    if (!named) throw new Error(`the linker links only named imports, not: ${m[0]}`);
    out.push({ from: named[2]!, bindings: bindingsOf(named[1]!) });
  }
  for (const m of source.matchAll(RE_EXPORT)) out.push({ from: m[2]!, bindings: bindingsOf(m[1]!) });
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
 * A classic script that runs the modules (dependency order) once, in strict mode as modules run, each in its own
 * scope, defining no global: the last one is the entry point, run for its effects.
 */
export function linkScript(modules: readonly ModuleText[]): string {
  return ["(() => {", '"use strict";', linkModules(modules).code, "})();", ""].join("\n");
}
