/**
 * The CLI side of the page commands that see: `mapper snapshot`. Thin: flags → one daemon call → format.
 *
 * @module
 */
import type { Io } from "../io.ts";
import { SessionError } from "../errors.ts";
// The policy file itself, not the browser area's mod.ts (which brings the CDP client): start-up stays light.
import { schemesOption } from "../browser/schemes.ts";
import type { SnapshotPayload } from "./api.ts";
import { pageCall } from "./client.ts";
import { writeResult } from "./output.ts";
import { formatSnapshot, snapshotJson } from "./snapshot.ts";

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
}

/** Runs `mapper snapshot`. Exit 1 (after printing) when the page has no interactive node. */
export async function runSnapshot(opts: SnapshotOptions, io: Io): Promise<number> {
  const payload = await pageCall<SnapshotPayload>(opts.dir, io, "snapshot", {
    tab: opts.tab,
    url: opts.url,
    allowSchemes: schemesOption(opts.allowSchemes),
    includeHidden: opts.includeHidden,
  });
  const tree = { interactive: opts.interactive, depth: opts.depth };
  await writeResult(
    io,
    opts,
    formatSnapshot(payload, { ...tree, coverage: opts.coverage }),
    snapshotJson(payload, tree),
  );
  if (payload.page.coverage.interactive === 0) {
    throw new SessionError(`${payload.url} has no interactive node (blank, or still loading)`, {
      hint: "wait for the page to load and run 'mapper snapshot' again",
    });
  }
  return 0;
}
