/**
 * The least a `deno run` program can do for `mapper console list`, as a floor to read the real command against (see
 * `startup_compare.ts`): read the session file, then the handshake request and the list request over raw loopback
 * sockets, and print the list. No argument parsing, no HTTP client, no checks of any answer: never a way to talk to
 * a daemon, only a measure of what the runtime itself costs.
 *
 * @module
 */
const session = JSON.parse(Deno.readTextFileSync(".mapper/.session"));

async function get(path: string): Promise<Uint8Array> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: session.port });
  const head = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${session.secret}\r\n` +
    "Connection: close\r\n\r\n";
  await conn.write(new TextEncoder().encode(head));
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

await get("/devtools/session");
const answer = await get("/devtools/console?format=text");
let body = 0;
while (body + 3 < answer.length && !(answer[body] === 13 && answer[body + 3] === 10)) body++;
await Deno.stdout.write(answer.subarray(body + 4));
