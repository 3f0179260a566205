import assert from "node:assert/strict";
import { type SessionInfo, sessionPath, sessionProblem, writeSession } from "./session_file.ts";
import { tempDir } from "../../tests/_helpers.ts";

const valid = {
  schema: 2,
  sessionId: "5e55".repeat(8),
  secret: "5ec7".repeat(16),
  daemonPid: 4242,
  chromiumPid: 4343,
  port: 7891,
  profile: "/tmp/profile",
  headless: true,
  startedAt: "",
  version: "0",
  log: null,
};

Deno.test("sessionProblem - a daemon start time is optional, and when present a whole number of ticks", () => {
  assert.equal(sessionProblem(valid), undefined);
  assert.equal(sessionProblem({ ...valid, daemonStart: 0 }), undefined);
  assert.equal(sessionProblem({ ...valid, daemonStart: 123456789 }), undefined);
  for (const bad of [-1, 1.5, "123", null, Number.MAX_SAFE_INTEGER + 2]) {
    assert.equal(sessionProblem({ ...valid, daemonStart: bad }), "its daemon start time is not valid", String(bad));
  }
});

Deno.test({
  name: "writeSession - a link planted at the session file is replaced, its target never written; always 0600",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using tmp = await tempDir();
    const info: SessionInfo = { ...valid, schema: 2 };
    const victim = tmp.join("bashrc");
    await Deno.writeTextFile(victim, "# mine\n", { mode: 0o644 });
    await Deno.symlink(victim, sessionPath(tmp.path));
    await writeSession(tmp.path, info);
    assert.equal(await Deno.readTextFile(victim), "# mine\n");
    const st = await Deno.lstat(sessionPath(tmp.path));
    assert.ok(st.isFile && !st.isSymlink);
    assert.equal(st.mode! & 0o777, 0o600);
    assert.equal(JSON.parse(await Deno.readTextFile(sessionPath(tmp.path))).secret, info.secret);
    // An older file other users could read is made private: it holds the secret.
    await Deno.chmod(sessionPath(tmp.path), 0o644);
    await writeSession(tmp.path, info);
    assert.equal((await Deno.stat(sessionPath(tmp.path))).mode! & 0o777, 0o600);
  },
});
