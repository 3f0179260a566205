/**
 * The CLI side of the authoring kit: `mapper probe`, `gap`, `suggest`, `draft`, `inspect` and node-mode `explain`. Thin:
 * flags → one daemon call (`POST /devtools/page/<command>`) → text or `--json` (`"schema": 1`).
 *
 * @module
 */
import { exists } from "../files.ts";
import { relative, resolve } from "node:path";
import type { Io } from "../io.ts";
import { findCorpusDirUp, load } from "../corpus/mod.ts";
import { DataError, ProblemsFound, UsageError } from "../errors.ts";
import { pageCall } from "../see/client.ts";
import { writeResult } from "../see/output.ts";
import { formatProbe, type ProbeResult } from "./probe.ts";
import { formatGap, type GapResult } from "./gap.ts";
import { formatSuggest, type SuggestKindGroup, type SuggestResult, suggestYaml } from "./suggest.ts";
import { formatInspect, type InspectResult } from "./inspect.ts";
import { type ExplainPick, type ExplainResult, formatExplain } from "./explain.ts";
import { type DraftResult, formatDraftReport } from "./draft.ts";
import { runDraftAll } from "./draft_all.ts";
import { writeUserFile } from "../user_file.ts";
import { escapeControls } from "../terminal.ts";
import { addToView, canonicalize } from "../authoring/mod.ts";

/** Flags every kit command shares. */
export interface KitCommon {
  /** `--dir`; absent: the session is found walking up from the working directory. */
  dir?: string | undefined;
  /** `--tab`. */
  tab?: string | undefined;
  /** `--json`. */
  json: boolean;
}

/** Options of `mapper probe`. */
export interface ProbeOptions extends KitCommon {
  /** The selector. */
  selector: string;
  /** Matches listed (default 10). */
  max?: number | undefined;
  /** Exit 1 unless exactly this many match live. */
  expect?: number | undefined;
  /** Count in every view's `url:` (a scratch tab). */
  all: boolean;
}

/** Runs `mapper probe`. Exit 1 when `--expect` differs or live and offline disagree. */
export async function runProbe(opts: ProbeOptions, io: Io): Promise<number> {
  if (opts.all) return await runProbeAll(opts, io);
  const r = await pageCall<ProbeResult>(opts.dir, io, "probe", {
    tab: opts.tab,
    selector: opts.selector,
    max: opts.max ?? 10,
  });
  await writeResult(io, opts, formatProbe(r), { ...r });
  if (r.offline !== null && !r.agrees) {
    throw new ProblemsFound("the live page and the offline engine disagree on this selector (ids above)", {
      hint: "this is a mapper bug: please report the selector and the page",
    });
  }
  if (opts.expect !== undefined && r.live !== opts.expect) {
    throw new ProblemsFound(`expected ${opts.expect} live matches, found ${r.live}`, {
      hint: "fix the selector and probe it again before writing it",
    });
  }
  return 0;
}

/** The `--all` answer: the count in each view's `url:`. */
export interface ProbeAllResult {
  /** The selector. */
  selector: string;
  /** One row per view. */
  views: Array<{
    view: string;
    url: string | null;
    finalUrl?: string;
    resolved?: string | null;
    count?: number;
    error?: string;
    skipped?: string;
  }>;
}

async function runProbeAll(opts: ProbeOptions, io: Io): Promise<number> {
  // The views' `url:` are authoring-only (not in the served corpus): read them from the corpus files here.
  const dir = opts.dir !== undefined ? resolve(io.cwd, opts.dir) : findCorpusDirUp(io.cwd);
  if (dir === undefined) {
    throw new UsageError("--all needs the corpus (its views' url:), and there is no .mapper/ here or above", {
      hint: "run it inside the project, or pass --dir .mapper",
    });
  }
  const { corpus } = await load(dir);
  const views = corpus.views.map((v) => ({ name: v.name, url: v.url ?? null }));
  const r = await pageCall<ProbeAllResult>(opts.dir, io, "probe-all", { selector: opts.selector, views }, 300_000);
  const lines = [`${r.selector} — in each view's url: (a scratch tab)`];
  let failed = 0;
  for (const v of r.views) {
    if (v.skipped) lines.push(`  ${v.view}  skipped: ${v.skipped}`);
    else if (v.error) {
      failed++;
      lines.push(`  ${v.view}  ${v.url}  ✗ ${v.error}`);
    } else {
      const other = v.resolved !== v.view ? `  ⚠ resolves to ${v.resolved ?? "no view"}: check its url:` : "";
      lines.push(`  ${v.view}  ${v.finalUrl}  ${v.count}${other}`);
    }
  }
  await writeResult(io, opts, lines.join("\n") + "\n", { ...r });
  if (failed > 0) {
    throw new ProblemsFound(`${failed} view${failed === 1 ? "" : "s"} could not be opened`, {
      hint: "check their url: with 'mapper browser navigate URL'",
    });
  }
  if (opts.expect !== undefined) {
    const off = r.views.filter((v) => v.count !== undefined && v.count !== opts.expect);
    if (off.length > 0) {
      throw new ProblemsFound(
        `expected ${opts.expect} matches, found ${off.map((v) => `${v.count} in ${v.view}`).join(", ")}`,
      );
    }
  }
  return 0;
}

/** Options of `mapper gap`. */
export interface GapOptions extends KitCommon {
  /** `--scope COMPONENT`. */
  scope?: string | undefined;
  /** `--include-hidden`. */
  includeHidden: boolean;
  /** `--max-clusters`. */
  maxClusters?: number | undefined;
}

/** Runs `mapper gap`. Exit 1 when the page has no interactive node. */
export async function runGap(opts: GapOptions, io: Io): Promise<number> {
  const r = await pageCall<GapResult>(opts.dir, io, "gap", {
    tab: opts.tab,
    scope: opts.scope,
    includeHidden: opts.includeHidden,
    maxClusters: opts.maxClusters,
  });
  await writeResult(io, opts, formatGap(r), { ...r });
  if (r.interactive === 0) {
    throw new ProblemsFound(`${r.url} has no visible interactive node (blank, or still loading)`, {
      hint: "wait for the page to load and run 'mapper gap' again",
    });
  }
  return 0;
}

/** Options of `mapper suggest`. */
export interface SuggestCliOptions extends KitCommon {
  excludeKnown: boolean;
  group: boolean;
  max?: number | undefined;
  minCount?: number | undefined;
  kind?: string | undefined;
  includeHidden: boolean;
  yaml: boolean;
}

const KINDS = ["hooks", "landmarks", "repeated", "controls"];

/** Runs `mapper suggest`. */
export async function runSuggest(opts: SuggestCliOptions, io: Io): Promise<number> {
  if (opts.kind !== undefined && !KINDS.includes(opts.kind)) {
    throw new UsageError(`--kind must be one of ${KINDS.join(", ")}, not "${opts.kind}"`, {
      hint: "pass --kind hooks, landmarks, repeated or controls",
    });
  }
  if (opts.yaml && opts.json) throw new UsageError("--yaml and --json do not go together", { hint: "pick one" });
  const r = await pageCall<SuggestResult>(opts.dir, io, "suggest", {
    tab: opts.tab,
    excludeKnown: opts.excludeKnown,
    group: opts.group,
    max: opts.max,
    minCount: opts.minCount,
    kind: opts.kind as SuggestKindGroup | undefined,
    includeHidden: opts.includeHidden,
  });
  await writeResult(io, opts, opts.yaml ? suggestYaml(r) : formatSuggest(r), { ...r });
  return 0;
}

/** Options of `mapper inspect`. */
export interface InspectOptions extends KitCommon {
  selector?: string | undefined;
  id?: number | undefined;
  depth?: number | undefined;
  interactive: boolean;
  attributes: boolean;
  includeHidden: boolean;
}

/** Runs `mapper inspect`. Exit 1 on a stale id or a selector matching nothing. */
export async function runInspect(opts: InspectOptions, io: Io): Promise<number> {
  if (opts.selector !== undefined && opts.id !== undefined) {
    throw new UsageError("--selector and --id do not go together", { hint: "pick one" });
  }
  const r = await pageCall<InspectResult>(opts.dir, io, "inspect", {
    tab: opts.tab,
    selector: opts.selector,
    id: opts.id,
  });
  const text = formatInspect(r, opts);
  await writeResult(io, opts, text, { ...r.tree, ...(r.selected ? { selected: r.selected } : {}) });
  return 0;
}

/** Options of node-mode `mapper explain`. */
export interface ExplainNodeOptions extends KitCommon {
  pick: ExplainPick;
  max?: number | undefined;
}

/** Runs node-mode `mapper explain`. */
export async function runExplainNode(opts: ExplainNodeOptions, io: Io): Promise<number> {
  const r = await pageCall<ExplainResult>(opts.dir, io, "explain", { tab: opts.tab, ...opts.pick, max: opts.max });
  await writeResult(io, opts, formatExplain(r), { ...r });
  return 0;
}

/** Options of `mapper draft`. */
export interface DraftCliOptions extends KitCommon {
  /** `--url`: navigate there first (only when elsewhere). */
  url?: string | undefined;
  /** `--out FILE`. */
  out?: string | undefined;
  /** `--force`: overwrite `--out`, and write it even when a hard check fails. */
  force: boolean;
  /** `--view NAME`. */
  view?: string | undefined;
  /** `--route R`. */
  route?: string | undefined;
  /** `--all`: every page one link away, one file per view under `--out DIR`. */
  all?: boolean;
}

/** What a draft needs of the corpus: the names it uses (never reused) and where each view is declared. */
async function corpusFacts(dir: string | undefined): Promise<{ taken: string[]; files: Map<string, string> }> {
  if (dir === undefined) return { taken: [], files: new Map() };
  const { corpus } = await load(dir, { tolerant: true });
  return {
    taken: [
      ...corpus.views.map((v) => v.name),
      ...corpus.globals.map((c) => c.name),
      ...corpus.views.flatMap((v) => v.components.map((c) => c.name)),
    ],
    files: new Map(corpus.views.map((v) => [v.name, v.location.file])),
  };
}

/** `--out` names something already there and --force is absent. */
function existsError(out: string): UsageError {
  return new UsageError(`${out} exists; draft never overwrites a file`, {
    hint: "pass --force to replace it, or give another --out",
  });
}

/**
 * Runs `mapper draft`: the YAML to stdout and the report to stderr, or with `--out` the file written (never over
 * an existing one without `--force`) and the report to stdout. Exit 1 when a hard check fails (a selector not
 * matching exactly what it is meant for, a repeated component without a discriminator); `--out` is then written
 * only with `--force`.
 */
export async function runDraft(opts: DraftCliOptions, io: Io): Promise<number> {
  const dir = opts.dir !== undefined ? resolve(io.cwd, opts.dir) : findCorpusDirUp(io.cwd);
  if (opts.all === true) {
    if (opts.out === undefined || opts.out === "-") {
      throw new UsageError("draft --all writes one file per view: it needs --out DIR", {
        hint: "pass a directory, e.g. --out .mapper/views",
      });
    }
    const one = opts.view !== undefined ? "--view" : opts.route !== undefined ? "--route" : opts.url ? "--url" : null;
    if (one !== null) {
      throw new UsageError(`${one} names one page; draft --all drafts the pages the current one links to`, {
        hint: "leave it out (open the start page first with 'mapper browser navigate URL')",
      });
    }
    const { taken } = await corpusFacts(dir);
    return await runDraftAll({ ...opts, out: opts.out, taken }, io);
  }
  const target = opts.out !== undefined && opts.out !== "-" ? resolve(io.cwd, opts.out) : undefined;
  if (target !== undefined && !opts.force && await exists(target)) throw existsError(opts.out!);
  const facts = await corpusFacts(dir);
  const r = await pageCall<DraftResult>(opts.dir, io, "draft", {
    tab: opts.tab,
    url: opts.url,
    view: opts.view,
    route: opts.route,
    taken: facts.taken,
  });
  const failed = r.checks.exact.length + r.checks.distinct.length > 0;
  let yaml: string;
  let written: string | null = null;
  if (r.extends !== null) {
    // Additions to a view the corpus has: printed as a list to paste, or added where the view is declared.
    const home = facts.files.get(r.extends.name);
    const shown = home === undefined ? "the corpus" : relative(io.cwd, home) || home;
    // One comment line, whatever the names hold.
    const view = escapeControls(`view ${r.extends.name} (${r.extends.route}) in ${shown}`);
    yaml = r.yaml === ""
      ? `# ${view} has everything the draft finds\n`
      : `# additions to ${view}: paste under its components:\n${r.yaml}`;
    if (target !== undefined) {
      if (home === undefined || resolve(io.cwd, home) !== target) {
        throw new UsageError(`view ${r.extends.name} serves this page; draft adds to it where it is declared`, {
          hint: home === undefined
            ? "load the corpus with --dir, or leave out --out to print the additions"
            : `pass --out ${shown} --force to add the components there, or leave out --out to print them`,
        });
      }
      const merged = addToView(await Deno.readTextFile(target), r.extends.name, r.yaml);
      if (merged.kind !== "ok") {
        throw new DataError(`${opts.out}: ${merged.message}`, { hint: "fix the file, then run draft again" });
      }
      if (!failed || opts.force) {
        const canonical = canonicalize(merged.text);
        await writeUserFile(target, canonical.kind === "ok" ? canonical.text : merged.text, opts.out);
        written = opts.out!;
      }
    }
  } else {
    // The file is written canonical, so `mapper fmt --check` passes on it as drafted.
    const canonical = canonicalize(r.yaml);
    yaml = canonical.kind === "ok" ? canonical.text : r.yaml;
    if (target !== undefined && (!failed || opts.force)) {
      // Create-only without --force: a file that appeared while the page was read is not replaced either.
      if (!await writeUserFile(target, yaml, opts.out, { createOnly: !opts.force })) throw existsError(opts.out!);
      written = opts.out!;
    }
  }
  const report = formatDraftReport(r, written);
  if (opts.json) {
    await writeResult(io, { json: true }, "", { ...r, yaml, written }); // never to --out: that is the YAML's
  } else if (target === undefined) {
    io.stdout.write(yaml);
    io.stderr.write(report);
  } else {
    io.stdout.write(report);
  }
  if (failed) {
    throw new ProblemsFound("the draft fails a hard check (✗ above)", {
      hint: target !== undefined && written === null
        ? "nothing was written; fix the page's hooks or pass --force to write it anyway"
        : "fix the components marked ✗ before using the draft",
    });
  }
  return 0;
}
