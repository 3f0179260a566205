/**
 * The modules mapper loads lazily, found in its source: every `lazy<typeof import("…")>(new URL("…",
 * import.meta.url))` site (`src/lazy.ts`) and every `new Worker(new URL("…", import.meta.url))`. Deno sees neither
 * ahead of time, so the start-up graph test uses these as the lazy edges, and the compile check holds them to
 * `compile.include` in `deno.json`.
 *
 * @module
 */
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./_helpers.ts";

/** One lazy load in the source. */
export interface LazySite {
  /** The file holding it, relative to the repository root (`src/cli/devtools.ts`). */
  file: string;
  /** 1-based line of the site. */
  line: number;
  /** The path in `typeof import("…")` (lazy sites only; a worker has none). */
  typePath?: string;
  /** The path in `new URL("…", import.meta.url)`. */
  urlPath: string;
  /** What that URL resolves to, relative to the repository root (`src/devtools/commands.ts`). */
  target: string;
}

/** What the scan found. */
export interface LazyScan {
  /** Well-formed `lazy` sites. */
  sites: LazySite[];
  /** Module workers started from a `new URL(…, import.meta.url)`. */
  workers: LazySite[];
  /** `lazy` calls not written in the one form (`file:line: text`). */
  malformed: string[];
  /** `import(…)` of anything but a string literal, outside `src/lazy.ts` (`file:line: text`). */
  computed: string[];
}

const SITE = /lazy<typeof import\("([^"]+)"\)>\(\s*new URL\("([^"]+)", import\.meta\.url\),?\s*\)/g;
const CALL = /\blazy\s*[<(]/g;
const WORKER = /new Worker\(\s*new URL\("([^"]+)", import\.meta\.url\)/g;
const COMPUTED_IMPORT = /\bimport\(\s*(?![)"'])/g;

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, dir))) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...await sourceFiles(rel));
    else if (entry.isFile && entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) out.push(rel);
  }
  return out;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;

/** Scans `main.ts` and every non-test module under `src/`. */
export async function scanLazySites(): Promise<LazyScan> {
  const scan: LazyScan = { sites: [], workers: [], malformed: [], computed: [] };
  for (const file of ["main.ts", ...(await sourceFiles("src")).sort()]) {
    if (file === "src/lazy.ts") continue; // the definition and its documented example
    const text = await Deno.readTextFile(join(ROOT, file));
    const base = pathToFileURL(join(ROOT, file));
    const site = (index: number, urlPath: string, typePath?: string): LazySite => ({
      file,
      line: lineOf(text, index),
      ...(typePath === undefined ? {} : { typePath }),
      urlPath,
      target: relative(ROOT, new URL(urlPath, base).pathname),
    });
    const at = (m: RegExpMatchArray) => `${file}:${lineOf(text, m.index!)}: ${text.slice(m.index!).split("\n")[0]}`;
    const sites = [...text.matchAll(SITE)];
    for (const m of sites) scan.sites.push(site(m.index!, m[2]!, m[1]!));
    for (const m of text.matchAll(WORKER)) scan.workers.push(site(m.index!, m[1]!));
    const starts = new Set(sites.map((m) => m.index));
    for (const m of text.matchAll(CALL)) if (!starts.has(m.index)) scan.malformed.push(at(m));
    for (const m of text.matchAll(COMPUTED_IMPORT)) scan.computed.push(at(m));
  }
  return scan;
}
