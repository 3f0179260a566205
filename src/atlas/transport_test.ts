import assert from "node:assert/strict";
import { testIo } from "../io.ts";
import { NetworkError, NotFoundError, PolicyError } from "../errors.ts";
import { httpsServer } from "../../tests/_https.ts";
import { allowedUrl, checkUrl, download, policyProblem } from "./transport.ts";

Deno.test("atlas transport - the policy allows HTTPS anywhere and plain HTTP only to literal loopback hosts", () => {
  for (
    const ok of [
      "https://x.test/i.json",
      "http://localhost:8/i",
      "http://127.0.0.1/i",
      "http://[::1]:9/i",
      "HTTP://127.0.0.1/i",
      "http://127.0.0.1:80/i",
    ]
  ) {
    assert.equal(policyProblem(ok), undefined, ok);
  }
  for (
    const bad of [
      "http://x.test/i",
      "http://127.0.0.2/i",
      "http://localhost./i",
      "http://LOCALHOST/i",
      "https://X.test/i.json",
      "ftp://x/i",
      "file:///etc/passwd",
      "i.json",
    ]
  ) {
    assert.ok(policyProblem(bad), bad);
  }
});

/** Every parser confusion, with the part of the refusal that names it. */
const CONFUSIONS: ReadonlyArray<[name: string, url: string, reason: RegExp]> = [
  ["backslash before @ (WHATWG host 127.0.0.2)", "http://127.0.0.2:8\\@127.0.0.1:8/{slug}.tar.gz", /backslash/],
  ["double backslash instead of //", "http:\\\\127.0.0.2/x", /backslash/],
  ["backslash in the path", "http://127.0.0.1/a\\b", /backslash/],
  ["percent-encoded @ in the host", "http://127.0.0.2%40127.0.0.1/x", /not a valid absolute URL/],
  ["percent-encoded dot in the host", "https://evil%2Eexample/x", /host is written in a form/],
  ["user and password", "http://user:pass@127.0.0.1/x", /credentials/],
  ["user only", "https://user@x.test/x", /credentials/],
  ["empty userinfo", "http://@127.0.0.1/x", /credentials/],
  ["@ hiding the real host", "http://127.0.0.1@127.0.0.2/x", /credentials/],
  ["IPv6 zone id", "http://[fe80::1%25eth0]/x", /not a valid absolute URL/],
  ["IPv6 zone id on loopback", "http://[::1%25lo]/x", /not a valid absolute URL/],
  ["long IPv6 loopback", "http://[0:0:0:0:0:0:0:1]/x", /write it as http:\/\/\[::1\]/],
  ["decimal IPv4", "http://2130706433/x", /write it as http:\/\/127\.0\.0\.1\//],
  ["hex IPv4", "http://0x7f.1/x", /write it as http:\/\/127\.0\.0\.1\//],
  ["octal IPv4", "http://0177.0.0.1/x", /write it as http:\/\/127\.0\.0\.1\//],
  ["short IPv4", "http://127.1/x", /write it as/],
  ["trailing dot on an IPv4", "http://127.0.0.1./x", /write it as/],
  ["tab inside the host", "http://127.0.0.\t1/x", /control character/],
  ["leading space", " http://127.0.0.1/x", /space/],
  ["no slashes after the scheme", "http:127.0.0.1/x", /write it as http:\/\/127\.0\.0\.1\/x/],
  ["one slash after the scheme", "http:/127.0.0.1/x", /write it as/],
  ["non-ASCII host (IDNA rewrites it)", "https://\u00e9.test/x", /write it as https:\/\/xn--/],
];

for (const [name, url, reason] of CONFUSIONS) {
  Deno.test(`atlas transport - refuses a URL parsers disagree on: ${name}`, () => {
    const checked = checkUrl(url);
    assert.ok(!(checked instanceof URL), `${url} was allowed as ${checked instanceof URL ? checked.href : ""}`);
    assert.match(checked.problem, reason);
    assert.match(checked.problem, /^refusing "/);
  });
}

Deno.test("atlas transport - the allowed URL is the parse that was checked (what is fetched and recorded)", () => {
  const url = allowedUrl("HTTP://127.0.0.1:80/a/../{slug}.tar.gz");
  assert.equal(url.href, "http://127.0.0.1/%7Bslug%7D.tar.gz");
  assert.equal(url.hostname, "127.0.0.1");
  assert.throws(
    () => allowedUrl("http://127.0.0.2/x", "H"),
    (e: unknown) => e instanceof PolicyError && e.hint === "H",
  );
});

Deno.test("atlas transport - a redirect hop is parsed once and checked like the first URL", () => {
  const base = new URL("http://127.0.0.1:8/i.json");
  const ok = checkUrl("/next.json", base);
  assert.ok(ok instanceof URL && ok.href === "http://127.0.0.1:8/next.json");
  for (
    const hop of [
      "/\\127.0.0.2/x", // WHATWG reads it as //127.0.0.2/x: a scheme-relative hop to another host
      "\\\\127.0.0.2/x",
      "//127.0.0.2/x",
      "//2130706433/x",
      "http://u:p@127.0.0.1:8/x",
      "http://0x7f.1:8/x",
      "https://[::1%25lo]/x",
    ]
  ) {
    assert.ok(!(checkUrl(hop, base) instanceof URL), hop);
  }
});

Deno.test("atlas transport - a redirect never leaves HTTPS for plain HTTP, not even for loopback", () => {
  const base = new URL("https://catalog.test/i.json");
  for (const hop of ["http://127.0.0.1:8/x", "http://localhost/x", "http://[::1]/x", "HTTP://127.0.0.1/x"]) {
    const checked = checkUrl(hop, base);
    assert.ok(!(checked instanceof URL), `${hop} was allowed after HTTPS`);
    assert.equal(
      checked.problem,
      `refusing "${hop}": an HTTPS download never follows a redirect to plain HTTP`,
    );
  }
  // Loopback HTTP to loopback HTTP (a local catalog) and any HTTPS hop stay allowed.
  assert.ok(checkUrl("http://localhost:9/x", new URL("http://127.0.0.1:8/i.json")) instanceof URL);
  assert.ok(checkUrl("https://mirror.test/x", base) instanceof URL);
  assert.ok(checkUrl("/x", base) instanceof URL);
});

Deno.test("atlas transport - an HTTPS server cannot redirect a download onto a plain-HTTP loopback service", async () => {
  const seen: string[] = [];
  const local = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    seen.push(new URL(req.url).pathname);
    return new Response("{}");
  });
  try {
    await using srv = await httpsServer(() => Response.redirect(`http://127.0.0.1:${local.addr.port}/admin`, 302));
    await assert.rejects(
      download(`${srv.url}i.json`, testIo({ fetch: srv.fetch })),
      (err: unknown) =>
        err instanceof PolicyError &&
        err.message ===
          `GET ${srv.url}i.json: redirected to a URL the atlas policy refuses: refusing "http://127.0.0.1:${local.addr.port}/admin": an HTTPS download never follows a redirect to plain HTTP`,
    );
    assert.equal(srv.requests(), 1);
    assert.deepEqual(seen, [], "the loopback service was never asked");
  } finally {
    await local.shutdown();
  }
});

Deno.test("atlas transport - a stalled body and a silent server fail with their own messages", async () => {
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await using srv = await httpsServer(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/silent") {
      await held;
      return new Response("late");
    }
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("{"));
        held.then(() => {
          try {
            c.close();
          } catch {
            // the client cancelled already
          }
        });
      },
    });
    return new Response(body);
  });
  const io = testIo({ fetch: srv.fetch });
  try {
    await assert.rejects(
      download(`${srv.url}stall`, io, { stallTimeoutMs: 300 }),
      (err: unknown) => err instanceof NetworkError && /the server sent nothing for 0\.3 s$/.test(err.message),
    );
    await assert.rejects(
      download(`${srv.url}silent`, io, { stallTimeoutMs: 300 }),
      (err: unknown) => err instanceof NetworkError && /the server sent nothing for 0\.3 s$/.test(err.message),
    );
    await assert.rejects(
      download(`${srv.url}stall`, io, { stallTimeoutMs: 5000, totalTimeoutMs: 400 }),
      (err: unknown) => err instanceof NetworkError && /no complete answer within 0\.4 s$/.test(err.message),
    );
  } finally {
    release();
  }
});

Deno.test("atlas transport - 404 is NotFoundError, other statuses and untrusted TLS are NetworkError, refused hops PolicyError", async () => {
  await using srv = await httpsServer((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/redir") return Response.redirect("http://example.com/x", 307);
    return new Response("x", { status: path === "/404" ? 404 : 500 });
  });
  const io = testIo({ fetch: srv.fetch });
  await assert.rejects(download(`${srv.url}404`, io), NotFoundError);
  await assert.rejects(download(`${srv.url}500`, io), /HTTP 500 Internal Server Error$/);
  await assert.rejects(download(`${srv.url}redir`, io), PolicyError);
  // Without the test CA the certificate is not trusted: verification is never disabled.
  await assert.rejects(download(`${srv.url}404`, testIo()), NetworkError);
});

Deno.test("atlas transport - the body cap counts bytes actually read, whatever the headers say", async () => {
  // Streamed bodies carry no Content-Length: only counting the bytes read can stop them.
  await using srv = await httpsServer((req) => {
    const n = Number(new URL(req.url).pathname.slice(1));
    let left = n;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (left <= 0) return c.close();
        const chunk = new Uint8Array(Math.min(left, 64 * 1024));
        left -= chunk.length;
        c.enqueue(chunk);
      },
    });
    return new Response(body);
  });
  const io = testIo({ fetch: srv.fetch });
  const ok = await download(`${srv.url}1000`, io, { maxBytes: 1000 });
  assert.equal(ok.bytes.length, 1000);
  await assert.rejects(
    download(`${srv.url}200001`, io, { maxBytes: 200_000, purpose: "install" }),
    (err: unknown) =>
      err instanceof NetworkError &&
      /: the response exceeds the 200000-byte limit — refusing to install it$/.test(err.message),
  );
});
