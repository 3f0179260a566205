/**
 * `mapper console list|get` and `mapper network list|get`: thin clients of the session daemon. Lists and details go
 * to stdout; "saved" notices and the non-fatal "body unavailable" line go to stderr.
 *
 * `--json` shapes (all carry `"schema": 1`):
 * - `console list` / `network list`: `{schema, dropped, first, last, entries: [...]}` (the API's list payload);
 * - `console get`: `{schema, entry}`;
 * - `network get`: `{schema, entry, requestBody, responseBody}` where each body is
 *   `{available: true, size, contentType, binary, preview?, truncated?, savedTo?}` or `{available: false, reason}`
 *   (`requestBody` is `null` when the request has none). Secret headers are redacted unless `--show-secrets`.
 *
 * @module
 */
import { resolve } from "../path.ts";
import type { Io } from "../io.ts";
import { SessionError, UsageError } from "../errors.ts";
import { escapeControls, toJson } from "../terminal.ts";
import { writeUserFile } from "../user_file.ts";
// The browser area's files themselves, not its `mod.ts` (which also brings the CDP client): these commands are short,
// and every module loaded is start-up time (boundaries_test.ts allows any non-underscore file).
import {
  API_SCHEMA,
  type ConsoleEntry,
  type EntryPayload,
  isConsoleEntry,
  isEntryPayload,
  isListPayload,
  isNetworkEntry,
  type ListPayload,
  type NetworkEntry,
  type StatusPayload,
} from "../browser/daemon_api.ts";
import {
  bodyText,
  formatBodyPreview,
  formatConsoleGet,
  formatConsoleList,
  formatNetworkHead,
  formatNetworkList,
  formatRequestBodyNote,
  PREVIEW_BYTES,
} from "../browser/format.ts";
import { connect, type DaemonClient } from "./client.ts";
import { checkTab, parseLevels, parseResourceType } from "./filters.ts";

/** Options of `console list`. */
export interface ConsoleListOptions {
  /** Corpus directory whose session to use (`--dir`); else the nearest `.mapper/` up. */
  dir?: string | undefined;
  /** Only this console level. */
  level?: string | undefined;
  /** Only this tab. */
  tab?: string | undefined;
  /** At most this many entries. */
  limit?: number | undefined;
  /** Print JSON instead of text. */
  json: boolean;
}

/** Options of `console get` / `network get` (file flags only for network). */
export interface GetOptions {
  /** Corpus directory whose session to use (`--dir`); else the nearest `.mapper/` up. */
  dir?: string | undefined;
  /** Index of the entry. */
  index: string;
  /** Print JSON instead of text. */
  json: boolean;
  /** File to write the response body to. */
  responseFile?: string | undefined;
  /** File to write the request body to. */
  requestFile?: string | undefined;
  /** Show secret header values instead of masking them. */
  showSecrets?: boolean | undefined;
}

/** Options of `network list`. */
export interface NetworkListOptions {
  /** Corpus directory whose session to use (`--dir`); else the nearest `.mapper/` up. */
  dir?: string | undefined;
  /** Only this resource type. */
  type?: string | undefined;
  /** Only URLs matching this. */
  url?: string | undefined;
  /** Only this tab. */
  tab?: string | undefined;
  /** At most this many entries. */
  limit?: number | undefined;
  /** Print JSON instead of text. */
  json: boolean;
}

function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

function parseIndex(raw: string): number {
  const index = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(index)) {
    throw new UsageError(`index must be a whole number, got "${escapeControls(raw)}"`, {
      hint: "use an index shown by the list command",
    });
  }
  return index;
}

/** An empty list filtered by `--tab`: a typo (a tab the session never had) is an error listing the tabs. */
async function checkEmptyTab(client: DaemonClient, tab: string | undefined, entries: number) {
  if (tab === undefined || tab === "" || entries > 0) return;
  const status = await client.json<StatusPayload>("/devtools/status", isStatusTabs);
  checkTab(tab, status.tabs);
}

function isStatusTabs(v: unknown): boolean {
  const tabs = (v as { tabs?: unknown } | null)?.tabs;
  return Array.isArray(tabs) &&
    tabs.every((t) => t !== null && typeof t === "object" && typeof t.id === "string" && typeof t.url === "string");
}

/**
 * A list command's output. Text is rendered by the daemon (`format=text`), where the layout code is warm, and printed
 * as it came, once more escaped: a session file can name a daemon that is not ours, and no answer reaches the
 * terminal with a control character in it. A daemon that answers JSON instead (one started by an older mapper) is
 * formatted here; `--json` always is.
 */
async function listOutput<E>(
  client: DaemonClient,
  path: string,
  opts: { tab?: string | undefined; json: boolean },
  valid: (v: unknown) => boolean,
  format: (p: ListPayload<E>) => string,
): Promise<string> {
  let payload: ListPayload<E>;
  if (opts.json) {
    payload = await client.json<ListPayload<E>>(path, valid);
  } else {
    const answer = await client.get(`${path}${path.includes("?") ? "&" : "?"}format=text`);
    if (answer.contentType.startsWith("text/plain")) {
      const count = answer.header("x-mapper-entries");
      await checkEmptyTab(client, opts.tab, count === null ? 1 : Number(count));
      return escapeControls(answer.text, { keepNewlines: true });
    }
    payload = client.parse<ListPayload<E>>(path, answer.text, valid);
  }
  await checkEmptyTab(client, opts.tab, payload.entries.length);
  return opts.json ? toJson(payload) : format(payload);
}

/** Runs `mapper console list`. */
export async function runConsoleList(opts: ConsoleListOptions, io: Io): Promise<number> {
  const level = parseLevels(opts.level);
  const client = await connect(opts.dir, io);
  const path = `/devtools/console${query({ level, tab: opts.tab, limit: opts.limit })}`;
  io.stdout.write(await listOutput(client, path, opts, (v) => isListPayload(v, isConsoleEntry), formatConsoleList));
  return 0;
}

/** Runs `mapper console get`. */
export async function runConsoleGet(opts: GetOptions, io: Io): Promise<number> {
  const index = parseIndex(opts.index);
  const client = await connect(opts.dir, io);
  const { entry } = await client.json<EntryPayload<ConsoleEntry>>(
    `/devtools/console/${index}`,
    (v) => isEntryPayload(v, isConsoleEntry),
  );
  io.stdout.write(opts.json ? toJson({ schema: API_SCHEMA, entry }) : formatConsoleGet(entry));
  return 0;
}

/** Runs `mapper network list`. */
export async function runNetworkList(opts: NetworkListOptions, io: Io): Promise<number> {
  const type = parseResourceType(opts.type);
  const client = await connect(opts.dir, io);
  const path = `/devtools/network${query({ type, url: opts.url, tab: opts.tab, limit: opts.limit })}`;
  io.stdout.write(await listOutput(client, path, opts, (v) => isListPayload(v, isNetworkEntry), formatNetworkList));
  return 0;
}

/**
 * Writes a body the user asked for by the one user-file write: a page's bytes never go through a symbolic link planted
 * at the path (it is replaced), and a new file is private (0600), since a body can hold a logged-in page's data.
 */
async function save(path: string, bytes: Uint8Array, io: Io): Promise<string> {
  await writeUserFile(resolve(io.cwd, path), bytes, path, {
    hint: "pass a file path in an existing, writable directory",
  });
  return path;
}

type BodyJson =
  | {
    available: true;
    size: number;
    contentType: string;
    binary: boolean;
    preview?: string;
    truncated?: boolean;
    savedTo?: string;
  }
  | { available: false; reason: string };

function bodyJson(bytes: Uint8Array, contentType: string, savedTo: string | undefined): BodyJson {
  const text = bodyText(bytes, contentType);
  const out: BodyJson = { available: true, size: bytes.length, contentType, binary: text === undefined };
  if (savedTo !== undefined) out.savedTo = savedTo;
  else if (text !== undefined) {
    out.preview = bytes.length > PREVIEW_BYTES
      ? new TextDecoder().decode(bytes.subarray(0, PREVIEW_BYTES), { stream: true })
      : text;
    out.truncated = bytes.length > PREVIEW_BYTES;
  }
  return out;
}

/** Runs `mapper network get`. */
export async function runNetworkGet(opts: GetOptions, io: Io): Promise<number> {
  const index = parseIndex(opts.index);
  const client = await connect(opts.dir, io);
  const show = opts.showSecrets === true;
  // The daemon redacts secret header values itself unless asked for them.
  const { entry: raw } = await client.json<EntryPayload<NetworkEntry>>(
    `/devtools/network/${index}${show ? "?secrets=1" : ""}`,
    (v) => isEntryPayload(v, isNetworkEntry),
  );
  const entry: NetworkEntry = {
    ...raw,
    requestHeaders: raw.requestHeaders ?? [],
    responseHeaders: raw.responseHeaders ?? [],
  };
  // Stdout is written last: a body file that cannot be written fails the command with nothing printed.
  let text = opts.json ? "" : formatNetworkHead(entry);

  let requestBody: BodyJson | null = null;
  if (opts.requestFile !== undefined) {
    const got = await client.body(index, "request");
    if ("reason" in got) {
      throw new SessionError(`request body unavailable: ${got.reason}`, {
        hint: "only requests with a body (POST data) have one",
      });
    }
    const saved = await save(opts.requestFile, got.bytes, io);
    io.stderr.write(`request body saved: ${saved} (${got.bytes.length} bytes)\n`);
    requestBody = bodyJson(got.bytes, got.contentType, saved);
  } else if (raw.hasRequestBody) {
    const got = await client.body(index, "request");
    requestBody = "reason" in got
      ? { available: false, reason: got.reason }
      : bodyJson(got.bytes, got.contentType, undefined);
    if (!opts.json) {
      text += formatRequestBodyNote("reason" in got ? got : { size: got.bytes.length, contentType: got.contentType });
    }
  }

  let responseBody: BodyJson;
  const got = await client.body(index, "response");
  if ("reason" in got && opts.responseFile !== undefined) {
    // Asked for a file: failing quietly would leave the caller with no file and exit 0.
    throw new SessionError(`response body unavailable: ${got.reason}`, {
      hint: "nothing was written; fetch the page again and run 'mapper network get' on the new request",
    });
  }
  if ("reason" in got) {
    responseBody = { available: false, reason: got.reason };
    if (!opts.json) io.stderr.write(`response body unavailable: ${got.reason}\n`);
  } else if (opts.responseFile !== undefined) {
    const saved = await save(opts.responseFile, got.bytes, io);
    io.stderr.write(`response body saved: ${saved} (${got.bytes.length} bytes)\n`);
    responseBody = bodyJson(got.bytes, got.contentType, saved);
  } else {
    responseBody = bodyJson(got.bytes, got.contentType, undefined);
    if (!opts.json) text += formatBodyPreview("Response Body", got.bytes, got.contentType, "--response-file");
  }
  if (opts.json) text = toJson({ schema: API_SCHEMA, entry, requestBody, responseBody });
  io.stdout.write(text);
  return 0;
}
