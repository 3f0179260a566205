/**
 * A minimal DevTools-protocol client over `--remote-debugging-pipe` for page-level tests that need no session
 * daemon (layout checks of the catalog pages). Requests go to fd 3, answers come from fd 4, NUL-terminated.
 *
 * @module
 */
import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";

type Message = {
  id?: number;
  method?: string;
  sessionId?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
};

/** A headless Chromium driven over its DevTools pipe; close it with `close()`. */
export class PipeCdp {
  #next = 1;
  #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  #waiters: Array<{ method: string; sessionId?: string | undefined; resolve: () => void }> = [];
  #exited: Promise<void>;

  private constructor(private readonly child: ReturnType<typeof spawn>) {
    const input = child.stdio[4] as Readable;
    let buffer = "";
    input.setEncoding("utf8");
    input.on("data", (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf("\0"); end >= 0; end = buffer.indexOf("\0")) {
        this.#dispatch(JSON.parse(buffer.slice(0, end)) as Message);
        buffer = buffer.slice(end + 1);
      }
    });
    this.#exited = new Promise((resolve) => child.once("exit", () => resolve()));
  }

  /** Starts headless Chromium with a fresh profile directory. */
  static launch(browser: string, profile: string): Promise<PipeCdp> {
    const child = spawn(browser, [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      `--user-data-dir=${profile}`,
      "--remote-debugging-pipe",
      "about:blank",
    ], { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] });
    return Promise.resolve(new PipeCdp(child));
  }

  #dispatch(message: Message): void {
    if (message.id !== undefined) {
      const p = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (message.error) p?.reject(new Error(JSON.stringify(message.error)));
      else p?.resolve(message.result);
      return;
    }
    this.#waiters = this.#waiters.filter((w) => {
      if (w.method !== message.method || (w.sessionId !== undefined && w.sessionId !== message.sessionId)) return true;
      w.resolve();
      return false;
    });
  }

  /** Sends one command (to a page when `sessionId` is given) and resolves with its result. */
  send<T = unknown>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
    const id = this.#next++;
    const message = sessionId === undefined ? { id, method, params } : { id, method, params, sessionId };
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      (this.child.stdio[3] as Writable).write(JSON.stringify(message) + "\0");
    });
  }

  /** Resolves at the next event `method` (of one page when `sessionId` is given). */
  once(method: string, sessionId?: string): Promise<void> {
    return new Promise((resolve) => this.#waiters.push({ method, sessionId, resolve }));
  }

  /** Asks the browser to close and waits for the process to end. */
  async close(): Promise<void> {
    await Promise.race([this.send("Browser.close"), this.#exited]).catch(() => {});
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 3000);
    await this.#exited;
    clearTimeout(timer);
  }
}
