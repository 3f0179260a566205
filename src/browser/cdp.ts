/**
 * A minimal Chrome DevTools Protocol client over the built-in `WebSocket`: one browser-level connection, flattened
 * sessions (`sessionId` on each message), promise-returning commands and one synchronous event callback.
 *
 * Events are handed to {@linkcode CdpConnection.onEvent} straight from the socket's message handler, in arrival
 * order, with no queue in between: nothing can be dropped however fast the browser talks.
 *
 * @module
 */

/** One protocol event: its method, parameters and the flattened session it came from (none for the browser). */
export interface CdpEvent {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly sessionId: string | undefined;
}

/** A command answered with a protocol error (`{code, message}`), or the connection went away before an answer. */
export class CdpError extends Error {
  /** The protocol error code (`-32000` is the generic server error; `0` when the connection closed). */
  readonly code: number;
  /** Creates the error from a protocol error object. */
  constructor(method: string, code: number, message: string) {
    super(`${method}: ${message}`);
    this.name = "CdpError";
    this.code = code;
  }
}

interface Pending {
  method: string;
  resolve: (value: Record<string, unknown>) => void;
  reject: (err: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** A live connection to a browser's DevTools WebSocket. Dispose (or {@linkcode close}) to close it. */
export class CdpConnection implements Disposable {
  #ws: WebSocket;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  #closed: Promise<void>;
  #isClosed = false;
  /** Called for every event, synchronously, in arrival order. */
  onEvent: (event: CdpEvent) => void = () => {};

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    this.#closed = new Promise((resolve) => {
      ws.addEventListener("close", () => {
        this.#isClosed = true;
        for (const [id, p] of this.#pending) {
          if (p.timer !== undefined) clearTimeout(p.timer);
          p.reject(new CdpError(p.method, 0, "the DevTools connection closed"));
          this.#pending.delete(id);
        }
        resolve();
      });
    });
    ws.addEventListener("message", (ev: MessageEvent) => this.#onMessage(ev.data));
  }

  /** Opens a connection to a `ws://…/devtools/browser/<id>` URL; rejects if it does not open within `timeoutMs`. */
  static connect(url: string, timeoutMs = 10_000): Promise<CdpConnection> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const timer = setTimeout(() => {
        ws.close();
        reject(new Error(`timed out after ${timeoutMs} ms connecting to "${url}"`));
      }, timeoutMs);
      ws.addEventListener("open", () => {
        clearTimeout(timer);
        resolve(new CdpConnection(ws));
      }, { once: true });
      ws.addEventListener("error", (ev) => {
        clearTimeout(timer);
        reject(new Error(`cannot connect to "${url}": ${(ev as ErrorEvent).message ?? "connection failed"}`));
      }, { once: true });
    });
  }

  /** Resolves once the socket has closed (browser gone or {@linkcode close} called). */
  get closed(): Promise<void> {
    return this.#closed;
  }

  /** Whether the socket has closed. */
  get isClosed(): boolean {
    return this.#isClosed;
  }

  /**
   * Sends a command (on a flattened session when `sessionId` is given) and resolves with its result. Commands on
   * one session run in the order they were sent, so callers may fire several without awaiting in between.
   */
  send<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
    timeoutMs = 30_000,
  ): Promise<T> {
    if (this.#isClosed) return Promise.reject(new CdpError(method, 0, "the DevTools connection is closed"));
    const id = this.#nextId++;
    const message: Record<string, unknown> = { id, method, params };
    if (sessionId !== undefined) message.sessionId = sessionId;
    return new Promise<T>((resolve, reject) => {
      const timer = timeoutMs > 0
        ? setTimeout(() => {
          this.#pending.delete(id);
          reject(new CdpError(method, 0, `no answer within ${timeoutMs} ms`));
        }, timeoutMs)
        : undefined;
      this.#pending.set(id, { method, resolve: resolve as (v: Record<string, unknown>) => void, reject, timer });
      try {
        this.#ws.send(JSON.stringify(message));
      } catch (err: unknown) {
        this.#pending.delete(id);
        if (timer !== undefined) clearTimeout(timer);
        reject(new CdpError(method, 0, err instanceof Error ? err.message : String(err)));
      }
    });
  }

  #onMessage(data: unknown): void {
    if (typeof data !== "string") return;
    let msg: {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      sessionId?: string;
      result?: Record<string, unknown>;
      error?: { code?: number; message?: string };
    };
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof msg.id === "number") {
      const p = this.#pending.get(msg.id);
      if (!p) return;
      this.#pending.delete(msg.id);
      if (p.timer !== undefined) clearTimeout(p.timer);
      if (msg.error) p.reject(new CdpError(p.method, msg.error.code ?? -1, msg.error.message ?? "unknown error"));
      else p.resolve(msg.result ?? {});
      return;
    }
    if (typeof msg.method === "string") {
      try {
        this.onEvent({ method: msg.method, params: msg.params ?? {}, sessionId: msg.sessionId });
      } catch {
        // A handler bug must not take the connection down; the collector logs its own failures.
      }
    }
  }

  /** Closes the socket. Pending commands reject. */
  close(): void {
    if (this.#isClosed) return;
    try {
      this.#ws.close();
    } catch {
      // already closing
    }
  }

  /** Same as {@linkcode close}. */
  [Symbol.dispose](): void {
    this.close();
  }
}
