/**
 * `mapper init [--dir D]`: a small, schema-correct corpus to start from — `config.yaml` (`version: 1`, the spec version
 * the corpus follows, which a gallery entry's `spec_version` must equal), `components.yaml` (a commented example
 * global) and `views/example.yaml` (the view `Home` on `/` with one component), all already in the canonical format
 * and clean under `validate`, `lint` and `fmt --check`, so the directory can become a gallery entry as it is.
 *
 * Never overwrites: a scaffold file that exists is skipped; a directory that already holds any other corpus file
 * (`*.yaml`/`*.yml`) is refused before anything is written; a missing parent directory, or a corpus directory or
 * `views/` that is a symbolic link or not a directory, is refused too (nothing is created outside what was asked).
 * Files are created exclusively (`createNew`), so a file appearing meanwhile is never clobbered.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { FileError, UsageError } from "../errors.ts";
import type { Io } from "../io.ts";
import { writeUserFile } from "../user_file.ts";
import { escapeControls } from "../terminal.ts";
import { DEFAULT_CORPUS_DIR } from "./dir.ts";
import { trustedCorpusDir } from "../corpus/mod.ts";
import { makeEnvelope, outputFormat, writeEnvelope } from "./envelope.ts";

/** The scaffold, keyed by path relative to the corpus directory, in creation order. */
export const SCAFFOLD: Readonly<Record<string, string>> = Object.freeze({
  "config.yaml": [
    "# The version of the corpus format this map follows (a gallery entry's spec_version must equal it).",
    "",
    "version: 1",
    "",
  ].join("\n"),
  "components.yaml": [
    "# Global components: parts of the site present on every page (header, navigation, footer).",
    "# Declare them here once; every view gets them. Example:",
    "#",
    "# components:",
    "#   - name: SiteHeader",
    "#     selector: '[data-testid=\"site-header\"]'",
    "#     description: The header on every page.",
    "",
    "version: 1",
    "",
  ].join("\n"),
  "views/example.yaml": [
    "# One view per kind of page: a URL route and the components found on that page.",
    "# Check a URL with 'mapper match URL'; replace the example with your site's pages.",
    "",
    "version: 1",
    "views:",
    "  - name: Home",
    "    route: /",
    "    url: http://localhost:3000/",
    "    description: The home page.",
    "    components:",
    "      - name: ExampleButton",
    "        selector: '[data-testid=\"example\"]'",
    "        description: An example component; point the selector at a real element of the page.",
    "",
  ].join("\n"),
});

/** `result` of `mapper init --json`: corpus-relative paths. */
export interface InitResult {
  created: string[];
  skipped: string[];
}

/** Options of {@linkcode runInit}. */
export interface InitOptions {
  /** Corpus directory (default `./.mapper`; no walk-up: init creates where it is asked). */
  dir?: string;
  json?: boolean;
  format?: string;
}

async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (err: unknown) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** Corpus files (`*.yaml`/`*.yml`) below a directory, relative, `/`-separated; symbolic links are not followed. */
async function corpusFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const rel = `${prefix}${entry.name}`;
    if (entry.isDirectory && !entry.name.startsWith(".")) {
      out.push(...await corpusFiles(join(dir, entry.name), `${rel}/`));
    } else if (/\.ya?ml$/i.test(entry.name)) out.push(rel);
  }
  return out;
}

/** Refuses anything that is not a plain directory (or absent) at `path`. */
async function checkDirectory(path: string, shown: string): Promise<boolean> {
  const info = await lstatOrNull(path);
  if (info === null) return false;
  if (info.isSymlink || !info.isDirectory) {
    throw new FileError(`"${escapeControls(shown)}" is ${info.isSymlink ? "a symbolic link" : "not a directory"}`, {
      hint: "pass a plain directory with --dir",
    });
  }
  return true;
}

/** Creates the scaffold; returns what was created and skipped. */
export async function scaffold(dirPath: string, shown: string): Promise<InitResult> {
  const parent = dirname(dirPath);
  if ((await lstatOrNull(parent)) === null) {
    throw new UsageError(`the parent of "${escapeControls(shown)}" does not exist`, {
      hint: `create "${escapeControls(dirname(shown))}" first, or pass another --dir`,
    });
  }
  if (await checkDirectory(dirPath, shown)) {
    await checkDirectory(join(dirPath, "views"), join(shown, "views"));
    const foreign = (await corpusFiles(dirPath)).filter((f) => !(f in SCAFFOLD));
    if (foreign.length > 0) {
      throw new FileError(
        `"${escapeControls(shown)}" already holds a corpus (${foreign.length} file${
          foreign.length === 1 ? "" : "s"
        }, ` +
          `e.g. "${escapeControls(foreign[0]!)}"); nothing was written`,
        { hint: "run 'mapper init' in a project without a corpus, or pass an empty --dir" },
      );
    }
  }
  const result: InitResult = { created: [], skipped: [] };
  for (const [rel, text] of Object.entries(SCAFFOLD)) {
    const path = join(dirPath, ...rel.split("/"));
    await Deno.mkdir(dirname(path), { recursive: true });
    // Create only: a file (or a link planted) already there is kept as it is, never written through.
    if (await writeUserFile(path, text, path, { createOnly: true, mode: 0o644 })) result.created.push(rel);
    else result.skipped.push(rel);
  }
  return result;
}

/** Runs `mapper init`; returns the exit code. */
export async function runInit(opts: InitOptions, io: Io): Promise<number> {
  const format = outputFormat(opts);
  const shown = opts.dir ?? DEFAULT_CORPUS_DIR;
  const path = shown.startsWith("/") ? shown : join(io.cwd, shown);
  // Files are never added to a directory another user controls (a missing one is created, so it is ours).
  trustedCorpusDir(path);
  const result = await scaffold(path, shown);
  return writeEnvelope(io, makeEnvelope([], path, result), {
    format,
    dir: shown,
    text: () => renderInit(result, shown),
  });
}

/** The text form: `created`/`skipped` lines and the next steps, or "already scaffolded". */
export function renderInit(r: InitResult, dir: string): string {
  const d = escapeControls(dir);
  if (r.created.length === 0) return `${d} is already scaffolded — nothing to do.\n`;
  const lines = [
    ...r.created.map((f) => `created ${d}/${f}`),
    ...r.skipped.map((f) => `skipped ${d}/${f} (exists)`),
    "",
    "Next steps:",
    `  1. edit ${d}/views/example.yaml: your site's routes, and selectors of its real elements`,
    `  2. mapper match http://localhost:3000/ --dir ${d}   (which view and components apply to a URL)`,
    `  3. mapper stats --dir ${d}   (what the corpus holds)`,
  ];
  return `${lines.join("\n")}\n`;
}
