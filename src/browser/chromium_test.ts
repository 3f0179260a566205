import assert from "node:assert/strict";
import { chromiumArgs } from "./chromium.ts";
import { headlessMode } from "./daemon.ts";

Deno.test("chromium - own profile, CDP on a free port, extension loaded, --no-sandbox only as root, about:blank first", () => {
  const spec = { profile: "/p", headless: true, extensionDir: "/ext", extraFlags: ["--lang=fr", "--x"] };
  const asRoot = chromiumArgs({ ...spec, root: true });
  assert.ok(asRoot.includes("--remote-debugging-port=0"));
  assert.ok(asRoot.includes("--user-data-dir=/p"));
  assert.ok(asRoot.includes("--headless"));
  assert.ok(asRoot.includes("--load-extension=/ext") && asRoot.includes("--disable-extensions-except=/ext"));
  assert.ok(asRoot.includes("--no-sandbox"));
  assert.deepEqual(asRoot.slice(-3), ["--lang=fr", "--x", "about:blank"], "extra flags come last (they win)");
  const user = chromiumArgs({ ...spec, root: false, headless: false, extensionDir: undefined });
  assert.ok(!user.includes("--no-sandbox"));
  assert.ok(!user.includes("--headless"));
  assert.ok(!user.some((a) => a.startsWith("--load-extension")));
  assert.equal(user.at(-1), "about:blank");
});

Deno.test("chromium - headless when asked, or automatically when there is no display", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.deepEqual(headlessMode(true, env({})), { headless: true, auto: false });
  if (Deno.build.os === "linux") {
    assert.deepEqual(headlessMode(false, env({})), { headless: true, auto: true });
    assert.deepEqual(headlessMode(false, env({ DISPLAY: ":0" })), { headless: false, auto: false });
    assert.deepEqual(headlessMode(false, env({ WAYLAND_DISPLAY: "wayland-0" })), { headless: false, auto: false });
  }
});
