/**
 * A minimal Chrome DevTools Protocol client: one browser-level connection over Chromium's
 * `--remote-debugging-pipe` (see {@linkcode pipeTransport}), flattened sessions (`sessionId` on each message),
 * promise-returning commands and one synchronous event callback. There is no TCP endpoint: only the process that
 * launched Chromium holds the pipe, so nothing else on the machine can drive the browser.
 *
 * Events are handed to {@linkcode CdpConnection.onEvent} straight from the pipe's reader, in arrival order, with no
 * queue in between: nothing can be dropped however fast the browser talks. Oversized events are cut while they
 * stream in (`_pipe.ts`), so a page cannot make the daemon hold a 50 MB console message.
 *
 * @module
 */
import type { Readable, Writable } from "node:stream";
// Types only (erased at run time): the protocol's own description of every command and event, so a misspelt
// parameter or result field fails `deno check` instead of being silently ignored by Chromium.
import type { ProtocolMapping } from "devtools-protocol/types/protocol-mapping.d.ts";
import type { Protocol } from "devtools-protocol/types/protocol.d.ts";
import { NulFramer } from "./_pipe.ts";

/** The protocol's domain types (`Protocol.Network.Response`, …), for code that reads what an event carries. */
export type { Protocol, ProtocolMapping };

/** A command the protocol description knows (`Runtime.evaluate`, `Network.getResponseBody`, …). */
export type CdpMethod = keyof ProtocolMapping.Commands;
/** The parameters of a known command. */
export type CdpParams<M extends CdpMethod> = ProtocolMapping.Commands[M]["paramsType"] extends []
  ? Record<string, never>
  : NonNullable<ProtocolMapping.Commands[M]["paramsType"][0]>;
/** The result of a known command. */
export type CdpResult<M extends CdpMethod> = ProtocolMapping.Commands[M]["returnType"] extends void
  ? Record<string, never>
  : ProtocolMapping.Commands[M]["returnType"];
/** An event the protocol description knows (`Network.requestWillBeSent`, …). */
export type CdpEventName = keyof ProtocolMapping.Events;
/** The parameters of a known event. */
export type CdpEventParams<E extends CdpEventName> = ProtocolMapping.Events[E] extends [infer P] ? P
  : Record<string, never>;

/** A method name the protocol description lacks (`never` for one it knows, so known ones take the typed form). */
export type UnmappedMethod<M extends string> = M extends CdpMethod ? never : unknown;

/**
 * `send` on a session already chosen (a tab's), typed like {@linkcode CdpConnection.send}: a known command's
 * parameters and result are the protocol's; an unknown one, or an explicit result type `T`, takes the untyped form.
 */
export interface CdpSessionSend {
  <M extends CdpMethod>(method: M, params?: CdpParams<M>, timeoutMs?: number): Promise<CdpResult<M>>;
  <T = Record<string, unknown>, M extends string = string>(
    method: M & UnmappedMethod<M>,
    params?: object,
    timeoutMs?: number,
  ): Promise<T>;
}

/** One protocol event: its method, parameters and the flattened session it came from (none for the browser). */
export interface CdpEvent {
  /** Event name. */
  readonly method: string;
  /** Event parameters. */
  readonly params: Record<string, unknown>;
  /** Session the event belongs to (`undefined` for browser-level events). */
  readonly sessionId: string | undefined;
}

/** A known event with its parameters typed; narrow a {@linkcode CdpEvent} to it with {@linkcode isEvent}. */
export interface TypedCdpEvent<E extends CdpEventName> {
  /** Event name. */
  readonly method: E;
  /** Event parameters. */
  readonly params: CdpEventParams<E>;
  /** Session the event belongs to (`undefined` for browser-level events). */
  readonly sessionId: string | undefined;
}

/**
 * Every known event, a union discriminated on `method`: `switch (ev.method)` narrows `ev.params`. A {@linkcode CdpEvent}
 * is this by Chromium's word (see {@linkcode asKnownEvent}).
 */
export type KnownCdpEvent = { [E in CdpEventName]: TypedCdpEvent<E> }[CdpEventName];

/**
 * The event as the protocol describes it. Not checked: oversized strings arrive cut (`_pipe.ts`) and fields the
 * description marks optional may be missing, so read them defensively still.
 */
export function asKnownEvent(ev: CdpEvent): KnownCdpEvent {
  return ev as unknown as KnownCdpEvent;
}

/**
 * Whether `ev` is the event `method`, narrowing its parameters to the protocol's type (Chromium's word, as
 * {@linkcode asKnownEvent} says).
 */
export function isEvent<E extends CdpEventName>(ev: CdpEvent, method: E): ev is CdpEvent & TypedCdpEvent<E> {
  return ev.method === method;
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

/** A command the browser did not answer within its time (`send`'s `timeoutMs`): a busy page, a slow server. */
export class CdpTimeout extends CdpError {
  /** The time it was given. */
  readonly timeoutMs: number;
  /** Creates the error. */
  constructor(method: string, timeoutMs: number) {
    super(method, 0, `no answer within ${timeoutMs} ms`);
    this.name = "CdpTimeout";
    this.timeoutMs = timeoutMs;
  }
}

interface Pending {
  method: string;
  resolve: (value: Record<string, unknown>) => void;
  reject: (err: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * How a connection reaches the browser: `send` one JSON message; the transport calls `onMessage` for each message
 * received and `onClose` once, when the browser end is gone.
 */
export interface CdpTransport {
  send(message: string): void;
  close(): void;
  onMessage: (text: string) => void;
  onClose: () => void;
}

/**
 * The `--remote-debugging-pipe` transport: requests written to Chromium's fd 3 (`input`), answers read from its
 * fd 4 (`output`), each message terminated by a NUL byte. Stream errors (the browser died: EPIPE) close it.
 */
export function pipeTransport(input: Writable, output: Readable): CdpTransport {
  let closed = false;
  const t: CdpTransport = {
    onMessage: () => {},
    onClose: () => {},
    send(message) {
      if (closed) throw new Error("the DevTools pipe is closed");
      input.write(message + "\u0000");
    },
    close() {
      finish();
      input.destroy();
      output.destroy();
    },
  };
  const framer = new NulFramer((text) => t.onMessage(text));
  const finish = () => {
    if (closed) return;
    closed = true;
    t.onClose();
  };
  output.on("data", (chunk: Uint8Array) => framer.push(chunk));
  output.on("end", finish);
  output.on("close", finish);
  output.on("error", finish);
  input.on("error", finish);
  input.on("close", finish);
  return t;
}

/** A live connection to a browser. Dispose (or {@linkcode close}) to close it. */
export class CdpConnection implements Disposable {
  #transport: CdpTransport;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  #closed: Promise<void>;
  #isClosed = false;
  /** Called for every event, synchronously, in arrival order. */
  onEvent: (event: CdpEvent) => void = () => {};

  /** Creates a connection over a transport (see {@linkcode pipeTransport}). */
  constructor(transport: CdpTransport) {
    this.#transport = transport;
    this.#closed = new Promise((resolve) => {
      transport.onClose = () => {
        this.#isClosed = true;
        for (const [id, p] of this.#pending) {
          if (p.timer !== undefined) clearTimeout(p.timer);
          p.reject(new CdpError(p.method, 0, "the DevTools connection closed"));
          this.#pending.delete(id);
        }
        resolve();
      };
    });
    transport.onMessage = (text) => this.#onMessage(text);
  }

  /** Resolves once the connection has closed (browser gone or {@linkcode close} called). */
  get closed(): Promise<void> {
    return this.#closed;
  }

  /** Whether the connection has closed. */
  get isClosed(): boolean {
    return this.#isClosed;
  }

  /**
   * Sends a command (on a flattened session when `sessionId` is given) and resolves with its result. Commands on
   * one session run in the order they were sent, so callers may fire several without awaiting in between.
   */
  send<M extends CdpMethod>(
    method: M,
    params?: CdpParams<M>,
    sessionId?: string,
    timeoutMs?: number,
  ): Promise<CdpResult<M>>;
  /**
   * The untyped form, for a command the protocol description lacks (experimental, newer than the pinned
   * `devtools-protocol`) or a caller that names its own result type `T` (not checked against the protocol).
   */
  send<T = Record<string, unknown>, M extends string = string>(
    method: M & UnmappedMethod<M>,
    params?: object,
    sessionId?: string,
    timeoutMs?: number,
  ): Promise<T>;
  send(
    method: string,
    params: object = {},
    sessionId?: string,
    timeoutMs = 30_000,
  ): Promise<unknown> {
    if (this.#isClosed) return Promise.reject(new CdpError(method, 0, "the DevTools connection is closed"));
    const id = this.#nextId++;
    const message: Record<string, unknown> = { id, method, params };
    if (sessionId !== undefined) message.sessionId = sessionId;
    return new Promise<unknown>((resolve, reject) => {
      const timer = timeoutMs > 0
        ? setTimeout(() => {
          this.#pending.delete(id);
          reject(new CdpTimeout(method, timeoutMs));
        }, timeoutMs)
        : undefined;
      this.#pending.set(id, { method, resolve: resolve as (v: Record<string, unknown>) => void, reject, timer });
      try {
        this.#transport.send(JSON.stringify(message));
      } catch (err: unknown) {
        this.#pending.delete(id);
        if (timer !== undefined) clearTimeout(timer);
        reject(new CdpError(method, 0, err instanceof Error ? err.message : String(err)));
      }
    });
  }

  #onMessage(data: string): void {
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

  /** Closes the connection. Pending commands reject. */
  close(): void {
    if (this.#isClosed) return;
    try {
      this.#transport.close();
    } catch {
      // already closing
    }
  }

  /** Same as {@linkcode close}. */
  [Symbol.dispose](): void {
    this.close();
  }
}
