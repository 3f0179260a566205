import assert from "node:assert/strict";
import { testIo } from "../io.ts";
import { NetworkError, NotFoundError, PolicyError } from "../errors.ts";
import { httpsServer } from "../../tests/_https.ts";
import { download, policyProblem } from "./transport.ts";

Deno.test("atlas transport - the policy allows HTTPS anywhere and plain HTTP only to literal loopback hosts", () => {
  for (
    const ok of [
      "https://x.test/i.json",
      "http://localhost:8/i",
      "http://127.0.0.1/i",
      "http://[::1]:9/i",
      "HTTP://127.0.0.1/i",
    ]
  ) {
    assert.equal(policyProblem(ok), undefined, ok);
  }
  for (
    const bad of [
      "http://x.test/i",
      "http://LOCALHOST/i",
      "http://127.0.0.1./i",
      "http://127.0.0.2/i",
      "ftp://x/i",
      "file:///etc/passwd",
      "i.json",
    ]
  ) {
    assert.ok(policyProblem(bad), bad);
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
