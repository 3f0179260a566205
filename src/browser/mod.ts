/**
 * The managed browser session: Chromium launch, the CDP collector and the session daemon. This module is what
 * other areas may use: the daemon's devtools API (paths, payloads, record shapes) and the session file, which the
 * `console` / `network` commands read to find a running session. The `browser start|stop|status` implementations
 * are loaded by the command table directly (lazily, per command).
 *
 * @module
 */
export * from "./daemon_api.ts";
export * from "./format.ts";
export { type PublicSession, publicSession, readSession, type SessionInfo, sessionPath } from "./session_file.ts";
export {
  daemonRequest,
  handshake,
  locateSession,
  noSessionError,
  openSession,
  type Session,
  type SessionPlace,
  staleLine,
} from "./session.ts";
export { pidAlive } from "./process.ts";
export {
  allowedSchemes,
  assertOpenable,
  parseAllowSchemes,
  type SchemeRefusal,
  schemeRefusal,
  schemesOption,
  WEB_SCHEMES,
} from "./schemes.ts";
export {
  asKnownEvent,
  type CdpConnection,
  CdpError,
  type CdpEvent,
  type CdpEventName,
  type CdpEventParams,
  type CdpMethod,
  type CdpParams,
  type CdpResult,
  type CdpSessionSend,
  CdpTimeout,
  isEvent,
  type KnownCdpEvent,
  type TypedCdpEvent,
  type UnmappedMethod,
} from "./cdp.ts";
export type { Unreadable } from "./session_file.ts";
export type { LoopbackInit, LoopbackResponse } from "./_loopback_http.ts";
export type { SessionError } from "../errors.ts";
export type { Io, Sink } from "../io.ts";
