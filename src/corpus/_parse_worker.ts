/**
 * Worker side of the parse pool (`_parse_pool.ts`): decodes the files it is sent with the one decoder
 * (`_decode.ts`, through `decodeJobs`) and answers with plain data: each file's decoded entries (or nothing on a fatal problem) and its
 * diagnostics, exactly as an in-process decode would produce them.
 *
 * Message in: `{ id, files: [{ path, text }], validate }`; out: `{ id, results: [{ raw, fatal, warnings }] }` or
 * `{ id, error }` when decoding threw (a bug: the pool rethrows it).
 *
 * @module
 */
/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
import { decodeChecks, decodeJobs, type ParseRequest } from "./_parse_pool.ts";

self.onmessage = async (event: MessageEvent<ParseRequest>) => {
  const { id, files, validate } = event.data;
  try {
    const results = await decodeJobs(files, await decodeChecks(validate));
    self.postMessage({ id, results });
  } catch (err: unknown) {
    self.postMessage({ id, error: err instanceof Error ? err.stack ?? err.message : String(err) });
  }
};
