/**
 * The daemon's loopback HTTP client against a raw TCP server that answers whatever bytes a test gives it: the well
 * formed answers the daemon sends, and what a hostile process on a stale port could send instead.
 */
import assert from "node:assert/strict";
import { loopbackFetch, MAX_HEAD_BYTES } from "./_loopback_http.ts";
import { rawServer, untilClientCloses } from "../../tests/_raw_server.ts";

const enc = new TextEncoder();

const write = (conn: Deno.Conn, text: string) => conn.write(enc.encode(text));
/** Writes `text` in full: `conn.write` may take only part of a large buffer. */
async function writeAll(conn: Deno.Conn, text: string) {
  const bytes = enc.encode(text);
  for (let at = 0; at < bytes.byteLength;) at += await conn.write(bytes.subarray(at));
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("loopback http - sends one request to 127.0.0.1 with Host, Connection: close, the headers and the body", async () => {
  await using srv = rawServer((conn) =>
    write(conn, 'HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{"ok":true}')
  );
  const res = await loopbackFetch(srv.port, "/devtools/tabs?url=a%20b", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer s3cret", host: "evil.example" },
    body: '{"é":1}',
  });
  assert.equal(res.status, 201);
  assert.equal(res.statusText, "Created");
  assert.equal(res.ok, true);
  assert.equal(res.header("content-type"), "application/json");
  assert.deepEqual(await res.json(), { ok: true });
  const request = srv.seen[0]!.request;
  const [head, body] = request.split("\r\n\r\n");
  const lines = head!.split("\r\n");
  assert.equal(lines[0], "POST /devtools/tabs?url=a%20b HTTP/1.1");
  assert.deepEqual(
    lines.slice(1).sort(),
    [
      `Host: 127.0.0.1:${srv.port}`,
      "Connection: close",
      "Content-Length: 8",
      "authorization: Bearer s3cret",
      "content-type: application/json",
    ].sort(),
  );
  assert.equal(body, '{"é":1}');
  assert.equal(srv.seen.length, 1);
});

Deno.test("loopback http - a GET sends no Content-Length; a POST without a body sends 0", async () => {
  await using srv = rawServer((conn) => write(conn, "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"));
  await (await loopbackFetch(srv.port, "/a")).cancel();
  await (await loopbackFetch(srv.port, "/b", { method: "POST" })).cancel();
  assert.equal(srv.seen[0]!.request, `GET /a HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nConnection: close\r\n\r\n`);
  assert.match(srv.seen[1]!.request, /^POST \/b HTTP\/1\.1\r\n.*Content-Length: 0\r\n/s);
});

Deno.test("loopback http - reads a body by Content-Length, chunked (extensions, trailers) or until the server closes", async () => {
  const answers = [
    "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello and nothing after",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nhel\r\n2\r\nlo\r\n0\r\nX-Trailer: t\r\n\r\n",
    "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nhello",
  ];
  for (const answer of answers) {
    await using srv = rawServer(async (conn) => {
      // Split across writes, so the client reads across packet boundaries too.
      for (let i = 0; i < answer.length; i += 7) {
        await write(conn, answer.slice(i, i + 7));
        await sleep(1);
      }
    });
    const res = await loopbackFetch(srv.port, "/");
    assert.equal(await res.text(), "hello", answer);
  }
});

Deno.test("loopback http - a large body arrives whole", async () => {
  const big = "x".repeat(300_000) + "end";
  for (const framing of ["length", "chunked"]) {
    await using srv = rawServer((conn) =>
      writeAll(
        conn,
        framing === "length"
          ? `HTTP/1.1 200 OK\r\nContent-Length: ${big.length}\r\n\r\n${big}`
          : `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`,
      )
    );
    assert.equal(await (await loopbackFetch(srv.port, "/")).text(), big, framing);
  }
});

Deno.test("loopback http - a redirect is returned as it came, never followed", async () => {
  await using target = rawServer((conn) => write(conn, "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nno"));
  await using srv = rawServer((conn) =>
    write(conn, `HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:${target.port}/x\r\nContent-Length: 0\r\n\r\n`)
  );
  const res = await loopbackFetch(srv.port, "/devtools/session");
  assert.equal(res.status, 302);
  assert.equal(res.header("location"), `http://127.0.0.1:${target.port}/x`);
  assert.equal(await res.text(), "");
  assert.equal(target.seen.length, 0);
});

Deno.test("loopback http - 204, 304 and interim 1xx answers: no body, and the 1xx is skipped", async () => {
  await using srv = rawServer((conn) =>
    write(
      conn,
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
    )
  );
  const res = await loopbackFetch(srv.port, "/");
  assert.equal(res.status, 204);
  assert.equal(await res.text(), "");
});

Deno.test("loopback http - endless headers fail at the cap, and the client hangs up", async () => {
  let written = 0;
  await using srv = rawServer(async (conn) => {
    await write(conn, "HTTP/1.1 200 OK\r\n");
    for (;;) written += await write(conn, `X-Junk: ${"a".repeat(1000)}\r\n`); // until the client hangs up
  });
  await assert.rejects(
    loopbackFetch(srv.port, "/"),
    new TypeError(`malformed HTTP response: a header section over ${MAX_HEAD_BYTES} bytes`),
  );
  await srv[Symbol.asyncDispose]();
  assert.ok(written > MAX_HEAD_BYTES, `the server wrote ${written} bytes`);
});

Deno.test("loopback http - one endless header line, endless 1xx answers and an endless trailer fail at the cap", async () => {
  const endless = [
    ["HTTP/1.1 200 OK\r\nX-Long: ", "a".repeat(4096), "header section"],
    ["", "HTTP/1.1 100 Continue\r\n\r\n", "header section"],
    ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n", "X-T: 1\r\n", "trailer section"],
  ];
  for (const [start, repeat, section] of endless) {
    await using srv = rawServer(async (conn) => {
      await write(conn, start!);
      for (;;) await write(conn, repeat!);
    });
    const reading = loopbackFetch(srv.port, "/").then((res) => res.text());
    await assert.rejects(reading, new TypeError(`malformed HTTP response: a ${section} over ${MAX_HEAD_BYTES} bytes`));
  }
});

Deno.test("loopback http - a Content-Length that lies fails: short then closed is an error, never a short body", async () => {
  await using srv = rawServer((conn) => write(conn, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this"));
  const res = await loopbackFetch(srv.port, "/");
  await assert.rejects(res.text(), new TypeError("malformed HTTP response: the body ended after 9 of 100 bytes"));
});

Deno.test("loopback http - a Content-Length that lies and a body that never ends are cut by the signal", async () => {
  // Each answer says when some of its body is out; the signal aborts only then, while the body is being read (a
  // timer instead could fire before the head arrived on a loaded machine, and test the head's cut-off instead).
  const hostile: Array<(conn: Deno.Conn, bodyStarted: () => void) => Promise<void>> = [
    async (conn, bodyStarted) => {
      await write(conn, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this");
      bodyStarted();
      await untilClientCloses(conn);
    },
    async (conn, bodyStarted) => {
      await write(conn, "HTTP/1.1 200 OK\r\n\r\n");
      for (;;) {
        await write(conn, "more ");
        bodyStarted();
        await sleep(5);
      }
    },
    async (conn, bodyStarted) => {
      await write(conn, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
      for (;;) {
        await write(conn, "5\r\nmore \r\n");
        bodyStarted();
        await sleep(5);
      }
    },
  ];
  for (const answer of hostile) {
    const started = Promise.withResolvers<void>();
    await using srv = rawServer((conn) => answer(conn, started.resolve));
    const abort = new AbortController();
    const res = await loopbackFetch(srv.port, "/", { signal: abort.signal });
    const reading = res.text();
    await started.promise;
    abort.abort(new DOMException("signal timed out", "TimeoutError"));
    await assert.rejects(reading, (err: unknown) => err instanceof DOMException && err.name === "TimeoutError");
  }
});

Deno.test("loopback http - an answer that never comes, or never finishes its head, is cut by the signal", async () => {
  for (const start of ["", "HTTP/1.1 200 OK\r\nX-A: 1\r\n"]) {
    await using srv = rawServer(async (conn) => {
      await write(conn, start);
      await untilClientCloses(conn);
    });
    await assert.rejects(
      loopbackFetch(srv.port, "/", { signal: AbortSignal.timeout(100) }),
      (err: unknown) => err instanceof DOMException && err.name === "TimeoutError",
    );
  }
});

Deno.test("loopback http - malformed chunked bodies fail", async () => {
  const cases: Array<[string, string]> = [
    ["zz\r\nhello\r\n0\r\n\r\n", 'malformed HTTP response: chunk size "zz"'],
    ["-5\r\nhello\r\n0\r\n\r\n", 'malformed HTTP response: chunk size "-5"'],
    ["fffffffffffff\r\n", 'malformed HTTP response: chunk size "fffffffffffff"'],
    ["3\r\nhello\r\n0\r\n\r\n", "malformed HTTP response: a chunk longer than its size"],
    [`1;${"x".repeat(5000)}\r\n`, "malformed HTTP response: a chunk size line over 4096 bytes"],
    ["5\r\nhel", "malformed HTTP response: the connection closed inside a chunked body"],
    ["5\r\nhello\r\n", "malformed HTTP response: the connection closed inside a chunked body"],
  ];
  for (const [body, message] of cases) {
    await using srv = rawServer((conn) => write(conn, `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${body}`));
    const res = await loopbackFetch(srv.port, "/");
    await assert.rejects(res.text(), new TypeError(message), body);
  }
});

Deno.test("loopback http - a malformed head fails: status line, header line, framing", async () => {
  const cases: Array<[string, string]> = [
    ["", "the connection closed before the header section ended"],
    ["HTTP/1.1 200 OK\r\nX-A: 1\r\n", "the connection closed before the header section ended"],
    ["ICY 200 OK\r\n\r\n", 'status line "ICY 200 OK"'],
    ["HTTP/1.1 999 Odd\r\n\r\n", 'status line "HTTP/1.1 999 Odd"'],
    ["HTTP/2 200\r\n\r\n", 'status line "HTTP/2 200"'],
    ["HTTP/1.1 200 OK\r\nX-A : 1\r\n\r\n", 'header line "X-A : 1"'],
    ["HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\n\r\n", 'header line " folded"'],
    ["HTTP/1.1 200 OK\r\nX-A: a\0b\r\n\r\n", 'a bad value in header "X-A"'],
    [
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n",
      "both Transfer-Encoding and Content-Length",
    ],
    ["HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 'Transfer-Encoding "gzip, chunked"'],
    ["HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc", 'Content-Length "2, 3"'],
    ["HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", 'Content-Length "-1"'],
    ["HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n", 'Content-Length "0x10"'],
    ["HTTP/1.1 101 Switching Protocols\r\n\r\n", "101 Switching Protocols to a request that asked for none"],
  ];
  for (const [answer, message] of cases) {
    await using srv = rawServer((conn) => write(conn, answer));
    await assert.rejects(loopbackFetch(srv.port, "/"), new TypeError(`malformed HTTP response: ${message}`), answer);
  }
});

Deno.test("loopback http - repeated equal Content-Length fields and an odd reason phrase are accepted", async () => {
  await using srv = rawServer((conn) =>
    write(conn, "HTTP/1.1 200 \x7fodd\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok")
  );
  const res = await loopbackFetch(srv.port, "/");
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "ok");
});

Deno.test("loopback http - refuses a bad path, method, header or port before connecting; an aborted signal connects nowhere", async () => {
  await using srv = rawServer((conn) => write(conn, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
  for (const path of ["/a b", "/a\r\nX-Injected: 1", "relative", "/é", ""]) {
    await assert.rejects(loopbackFetch(srv.port, path), TypeError, JSON.stringify(path));
  }
  await assert.rejects(loopbackFetch(srv.port, "/", { method: "GET /x HTTP/1.1\r\n" }), TypeError);
  for (const headers of [{ "x-a": "1\r\nX-Injected: 1" }, { "x-a": "1\n" }, { "x a": "1" }, { "x-a:": "1" }]) {
    await assert.rejects(loopbackFetch(srv.port, "/", { headers }), TypeError, JSON.stringify(headers));
  }
  await assert.rejects(loopbackFetch(0, "/"), TypeError);
  await assert.rejects(loopbackFetch(70000, "/"), TypeError);
  const controller = new AbortController();
  controller.abort(new Error("stop"));
  await assert.rejects(loopbackFetch(srv.port, "/", { signal: controller.signal }), new Error("stop"));
  await srv[Symbol.asyncDispose]();
  assert.equal(srv.seen.length, 0);
});

Deno.test("loopback http - nothing listening is a rejection, not a hang", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  await assert.rejects(loopbackFetch(port, "/"), Deno.errors.ConnectionRefused);
});

Deno.test("loopback http - cancelling the body closes the connection", async () => {
  let closed = false;
  await using srv = rawServer(async (conn) => {
    await write(conn, "HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\npart");
    await untilClientCloses(conn);
    closed = true;
  });
  const res = await loopbackFetch(srv.port, "/");
  await res.cancel();
  await srv[Symbol.asyncDispose]();
  assert.equal(closed, true);
});

Deno.test("loopback http - a body over the caller's cap fails and the connection closes", async () => {
  let closed = false;
  await using srv = rawServer(async (conn) => {
    await write(conn, "HTTP/1.1 200 OK\r\n\r\n");
    try {
      for (;;) await write(conn, "x".repeat(1024)); // until the client hangs up
    } finally {
      closed = true;
    }
  });
  const res = await loopbackFetch(srv.port, "/");
  await assert.rejects(res.bytes(16 * 1024), new RangeError("the answer is larger than 16384 bytes"));
  await assert.rejects(res.text(), new TypeError("the body was read already"));
  await srv[Symbol.asyncDispose]();
  assert.equal(closed, true);
});
