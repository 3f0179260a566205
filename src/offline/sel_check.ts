/**
 * `mapper sel-check SELECTOR FILE…`: what a whole selector matches in captured trees, without a browser — per root
 * (document, open shadow roots, same-origin frames) as `querySelectorAll` would answer on the page, by the offline
 * engine. Reads mapper's `*.snap.tree.json` and the other implementation's component trees.
 *
 * Text: one block per file — its URL and view, the count (hidden ones and roots other than the document named),
 * then a table of matches (`id  element  role  name`; hidden ones only with `--include-hidden`), at most `--limit`.
 * `--json`: `{schema: 1, selector, total, files: [{file, format, url, title, view, capturedAt, count, hidden,
 * unknown, roots: [{kind, host, url, count}], matches: [{id, tag, element, attrs, role, name, visible, root, host}],
 * listed, truncated}]}` (`unknown`: why the file cannot answer, else `null`).
 *
 * Exit 0 when something matched and every file could answer; 1 when nothing matched anywhere or a file could not
 * answer (a checker, so a script can rely on it); 2 for invalid CSS, naming the character where it breaks.
 *
 * @module
 */
import { resolve } from "node:path";
import { DataError, EXIT_FAILURE, EXIT_OK, UsageError } from "../errors.ts";
import type { Io } from "../io.ts";
import { escapeControls, quote, toJson } from "../terminal.ts";
import { indexTree, type OfflineElement, type OfflineRoot } from "./dom.ts";
import { CaptureCannotAnswer, createEngine, SelectorNotEvaluable } from "./engine.ts";
import { readTreeFile } from "./read.ts";
import { describeElement } from "./describe.ts";
import type { CapturedTree } from "./tree.ts";

/** Options of {@linkcode runSelCheck} (the command's flags). */
export interface SelCheckOptions {
  /** The selector (or list) as typed. */
  selector: string;
  /** Tree files, relative to `io.cwd` unless absolute. */
  files: readonly string[];
  /** Most matches listed per file (all are counted). */
  limit: number;
  /** List hidden matches too. */
  includeHidden: boolean;
  /** Print the JSON report. */
  json: boolean;
}

/** One match in the JSON report. */
export interface SelCheckMatch {
  id: number | string;
  tag: string;
  /** As the text table shows it: `li.card[data-sku="2"]`. */
  element: string;
  attrs: Record<string, string>;
  role: string;
  name: string;
  visible: boolean | "boxless";
  /** The root it was found in. */
  root: OfflineRoot["kind"];
  /** That root's host (shadow host or `<iframe>`), `null` in the document. */
  host: number | string | null;
}

/** One file in the JSON report. */
export interface SelCheckFile {
  file: string;
  format: CapturedTree["format"];
  url: string;
  title: string;
  view: string | null;
  capturedAt: string;
  /** Every match, hidden ones included (0 when `unknown`). */
  count: number;
  /** How many of them are hidden. */
  hidden: number;
  /** Why this file cannot answer the selector, or `null`. */
  unknown: string | null;
  /** Count per root that has matches. */
  roots: Array<{ kind: OfflineRoot["kind"]; host: number | string | null; url: string | null; count: number }>;
  /** The matches listed (hidden ones only with `--include-hidden`; at most `--limit`). */
  matches: SelCheckMatch[];
  /** How many could be listed before the limit. */
  listed: number;
  /** Whether `--limit` cut the list. */
  truncated: boolean;
}

/** The JSON report. */
export interface SelCheckReport {
  schema: 1;
  selector: string;
  /** Matches over all files. */
  total: number;
  files: SelCheckFile[];
}

const HINT_INVALID = "fix the CSS (test it with document.querySelectorAll in the browser console)";

/** Runs `mapper sel-check`; returns the exit code. */
export async function runSelCheck(opts: SelCheckOptions, io: Io): Promise<number> {
  const engine = await createEngine();
  const shown = quote(opts.selector);
  try {
    engine.compile(opts.selector);
  } catch (err: unknown) {
    if (!(err instanceof SelectorNotEvaluable)) throw err;
    if (err.invalid) {
      const at = err.position === undefined ? "" : ` at character ${err.position + 1}`;
      throw new UsageError(`invalid selector ${shown}${at}: ${escapeControls(err.message)}`, { hint: HINT_INVALID });
    }
    throw new DataError(`cannot check ${shown} offline: ${escapeControls(err.message)}`, {
      hint: "check it on the live page with 'mapper probe'",
    });
  }
  // Every file is read before anything is printed: a bad one fails the command at once, naming it.
  const trees = await Promise.all(opts.files.map((f) => readTreeFile(resolve(io.cwd, f), f)));
  const files = trees.map((captured) => check(captured, opts, (doc) => engine.query(doc, opts.selector)));
  const report: SelCheckReport = {
    schema: 1,
    selector: opts.selector,
    total: files.reduce((n, f) => n + f.count, 0),
    files,
  };
  io.stdout.write(opts.json ? toJson(report) : render(report, opts));
  return report.total > 0 && files.every((f) => f.unknown === null) ? EXIT_OK : EXIT_FAILURE;
}

function check(
  captured: CapturedTree,
  opts: SelCheckOptions,
  query: (
    doc: ReturnType<typeof indexTree>,
  ) => { roots: ReadonlyArray<{ root: OfflineRoot; elements: readonly OfflineElement[] }> },
): SelCheckFile {
  const t = captured.tree;
  const file: SelCheckFile = {
    file: captured.file,
    format: captured.format,
    url: t.url,
    title: t.title,
    view: t.view?.name ?? null,
    capturedAt: t.capturedAt,
    count: 0,
    hidden: 0,
    unknown: null,
    roots: [],
    matches: [],
    listed: 0,
    truncated: false,
  };
  let answer;
  try {
    answer = query(indexTree(captured));
  } catch (err: unknown) {
    if (!(err instanceof CaptureCannotAnswer)) throw err;
    file.unknown = err.message;
    return file;
  }
  for (const { root, elements } of answer.roots) {
    if (elements.length === 0) continue;
    file.roots.push({
      kind: root.kind,
      host: root.host?.node.id ?? null,
      url: root.url ?? null,
      count: elements.length,
    });
    for (const el of elements) {
      file.count++;
      const hidden = el.node.visible === false;
      if (hidden) file.hidden++;
      if (hidden && !opts.includeHidden) continue;
      file.listed++;
      if (file.matches.length >= opts.limit) continue;
      file.matches.push({
        id: el.node.id,
        tag: el.node.tag,
        element: describeElement(el.node),
        attrs: el.node.attrs,
        role: el.node.role,
        name: el.node.name,
        visible: el.node.visible,
        root: root.kind,
        host: root.host?.node.id ?? null,
      });
    }
  }
  file.truncated = file.listed > file.matches.length;
  return file;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "es"}`;

function rootLabel(r: { kind: OfflineRoot["kind"]; host: number | string | null; url: string | null }): string {
  if (r.kind === "document") return "document";
  if (r.kind === "shadow") return `shadow root of #${r.host}`;
  return `frame #${r.host}`;
}

/** The text report (see the module documentation). */
function render(report: SelCheckReport, opts: SelCheckOptions): string {
  const out: string[] = [];
  for (const f of report.files) {
    if (out.length > 0) out.push("");
    const where = [f.url, f.view === null ? "" : `view ${f.view}`].filter((s) => s !== "").map((s) =>
      escapeControls(s)
    );
    const other = f.format === "sightmap" ? " (the other implementation's tree)" : "";
    out.push(`${escapeControls(f.file)}${where.length > 0 ? `  ${where.join(" · ")}` : ""}${other}`);
    if (f.unknown !== null) {
      out.push(`? cannot answer from this capture: ${escapeControls(f.unknown)}`);
      continue;
    }
    const parts = [f.count === 0 ? "no match" : plural(f.count, "match")];
    if (f.hidden > 0) parts[0] += ` (${f.hidden} hidden)`;
    if (f.roots.some((r) => r.kind !== "document")) {
      parts.push(...f.roots.map((r) => `${rootLabel(r)} ${r.count}`));
    }
    out.push(parts.join(" · "));
    if (f.matches.length > 0) out.push(...table(f));
    const notes: string[] = [];
    if (f.truncated) notes.push(`… ${f.listed - f.matches.length} more (--limit ${f.listed})`);
    if (f.hidden > 0 && !opts.includeHidden) notes.push(`${f.hidden} hidden not listed (--include-hidden)`);
    out.push(...notes);
  }
  if (report.files.length > 1) {
    const matched = report.files.filter((f) => f.count > 0).length;
    const unknown = report.files.filter((f) => f.unknown !== null).length;
    out.push(
      "",
      `${plural(report.total, "match")} in ${matched} of ${report.files.length} files` +
        (unknown > 0 ? ` · ${unknown} could not answer` : ""),
    );
  }
  return `${out.join("\n")}\n`;
}

function table(f: SelCheckFile): string[] {
  const showRoot = f.roots.some((r) => r.kind !== "document");
  const rows = f.matches.map((m) => [
    String(m.id),
    m.element,
    escapeControls(m.role),
    m.name === "" ? "" : quote(shortName(m.name)),
    ...(m.visible === false ? ["hidden"] : m.visible === "boxless" ? ["boxless"] : [""]),
    ...(showRoot ? [m.root === "document" ? "" : rootLabel({ kind: m.root, host: m.host, url: null })] : []),
  ]);
  const head = ["id", "element", "role", "name", "", ...(showRoot ? ["in"] : [])];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => [...r[i]!].length)));
  // Padded by code points, as the widths were measured (an astral character is one column, not two units).
  const pad = (c: string, width: number, start = false) => {
    const fill = " ".repeat(Math.max(0, width - [...c].length));
    return start ? fill + c : c + fill;
  };
  const line = (cells: string[]) => " " + cells.map((c, i) => pad(c, widths[i]!, i === 0)).join("  ").trimEnd();
  return [line(head), ...rows.map(line)];
}

function shortName(name: string): string {
  const chars = [...name.replace(/\s+/g, " ").trim()];
  return chars.length <= 60 ? chars.join("") : `${chars.slice(0, 59).join("")}…`;
}
