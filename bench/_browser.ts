/**
 * What the browser bench scripts share: their one answer when no Chromium is found (a line saying so on stdout and
 * exit 0, as the `deno bench` files skip their browser benches — a clone without a browser still runs every bench
 * script), and the timed snapshot calls (the whole CLI process, the daemon's part alone).
 *
 * @module
 */
import { BROWSER, runRaw, type TestSession } from "../tests/site/harness.ts";

/** The Chromium binary; without one, says the bench is skipped and ends the script with exit 0. */
export function browserOrSkip(): string {
  if (BROWSER === undefined) {
    // deno-lint-ignore no-console
    console.log("no browser found: skipped (set MAPPER_BROWSER or put chromium on PATH)");
    Deno.exit(0);
  }
  return BROWSER;
}

/** How long `fn` took, in milliseconds. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** `mapper snapshot` in the session as a whole CLI process; throws when it fails. */
export async function cliSnapshot(s: TestSession): Promise<void> {
  const out = await runRaw(s, ["snapshot"]);
  if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
}

/** The daemon's part of a snapshot alone (`POST /devtools/page/snapshot`): its answer, parsed. */
export async function daemonSnapshot(s: TestSession): Promise<{ page: { elements: number } }> {
  const res = await fetch(`http://127.0.0.1:${s.port}/devtools/page/snapshot`, {
    method: "POST",
    headers: { authorization: `Bearer ${s.secret}` },
    body: "{}",
  });
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  return await res.json();
}
