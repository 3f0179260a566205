import assert from "node:assert/strict";
import { unsafePathReason } from "./install.ts";

Deno.test("atlas add - member names Windows cannot create are refused on every platform", () => {
  for (const name of ["views/CON.yaml", "nul", "aux.tar.gz", "COM1.yml", "lpt9", "CONIN$", "conout$.yaml"]) {
    assert.match(unsafePathReason(name) ?? "", /reserved name on Windows/, name);
  }
  assert.match(unsafePathReason("C:/x.yaml") ?? "", /drive/);
  assert.match(unsafePathReason("views\\a.yaml") ?? "", /backslash/);
  assert.match(unsafePathReason("views/a:b.yaml") ?? "", /Windows does not allow/);
  assert.match(unsafePathReason("views./a.yaml") ?? "", /ends with a dot/);
  for (const name of ["views/console.yaml", "config.yaml", "com10.yaml", "views/a b.yaml"]) {
    assert.equal(unsafePathReason(name), undefined, name);
  }
});
