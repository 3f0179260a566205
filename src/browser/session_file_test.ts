import assert from "node:assert/strict";
import { type SessionInfo, sessionPath, writeSession } from "./session_file.ts";
import { tempDir } from "../../tests/_helpers.ts";

const INFO: SessionInfo = {
  schema: 2,
  sessionId: "5e55".repeat(8),
  secret: "5ec7".repeat(16),
  daemonPid: 1,
  chromiumPid: 2,
  port: 7891,
  profile: "/p",
  headless: true,
  startedAt: "",
  version: "0",
  log: null,
};

Deno.test({
  name: "writeSession - a link planted at the session file is replaced, its target never written; always 0600",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using tmp = await tempDir();
    const victim = tmp.join("bashrc");
    await Deno.writeTextFile(victim, "# mine\n", { mode: 0o644 });
    await Deno.symlink(victim, sessionPath(tmp.path));
    await writeSession(tmp.path, INFO);
    assert.equal(await Deno.readTextFile(victim), "# mine\n");
    const info = await Deno.lstat(sessionPath(tmp.path));
    assert.ok(info.isFile && !info.isSymlink);
    assert.equal(info.mode! & 0o777, 0o600);
    assert.equal(JSON.parse(await Deno.readTextFile(sessionPath(tmp.path))).secret, INFO.secret);
    // An older file other users could read is made private: it holds the secret.
    await Deno.chmod(sessionPath(tmp.path), 0o644);
    await writeSession(tmp.path, INFO);
    assert.equal((await Deno.stat(sessionPath(tmp.path))).mode! & 0o777, 0o600);
  },
});
