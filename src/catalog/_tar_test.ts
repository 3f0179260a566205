import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { tar, tarGz } from "./_tar.ts";

const enc = new TextEncoder();

Deno.test("catalog tar - one 1-byte file is 2048 bytes: header, padded body, two zero blocks", () => {
  const out = tar([{ name: ".mapper/a.yaml", data: enc.encode("x") }]);
  assert.equal(out.length, 2048);
  assert.ok(out.subarray(1024).every((b) => b === 0));
  const header = out.subarray(0, 512);
  const text = (from: number, to: number) => new TextDecoder().decode(header.subarray(from, to));
  assert.equal(text(0, 14), ".mapper/a.yaml");
  assert.equal(text(100, 108), "0000644\0");
  assert.equal(text(108, 116), "0000000\0");
  assert.equal(text(124, 136), "00000000001\0");
  assert.equal(text(136, 148), "00000000000\0");
  assert.equal(text(257, 265), "ustar\x0000");
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  assert.equal(text(148, 156), `${sum.toString(8).padStart(6, "0")}\0 `);
});

Deno.test("catalog tar - the system tar lists the members with mode 0644, owner 0/0 and mtime 0", async () => {
  const gz = tarGz([
    { name: ".mapper/config.yaml", data: enc.encode("version: 1\n") },
    { name: ".mapper/shared/nav.yaml", data: new Uint8Array(600).fill(0x61) },
  ]);
  assert.equal(gunzipSync(gz).length, 512 * 2 + 512 * 3 + 1024);
  const file = await Deno.makeTempFile({ suffix: ".tar.gz" });
  try {
    await Deno.writeFile(file, gz);
    const out = await new Deno.Command("tar", { args: ["-tvzf", file], env: { TZ: "UTC" }, stdout: "piped" }).output();
    assert.ok(out.success);
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /^-rw-r--r-- 0\/0\s+11 1970-01-01 00:00 \.mapper\/config\.yaml$/);
    assert.match(lines[1]!, /^-rw-r--r-- 0\/0\s+600 1970-01-01 00:00 \.mapper\/shared\/nav\.yaml$/);
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("catalog tar - names over 100 bytes are refused, never truncated", () => {
  assert.throws(() => tar([{ name: `.mapper/${"a".repeat(100)}`, data: new Uint8Array() }]), RangeError);
});
