/**
 * The CLI side of the page commands that see: `mapper snapshot`. Thin: flags → one daemon call → format.
 *
 * @module
 */
import { resolve } from "../path.ts";
import type { Io } from "../io.ts";
import { SessionError } from "../errors.ts";
// The policy file itself, not the browser area's mod.ts (which brings the CDP client): start-up stays light.
import { schemesOption } from "../browser/schemes.ts";
import type { SnapshotPayload } from "./page_api.ts";
import { pageCall } from "./client.ts";
import { writeResult } from "./output.ts";
import { formatSnapshot, snapshotJson } from "./snapshot.ts";
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
  const payload = await pageCall<SnapshotPayload>(opts.dir, io, "snapshot", {
    tab: opts.tab,
    url: opts.url,
    allowSchemes: schemesOption(opts.allowSchemes),
    includeHidden: opts.includeHidden,
    ...(opts.treeOut !== undefined ? { tree: true } : {}),
  });
  if (opts.treeOut !== undefined) {
    const captured = payload.tree;
    delete payload.tree;
    if (captured === undefined) {
      throw new SessionError("the browser session answered no tree (an older daemon?)", HINT_RESTART);
    }
    // Loaded only for --tree-out: the tree's format pulls in the offline area, which a plain snapshot never needs.
    const { treeText } = await lazy<typeof import("./capture_tree.ts")>(new URL("./capture_tree.ts", import.meta.url));
    const text = treeText(captured);
    await writeUserFile(resolve(io.cwd, opts.treeOut), text, opts.treeOut);
    // stderr: stdout carries the snapshot itself (or its JSON).
    io.stderr.write(`saved tree ${escapeControls(opts.treeOut)} (${byteLength(text)} bytes)\n`);
  }
  const tree = { interactive: opts.interactive, depth: opts.depth };
  await writeResult(
    io,
    opts,
    () => formatSnapshot(payload, { ...tree, coverage: opts.coverage }),
    () => snapshotJson(payload, tree),
  );
  if (payload.page.coverage.interactive === 0) {
    throw new SessionError(`${payload.url} has no interactive node (blank, or still loading)`, {
      hint: "wait for the page to load and run 'mapper snapshot' again",
    });
  }
  return 0;
}
