/**
 * The one writer of the page commands' results: text for people and agents, or `--json` (one object, `"schema": 1`
 * first, on stdout), to stdout or to `--out FILE` (then stdout gets one `saved FILE (N bytes)` line).
 *
 * @module
 */
import { resolve } from "../path.ts";
import type { Io } from "../io.ts";
import { FileError } from "../errors.ts";
import { escapeControls, toJson } from "../terminal.ts";
import { PAGE_SCHEMA } from "./api.ts";

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

/** Writes a command's result: `text` or the JSON of `payload`, to stdout or `--out`. */
export async function writeResult(
  io: Io,
  opts: OutputOptions,
  text: string,
  payload: Record<string, unknown>,
): Promise<void> {
  const body = opts.json ? jsonText(payload) : text;
  if (opts.out === undefined) {
    io.stdout.write(body);
    return;
  }
  const bytes = new TextEncoder().encode(body);
  try {
    await Deno.writeFile(resolve(io.cwd, opts.out), bytes);
  } catch (err: unknown) {
    throw new FileError(
      `cannot write "${escapeControls(opts.out)}": ${err instanceof Error ? err.message : String(err)}`,
      { hint: "pass --out with a file path in an existing, writable directory" },
    );
  }
  io.stdout.write(`saved ${escapeControls(opts.out)} (${bytes.length} bytes)\n`);
}
