import assert from "node:assert/strict";
import { runValidate } from "./validate.ts";
import { testIo } from "../io.ts";
import { UsageError } from "../errors.ts";

Deno.test("atlas validate - with no FILE and a terminal on stdin, fails at once instead of waiting (exit 2)", async () => {
  const io = testIo({ tty: true });
  const err = await runValidate({ file: undefined, json: false }, io).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof UsageError, String(err));
  assert.equal(err.exitCode, 2);
  assert.match(err.message, /standard input is a terminal/);
});

Deno.test("atlas validate - '-' reads standard input even from a terminal (the user asked for it)", async () => {
  const io = testIo({ tty: true, stdin: '{"schema_version":1,"entries":[]}' });
  assert.equal(await runValidate({ file: "-", json: false }, io), 0);
});
