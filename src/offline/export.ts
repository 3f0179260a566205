/**
 * `mapper export [-o FILE] [--url URL]`: the compiled corpus — the `/mapper` JSON exactly as `serve-mapper` serves
 * it, from the same load (every `validate` check) and the one `compile` — to standard output, to a file, or sent
 * to a URL. Never captures, the session file or anything else of `.mapper/`.
 *
 * - A corpus with an error is refused (its errors listed, as `validate` words them): nothing is written or sent.
 * - `-o FILE`: the exact bytes, written through a temp file and renamed into place (a link at FILE is replaced,
 *   never followed; a new file is 0600). Standard output: the same JSON with `<`, `>`, `&`, C1 controls and
 *   bidirectional overrides written as `\uXXXX` (the same value; no byte can act on a terminal), then a newline.
 * - `--url URL`: POSTed as `application/json` under the atlas transport policy (HTTPS, or plain HTTP to a literal
 *   loopback address; no credentials in the URL; certificates always checked), no redirect followed (a 3xx fails
 *   naming where it pointed), 30 s for the whole exchange, at most 64 KiB of the reply read. Secrets in the URL's
 *   query are never printed (`?token=REDACTED`). A 2xx answer: `sent 14.2 KB (3 views) to URL → 201`; any other
 *   status is a failure showing the start of the reply.
 *
 * Exit 0 sent or written; 1 refused (corpus errors, URL policy, redirect, non-2xx, unreachable); 2 `-o` with
 * `--url`.
 *
 * @module
 */
import { resolve } from "node:path";
import { formatDiagnostic } from "../corpus/mod.ts";
import { allowedUrl, post } from "../atlas/transport.ts";
import { DataError, NetworkError, PolicyError, UsageError } from "../errors.ts";
import type { Io } from "../io.ts";
import { redactUrl } from "../redact.ts";
import { escapeControls, jsonSafe } from "../terminal.ts";
import { writeUserFile } from "../user_file.ts";
import { corpusDir, loadCorpus } from "./corpus_dir.ts";

/** Options of {@linkcode runExport} (the command's flags). */
export interface ExportOptions {
  /** Write the JSON to this file (relative to `io.cwd`). */
  out?: string;
  /** POST the JSON to this URL. */
  url?: string;
  /** Corpus directory (default: the nearest `.mapper/` here or above). */
  dir?: string;
}

/** `14.2 KB` (1000-based, one decimal), `812 B`. */
function size(bytes: number): string {
  return bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(1)} KB`;
}

const URL_HINT = "use an https:// URL, or plain http:// to 127.0.0.1 or [::1]";

/**
 * The URL `--url` may send the corpus to: the atlas policy, and plain HTTP only to a literal loopback address. The
 * atlas also lets plain HTTP reach the name `localhost` (it only reads); a name is resolved by whatever the machine's
 * resolver says, and the whole corpus is not sent in clear text on a name's word.
 */
function exportUrl(text: string): URL {
  const url = allowedUrl(text, URL_HINT);
  if (url.protocol === "http:" && url.hostname !== "127.0.0.1" && url.hostname !== "[::1]") {
    throw new PolicyError(
      `refusing "${
        escapeControls(redactUrl(url.href))
      }": plain HTTP is sent only to a literal loopback address, not to ` +
        `the name ${escapeControls(url.hostname)}`,
      { hint: URL_HINT },
    );
  }
  return url;
}

/** Runs `mapper export`; returns the exit code. */
export async function runExport(opts: ExportOptions, io: Io): Promise<number> {
  if (opts.out !== undefined && opts.url !== undefined) {
    throw new UsageError("-o and --url conflict", { hint: "write the corpus to a file, or send it, in two runs" });
  }
  // The URL is checked before the corpus is even read: a refused URL costs nothing and sends nothing.
  const url = opts.url === undefined ? undefined : exportUrl(opts.url);
  const dir = corpusDir(opts.dir, io);
  const loaded = await loadCorpus(dir, io, true);
  const errors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    for (const d of errors) io.stderr.write(`${escapeControls(formatDiagnostic(d))} [${d.code}]\n`);
    const n = errors.length;
    throw new DataError(
      `refusing to export "${escapeControls(dir.shown)}": ${n} ${n === 1 ? "error" : "errors"} (listed above)`,
      { hint: "fix them ('mapper validate' explains each) and run this again" },
    );
  }
  const wire = loaded.wire;
  const json = JSON.stringify(wire);
  const bytes = new TextEncoder().encode(json);
  const views = `${wire.views.length} ${wire.views.length === 1 ? "view" : "views"}`;
  if (url !== undefined) return await send(url, bytes, views, io);
  if (opts.out !== undefined) {
    await writeUserFile(resolve(io.cwd, opts.out), bytes, opts.out);
    io.stdout.write(`saved ${escapeControls(opts.out)} (${bytes.length} bytes, ${views})\n`);
    return 0;
  }
  io.stdout.write(`${jsonSafe(json)}\n`);
  return 0;
}

async function send(url: URL, bytes: Uint8Array, views: string, io: Io): Promise<number> {
  const shown = escapeControls(redactUrl(url.href));
  const answer = await post(url, bytes, io, { contentType: "application/json" });
  const status = `${answer.status}${answer.statusText ? ` ${answer.statusText}` : ""}`;
  if (answer.status < 200 || answer.status > 299) {
    const reply = new TextDecoder().decode(answer.reply).replace(/\s+/g, " ").trim();
    const start = [...reply].slice(0, 200).join("");
    throw new NetworkError(
      `POST ${shown} → ${status}${start ? `: ${escapeControls(start)}` : ""}`,
      { hint: "the corpus was not accepted; check the URL and what the server expects" },
    );
  }
  io.stdout.write(`sent ${size(bytes.length)} (${views}) to ${shown} → ${status}\n`);
  if (answer.replyCut) io.stderr.write("note: the reply was longer than 64 KiB; the rest was not read\n");
  return 0;
}
