/**
 * The least a `deno run` program can do for a session command, as a floor to read the real one against (see
 * `startup_compare.ts`): read the session file, make the handshake request and then the command's request over raw
 * loopback sockets (`GET PATH`, or `POST PATH` with the JSON body `BODY`), and print the answer's body. No HTTP
 * client, no checks of any answer, no formatting: never a way to talk to a daemon, only a measure of what the
 * runtime itself costs for the same exchange.
 *
 *   deno run -A --no-config bench/_floor_exchange.ts PATH [BODY]
 *
 * With `FLOOR_EXCHANGES=1` in the environment the handshake is left out (one exchange instead of two).
 *
 * @module
 */
const session = JSON.parse(Deno.readTextFileSync(".mapper/.session"));
const [path, body] = Deno.args;

async function exchange(method: string, target: string, payload?: string): Promise<Uint8Array> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: session.port });
  const content = payload === undefined ? "" : new TextEncoder().encode(payload);
  const head = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${session.port}\r\n` +
    `Authorization: Bearer ${session.secret}\r\n` +
    (payload === undefined ? "" : `Content-Type: application/json\r\nContent-Length: ${content.length}\r\n`) +
    "Connection: close\r\n\r\n";
  await conn.write(new TextEncoder().encode(head));
  if (content.length > 0) await conn.write(content as Uint8Array);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const buf = new Uint8Array(64 * 1024);
    const n = await conn.read(buf);
    if (n === null) break;
    chunks.push(buf.subarray(0, n));
    size += n;
  }
  conn.close();
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) all.set(c, (at += c.length) - c.length);
  return all;
}

if (Deno.env.get("FLOOR_EXCHANGES") !== "1") await exchange("GET", "/devtools/session");
const answer = await exchange(body === undefined ? "GET" : "POST", path!, body);
let start = 0;
while (start + 3 < answer.length && !(answer[start] === 13 && answer[start + 3] === 10)) start++;
await Deno.stdout.write(answer.subarray(start + 4));
