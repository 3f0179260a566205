/**
 * `mapper stats`: corpus totals and the per-view table. The numbers come from the corpus
 * library's `stats()`, the same function the catalog publishes for each gallery entry, so `mapper stats` and the
 * catalog never disagree.
 *
 * A corpus with errors has no trustworthy counts: the command refuses (`ok: false`, an `error` string, no counts,
 * exit 1). With `--json` the counts are both in `result` and at the top level of the envelope (the gallery's index
 * generator reads them flat). Text mode also refuses an empty corpus (no views, no components).
 *
 * @module
 */
import { type CorpusStats, stats } from "../corpus/mod.ts";
import { DataError } from "../errors.ts";
import type { Io } from "../io.ts";
import { escapeControls } from "../terminal.ts";
import { loadForCommand } from "./_corpus.ts";
import { countSeverities, makeEnvelope, outputFormat, summaryLine, writeEnvelope } from "./envelope.ts";

/** Options of {@linkcode runStats}. */
export interface StatsOptions {
  dir?: string;
  json?: boolean;
  format?: string;
}

/** Runs `mapper stats`; returns the exit code. */
export async function runStats(opts: StatsOptions, io: Io): Promise<number> {
  const format = outputFormat(opts);
  const loaded = await loadForCommand(io, format, opts.dir);
  if (typeof loaded === "number") return loaded;
  const { errors } = countSeverities(loaded.diagnostics);
  if (errors > 0) {
    const error = `the corpus in "${loaded.dir}" has ${errors} error${errors === 1 ? "" : "s"}: no statistics`;
    const envelope = { ...makeEnvelope(loaded.diagnostics, loaded.path, null), error };
    return writeEnvelope(io, envelope, {
      format,
      dir: loaded.dir,
      text: (e) => `${summaryLine(e.diagnostics)}\n${error} — fix them first ('mapper validate' lists them)\n`,
    });
  }
  const result = stats(loaded.corpus);
  if (format !== "json" && result.views === 0 && result.components === 0) {
    throw new DataError(`the corpus in "${escapeControls(loaded.dir)}" is empty (no views, no components)`, {
      hint: "add a view (see 'mapper init'), or pass the right directory with --dir",
    });
  }
  const envelope = { ...makeEnvelope(loaded.diagnostics, loaded.path, result), ...result };
  return writeEnvelope(io, envelope, { format, dir: loaded.dir, text: () => renderStats(result, loaded.dir) });
}

/** The text form: a banner, the totals, and one row per view. */
export function renderStats(s: CorpusStats, dir: string): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const lines = [
    `corpus ${escapeControls(dir)}`,
    [
      plural(s.views, "view"),
      plural(s.components, "component"),
      plural(s.requests, "request"),
      plural(s.messages, "message"),
      plural(s.properties, "property").replace(/propertys$/, "properties"),
      plural(s.memory, "memory note"),
    ].join(" · "),
  ];
  if (s.per_view.length > 0) {
    const name = Math.max(4, ...s.per_view.map((v) => v.name.length));
    const route = Math.max(5, ...s.per_view.map((v) => v.route.length));
    lines.push("", `${"VIEW".padEnd(name)}  ${"ROUTE".padEnd(route)}  COMPONENTS  REQUESTS`);
    for (const v of s.per_view) {
      lines.push(
        `${escapeControls(v.name.padEnd(name))}  ${escapeControls(v.route.padEnd(route))}  ${
          String(v.components).padStart(10)
        }  ${String(v.requests).padStart(8)}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
