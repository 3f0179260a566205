import assert from "node:assert/strict";
import { post } from "./transport.ts";
import { NetworkError, PolicyError } from "../errors.ts";
import { testIo } from "../io.ts";

Deno.test("post - the whole exchange has one deadline: a server that never answers fails in time", async () => {
  const never = Promise.withResolvers<void>();
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async () => {
    await never.promise;
    return new Response("late");
  });
  const url = new URL(`http://127.0.0.1:${server.addr.port}/up?token=t0k`);
  try {
    await assert.rejects(
      post(url, new Uint8Array([1]), testIo(), { contentType: "application/json", totalTimeoutMs: 300 }),
      (err: unknown) => {
        assert.ok(err instanceof NetworkError);
        assert.equal(
          err.message,
          `POST http://127.0.0.1:${server.addr.port}/up?token=REDACTED: no complete answer within 0.3 s`,
        );
        return true;
      },
    );
  } finally {
    never.resolve();
  }
});

Deno.test("post - a URL object the policy refuses is refused again before any I/O", async () => {
  let called = 0;
  const io = { ...testIo(), fetch: (() => (called++, Promise.reject(new Error("no")))) as typeof fetch };
  await assert.rejects(
    post(new URL("http://example.com/x"), new Uint8Array(), io, { contentType: "application/json" }),
    PolicyError,
  );
  assert.equal(called, 0);
});
