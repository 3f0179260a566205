/**
 * The CLI side of the page commands that see: `mapper snapshot`. Thin: flags → one daemon call → the laid-out answer written.
 *
 * @module
 */
import { resolve } from "../path.ts";
import type { Io } from "../io.ts";
import { SessionError } from "../errors.ts";
// The policy file itself, not the browser area's mod.ts (which brings the CDP client): start-up stays light.
import { schemesOption } from "../browser/schemes.ts";
import type { PrintedSnapshot, SnapshotPayload, SnapshotPrint } from "./page_api.ts";
import { pageCall } from "./client.ts";
import { writeBody } from "./output.ts";
import { writeUserFile } from "../user_file.ts";
import { escapeControls } from "../terminal.ts";
import { lazy } from "../lazy.ts";

const HINT_RESTART = { hint: "restart the session: 'mapper browser stop', then 'mapper browser start'" };

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Options of `mapper snapshot`. */
export interface SnapshotOptions {
  /** `--dir`; absent: the session is found walking up from the working directory. */
  dir?: string | undefined;
  url?: string | undefined;
  /** Schemes besides http(s) `url` may have (`--allow-scheme`); the daemon enforces it. */
  allowSchemes?: readonly string[] | undefined;
  tab?: string | undefined;
  interactive: boolean;
  coverage: boolean;
  depth?: number | undefined;
  includeHidden: boolean;
  json: boolean;
  out?: string | undefined;
  /** `--tree-out`: also write the captured tree of the same pass to this file. */
  treeOut?: string | undefined;
}

/** Runs `mapper snapshot`. Exit 1 (after printing) when the page has no interactive node. */
export async function runSnapshot(opts: SnapshotOptions, io: Io): Promise<number> {
  const print: SnapshotPrint = {
    form: opts.json ? "json" : "text",
    interactive: opts.interactive,
    depth: opts.depth,
    coverage: opts.coverage,
  };
  // The daemon lays the snapshot out (`print`), as it renders the console list: this process only writes it.
  const answer = await pageCall<SnapshotPayload | PrintedSnapshot>(opts.dir, io, "snapshot", {
    tab: opts.tab,
    url: opts.url,
    allowSchemes: schemesOption(opts.allowSchemes),
    includeHidden: opts.includeHidden,
    ...(opts.treeOut !== undefined ? { tree: true } : { print }),
  });
  let shown: { url: string; interactive: number; printed: string };
  if (typeof (answer as Partial<PrintedSnapshot>).printed === "string") {
    const printed = answer as PrintedSnapshot;
    // The daemon escaped what it laid out; escaping again costs nothing and keeps a terminal safe from any daemon.
    shown = { ...printed, printed: escapeControls(printed.printed, { keepNewlines: true }) };
  } else {
    // `--tree-out` (the tree rides on the payload), or a daemon from before `print`: laid out here.
    const payload = answer as SnapshotPayload;
    if (opts.treeOut !== undefined) await saveTree(payload, opts.treeOut, io);
    const { printSnapshot } = await lazy<typeof import("./snapshot.ts")>(new URL("./snapshot.ts", import.meta.url));
    shown = {
      url: payload.url,
      interactive: payload.page.coverage.interactive,
      printed: printSnapshot(payload, print),
    };
  }
  await writeBody(io, opts, shown.printed);
  if (shown.interactive === 0) {
    throw new SessionError(`${shown.url} has no interactive node (blank, or still loading)`, {
      hint: "wait for the page to load and run 'mapper snapshot' again",
    });
  }
  return 0;
}

/** `--tree-out`: writes the captured tree that rode along on `payload` (and takes it off the payload). */
async function saveTree(payload: SnapshotPayload, treeOut: string, io: Io): Promise<void> {
  const captured = payload.tree;
  delete payload.tree;
  if (captured === undefined) {
    throw new SessionError("the browser session answered no tree (an older daemon?)", HINT_RESTART);
  }
  // Loaded only for --tree-out: the tree's format pulls in the offline area, which a plain snapshot never needs.
  const { treeText } = await lazy<typeof import("./capture_tree.ts")>(new URL("./capture_tree.ts", import.meta.url));
  const text = treeText(captured);
  await writeUserFile(resolve(io.cwd, treeOut), text, treeOut);
  // stderr: stdout carries the snapshot itself (or its JSON).
  io.stderr.write(`saved tree ${escapeControls(treeOut)} (${byteLength(text)} bytes)\n`);
}
