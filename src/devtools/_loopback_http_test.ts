import assert from "node:assert/strict";
import { loopbackGet } from "./_loopback_http.ts";

/** A raw TCP server on loopback that answers every connection with `answer(conn)`. */
function rawServer(answer: (conn: Deno.Conn) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const done = (async () => {
    for await (const conn of listener) {
      open.add(conn);
      // Read the request first, as a server does (closing with unread input would reset the connection instead).
      void conn.read(new Uint8Array(4096)).then(() => answer(conn)).catch(() => {}).finally(() => {
        open.delete(conn);
        try {
          conn.close();
        } catch {
          // closed already
        }
      });
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    async [Symbol.asyncDispose]() {
      listener.close();
      for (const conn of open) conn.close();
      await done;
    },
  };
}

const text = (s: string) => new TextEncoder().encode(s);

Deno.test("loopback GET - reads a Content-Length answer: status, headers, JSON body, path and Host sent", async () => {
  let seen = "";
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    seen = `${new URL(req.url).pathname}${new URL(req.url).search} ${req.headers.get("host")}`;
    return Response.json({ entries: [1, 2] }, { status: 404, headers: { "x-test": "yes" } });
  });
  const res = await loopbackGet(server.addr.port, "/devtools/console?limit=2", { timeoutMs: 5_000 });
  assert.deepEqual([res.status, res.ok, res.headers.get("X-Test")], [404, false, "yes"]);
  assert.deepEqual(await res.json(), { entries: [1, 2] });
  assert.equal(seen, `/devtools/console?limit=2 127.0.0.1:${server.addr.port}`);
});

Deno.test("loopback GET - reads a chunked answer byte for byte", async () => {
  const body = new Uint8Array(200_000).map((_, i) => i % 251);
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < body.length; i += 30_000) c.enqueue(body.slice(i, i + 30_000));
        c.close();
      },
    });
    return new Response(stream);
  });
  const res = await loopbackGet(server.addr.port, "/body", { timeoutMs: 5_000 });
  assert.equal(res.status, 200);
  assert.deepEqual(new Uint8Array(await res.arrayBuffer()), body);
});

Deno.test("loopback GET - a hostile or broken server is an error, never a hang or a crash", async () => {
  const cases: Array<[string, (conn: Deno.Conn) => Promise<void>, RegExp]> = [
    ["not HTTP", async (c) => void await c.write(text("hello there\r\n\r\n")), /not HTTP\/1\.1/],
    ["no end of headers", async (c) => void await c.write(text("HTTP/1.1 200 OK\r\nA: b\r\n")), /ended before/],
    [
      "short body",
      async (c) => void await c.write(text("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")),
      /shorter/,
    ],
    [
      "bad chunk",
      async (c) => void await c.write(text("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")),
      /chunk/,
    ],
    ["bad header", async (c) => void await c.write(text("HTTP/1.1 200 OK\r\nno colon\r\n\r\n")), /header/],
    ["too large", async (c) => {
      await c.write(text("HTTP/1.1 200 OK\r\n\r\n"));
      for (let sent = 0; sent < 3_000_000;) sent += await c.write(new Uint8Array(64 * 1024));
    }, /larger than/],
  ];
  for (const [name, answer, message] of cases) {
    await using server = rawServer(answer);
    const err = await loopbackGet(server.port, "/", { timeoutMs: 5_000, maxBytes: 1024 * 1024 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof Error, name);
    assert.match(err.message, message, name);
  }
});

Deno.test("loopback GET - gives up after the timeout; a closed port is refused", async () => {
  await using silent = rawServer((conn) =>
    new Promise((resolve) => setTimeout(resolve, 2_000)).then(() => conn.close())
  );
  await assert.rejects(loopbackGet(silent.port, "/", { timeoutMs: 100 }), /no answer within 100 ms/);
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  await assert.rejects(loopbackGet(port, "/", { timeoutMs: 1_000 }), Deno.errors.ConnectionRefused);
});
