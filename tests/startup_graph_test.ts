/**
 * Start-up stays light: what a short command loads before it prints is checked on the module graph (`deno info
 * --json`), not timed. Any npm package or `node:` module boots Deno's Node compatibility layer (~20 ms here; commander
 * was one), and `yaml`, `ajv`, `markdown-it` are heavy on their own.
 *
 * Two closures, because Deno does two different things with a module graph:
 * - what it RESOLVES when a module is imported: the static imports and every string-literal `import("…")`,
 *   transitively (resolving an npm package costs start-up time even if it never runs). Only `lazy()` sites
 *   (`src/lazy.ts`, found by `_lazy_sites.ts`) are out of its sight; they are the lazy edges here.
 * - what it RUNS: the static imports only; a string-literal `import("…")` runs when it is reached.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./_helpers.ts";
import { scanLazySites } from "./_lazy_sites.ts";

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

/**
 * The modules reachable from `entries` through code imports (type-only imports excluded): with `dynamic`, string-literal
 * `import("…")` edges too (what Deno resolves), without them only static imports (what runs).
 */
function closure(entries: string[], dynamic: boolean): Set<string> {
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    const resolved = graph.redirects[specifier] ?? specifier;
    if (seen.has(resolved)) continue;
    seen.add(resolved);
    for (const dep of modules.get(resolved)?.dependencies ?? []) {
      if (dep.code && (dynamic || !dep.isDynamic)) stack.push(dep.code.specifier);
    }
  }
  return seen;
}
/** What Deno resolves once `entries` are imported. */
const resolved = (entries: string[]) => closure(entries, true);
/** What runs once `entries` are imported. */
const run = (entries: string[]) => closure(entries, false);

const lazySites = (await scanLazySites()).sites;
/** The modules a file loads through `lazy()`. */
function lazyTargets(file: string): string[] {
  return lazySites.filter((s) => s.file === file).map((s) => url(s.target));
}

const HEAVY = /^npm:\/?(yaml|ajv|markdown-it|@seriousme)/;

/**
 * What a command of `group` (its file in `src/cli/`) has Deno resolve before its action's work: main.ts, the command
 * table it loads lazily, the group file the table loads lazily for that command line, and what that file's actions
 * load lazily. Each lazy load makes Deno resolve that module's graph when it happens.
 */
function startUp(group: string, implementation = true): string[] {
  assert.ok(lazyTargets("src/cli/program.ts").includes(url(group)), `the command table loads ${group} lazily`);
  return [graph.roots[0]!, ...lazyTargets("main.ts"), url(group), ...(implementation ? lazyTargets(group) : [])];
}

for (
  const [name, group] of [
    ["version", "src/cli/version.ts"],
    ["console", "src/cli/devtools.ts"],
    ["network", "src/cli/devtools.ts"],
  ] as const
) {
  Deno.test(`start-up graph - '${name}' loads no npm package, no node: module and no daemon-side code before it prints`, () => {
    if (name !== "version") assert.ok(lazyTargets(group).length > 0, `${group} loads its implementation lazily`);
    const loaded = [...resolved(startUp(group))];
    assert.ok(loaded.includes(url("src/cli/program.ts")), "the closure covers the command table");
    assert.deepEqual(loaded.filter((s) => HEAVY.test(s)).map(show), [], "yaml, ajv and markdown-it stay off");
    assert.deepEqual(loaded.filter((s) => /^(npm|node):/.test(s)).map(show), [], "no npm or node: module");
    if (name !== "version") {
      // The daemon's client needs the API, the session file and the loopback client: not the CDP client of the
      // daemon itself (browser/mod.ts would bring it), nor the page engine.
      const daemonSide = /^src\/(browser\/(cdp|_pipe|daemon|collector|chromium)\.ts|see\/)/;
      assert.deepEqual(loaded.map(show).filter((s) => daemonSide.test(s)), [], "no daemon-side code");
    }
  });
}

for (
  const [name, group, actions] of [
    ["snapshot", "src/cli/see.ts", "src/cli/see.ts"],
    ["browser click (and every page action)", "src/cli/browser.ts", "src/cli/browser_act.ts"],
  ] as const
) {
  Deno.test(`start-up graph - '${name}' loads no npm package, no node: module and no daemon-side code before it asks the daemon`, () => {
    assert.ok(lazyTargets(actions).length > 0, `${actions} loads its implementation lazily`);
    // The group file, and the page commands' implementation (not `browser start`'s, which runs the daemon).
    const loaded = [...resolved([...startUp(group, false), ...lazyTargets(actions)])].map(show);
    assert.ok(loaded.includes("src/see/client.ts"), "the closure covers the page commands' client");
    assert.deepEqual(loaded.filter((s) => /^(npm|node):/.test(s)), [], "no npm or node: module");
    // Whatever drives the page lives in the daemon: the CDP client (every page-engine module needs it), the page
    // scripts, the resolver; and the console and network commands are not needed either.
    const daemonSide = /^(src\/browser\/(cdp|_pipe|daemon|collector|chromium)\.ts|.*\.js|src\/devtools\/commands\.ts)$/;
    assert.deepEqual(loaded.filter((s) => daemonSide.test(s)), [], "no daemon-side code");
  });
}

Deno.test("start-up graph - a plain 'mapper version' resolves neither the command table nor anything heavy", () => {
  const loaded = [...resolved([graph.roots[0]!])].map(show).sort();
  assert.deepEqual(loaded, ["deno.json", "main.ts", "src/io.ts", "src/lazy.ts", "src/version.ts"]);
});

Deno.test("start-up graph - the command table and each group resolve no command's implementation", () => {
  // A string-literal import() there would make every command resolve that implementation's whole graph.
  const groups = lazyTargets("src/cli/program.ts");
  assert.ok(groups.length >= 10, "the table loads each group lazily");
  for (const entry of [...lazyTargets("main.ts"), ...groups]) {
    const code = [...resolved([entry])].filter((s) => s.startsWith("file:")).map(show);
    const areaCode = code.filter((s) => /^src\/[a-z_]+\//.test(s) && !s.startsWith("src/cli/"));
    assert.deepEqual(areaCode, [], `${show(entry)} resolves only src/cli/ and the shared top-level modules`);
  }
  const table = [...resolved(lazyTargets("main.ts"))].map(show);
  assert.deepEqual(table.filter((s) => groups.map(show).includes(s)), [], "the table resolves no group file");
});

Deno.test("start-up graph - serve-mapper loads no YAML parser before there is YAML, and no bundled asset but the manifest", () => {
  const loaded = [...run(startUp("src/cli/serve_mapper.ts"))];
  assert.ok(loaded.includes(url("src/corpus/load.ts")), "the closure covers the loader");
  assert.deepEqual(loaded.filter((s) => HEAVY.test(s)).map(show), []);
  // Only the extension manifest (for its key), not every bundled asset: each is a module to load.
  assert.deepEqual(loaded.filter((s) => /\/assets\/|src\/assets\.ts$/.test(s)).map(show), [
    "assets/extension/manifest.json",
  ]);
});

Deno.test("start-up graph - the checks see npm and node: modules when they are there", () => {
  // The catalog server renders Markdown and YAML: its closure must show them, or the checks above prove nothing.
  const loaded = [...resolved([...startUp("src/cli/atlas.ts"), ...lazyTargets("src/cli/catalog.ts")])];
  assert.ok(loaded.some((s) => HEAVY.test(s)), loaded.map(show).join(", "));
});
