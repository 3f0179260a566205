/**
 * A headless Chromium for page-level tests that need no session daemon (layout checks of the catalog pages),
 * driven over its DevTools pipe with the project's own launcher and client (`src/browser/chromium.ts`, `cdp.ts`):
 * one implementation of the pipe transport.
 *
 * @module
 */
import { chromiumArgs, launchChromium, type LaunchedChromium } from "../src/browser/chromium.ts";

/** A headless Chromium driven over its DevTools pipe; close it with `close()`. */
export class PipeCdp {
  #waiters: Array<{ method: string; sessionId?: string | undefined; resolve: () => void }> = [];

  private constructor(private readonly chromium: LaunchedChromium) {
    chromium.cdp.onEvent = (ev) => {
      this.#waiters = this.#waiters.filter((w) => {
        if (w.method !== ev.method || (w.sessionId !== undefined && w.sessionId !== ev.sessionId)) return true;
        w.resolve();
        return false;
      });
    };
  }

  /** Starts headless Chromium with a fresh profile directory. */
  static async launch(browser: string, profile: string): Promise<PipeCdp> {
    const args = chromiumArgs({
      profile,
      headless: true,
      extensionDir: undefined,
      extraFlags: [],
      root: Deno.build.os !== "windows" && Deno.uid() === 0,
    });
    return new PipeCdp(await launchChromium(browser, args));
  }

  /** Sends one command (to a page when `sessionId` is given) and resolves with its result. */
  send<T = unknown>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
    return this.chromium.cdp.send<T & Record<string, unknown>>(method, params, sessionId);
  }

  /** Resolves at the next event `method` (of one page when `sessionId` is given). */
  once(method: string, sessionId?: string): Promise<void> {
    return new Promise((resolve) => this.#waiters.push({ method, sessionId, resolve }));
  }

  /** Asks the browser to close and waits for the process to end. */
  async close(): Promise<void> {
    await Promise.race([this.send("Browser.close"), this.chromium.exited]).catch(() => {});
    const timer = setTimeout(() => this.chromium.kill("SIGKILL"), 3000);
    await this.chromium.exited;
    clearTimeout(timer);
    this.chromium.cdp.close();
  }
}
