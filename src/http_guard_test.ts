import assert from "node:assert/strict";
import { type Access, guarded, hostsFor, newSecret, refusal, sameSecret } from "./http_guard.ts";

const SECRET = "ab".repeat(32);
const access: Access = {
  hosts: ["127.0.0.1:4000"],
  secret: SECRET,
  extensionOrigin: "chrome-extension://abcdefghijklmnop",
};

function req(path: string, headers: Record<string, string> = {}, method = "GET"): Request {
  const r = new Request(`http://127.0.0.1:4000${path}`, { method });
  // Request normally owns Host; set it the way the server sees it.
  const h = new Headers({ host: "127.0.0.1:4000", ...headers });
  return new Request(r, { headers: h });
}

const auth = { authorization: `Bearer ${SECRET}` };

async function code(res: Response | undefined): Promise<string | undefined> {
  if (!res) return undefined;
  assert.equal(res.status, 403);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  return (await res.json()).code;
}

Deno.test("daemon guard - the devtools API needs the session secret", async () => {
  assert.equal(await code(refusal(req("/devtools/status"), access)), "forbidden_secret");
  assert.equal(
    await code(refusal(req("/devtools/status", { authorization: "Bearer nope" }), access)),
    "forbidden_secret",
  );
  assert.equal(
    await code(refusal(req("/devtools/status", { authorization: SECRET }), access)),
    "forbidden_secret",
  );
  assert.equal(refusal(req("/devtools/status", auth), access), undefined);
  // Every path that is not the public corpus, including ones added later.
  assert.equal(await code(refusal(req("/devtools/page/click", {}, "POST"), access)), "forbidden_secret");
  assert.equal(await code(refusal(req("/anything-new"), access)), "forbidden_secret");
});

Deno.test("daemon guard - a foreign Origin is refused even with the secret; the extension's is not", async () => {
  const evil = { ...auth, origin: "https://evil.example" };
  assert.equal(
    await code(refusal(req("/devtools/tabs?url=file:///etc/shadow", evil, "POST"), access)),
    "forbidden_origin",
  );
  const other = { ...auth, origin: "chrome-extension://zzzzzzzzzzzzzzzz" };
  assert.equal(await code(refusal(req("/devtools/status", other), access)), "forbidden_origin");
  assert.equal(await code(refusal(req("/devtools/status", { ...auth, origin: "null" }), access)), "forbidden_origin");
  assert.equal(refusal(req("/devtools/status", { ...auth, origin: access.extensionOrigin! }), access), undefined);
  const unknown = { ...access, extensionOrigin: undefined };
  assert.equal(
    await code(refusal(req("/devtools/status", { ...auth, origin: access.extensionOrigin! }), unknown)),
    "forbidden_origin",
  );
});

Deno.test("daemon guard - a foreign Host (DNS rebinding) is refused on every path, the corpus included", async () => {
  for (const host of ["evil.example:4000", "localhost:4000", "127.0.0.1", "127.0.0.1:4001", "127.0.0.1:4000.evil"]) {
    assert.equal(await code(refusal(req("/devtools/status", { ...auth, host }), access)), "forbidden_host", host);
    assert.equal(await code(refusal(req("/mapper", { host }), access)), "forbidden_host", host);
  }
});

Deno.test("daemon guard - the corpus paths stay public (any origin, no secret) on the loopback Host", () => {
  for (const path of ["/mapper", "/mapper/version"]) {
    assert.equal(refusal(req(path), access), undefined);
    assert.equal(refusal(req(path, { origin: "https://any.example" }), access), undefined);
  }
  assert.notEqual(refusal(req("/mapper/other"), access), undefined);
});

Deno.test("daemon guard - the corpus health needs no secret (the extension polls it) but never answers a web page", async () => {
  // Refused without the secret, the bundled extension took the server for gone on every poll.
  assert.equal(refusal(req("/mapper/diagnostics"), access), undefined);
  assert.equal(refusal(req("/mapper/diagnostics", { origin: access.extensionOrigin! }), access), undefined);
  // It names files by absolute path (a user name, a project's place): no page reads it.
  assert.equal(
    await code(refusal(req("/mapper/diagnostics", { origin: "https://any.example" }), access)),
    "forbidden_origin",
  );
  assert.equal(await code(refusal(req("/mapper/diagnostics/x"), access)), "forbidden_secret");
});

Deno.test("daemon guard - refusals happen before the handler runs", async () => {
  let ran = 0;
  const handler = guarded(() => access, () => {
    ran++;
    return new Response("ok");
  });
  assert.equal((await handler(req("/devtools/tabs", { origin: "https://evil.example" }, "POST"))).status, 403);
  assert.equal((await handler(req("/devtools/tabs", {}, "POST"))).status, 403);
  assert.equal(ran, 0);
  assert.equal((await handler(req("/devtools/tabs", auth, "POST"))).status, 200);
  assert.equal(ran, 1);
});

Deno.test("daemon guard - secrets are 256 random bits; comparison needs the exact secret", () => {
  const a = newSecret();
  assert.match(a, /^[0-9a-f]{64}$/);
  assert.notEqual(a, newSecret());
  assert.ok(sameSecret(a, a));
  assert.ok(!sameSecret(a, a.slice(0, -1) + (a.endsWith("0") ? "1" : "0")));
  assert.ok(!sameSecret("", ""));
  assert.ok(!sameSecret(a, a + "0"));
});

/** serve-mapper's access: the loopback names of its port, no secret (it serves nothing but the corpus). */
const serve: Access = {
  hosts: hostsFor("127.0.0.1", 7891),
  secret: undefined,
  extensionOrigin: access.extensionOrigin,
};

function at(host: string, path: string, headers: Record<string, string> = {}): Request {
  return new Request(new Request(`http://${host}${path}`), { headers: new Headers({ host, ...headers }) });
}

Deno.test("serve-mapper guard - the same Host check: loopback names of its port only, on every path", async () => {
  for (const host of ["127.0.0.1:7891", "localhost:7891", "LOCALHOST:7891", "[::1]:7891"]) {
    assert.equal(refusal(at(host, "/mapper"), serve), undefined, host);
  }
  for (const host of ["evil.example:7891", "127.0.0.1:7892", "127.0.0.1", "localhost.evil.example:7891"]) {
    for (const path of ["/mapper", "/mapper/version", "/mapper/diagnostics"]) {
      assert.equal(await code(refusal(at(host, path), serve)), "forbidden_host", `${host} ${path}`);
    }
  }
  assert.deepEqual(hostsFor("::1", 80), [
    "127.0.0.1:80",
    "127.0.0.1",
    "localhost:80",
    "localhost",
    "[::1]:80",
    "[::1]",
  ]);
  assert.equal(hostsFor("0.0.0.0", 7891), undefined, "bound for the network: reached by names it cannot know");
  assert.equal(hostsFor("192.168.1.5", 7891), undefined);
});

Deno.test("serve-mapper guard - /mapper/diagnostics refuses a web page's Origin; the corpus stays public", async () => {
  const page = { origin: "https://evil.example" };
  assert.equal(await code(refusal(at("127.0.0.1:7891", "/mapper/diagnostics", page), serve)), "forbidden_origin");
  assert.equal(refusal(at("127.0.0.1:7891", "/mapper/diagnostics"), serve), undefined);
  assert.equal(
    refusal(at("127.0.0.1:7891", "/mapper/diagnostics", { origin: access.extensionOrigin! }), serve),
    undefined,
  );
  assert.equal(refusal(at("127.0.0.1:7891", "/mapper", page), serve), undefined);
  // No secret and no devtools API: anything else goes to the handler (404), it is not a secret path.
  assert.equal(refusal(at("127.0.0.1:7891", "/other"), serve), undefined);
});
