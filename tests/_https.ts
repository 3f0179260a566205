/**
 * A real HTTPS server on loopback for tests, trusted through a throwaway certificate authority.
 *
 * The first call in a test process generates (with `openssl`) a CA and a leaf certificate for `127.0.0.1`,
 * `localhost` and `::1`, and caches the PEM files in a temporary directory removed when the process exits. Every
 * server of that process reuses them, so only the first server pays for key generation (~50 ms).
 *
 * ```ts
 * await using srv = await httpsServer((req) => new Response("hi"));
 * const res = await fetch(srv.url + "x", { client: srv.client });   // in-process: trust via Deno.HttpClient
 * await runMapper([...], { denoFlags: ["--cert", srv.caFile] });     // subprocess: trust via --cert
 * ```
 *
 * Product code never disables TLS verification; tests trust the CA instead.
 *
 * @module
 */
import { join } from "node:path";

/** PEM material of the throwaway CA and the leaf certificate it signed. */
export interface TestCertificates {
  /** Path of the CA certificate (PEM), for `deno run --cert <caFile>` or `DENO_CERT`. */
  readonly caFile: string;
  /** The CA certificate (PEM text), for `Deno.createHttpClient({ caCerts: [caPem] })`. */
  readonly caPem: string;
  /** The leaf certificate (PEM) for 127.0.0.1, localhost and ::1. */
  readonly certPem: string;
  /** The leaf's private key (PEM). */
  readonly keyPem: string;
}

/** A running loopback HTTPS server. Dispose (`await using`) to stop it and close its client. */
export interface HttpsServer extends AsyncDisposable {
  /** Base URL with a trailing slash, e.g. `https://127.0.0.1:43123/`. */
  readonly url: string;
  /** The port the server listens on (chosen by the OS). */
  readonly port: number;
  /** Path of the CA certificate file (PEM) that signed the server's certificate. */
  readonly caFile: string;
  /** The CA certificate (PEM text). */
  readonly caPem: string;
  /** An HTTP client that trusts the CA; pass as `fetch(url, { client })`. Closed on dispose. */
  readonly client: Deno.HttpClient;
  /** A `fetch` bound to {@linkcode client}, ready to inject as `io.fetch`. */
  readonly fetch: typeof fetch;
  /** Number of requests the server has received so far (to assert "no network I/O happened"). */
  readonly requests: () => number;
}

let certificates: Promise<TestCertificates> | undefined;

async function openssl(args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command("openssl", { args, cwd, stdout: "null", stderr: "piped" }).output();
  if (!out.success) throw new Error(`openssl ${args[0]} failed: ${new TextDecoder().decode(out.stderr)}`);
}

async function generate(): Promise<TestCertificates> {
  const dir = await Deno.makeTempDir({ prefix: "mapper-test-ca-" });
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // already gone
    }
  });
  const ext = [
    "basicConstraints=critical,CA:FALSE",
    "keyUsage=critical,digitalSignature,keyEncipherment",
    "extendedKeyUsage=serverAuth",
    "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost",
  ].join("\n");
  await Deno.writeTextFile(join(dir, "leaf.ext"), ext + "\n");
  await openssl([
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=mapper test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ], dir);
  await openssl([
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    "leaf.key",
    "-out",
    "leaf.csr",
    "-subj",
    "/CN=127.0.0.1",
  ], dir);
  await openssl([
    "x509",
    "-req",
    "-in",
    "leaf.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "leaf.pem",
    "-days",
    "2",
    "-extfile",
    "leaf.ext",
  ], dir);
  const read = (name: string) => Deno.readTextFile(join(dir, name));
  return {
    caFile: join(dir, "ca.pem"),
    caPem: await read("ca.pem"),
    certPem: await read("leaf.pem"),
    keyPem: await read("leaf.key"),
  };
}

/** The process-wide throwaway CA and leaf certificate (generated once, then cached). */
export function testCertificates(): Promise<TestCertificates> {
  certificates ??= generate();
  return certificates;
}

/**
 * Starts an HTTPS server on `127.0.0.1` (port chosen by the OS) answering with `handler`. The returned object
 * carries the base URL, the CA (file and PEM) and a `Deno.HttpClient`/`fetch` that trust it.
 */
export async function httpsServer(
  handler: (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Response | Promise<Response>,
): Promise<HttpsServer> {
  const certs = await testCertificates();
  let count = 0;
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: certs.certPem,
    key: certs.keyPem,
    onListen: () => {},
  }, (request, info) => {
    count++;
    return handler(request, info);
  });
  const port = server.addr.port;
  const client = Deno.createHttpClient({ caCerts: [certs.caPem] });
  const boundFetch: typeof fetch = (input, init) => fetch(input, { ...init, client });
  return {
    url: `https://127.0.0.1:${port}/`,
    port,
    caFile: certs.caFile,
    caPem: certs.caPem,
    client,
    fetch: boundFetch,
    requests: () => count,
    async [Symbol.asyncDispose]() {
      client.close();
      await server.shutdown();
    },
  };
}
