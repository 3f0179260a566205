/**
 * Reading a gallery directory (`entries/<slug>/README.md`, `entries/<slug>/.mapper/**`, optional
 * `entries/<slug>/screenshots/*`, optional `removed.yaml`) into checked entries. One read: every byte the snapshot
 * serves is read here, once. A bad entry never throws: it becomes a warning naming the entry and the rule. The
 * front matter, the corpus's archive members and the takedown list each have their own module.
 *
 * @module
 */
import { join } from "node:path";
import { describe, FileError } from "../errors.ts";
import type { CorpusStats } from "../corpus/mod.ts";
import { checkFrontMatter, type FrontMatter, SLUG_PATTERN } from "./_schema.ts";
import type { ArchiveFile } from "./_tar.ts";
import { firstLine, FrontMatterError, splitFrontMatter } from "./_front_matter.ts";
import { byCodeUnit, configVersion, walkCorpus } from "./_members.ts";
import { readTombstones, type Tombstone } from "./_tombstones.ts";

export { splitFrontMatter } from "./_front_matter.ts";
export { byCodeUnit } from "./_members.ts";
export { readTombstones, type Tombstone } from "./_tombstones.ts";

/** Why an entry was left out: the entry folder name, the rule it broke, a one-line detail and where it is. */
export interface EntryWarning {
  /** Entry the warning is about. */
  entry: string;
  /** Rule the entry broke. */
  rule: string;
  /** What exactly is wrong. */
  detail: string;
  /** The file the problem is in, relative to the gallery, `/`-separated (`entries/x/README.md`), when known. */
  file?: string;
  /** Its 1-based line in `file`, when known. */
  line?: number;
}

/** Where an entry problem is, for {@linkcode EntryWarning}. */
export type WarningPlace = { file: string; line?: number };

/** One screenshot file of an entry. */
export interface Screenshot {
  /** Base name, e.g. `01-home.png`. */
  name: string;
  /** The image bytes. */
  data: Uint8Array<ArrayBuffer>;
}

/** An entry that passed every rule, with everything the snapshot needs. */
export interface GalleryEntry {
  /** The entry's front matter. */
  front: FrontMatter;
  /** The README exactly as read. */
  readme: Uint8Array<ArrayBuffer>;
  /** The README text after the front matter. */
  body: string;
  /** Statistics of the entry's corpus. */
  stats: CorpusStats;
  /** `.mapper/<path>` of every corpus file, sorted by full path (code-unit order). */
  files: string[];
  /** Archive members in walk order: each directory's names sorted, sub-directories recursed in place. */
  members: ArchiveFile[];
  /** Screenshots shipped with the entry. */
  screenshots: Screenshot[];
  /** Git commit of the entry, or `null` when unknown. */
  commit: string | null;
}

/** The gallery as read: accepted entries (slug order), warnings, and takedowns that still had a directory. */
export interface GalleryRead {
  /** Entries read. */
  entries: GalleryEntry[];
  /** Problems found in entries. */
  warnings: EntryWarning[];
  /** Slugs withheld because `removed.yaml` lists them although their directory still exists. */
  withheld: string[];
  /** Entries that were removed. */
  tombstones: Tombstone[];
}

/**
 * Computes a corpus's catalog statistics; the default loads it with the corpus library. `archived` holds the bytes
 * the archive will publish (read just before): an implementation that reads the files again should check it read
 * the same bytes and throw {@linkcode CorpusChangedError} if not, so stats and archive never describe two versions.
 */
export type StatsFn = (corpusDir: string, archived: readonly ArchiveFile[]) => Promise<CorpusStats>;

/**
 * The corpus of an entry is refused (a validation error): the message and where the first problem is, relative to
 * the entry folder (`.mapper/home.yaml`, line 12).
 */
export class CorpusProblem extends Error {
  /** Error name. */
  override name = "CorpusProblem";
  /** Creates the error. */
  constructor(message: string, readonly file: string, readonly line: number) {
    super(message);
  }
}

/** A corpus file changed between the archive's read and the statistics' read; the entry is read again. */
export class CorpusChangedError extends Error {
  /** Error name. */
  override name = "CorpusChangedError";
}

/** Reads of an entry's corpus attempted before a file that keeps changing leaves the entry out. */
const CORPUS_READ_ATTEMPTS = 3;

/** Options of {@linkcode readGallery}. */
export interface ReadGalleryOptions {
  stats: StatsFn;
  /** Look up the last commit per entry with git (default true). */
  git?: boolean;
}

const decoder = new TextDecoder("utf-8", { fatal: true });
const SCREENSHOT_NAME = /^\d\d-[a-z0-9]+(-[a-z0-9]+)*\.(png|webp|jpg|jpeg)$/;
const MAX_SCREENSHOT_BYTES = 300 * 1024;
const ALLOWED_IN_ENTRY = new Set(["README.md", ".mapper", "screenshots"]);
/** Entries read at the same time. */
const CONCURRENCY = 8;

/** The last commit touching each entry directory, when the gallery is a git checkout; empty map otherwise. */
export async function entryCommits(gallery: string): Promise<Map<string, string>> {
  const commits = new Map<string, string>();
  const git = async (args: string[]): Promise<string | undefined> => {
    try {
      const out = await new Deno.Command("git", { args: ["-C", gallery, ...args], stdout: "piped", stderr: "null" })
        .output();
      return out.success ? new TextDecoder().decode(out.stdout) : undefined;
    } catch {
      return undefined;
    }
  };
  const prefix = await git(["rev-parse", "--show-prefix"]);
  if (prefix === undefined) return commits;
  // One walk of the history instead of one `git log -1 -- <entry>` per entry: newest first, first hit wins.
  const log = await git(["log", "--format=%x01%H", "--name-only", "--no-renames", "--", "entries"]);
  if (log === undefined) return commits;
  const base = `${prefix.trim()}entries/`;
  let sha = "";
  for (const line of log.split("\n")) {
    if (line.startsWith("\x01")) {
      sha = line.slice(1).trim();
      continue;
    }
    if (!line.startsWith(base)) continue;
    const slug = line.slice(base.length).split("/")[0];
    if (slug && !commits.has(slug)) commits.set(slug, sha);
  }
  return commits;
}

/** Reads the screenshots folder (absent → none) and checks the gallery's rules. */
async function readScreenshots(dir: string, problems: string[]): Promise<Screenshot[]> {
  const names: string[] = [];
  try {
    // lstat first: a symlinked screenshots/ must not publish files from elsewhere.
    if (!(await Deno.lstat(dir)).isDirectory) {
      problems.push("screenshots is not a directory");
      return [];
    }
    for await (const e of Deno.readDir(dir)) if (!e.name.startsWith(".")) names.push(e.name);
  } catch (err: unknown) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  names.sort(byCodeUnit);
  if (names.length === 0 || names.length > 5) {
    problems.push(`screenshots/ must hold 1 to 5 files, found ${names.length}`);
  }
  const shots: Screenshot[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const info = await Deno.lstat(join(dir, name));
    if (!info.isFile) {
      problems.push(`screenshots/${name} is not a regular file`);
      continue;
    }
    if (!SCREENSHOT_NAME.test(name)) {
      problems.push(`screenshots/${name} is not named NN-<kebab>.(png|webp|jpg|jpeg)`);
      continue;
    }
    if (seen.has(name.slice(0, 2))) problems.push(`screenshots/${name} repeats number ${name.slice(0, 2)}`);
    seen.add(name.slice(0, 2));
    if (info.size > MAX_SCREENSHOT_BYTES) {
      problems.push(`screenshots/${name} is ${info.size} bytes, over ${MAX_SCREENSHOT_BYTES}`);
      continue;
    }
    shots.push({ name, data: await Deno.readFile(join(dir, name)) });
  }
  return shots;
}

/** Reads and checks one entry directory. Returns the entry, or `undefined` after adding warnings. */
async function readEntry(
  gallery: string,
  folder: string,
  options: ReadGalleryOptions,
  warn: (rule: string, detail: string, place?: WarningPlace) => void,
): Promise<GalleryEntry | undefined> {
  const dir = join(gallery, "entries", folder);
  const readmeFile = `entries/${folder}/README.md`;
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  const stray = names.filter((n) => !ALLOWED_IN_ENTRY.has(n)).sort(byCodeUnit);
  let ok = true;
  if (stray.length > 0) {
    warn(
      "layout",
      `unexpected ${stray.map((n) => `"${n}"`).join(", ")} (an entry holds only README.md, .mapper/, screenshots/)`,
      { file: `entries/${folder}` },
    );
    ok = false;
  }

  let readme: Uint8Array<ArrayBuffer> | undefined;
  let front: FrontMatter | undefined;
  let body = "";
  let lineOf: (path: ReadonlyArray<string | number>) => number = () => 1;
  try {
    const info = await Deno.lstat(join(dir, "README.md"));
    if (!info.isFile) throw new Error("README.md is not a regular file");
    readme = await Deno.readFile(join(dir, "README.md"));
    const split = splitFrontMatter(decoder.decode(readme));
    body = split.body;
    lineOf = split.lineOf;
    const problems = checkFrontMatter(split.data as Record<string, unknown>);
    if (problems.length > 0) {
      for (const p of problems) {
        const key = p.path.reduce<string>((at, k) => typeof k === "number" ? `${at}[${k}]` : at ? `${at}.${k}` : k, "");
        warn("schema", key ? `${key}: ${p.message}` : p.message, { file: readmeFile, line: split.lineOf(p.path) });
      }
      ok = false;
    } else {
      front = split.data as FrontMatter;
      if (front.slug !== folder) {
        warn("slug-matches-folder", `front-matter slug "${front.slug}" differs from the folder name "${folder}"`, {
          file: readmeFile,
          line: split.lineOf(["slug"]),
        });
        ok = false;
      }
    }
  } catch (err: unknown) {
    const message = err instanceof Deno.errors.NotFound ? "README.md is missing" : describe(err);
    warn("front-matter", message.startsWith("The encoded data") ? "README.md is not valid UTF-8" : message, {
      file: readmeFile,
      ...(err instanceof FrontMatterError ? { line: err.line } : {}),
    });
    ok = false;
  }
  if (!SLUG_PATTERN.test(folder)) {
    warn("slug-format", `"${folder}" must be lowercase words joined by single hyphens`, { file: `entries/${folder}` });
    ok = false;
  }

  const corpusDir = join(dir, ".mapper");
  let members: ArchiveFile[] = [];
  let files: string[] = [];
  const corpusInfo = await Deno.lstat(corpusDir).catch(() => undefined);
  if (!corpusInfo?.isDirectory) {
    warn("corpus", corpusInfo ? ".mapper is not a directory" : "no .mapper/ directory", { file: `entries/${folder}` });
    return undefined;
  }
  let stats: CorpusStats | undefined;
  // The archive's bytes and the statistics must describe the same files: when a file changes between the two
  // reads (an editor saving under --watch), read the corpus again.
  for (let attempt = 1; attempt <= CORPUS_READ_ATTEMPTS; attempt++) {
    const limitProblems: string[] = [];
    ({ members, files } = await walkCorpus(corpusDir, limitProblems));
    if (limitProblems.length > 0) {
      for (const p of limitProblems) warn("archive-limits", p, { file: `entries/${folder}/.mapper` });
      return undefined;
    }
    try {
      stats = await options.stats(corpusDir, members);
      break;
    } catch (err: unknown) {
      if (err instanceof CorpusChangedError && attempt < CORPUS_READ_ATTEMPTS) continue;
      warn(
        "corpus",
        `the corpus does not load: ${firstLine(err)}`,
        err instanceof CorpusProblem
          ? { file: `entries/${folder}/${err.file}`, ...(err.line > 0 ? { line: err.line } : {}) }
          : { file: `entries/${folder}/.mapper` },
      );
      ok = false;
      break;
    }
  }
  const config = configVersion(members);
  if (front && config.version !== front.spec_version) {
    warn(
      "spec-version",
      config.present
        ? `.mapper/config.yaml has version ${JSON.stringify(config.version ?? null)}; it must equal spec_version ` +
          `${front.spec_version}`
        : `.mapper/config.yaml is missing; add it with "version: ${front.spec_version}" (the spec_version; ` +
          `'mapper init' writes one)`,
      config.present ? { file: `entries/${folder}/${config.present}`, line: 1 } : {
        file: readmeFile,
        line: lineOf(["spec_version"]),
      },
    );
    ok = false;
  }

  const shotProblems: string[] = [];
  const screenshots = await readScreenshots(join(dir, "screenshots"), shotProblems);
  for (const p of shotProblems) warn("screenshots", p, { file: `entries/${folder}/screenshots` });
  if (shotProblems.length > 0) ok = false;

  if (!ok || !front || !readme || !stats) return undefined;
  return { front, readme, body, stats, files, members, screenshots, commit: null };
}

/**
 * Reads a gallery. Throws only when the directory itself is unusable (missing, no `entries/`, unreadable
 * `removed.yaml`); every per-entry problem becomes a warning and the entry is left out.
 */
export async function readGallery(gallery: string, options: ReadGalleryOptions): Promise<GalleryRead> {
  const entriesDir = join(gallery, "entries");
  const info = await Deno.stat(gallery).catch(() => undefined);
  if (!info?.isDirectory) {
    throw new FileError(`gallery "${gallery}" is not a directory`, {
      hint: "pass --gallery DIR with entries/<slug>/README.md inside, or omit it to serve the bundled example",
    });
  }
  const entriesInfo = await Deno.stat(entriesDir).catch(() => undefined);
  if (!entriesInfo?.isDirectory) {
    throw new FileError(`gallery "${gallery}" has no "entries/" directory`, {
      hint: "a gallery holds entries/<slug>/README.md and entries/<slug>/.mapper/",
    });
  }
  // The history walk runs while the entries are read (it only fills in `commit` at the end).
  const commitsRead = options.git === false ? Promise.resolve(new Map<string, string>()) : entryCommits(gallery);
  // Never leave the git process running behind a failure.
  const tombstones = await readTombstones(gallery).catch(async (err: unknown) => {
    await commitsRead;
    throw err;
  });
  const removed = new Set(tombstones.map((t) => t.slug));

  const folders: string[] = [];
  for await (const e of Deno.readDir(entriesDir)) {
    if (!e.name.startsWith(".")) folders.push(e.name);
  }
  folders.sort(byCodeUnit);

  const withheld = folders.filter((f) => removed.has(f));
  const pending = folders.filter((f) => !removed.has(f));
  const results: Array<{ entry?: GalleryEntry; warnings: EntryWarning[] }> = new Array(pending.length);
  // A few entries at a time: file reads and corpus loads overlap, output order stays the folder order.
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const i = next++;
      const folder = pending[i]!;
      const own: EntryWarning[] = [];
      const warn = (rule: string, detail: string, place?: WarningPlace) =>
        own.push({ entry: folder, rule, detail, ...place });
      let entry: GalleryEntry | undefined;
      try {
        const entryInfo = await Deno.lstat(join(entriesDir, folder));
        if (!entryInfo.isDirectory) {
          warn("layout", entryInfo.isSymlink ? "the entry is a symbolic link" : "the entry is not a directory", {
            file: `entries/${folder}`,
          });
        } else {
          entry = await readEntry(gallery, folder, options, warn);
        }
      } catch (err: unknown) {
        warn("read", `could not read the entry: ${describe(err)}`, { file: `entries/${folder}` });
      }
      results[i] = entry ? { entry, warnings: own } : { warnings: own };
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pending.length) }, worker));
  const commits = await commitsRead;
  const entries: GalleryEntry[] = [];
  for (const { entry } of results) if (entry) entries.push({ ...entry, commit: commits.get(entry.front.slug) ?? null });
  const warnings = results.flatMap((r) => r.warnings);
  return { entries, warnings, withheld, tombstones };
}
