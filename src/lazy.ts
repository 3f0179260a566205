/**
 * Loading a module only when it is needed, out of sight of Deno's start-up graph.
 *
 * `deno run` resolves the whole module graph before the first line runs, and that graph includes every dynamic
 * `import("…")` written with a string literal, transitively: a string-literal `import()` in the command table would
 * make `mapper version` resolve every command's code and every npm package (the MCP SDK, zod, ajv, yaml…), about
 * 15 ms before it prints. {@linkcode lazy} imports a `URL` instead, which Deno cannot follow ahead of time; the module
 * is resolved, loaded and run when the call happens.
 *
 * Every call site is written exactly as
 *
 * ```ts
 * lazy<typeof import("../devtools/commands.ts")>(new URL("../devtools/commands.ts", import.meta.url))
 * ```
 *
 * The `typeof import()` is a type: the type checker resolves it (so the site is as typed as a static import), `deno
 * run` does not load it. `tests/lazy_imports_test.ts` holds every site to that form, with the same path twice, and
 * checks that `deno compile` embeds each target: a module nothing imports statically is embedded only when it is
 * listed in `compile.include` in `deno.json`.
 *
 * @module
 */

/** Imports the module at `url` when called; `M` is its type, `typeof import("<the same path>")`. */
export function lazy<M>(url: URL): Promise<M> {
  return import(url.href);
}
