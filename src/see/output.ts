/**
 * The one writer of the page commands' results: text for people and agents, or `--json` (one object, `"schema": 1`
 * first, on stdout), to stdout or to `--out FILE` (then stdout gets one `saved FILE (N bytes)` line; the file is
 * written by the one user-file write, `src/user_file.ts`).
 *
 * @module
 */
import { resolve } from "../path.ts";
import type { Io } from "../io.ts";
import { escapeControls, toJson } from "../terminal.ts";
import { writeUserFile } from "../user_file.ts";
import { PAGE_SCHEMA } from "./page_api.ts";

/** Output flags every page command shares. */
export interface OutputOptions {
  json: boolean;
  /** Write the result to this file instead of stdout. */
  out?: string | undefined;
}

/** `payload` as the `--json` text (the one JSON writer): `schema` first, two-space indent, trailing newline. */
export function jsonText(payload: Record<string, unknown>): string {
  const { schema: _drop, ...rest } = payload;
  return toJson({ schema: PAGE_SCHEMA, ...rest });
}

/**
 * Writes a command's result: `text` or the JSON of `payload`, to stdout or `--out`. Either may be given as a function,
 * called only when that form is written: a large page's layout costs milliseconds a short command should not spend
 * on the form it does not print.
 */
export async function writeResult(
  io: Io,
  opts: OutputOptions,
  text: string | (() => string),
  payload: Record<string, unknown> | (() => Record<string, unknown>),
): Promise<void> {
  const body = opts.json
    ? jsonText(typeof payload === "function" ? payload() : payload)
    : typeof text === "function"
    ? text()
    : text;
  await writeBody(io, opts, body);
}

/** Writes `body`, a result already laid out (text or `--json` document), to stdout or `--out`. */
export async function writeBody(io: Io, opts: OutputOptions, body: string): Promise<void> {
  if (opts.out === undefined) {
    io.stdout.write(body);
    return;
  }
  const bytes = new TextEncoder().encode(body);
  // A planted symbolic link at the path is replaced, not written through; a new file is private (0600).
  await writeUserFile(resolve(io.cwd, opts.out), bytes, opts.out, {
    hint: "pass --out with a file path in an existing, writable directory",
  });
  io.stdout.write(`saved ${escapeControls(opts.out)} (${bytes.length} bytes)\n`);
}
