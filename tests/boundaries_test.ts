/**
 * The architecture's boundaries, checked on the source itself (ARCHITECTURE.md "Areas"): no import cycles, no
 * `_private.ts` module imported from another folder, offline areas never reach browser code, and each area
 * imports only the areas its row allows. Static `import`/`export … from` edges count, type-only ones included;
 * lazy loads (`lazy<typeof import("…")>(…)`, `src/lazy.ts`) do not (they are what keeps start-up fast), except for
 * the rule on `_private` modules, which holds for them too.
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./_helpers.ts";

const SRC = join(ROOT, "src");
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/gm;
const LAZY_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/**
 * Every module under `src/` (and the extension's shared modules) with its relative imports: static ones only, or
 * with `lazy` the lazy loads too (the `import("…")` of a `lazy<typeof import("…")>` site, or a string-literal one).
 */
async function graph(lazy = false): Promise<Map<string, string[]>> {
  const modules = new Map<string, string[]>();
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory) await walk(path);
      else if (/\.(ts|js)$/.test(e.name) && !/_test\.ts$/.test(e.name)) {
        const text = await Deno.readTextFile(path);
        const edges: string[] = [];
        for (const m of [...text.matchAll(STATIC_IMPORT), ...(lazy ? text.matchAll(LAZY_IMPORT) : [])]) {
          const spec = m[1]!;
          if (spec.startsWith(".")) edges.push(relative(ROOT, resolve(dirname(path), spec)));
        }
        modules.set(relative(ROOT, path), edges);
      }
    }
  };
  await walk(SRC);
  await walk(join(ROOT, "assets", "extension"));
  return modules;
}

/** The area of a module: `corpus` for `src/corpus/x.ts`, `root` for `src/io.ts`, `assets` for bundled files. */
function area(path: string): string {
  const parts = path.split("/");
  if (parts[0] === "assets") return "assets";
  return parts.length > 2 ? parts[1]! : "root";
}

/** Which areas each area may import (its own and `root` always). From ARCHITECTURE.md's table. */
const ALLOWED: Record<string, readonly string[]> = {
  cli: ["*"],
  corpus: ["assets"],
  authoring: ["corpus", "assets"],
  atlas: ["corpus"],
  catalog: ["corpus", "atlas"],
  browser: ["corpus", "assets", "see"],
  devtools: ["browser"],
  see: ["corpus", "assets", "browser", "devtools", "offline", "kit"],
  mcp: ["*"],
  offline: ["corpus", "atlas", "assets"],
  kit: ["corpus", "assets", "offline", "see", "browser", "devtools", "authoring"],
  skills: ["assets"],
  assets: [],
};

Deno.test("boundaries - there is no import cycle", async () => {
  const modules = await graph();
  const state = new Map<string, "visiting" | "done">();
  const cycles: string[] = [];
  const visit = (node: string, stack: string[]) => {
    if (state.get(node) === "done") return;
    if (state.get(node) === "visiting") {
      cycles.push([...stack.slice(stack.indexOf(node)), node].join(" → "));
      return;
    }
    state.set(node, "visiting");
    for (const next of modules.get(node) ?? []) visit(next, [...stack, node]);
    state.set(node, "done");
  };
  for (const node of [...modules.keys()].sort()) visit(node, []);
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.join("\n")}`);
});

Deno.test("boundaries - a _private module is imported only from its own folder, lazily or not", async () => {
  const wrong: string[] = [];
  for (const [from, edges] of await graph(true)) {
    for (const to of edges) {
      const name = to.slice(to.lastIndexOf("/") + 1);
      if (name.startsWith("_") && dirname(to) !== dirname(from)) wrong.push(`${from} imports ${to}`);
    }
  }
  assert.deepEqual(wrong, [], wrong.join("\n"));
});

Deno.test("boundaries - each area imports only what ARCHITECTURE.md allows (offline code never reaches browser code)", async () => {
  const wrong: string[] = [];
  for (const [from, edges] of await graph()) {
    const a = area(from);
    const allowed = ALLOWED[a];
    if (a === "root") continue;
    for (const to of edges) {
      const b = area(to);
      if (b === a || b === "root" || allowed?.includes("*") || allowed?.includes(b)) continue;
      wrong.push(`${from} (${a}) imports ${to} (${b})`);
    }
  }
  assert.deepEqual(wrong, [], wrong.join("\n"));
});
