import assert from "node:assert/strict";
import { sessionProblem } from "./session_file.ts";

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
