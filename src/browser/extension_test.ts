import assert from "node:assert/strict";
import { join } from "node:path";
import { ensureExtension, shippedExtension } from "./extension.ts";
import { assetsUnder } from "../assets.ts";
import { FileError } from "../errors.ts";

const manifest = (version: string) => JSON.stringify({ manifest_version: 3, name: "Mapper Overlay", version });

Deno.test("extension - extracted once, reused while the version matches, replaced whole when it changes", async () => {
  const home = await Deno.makeTempDir();
  try {
    const v1: Array<[string, string]> = [["manifest.json", manifest("1.0.0")], ["js/a.js", "a1"], ["old.js", "old"]];
    const first = await ensureExtension(home, v1);
    assert.equal(first.installed, true);
    assert.equal(first.dir, join(home, ".mapper", "extension"));
    assert.equal(await Deno.readTextFile(join(first.dir, "js", "a.js")), "a1");
    const again = await ensureExtension(home, v1);
    assert.equal(again.installed, false);
    const mtime = (await Deno.stat(join(first.dir, "js", "a.js"))).mtime;
    await Deno.writeTextFile(join(first.dir, "stray.txt"), "stray");
    const v2: Array<[string, string]> = [["manifest.json", manifest("2.0.0")], ["js/a.js", "a2"]];
    const upgraded = await ensureExtension(home, v2);
    assert.equal(upgraded.installed, true);
    assert.equal(upgraded.version, "2.0.0");
    assert.equal(await Deno.readTextFile(join(first.dir, "js", "a.js")), "a2");
    await assert.rejects(Deno.stat(join(first.dir, "old.js")));
    await assert.rejects(Deno.stat(join(first.dir, "stray.txt")));
    const left = (await Array.fromAsync(Deno.readDir(join(home, ".mapper")))).map((e) => e.name);
    assert.deepEqual(left, ["extension"], "no staging or old directories are left behind");
    assert.ok(mtime);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("extension - the bundled assets extract to ~/.mapper/extension with their manifest version", async () => {
  const home = await Deno.makeTempDir();
  try {
    const got = await ensureExtension(home);
    const onDisk = JSON.parse(await Deno.readTextFile(join(got.dir, "manifest.json")));
    assert.equal(onDisk.version, got.version);
    assert.equal(onDisk.name, "Mapper Overlay");
    // No file is web-accessible (a page could fetch it at the fixed id): the content script is written linked.
    assert.equal(onDisk.web_accessible_resources, undefined);
    assert.equal(
      await Deno.readTextFile(join(got.dir, "content.js")),
      new Map(shippedExtension()).get("content.js"),
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("extension - a failed swap keeps the previous extension in place and leaves no staging directory", async () => {
  const home = await Deno.makeTempDir();
  try {
    const v1: Array<[string, string]> = [["manifest.json", manifest("1.0.0")], ["js/a.js", "a1"]];
    const { dir } = await ensureExtension(home, v1);
    let calls = 0;
    const failing = {
      rename: async (from: string, to: string) => {
        // The second rename moves the new copy in: fail it as a full disk would.
        if (++calls === 2) throw new Error("simulated failure: disk full");
        await Deno.rename(from, to);
      },
    };
    const v2: Array<[string, string]> = [["manifest.json", manifest("2.0.0")], ["js/a.js", "a2"]];
    await assert.rejects(
      ensureExtension(home, v2, failing),
      (err: unknown) =>
        err instanceof FileError && /cannot extract the extension .*simulated failure/.test(err.message),
    );
    assert.equal(await Deno.readTextFile(join(dir, "js", "a.js")), "a1");
    assert.equal(JSON.parse(await Deno.readTextFile(join(dir, "manifest.json"))).version, "1.0.0");
    const left = (await Array.fromAsync(Deno.readDir(join(home, ".mapper")))).map((e) => e.name);
    assert.deepEqual(left, ["extension"], "no staging or old directories are left behind");
    // The next start retries and succeeds.
    assert.equal((await ensureExtension(home, v2)).installed, true);
    assert.equal(await Deno.readTextFile(join(dir, "js", "a.js")), "a2");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("extension - the content script ships as one classic script linking content.js with what it imports", () => {
  const source = new Map(assetsUnder("extension")).get("content.js")!;
  assert.match(source, /^import \{[^}]*\} from "\.\/core\.js";$/m, "written as a module");
  const shipped = new Map(shippedExtension()).get("content.js")!;
  // A classic script: no static import or export, no dynamic import (a classic content script can import only
  // web-accessible files), and it parses as one.
  assert.doesNotMatch(shipped, /^\s*(import|export)\s/m);
  const code = shipped.split("\n").filter((line) => !/^\s*(\/\*\*|\*)/.test(line)).join("\n"); // JSDoc types aside
  assert.doesNotMatch(code, /\bimport\(|chrome\.runtime\.getURL/);
  new Function(shipped);
  // Everything it uses is linked in: the resolver's claim, the live DOM, the accessible-name library, core's formats.
  for (const name of ["claimElements", "liveDom", "computeAccessibleName", "formatEvent", "ensureOverlay"]) {
    assert.match(shipped, new RegExp(`\\b${name}\\b`), name);
  }
  // Every other file is shipped as bundled; files without a content script pass through unchanged.
  const others = (files: Array<[string, string]>) => files.filter(([p]) => p !== "content.js");
  assert.deepEqual(others(shippedExtension()), others(assetsUnder("extension")));
  const own: Array<[string, string]> = [["manifest.json", manifest("1.0.0")]];
  assert.equal(shippedExtension(own), own);
});
