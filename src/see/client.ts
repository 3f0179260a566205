/**
 * The page commands' call into the session daemon: `POST /devtools/page/<command>` through the devtools client
 * (session file lookup, typed errors), answered with the command's JSON payload.
 *
 * @module
 */
import type { Io } from "../io.ts";
// The client itself, not `devtools/mod.ts`, which also brings the console and network commands and their formatter.
import { connect } from "../devtools/client.ts";

/** Posts `body` to `/devtools/page/<command>` of the session of corpus directory `dir`; resolves with the answer. */
export async function pageCall<T>(
  dir: string | undefined,
  io: Io,
  command: string,
  body: Record<string, unknown>,
  timeoutMs = 60_000,
): Promise<T> {
  const client = await connect(dir, io);
  return await client.post<T>(`/devtools/page/${command}`, body, timeoutMs);
}
