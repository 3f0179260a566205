import assert from "node:assert/strict";
import {
  browserCandidates,
  chromiumArgs,
  chromiumEnv,
  installLocations,
  pathNames,
  tasklistImage,
  windowsSessionLiveness,
} from "./chromium.ts";
import { headlessMode } from "./daemon.ts";

Deno.test("chromium - own profile, CDP on the pipe and never on a port, extension loaded, --no-sandbox only as root, about:blank first", () => {
  const spec = { profile: "/p", headless: true, extensionDir: "/ext", extraFlags: ["--lang=fr", "--x"] };
  const asRoot = chromiumArgs({ ...spec, root: true });
  assert.ok(asRoot.includes("--remote-debugging-pipe"));
  assert.ok(!asRoot.some((a) => a.startsWith("--remote-debugging-port")), "no TCP debugging port");
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
  for (const os of ["linux", "freebsd"] as const) {
    assert.deepEqual(headlessMode(false, env({}), os), { headless: true, auto: true });
    assert.deepEqual(headlessMode(false, env({ DISPLAY: ":0" }), os), { headless: false, auto: false });
    assert.deepEqual(headlessMode(false, env({ WAYLAND_DISPLAY: "wayland-0" }), os), { headless: false, auto: false });
  }
});

Deno.test("chromium - macOS and Windows always have a display: no DISPLAY does not mean headless there", () => {
  const none = () => undefined;
  assert.deepEqual(headlessMode(false, none, "darwin"), { headless: false, auto: false });
  assert.deepEqual(headlessMode(false, none, "windows"), { headless: false, auto: false });
  assert.deepEqual(headlessMode(true, none, "windows"), { headless: true, auto: false });
});

Deno.test("chromium - discovery on Linux: the PATH names only, no install locations", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.deepEqual(installLocations("linux", env({ HOME: "/home/u" })), []);
  assert.deepEqual(browserCandidates("linux", env({ PATH: "/usr/bin::/opt/bin" })), [
    ...["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"].map((n) => `/usr/bin/${n}`),
    ...["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"].map((n) => `/opt/bin/${n}`),
  ]);
});

Deno.test("chromium - discovery on macOS: PATH, then the Chrome, Chromium and Edge app bundles", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  const found = browserCandidates("darwin", env({ PATH: "/opt/homebrew/bin", HOME: "/Users/u" }));
  assert.equal(found[0], "/opt/homebrew/bin/chromium");
  assert.deepEqual(found.slice(4), [
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Users/u/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Users/u/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
    "/Users/u/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
  ]);
  assert.equal(installLocations("darwin", env({})).length, 3, "no HOME: /Applications only");
});

Deno.test("chromium - discovery on Windows: PATH with PATHEXT (';'-separated, quoted entries), then Program Files and LocalAppData", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.deepEqual(pathNames("windows", env({ PATHEXT: ".EXE;.CMD" })), [
    "chrome.exe",
    "chrome.cmd",
    "chromium.exe",
    "chromium.cmd",
    "msedge.exe",
    "msedge.cmd",
  ]);
  assert.ok(pathNames("windows", env({})).includes("chrome.exe"), "PATHEXT unset: the Windows default");
  const vars = {
    PATH: 'C:\\Windows\\system32;"C:\\Tools\\My Browsers";',
    PATHEXT: ".EXE",
    ProgramFiles: "C:\\Program Files",
    "ProgramFiles(x86)": "C:\\Program Files (x86)",
    ProgramW6432: "C:\\Program Files",
    LocalAppData: "C:\\Users\\u\\AppData\\Local",
  };
  const found = browserCandidates("windows", env(vars));
  assert.deepEqual(found.slice(0, 4), [
    "C:\\Windows\\system32\\chrome.exe",
    "C:\\Windows\\system32\\chromium.exe",
    "C:\\Windows\\system32\\msedge.exe",
    "C:\\Tools\\My Browsers\\chrome.exe",
  ]);
  assert.deepEqual(installLocations("windows", env(vars)), [
    "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe",
    "C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe",
    "C:\\Users\\u\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe",
    "C:\\Program Files\\Chromium\\Application\\chrome.exe",
    "C:\\Program Files (x86)\\Chromium\\Application\\chrome.exe",
    "C:\\Users\\u\\AppData\\Local\\Chromium\\Application\\chrome.exe",
    "C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe",
    "C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe",
    "C:\\Users\\u\\AppData\\Local\\Microsoft\\Edge\\Application\\msedge.exe",
  ]);
  assert.deepEqual(found.slice(-9), installLocations("windows", env(vars)));
});

Deno.test("chromium - Windows liveness: tasklist CSV output names the pid's image, or does not list it", () => {
  const listed = '"chrome.exe","4242","Console","1","123,456 K"\r\n';
  assert.equal(tasklistImage(listed, 4242), "chrome.exe");
  assert.equal(tasklistImage(listed, 424), undefined);
  assert.equal(tasklistImage("INFO: No tasks are running which match the specified criteria.\r\n", 4242), undefined);
  assert.equal(tasklistImage("", 1), undefined);
});

Deno.test("chromium - Windows pid reuse: the daemon must be this program, Chromium a browser unless that daemon runs", () => {
  assert.deepEqual(windowsSessionLiveness("mapper.exe", "custom.exe", "MAPPER.EXE"), { daemon: true, chromium: true });
  assert.deepEqual(windowsSessionLiveness("notepad.exe", "chrome.exe", "mapper.exe"), {
    daemon: false,
    chromium: true,
  });
  assert.deepEqual(windowsSessionLiveness("notepad.exe", "winword.exe", "mapper.exe"), {
    daemon: false,
    chromium: false,
  });
  assert.deepEqual(windowsSessionLiveness(undefined, undefined, "deno.exe"), { daemon: false, chromium: false });
});

Deno.test("chromiumEnv() - on Linux, Chromium's temp dir goes inside the profile when the socket path fits", () => {
  assert.deepEqual(chromiumEnv(["--user-data-dir=/home/u/.mapper/profiles/site"], "linux"), {
    TMPDIR: "/home/u/.mapper/profiles/site/.tmp",
  });
  assert.deepEqual(chromiumEnv([`--user-data-dir=/${"x".repeat(80)}`], "linux"), {});
  assert.deepEqual(chromiumEnv(["--user-data-dir=/p"], "darwin"), {});
  assert.deepEqual(chromiumEnv(["--headless"], "linux"), {});
});
