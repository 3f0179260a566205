import assert from "node:assert/strict";
import { join } from "node:path";
import { testIo } from "../io.ts";
import { formatLock, LOCK_FILE, LOCK_SCHEMA, sha256Hex } from "./lock.ts";
import { runVerify } from "./verify.ts";

Deno.test("atlas verify - a name handed back decomposed (NFD, as HFS+ does) matches its composed (NFC) lock entry", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mapper-verify-" });
  try {
    const data = new TextEncoder().encode("memory: [café]\n");
    await Deno.mkdir(join(dir, "vues"));
    await Deno.writeFile(join(dir, "vues", "café.yaml".normalize("NFD")), data);
    await Deno.writeTextFile(
      join(dir, LOCK_FILE),
      formatLock({
        schema: LOCK_SCHEMA,
        slug: "demo",
        source: "/x/demo.tar.gz",
        archive_sha256: "0".repeat(64),
        installed_at: "2026-01-01T00:00:00Z",
        files: { ["vues/café.yaml".normalize("NFC")]: await sha256Hex(data) },
      }),
    );
    const io = testIo({ cwd: dir });
    assert.equal(await runVerify({ target: "." }, io), 0);
    assert.match(io.stdout.text(), /matches atlas-lock\.json: demo, 1 file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "atlas verify - a FIFO in place of a locked file is drift, never a hang",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "mapper-verify-" });
    try {
      assert.ok((await new Deno.Command("mkfifo", { args: [join(dir, "a.yaml")] }).output()).success);
      await Deno.writeTextFile(
        join(dir, LOCK_FILE),
        formatLock({
          schema: LOCK_SCHEMA,
          slug: "demo",
          source: "/x/demo.tar.gz",
          archive_sha256: "0".repeat(64),
          installed_at: "2026-01-01T00:00:00Z",
          files: { "a.yaml": "0".repeat(64) },
        }),
      );
      const io = testIo({ cwd: dir });
      await assert.rejects(runVerify({ target: "." }, io), /drifted from atlas-lock\.json \(1 file changed\)/);
      assert.equal(io.stdout.text(), "  modified  a.yaml\n");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
