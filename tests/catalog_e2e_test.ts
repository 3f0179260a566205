/**
 * End to end: the atlas client (`mapper atlas find`, `mapper atlas add`) against `mapper atlas serve`'s snapshot
 * over HTTPS with a throwaway CA, including a takedown seen by both.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startCatalogServer } from "../src/catalog/mod.ts";
import { listFiles, ROOT, runMapper, tempDir } from "./_helpers.ts";
import { testCertificates } from "./_https.ts";

const FIXTURE = join(ROOT, "tests", "fixtures", "catalog", "gallery");

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

Deno.test({
  name: "atlas find and atlas add - work against the catalog server over HTTPS, and a takedown stops both",
  async fn() {
    const certs = await testCertificates();
    await using tmp = await tempDir("mapper-catalog-e2e-");
    const gallery = tmp.join("gallery");
    await copyTree(FIXTURE, gallery);
    await using server = await startCatalogServer({
      gallery,
      port: 0,
      host: "127.0.0.1",
      now: () => Date.now(),
      git: false,
      watch: true,
      debounceMs: 50,
      tls: { cert: certs.certPem, key: certs.keyPem },
      log: () => {},
    });
    const index = `${server.url}atlas/index.json`;
    const env = { HOME: tmp.join("home") };
    const denoFlags = ["--cert", certs.caFile];

    const find = await runMapper(["atlas", "find", "beta.example.com", "--index", index, "--refresh"], {
      env,
      denoFlags,
    });
    assert.equal(find.code, 0, find.stderr);
    assert.match(find.stdout, /mapper atlas add beta/);
    assert.ok(!/mapper atlas add taken-down/.test(find.stdout));

    const work = tmp.join("work");
    await Deno.mkdir(work);
    const add = await runMapper(["atlas", "add", "beta", "--index", index], { env, denoFlags, cwd: work });
    assert.equal(add.code, 0, add.stderr);
    const installed = await listFiles(join(work, ".mapper"));
    for (const file of ["config.yaml", "home.yaml", "shared.yaml", "shared/nav.yaml"]) {
      assert.ok(installed.includes(file), `${file} in ${installed.join(", ")}`);
      assert.deepEqual(
        await Deno.readFile(join(work, ".mapper", file)),
        await Deno.readFile(join(gallery, "entries", "beta", ".mapper", file)),
        file,
      );
    }

    // Takedown: the next snapshot drops beta from the index and withholds its archive at the same time.
    const next = server.nextRebuild();
    // Replaced in one step (write beside, then rename): the watcher never sees a half-written takedown list.
    const scratch = await Deno.makeTempFile({ prefix: "mapper-edit-" });
    await Deno.writeTextFile(scratch, "- slug: taken-down\n- slug: beta\n");
    await Deno.rename(scratch, join(gallery, "removed.yaml"));
    await next;
    const gone = await runMapper(["atlas", "find", "beta.example.com", "--index", index, "--refresh", "--json"], {
      env,
      denoFlags,
    });
    assert.equal(gone.code, 0, gone.stderr);
    assert.ok(!/"slug":\s*"beta"/.test(gone.stdout), gone.stdout);
    const work2 = tmp.join("work2");
    await Deno.mkdir(work2);
    const refused = await runMapper(["atlas", "add", "beta", "--index", index], { env, denoFlags, cwd: work2 });
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /beta/);
    assert.equal(await Deno.stat(join(work2, ".mapper")).then(() => true, () => false), false);
  },
});
