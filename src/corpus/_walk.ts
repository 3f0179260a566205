// Corpus file discovery: a lexical (byte order), depth-first walk of the corpus directory.
import { join } from "node:path";
import type { Diagnostic } from "./diagnostic.ts";

/** Directory names skipped at any depth below the root (exact case): authoring artefacts, not corpus. */
export const EXCLUDED_DIRS: ReadonlySet<string> = new Set(["snapshots", "review"]);

/** Whether a file name is a corpus file: extension `.yaml` or `.yml`, any case. */
export function isCorpusFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.endsWith(".yaml") || lower.endsWith(".yml");
}

/**
 * Whether a directory name is skipped: `snapshots/`, `review/`, and dot-directories (`.expected/` of `fmt`, `.git/`),
 * which hold tooling data, not corpus.
 */
export function isExcludedDir(name: string): boolean {
  return EXCLUDED_DIRS.has(name) || (name.startsWith(".") && name !== "." && name !== "..");
}

/** Whether a path relative to the corpus root (forward or back slashes) lies in an excluded directory. */
export function isExcludedPath(relative: string): boolean {
  const parts = relative.split(/[\\/]/);
  parts.pop(); // the last part is the file itself
  return parts.some(isExcludedDir);
}

const encoder = new TextEncoder();

/** Compares two names by their UTF-8 bytes (Go's sort order; differs from UTF-16 order only beyond the BMP). */
export function compareBytes(a: string, b: string): number {
  // deno-lint-ignore no-control-regex
  if (/^[\x00-\x7f]*$/.test(a) && /^[\x00-\x7f]*$/.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = x[i]! - y[i]!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** A corpus file found by the walk. */
export interface WalkedFile {
  /** The corpus directory joined with the relative path (how problems name it). */
  path: string;
  /** Path relative to the corpus directory, forward slashes. */
  relative: string;
}

/**
 * Lists the corpus files below `dir` in load order. Symlinked files are read through the link; symlinked
 * directories are not descended (a warning says so). Unreadable directories are fatal problems.
 */
export async function walkCorpus(
  dir: string,
  fatal: Diagnostic[],
  warnings: Diagnostic[],
): Promise<WalkedFile[]> {
  const out: WalkedFile[] = [];
  async function visit(rel: string): Promise<void> {
    const abs = rel ? join(dir, rel) : dir;
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(abs));
    } catch (err: unknown) {
      fatal.push({
        code: "dir-unreadable",
        severity: "error",
        message: `cannot read directory: ${err instanceof Error ? err.message : String(err)}`,
        location: { file: abs, line: 0, column: 0 },
      });
      return;
    }
    entries.sort((a, b) => compareBytes(a.name, b.name));
    for (const entry of entries) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      let isDir = entry.isDirectory;
      let isFile = entry.isFile;
      if (entry.isSymlink) {
        try {
          const info = await Deno.stat(join(dir, childRel));
          isDir = info.isDirectory;
          isFile = info.isFile;
        } catch {
          if (isCorpusFileName(entry.name)) {
            fatal.push({
              code: "file-unreadable",
              severity: "error",
              message: "cannot read file: the symbolic link is broken",
              location: { file: join(dir, childRel), line: 0, column: 0 },
            });
          }
          continue;
        }
        if (isDir) {
          if (!EXCLUDED_DIRS.has(entry.name)) {
            warnings.push({
              code: "symlink-dir-skipped",
              severity: "warning",
              message: "symbolic link to a directory not followed; its files are not loaded",
              location: { file: join(dir, childRel), line: 0, column: 0 },
            });
          }
          continue;
        }
      }
      if (isDir) {
        if (isExcludedDir(entry.name)) continue;
        await visit(childRel);
      } else if (isFile && isCorpusFileName(entry.name)) {
        out.push({ path: join(dir, childRel), relative: childRel });
      }
    }
  }
  await visit("");
  return out;
}
