/**
 * Start-up stays light: what a short command loads before it prints is checked on the module graph (`deno info
 * --json`), not timed. Any npm package or `node:` module boots Deno's Node compatibility layer (~20 ms here; commander
 * was one), and `yaml`, `ajv`, `markdown-it` are heavy on their own.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./_helpers.ts";

interface Dependency {
  code?: { specifier: string };
  isDynamic?: boolean;
}
interface ModuleInfo {
  specifier: string;
  dependencies?: Dependency[];
}
interface Graph {
  roots: string[];
  modules: ModuleInfo[];
  redirects: Record<string, string>;
}

const graph: Graph = await (async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", join(ROOT, "main.ts")],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
})();
const modules = new Map(graph.modules.map((m) => [m.specifier, m]));
const url = (path: string) => pathToFileURL(join(ROOT, path)).href;
const show = (specifier: string) =>
  specifier.startsWith("file:") ? relative(ROOT, new URL(specifier).pathname) : specifier;

/** Every module loaded (statically, at run time; type-only imports excluded) once `entries` are imported. */
function staticClosure(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    const resolved = graph.redirects[specifier] ?? specifier;
    if (seen.has(resolved)) continue;
    seen.add(resolved);
    for (const dep of modules.get(resolved)?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) stack.push(dep.code.specifier);
    }
  }
  return seen;
}

/** The modules a registration file loads lazily (`await import("…")` in its actions). */
function lazyTargets(registration: string): string[] {
  const deps = modules.get(url(registration))?.dependencies ?? [];
  return deps.filter((d) => d.code && d.isDynamic).map((d) => d.code!.specifier);
}

const HEAVY = /^npm:\/?(yaml|ajv|markdown-it|@seriousme)/;

for (
  const [name, registration] of [
    ["version", "src/cli/version.ts"],
    ["console", "src/cli/devtools.ts"],
    ["network", "src/cli/devtools.ts"],
  ] as const
) {
  Deno.test(`start-up graph - '${name}' loads no npm package and no node: module before it prints`, () => {
    const targets = lazyTargets(registration);
    if (name !== "version") assert.ok(targets.length > 0, `${registration} loads its implementation lazily`);
    // main.ts answers a plain `version` itself and imports the command table lazily: both count as start-up.
    const loaded = [...staticClosure([graph.roots[0]!, ...lazyTargets("main.ts"), ...targets])];
    assert.ok(loaded.includes(url("src/cli/program.ts")), "the closure covers the command table");
    assert.deepEqual(loaded.filter((s) => HEAVY.test(s)).map(show), [], "yaml, ajv and markdown-it stay off");
    assert.deepEqual(loaded.filter((s) => /^(npm|node):/.test(s)).map(show), [], "no npm or node: module");
  });
}

Deno.test("start-up graph - a plain 'mapper version' loads neither the command table nor anything heavy", () => {
  const loaded = [...staticClosure([graph.roots[0]!])].map(show).sort();
  assert.deepEqual(loaded, ["deno.json", "main.ts", "src/io.ts", "src/version.ts"]);
});

Deno.test("start-up graph - serve-mapper loads the YAML parser only when there is YAML to parse", () => {
  const loaded = [
    ...staticClosure([graph.roots[0]!, ...lazyTargets("main.ts"), ...lazyTargets("src/cli/serve_mapper.ts")]),
  ];
  assert.ok(loaded.includes(url("src/corpus/load.ts")), "the closure covers the loader");
  assert.deepEqual(loaded.filter((s) => HEAVY.test(s)).map(show), []);
});

Deno.test("start-up graph - the checks see npm and node: modules when they are there", () => {
  // The catalog server renders Markdown and YAML: its closure must show them, or the checks above prove nothing.
  const loaded = [...staticClosure([graph.roots[0]!, ...lazyTargets("main.ts"), ...lazyTargets("src/cli/catalog.ts")])];
  assert.ok(loaded.some((s) => HEAVY.test(s)), loaded.map(show).join(", "));
});
