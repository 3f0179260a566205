/**
 * Worker side of the parse pool (`_parse_pool.ts`): decodes the files it is sent with the one decoder
 * (`_decode.ts`) and answers with plain data: each file's decoded entries (or nothing on a fatal problem) and its
 * diagnostics, exactly as an in-process decode would produce them.
 *
 * Message in: `{ id, files: [{ path, text }] }`; out: `{ id, results: [{ raw, fatal, warnings }] }` or
 * `{ id, error }` when decoding threw (a bug: the pool rethrows it).
 *
 * @module
 */
/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
import { decodeFile } from "./_decode.ts";
import type { ParseOutcome, ParseRequest } from "./_parse_pool.ts";

self.onmessage = (event: MessageEvent<ParseRequest>) => {
  const { id, files } = event.data;
  try {
    const results: ParseOutcome[] = files.map(({ path, text }) => {
      const fatal: ParseOutcome["fatal"] = [];
      const warnings: ParseOutcome["warnings"] = [];
      const raw = decodeFile(path, text, fatal, warnings);
      return { raw, fatal, warnings };
    });
    self.postMessage({ id, results });
  } catch (err: unknown) {
    self.postMessage({ id, error: err instanceof Error ? err.stack ?? err.message : String(err) });
  }
};
