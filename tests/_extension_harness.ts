/**
 * Helpers of the tests that run the bundled extension in a real headless Chromium: unpack it from the bundled
 * assets, launch Chromium with it over the DevTools pipe, find its service worker, open pages and the side panel
 * (as a page of its own window: headless Chromium has no side-panel UI), evaluate in any of them, wait for
 * conditions, and take screenshots. Disposing the session kills Chromium and waits for it.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { CdpConnection, CdpEvent } from "../src/browser/cdp.ts";
import { chromiumArgs, launchChromium } from "../src/browser/chromium.ts";
import { shippedExtension } from "../src/browser/extension.ts";
import type { TempDir } from "./_helpers.ts";
import { requireBrowser } from "./site/harness.ts";

/** Polls `probe` every 100 ms until it returns something other than `undefined`/`false`; throws after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (e: unknown) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ""}`);
}

/** Writes the bundled extension under `dir` exactly as `mapper browser start` extracts it; returns its folder. */
export async function unpackExtension(dir: TempDir): Promise<string> {
  const extDir = dir.join("extension");
  for (const [rel, content] of shippedExtension()) {
    await Deno.mkdir(dirname(join(extDir, rel)), { recursive: true });
    await Deno.writeTextFile(join(extDir, rel), content);
  }
  return extDir;
}

/** A headless Chromium with the extension loaded, and the CDP plumbing the tests need. */
export interface ExtensionBrowser extends AsyncDisposable {
  cdp: CdpConnection;
  /** The extension's id (fixed by the manifest key). */
  extensionId: string;
  /** A CDP session on the extension's service worker (Runtime enabled). */
  worker: string;
  /** Console lines per CDP session, in order. */
  logs(session: string): string[];
  /** Uncaught exceptions anywhere (worker, pages, panels). */
  exceptions: string[];
  /** Evaluates an expression (promises awaited) in a session; throws on an exception. */
  evaluate(session: string, expression: string): Promise<unknown>;
  /** Opens a target (a page in a new window) and returns its session with Runtime and Page enabled. */
  open(url: string): Promise<string>;
  /** Announces a server port the way `mapper browser start` does. */
  announce(port: number): Promise<void>;
  /** A PNG screenshot of a page session, written to `path`. */
  screenshot(session: string, path: string): Promise<void>;
}

/** Launches Chromium with the unpacked extension in `dir` (its own profile there too). */
export async function launchWithExtension(dir: TempDir): Promise<ExtensionBrowser> {
  const extDir = await unpackExtension(dir);
  // The session's own flags (`mapper browser start` launches with these), headless.
  const args = chromiumArgs({
    profile: dir.join("profile"),
    headless: true,
    extensionDir: extDir,
    extraFlags: ["--hide-scrollbars"],
    root: Deno.build.os !== "windows" && Deno.uid() === 0,
  });
  const chromium = await launchChromium(requireBrowser(), args);
  const cdp = chromium.cdp;
  const consoleBySession = new Map<string, string[]>();
  const exceptions: string[] = [];
  cdp.onEvent = (e: CdpEvent) => {
    if (e.method === "Runtime.exceptionThrown") exceptions.push(JSON.stringify(e.params.exceptionDetails));
    if (e.method !== "Runtime.consoleAPICalled" || e.sessionId === undefined) return;
    const args = (e.params.args as Array<{ value?: unknown }>) ?? [];
    const lines = consoleBySession.get(e.sessionId) ?? [];
    lines.push(args.map((a) => String(a.value ?? "")).join(" "));
    consoleBySession.set(e.sessionId, lines);
  };
  const evaluate = async (session: string, expression: string): Promise<unknown> => {
    const r = await cdp.send<{ result: { value?: unknown }; exceptionDetails?: unknown }>(
      "Runtime.evaluate",
      { expression, awaitPromise: true, returnByValue: true },
      session,
    );
    if (r.exceptionDetails) throw new Error(`evaluate failed: ${JSON.stringify(r.exceptionDetails)}`);
    return r.result.value;
  };
  const attach = async (targetId: string) =>
    (await cdp.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true })).sessionId;
  const dispose = async () => {
    chromium.kill("SIGTERM");
    const timer = setTimeout(() => chromium.kill("SIGKILL"), 3000);
    await chromium.exited;
    clearTimeout(timer);
    cdp.close();
  };
  try {
    const found = await until("the extension's service worker", async () => {
      const { targetInfos } = await cdp.send<{ targetInfos: Array<{ type: string; url: string; targetId: string }> }>(
        "Target.getTargets",
      );
      return targetInfos.find((t) => t.type === "service_worker" && t.url.startsWith("chrome-extension://"));
    });
    const worker = await attach(found.targetId);
    // Right after attaching, the worker's global scope may not be set up yet.
    await until("the worker's chrome API", () => evaluate(worker, `typeof chrome.storage === "object"`));
    await cdp.send("Runtime.enable", {}, worker);
    return {
      cdp,
      extensionId: new URL(found.url).host,
      worker,
      logs: (session) => consoleBySession.get(session) ?? [],
      exceptions,
      evaluate,
      async open(url) {
        const { targetId } = await cdp.send<{ targetId: string }>("Target.createTarget", {
          url: "about:blank",
          newWindow: true,
        });
        const session = await attach(targetId);
        await cdp.send("Runtime.enable", {}, session);
        await cdp.send("Page.enable", {}, session);
        await cdp.send("Page.navigate", { url }, session);
        return session;
      },
      async announce(port) {
        await evaluate(worker, `chrome.storage.local.set({ serverPort: ${port} })`);
      },
      async screenshot(session, path) {
        const { data } = await cdp.send<{ data: string }>("Page.captureScreenshot", { format: "png" }, session);
        await Deno.writeFile(path, Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
      },
      [Symbol.asyncDispose]: dispose,
    };
  } catch (e) {
    await dispose();
    throw e;
  }
}

/** A loopback server on `port` (0: any) answering with `handler`; disposing shuts it down. */
export function serve(
  handler: (req: Request) => Response | Promise<Response>,
  port = 0,
): { port: number } & AsyncDisposable {
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, handler);
  return { port: server.addr.port, [Symbol.asyncDispose]: () => server.shutdown() };
}
