/**
 * The modules mapper loads lazily (`src/lazy.ts`): each site is typed by the module it loads, nothing bypasses the
 * one form, and `deno compile` embeds every one of them. Deno cannot see these loads ahead of time, which is the
 * point for start-up; a compiled binary without one of them would fail only when that command runs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./_helpers.ts";
import { scanLazySites } from "./_lazy_sites.ts";

const scan = await scanLazySites();

Deno.test("lazy imports - each site's type is the module its URL loads", () => {
  assert.ok(scan.sites.length >= 20, `only ${scan.sites.length} lazy sites found: is the scan still reading them?`);
  assert.deepEqual(scan.malformed, [], "every lazy() call is written as lazy<typeof import(P)>(new URL(P, …))");
  const mismatched = scan.sites.filter((s) => s.typePath !== s.urlPath);
  assert.deepEqual(mismatched.map((s) => `${s.file}:${s.line}: ${s.typePath} ≠ ${s.urlPath}`), []);
});

Deno.test("lazy imports - nothing is imported from a computed specifier except through lazy()", () => {
  assert.deepEqual(scan.computed, []);
});

Deno.test("lazy imports - every lazily loaded module and worker is in compile.include, and nothing else", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const loaded = [...new Set([...scan.sites, ...scan.workers].map((s) => s.target))].sort();
  assert.ok(loaded.includes("src/corpus/_parse_worker.ts"), "the scan sees the parse worker");
  assert.deepEqual([...config.compile.include].sort(), loaded);
  for (const file of loaded) assert.ok((await Deno.stat(join(ROOT, file))).isFile, file);
});

Deno.test("lazy imports - the compile task and the release workflow both build from deno.json, adding no list of their own", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const release = await Deno.readTextFile(join(ROOT, ".github/workflows/release.yml"));
  const commands = [
    config.tasks.compile.command as string,
    ...release.split("\n").filter((l) => /^\s*deno compile /.test(l)).map((l) => l.trim()),
  ];
  assert.equal(commands.length, 2, commands.join("\n"));
  for (const command of commands) {
    assert.match(command, /^deno compile .* main\.ts$/, command);
    // deno.json is found from the working directory (the repository root in both); --config or --include would
    // split the one list.
    assert.doesNotMatch(command, /--include|--config|--no-config|(^|\s)-c\s/, command);
  }
});
