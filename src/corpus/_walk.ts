// Corpus file discovery: a lexical (byte order), depth-first walk of the corpus directory.
import { join, sep } from "../path.ts";
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

/** What one directory contributed, in load order: its files and its problems. */
interface Visit {
  files: WalkedFile[];
  fatal: Diagnostic[];
  warnings: Diagnostic[];
}

/**
 * Whether `target` (a real path) lies inside the directory whose real path is `root`. A corpus is published as it
 * is read (`/mapper`, `/mapper/diagnostics`, memory notes), so a link out of it would publish whatever file it
 * names: another user's link to `~/.pgpass` would be served to them.
 */
export function insideDir(root: string, target: string): boolean {
  return target.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Lists the corpus files below `dir` in load order. Symlinked files are read through the link when it stays inside
 * the corpus directory; a link that resolves outside it is not read (`symlink-outside-corpus`, an error that does
 * not stop the load); symlinked directories are not descended (a warning says so). Unreadable directories are fatal
 * problems. Synchronous: a large corpus has hundreds of small directories, and one blocking call each is several
 * times faster than a round trip to the runtime's I/O threads.
 */
export function walkCorpus(
  dir: string,
  fatal: Diagnostic[],
  warnings: Diagnostic[],
): WalkedFile[] {
  let root: string | undefined;
  function visit(rel: string): Visit {
    const out: Visit = { files: [], fatal: [], warnings: [] };
    const abs = rel ? join(dir, rel) : dir;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(abs)];
    } catch (err: unknown) {
      out.fatal.push({
        code: "dir-unreadable",
        severity: "error",
        message: `cannot read directory: ${err instanceof Error ? err.message : String(err)}`,
        location: { file: abs, line: 0, column: 0 },
      });
      return out;
    }
    entries.sort((a, b) => compareBytes(a.name, b.name));
    // Each entry becomes a visit of its own (a file, a problem, or a whole subdirectory), merged in entry order.
    const parts = entries.map((entry): Visit | undefined => {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      let isDir = entry.isDirectory;
      let isFile = entry.isFile;
      if (entry.isSymlink) {
        try {
          const info = Deno.statSync(join(dir, childRel));
          isDir = info.isDirectory;
          isFile = info.isFile;
        } catch {
          if (!isCorpusFileName(entry.name)) return undefined;
          return {
            files: [],
            warnings: [],
            fatal: [{
              code: "file-unreadable",
              severity: "error",
              message: "cannot read file: the symbolic link is broken",
              location: { file: join(dir, childRel), line: 0, column: 0 },
            }],
          };
        }
        if (isFile && isCorpusFileName(entry.name)) {
          let real: string | undefined;
          try {
            root ??= Deno.realPathSync(dir);
            real = Deno.realPathSync(join(dir, childRel));
          } catch {
            real = undefined;
          }
          if (real === undefined || !insideDir(root!, real)) {
            // The target is not named: the diagnostics are served too, and would tell where it points.
            return {
              files: [],
              fatal: [],
              warnings: [{
                code: "symlink-outside-corpus",
                severity: "error",
                message: "symbolic link to a file outside the corpus directory; not read (copy the file in instead)",
                location: { file: join(dir, childRel), line: 0, column: 0 },
              }],
            };
          }
        }
        if (isDir) {
          if (EXCLUDED_DIRS.has(entry.name)) return undefined;
          return {
            files: [],
            fatal: [],
            warnings: [{
              code: "symlink-dir-skipped",
              severity: "warning",
              message: "symbolic link to a directory not followed; its files are not loaded",
              location: { file: join(dir, childRel), line: 0, column: 0 },
            }],
          };
        }
      }
      if (isDir) return isExcludedDir(entry.name) ? undefined : visit(childRel);
      if (isFile && isCorpusFileName(entry.name)) {
        return { files: [{ path: join(dir, childRel), relative: childRel }], fatal: [], warnings: [] };
      }
      return undefined;
    });
    for (const part of parts) {
      if (!part) continue;
      out.files.push(...part.files);
      out.fatal.push(...part.fatal);
      out.warnings.push(...part.warnings);
    }
    return out;
  }
  const result = visit("");
  fatal.push(...result.fatal);
  warnings.push(...result.warnings);
  return result.files;
}
