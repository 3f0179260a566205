/**
 * The bundled extension ("Mapper Overlay"): extracted to `~/.mapper/extension/` when missing or when the bundled
 * `manifest.json` `version` differs from the one on disk (the whole directory is replaced by the one staged swap,
 * `src/user_file.ts`; directories 0700, files 0600), loaded with `--load-extension`, and told the daemon's port
 * through `chrome.storage.local.set({serverPort})` evaluated in its service worker.
 *
 * The manifest carries a public `key`, so the extension's id (and origin, `chrome-extension://<id>`) is the same on
 * every machine and every path: the daemon's request guard allows exactly that origin.
 *
 * A page must not learn from that fixed id that the browser is a mapper browser, so the extension makes no file
 * web-accessible: its content script (`content.js`, written as a module importing `core.js` and `live_dom.js`) is
 * written to disk linked with everything it imports into one classic script ({@linkcode shippedExtension}, by the
 * linker of the page engine's script, `src/link.ts`), since a classic content script could import modules only from
 * web-accessible files.
 *
 * @module
 */
import { join } from "node:path";
import { assetsUnder } from "../assets.ts";
import { FileError } from "../errors.ts";
import { replaceDirectory, type SwapOps } from "../user_file.ts";
import { extensionId } from "../http_guard.ts";
import { linkScript } from "../link.ts";
import type { CdpConnection } from "./cdp.ts";
import type { Collector } from "./collector.ts";

/** Result of {@linkcode ensureExtension}. */
export interface ExtensionInstall {
  /** Absolute directory to pass to `--load-extension`. */
  dir: string;
  /** The bundled manifest version. */
  version: string;
  /** Whether the directory was (re)written this time. */
  installed: boolean;
  /** Whether the manifest declares a background service worker (port injection needs one). */
  hasServiceWorker: boolean;
  /** The extension's origin, `chrome-extension://<id>` (from the manifest `key`; `undefined` without one). */
  origin: string | undefined;
}

/** The id Chromium gives an extension of a manifest `key` (the one computation, shared with the request guard). */
export { extensionId };

/** The content script's modules (paths in the extension), in dependency order; the last is the entry point. */
const CONTENT_MODULES = ["vendor/dom_accessibility_api.js", "resolver.js", "live_dom.js", "core.js", "content.js"];

/**
 * The extension's files as written to disk: `files` (default: the bundled ones) with `content.js` replaced by the
 * classic script linking it with the modules it imports (unchanged when there is no `content.js`, as in tests that
 * pass their own files).
 */
export function shippedExtension(
  files: Array<[string, string]> = assetsUnder("extension"),
): Array<[string, string]> {
  const byPath = new Map(files);
  if (!byPath.has("content.js")) return files;
  const base = "file:///extension/";
  const script = linkScript(CONTENT_MODULES.map((path) => {
    const source = byPath.get(path);
    if (source === undefined) throw new Error(`the content script's module "${path}" is not bundled`);
    return { url: new URL(path, base).href, source };
  }));
  return files.map(([path, content]) => [path, path === "content.js" ? script : content]);
}

function manifestOf(
  text: string | undefined,
): { version?: string; key?: string; background?: { service_worker?: string } } {
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/**
 * Makes `<home>/.mapper/extension/` hold exactly the bundled extension (swapped in whole by
 * {@linkcode replaceDirectory}: a failed swap leaves the previous copy in place). `files` defaults to the bundled
 * extension as shipped ({@linkcode shippedExtension}; tests pass their own to simulate a version change, and `ops`
 * to inject a failing rename).
 */
export async function ensureExtension(
  home: string,
  files: Array<[string, string]> = shippedExtension(),
  ops?: SwapOps,
): Promise<ExtensionInstall> {
  const root = join(home, ".mapper");
  const dir = join(root, "extension");
  const bundled = manifestOf(files.find(([p]) => p === "manifest.json")?.[1]);
  const version = bundled.version ?? "0";
  const hasServiceWorker = typeof bundled.background?.service_worker === "string";
  const origin = typeof bundled.key === "string" ? `chrome-extension://${await extensionId(bundled.key)}` : undefined;
  let onDisk: string | undefined;
  try {
    onDisk = manifestOf(await Deno.readTextFile(join(dir, "manifest.json"))).version;
  } catch {
    onDisk = undefined;
  }
  if (onDisk === version) {
    // Extracted by an older release with looser modes: tighten them (best effort).
    await Deno.chmod(dir, 0o700).catch(() => {});
    return { dir, version, installed: false, hasServiceWorker, origin };
  }
  try {
    await Deno.mkdir(root, { recursive: true, mode: 0o700 });
    await replaceDirectory(dir, files, { dirMode: 0o700, fileMode: 0o600, ...(ops ? { ops } : {}) });
  } catch (err: unknown) {
    throw new FileError(
      `cannot extract the extension to "${dir}": ${err instanceof Error ? err.message : String(err)}`,
      {
        hint: `check permissions on "${root}" or remove "${dir}" and retry`,
      },
    );
  }
  return { dir, version, installed: true, hasServiceWorker, origin };
}

/**
 * Tells the extension the daemon's port: finds its service worker (of `origin`, when known) among the attached
 * targets (waiting up to `timeoutMs`), checks its manifest name, and sets `serverPort` in `chrome.storage.local`.
 * Only the port: the session secret never goes to the browser, so no page, content script or extension can call
 * the devtools API.
 */
export async function injectPort(
  cdp: CdpConnection,
  collector: Collector,
  port: number,
  origin: string | undefined,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no extension service worker attached";
  while (Date.now() < deadline) {
    const remaining = Math.max(1, deadline - Date.now());
    const sw = await collector.waitForSession(
      (s) => s.type === "service_worker" && s.url.startsWith(origin ? `${origin}/` : "chrome-extension://"),
      remaining,
    ).catch(() => undefined);
    if (!sw) break;
    // A freshly started worker runs its script only after it resumes: probe synchronously until the extension
    // APIs exist. Awaiting a promise in the worker before that can wedge it for good (observed on Chromium 156).
    const res = await cdp.send(
      "Runtime.evaluate",
      {
        expression: `(() => {
        const api = globalThis.chrome;
        if (!api?.storage?.local || !api.runtime?.getManifest) return "not ready";
        const m = api.runtime.getManifest();
        if (!/mapper/i.test(m.name || "")) return "not mapper: " + m.name;
        return "ready";
      })()`,
        returnByValue: true,
      },
      sw.id,
      1000,
    ).catch((err: unknown) => ({ result: { value: err instanceof Error ? err.message : String(err) } }));
    if (res.result?.value === "ready") {
      const set = await cdp.send(
        "Runtime.evaluate",
        {
          expression: `chrome.storage.local.set({ serverPort: ${port} }).then(() => "ok")`,
          awaitPromise: true,
          returnByValue: true,
        },
        sw.id,
        3000,
      ).catch((err: unknown) => ({ result: { value: err instanceof Error ? err.message : String(err) } }));
      if (set.result?.value === "ok") return;
      last = String(set.result?.value);
    } else last = String(res.result?.value);
    if (cdp.isClosed) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the "Mapper Overlay" service worker did not take the port within ${timeoutMs} ms (${last})`);
}
