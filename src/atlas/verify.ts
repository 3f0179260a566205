/**
 * `mapper atlas verify [--target DIR]`: compares an installed corpus with the `atlas-lock.json` that `atlas add`
 * wrote, and reports drift (modified, missing and added files). Exit 1 on drift.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { DataError, EXIT_OK, NotFoundError, ProblemsFound } from "../errors.ts";
import type { Io } from "../io.ts";
import { escapeTerminal, flagUnlessDefault, plural, quote, shellWord } from "./_text.ts";
import { toJson } from "../terminal.ts";
import { ownedFile } from "../corpus/owned.ts";
import { NotRegularFileError, readRegularFile } from "../files.ts";
import { type AtlasLock, LOCK_FILE, parseLock, sha256Hex } from "./lock.ts";
import { DEFAULT_SOURCE, SLUG_PLACEHOLDER } from "./defaults.ts";
import { pathEscape } from "./slug.ts";

/** Options of `atlas verify`. */
export interface VerifyOptions {
  /** Directory holding the installed entry and its lock file, as given. */
  target: string;
  /** Print JSON instead of text. */
  json?: boolean | undefined;
}

/** One drifted file. */
export interface Drift {
  path: string;
  change: "modified" | "missing" | "added";
}

async function walk(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(dir, rel))) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) out.push(...await walk(dir, p));
    else out.push(p);
  }
  return out;
}

/** ` --target DIR` unless the target is the default `.mapper`. */
function targetFlag(target: string): string {
  return flagUnlessDefault("--target", target, ".mapper");
}

/**
 * The `atlas add` command that installs the locked corpus again from where it came from: the recorded archive URL
 * (or path) turned back into a `--source` template, so it works whatever `--index`/`--source` the first install used.
 */
export function reinstallCommand(lock: AtlasLock, target: string): string {
  const slug = shellWord(lock.slug);
  let source = "";
  for (const name of [pathEscape(lock.slug), lock.slug]) {
    const at = lock.source.lastIndexOf(`${name}.tar.gz`);
    if (at >= 0 && lock.source.endsWith(`${name}.tar.gz`)) {
      const template = lock.source.slice(0, at) + SLUG_PLACEHOLDER + ".tar.gz";
      if (template !== DEFAULT_SOURCE) source = ` --source ${shellWord(template)}`;
      break;
    }
  }
  return `mapper atlas add ${slug}${targetFlag(target)}${source}`;
}

/** Runs `atlas verify`; throws {@linkcode ProblemsFound} (exit 1) on drift. */
export async function runVerify(options: VerifyOptions, io: Io): Promise<number> {
  const dir = resolve(io.cwd, options.target);
  let text: string;
  try {
    text = await Deno.readTextFile(join(dir, LOCK_FILE));
  } catch {
    throw new NotFoundError(`no ${LOCK_FILE} in ${quote(options.target)}`, {
      hint: "only corpora installed with 'mapper atlas add' can be verified",
    });
  }
  const lock = parseLock(text);
  if (!lock) {
    throw new DataError(`${quote(`${options.target}/${LOCK_FILE}`)} is not a valid atlas lock file`, {
      hint: "reinstall the corpus with 'mapper atlas add' to write a fresh one",
    });
  }
  const drift: Drift[] = [];
  // Keyed by NFC: HFS+ and SMB shares (macOS) hand names back decomposed (NFD) whatever form they were written in.
  // Files mapper itself writes at the corpus root (the lock, a running session's `.session`) are never drift.
  const mine = (p: string) => !p.includes("/") && ownedFile(p) !== undefined;
  const present = new Map((await walk(dir)).filter((p) => !mine(p)).map((p) => [p.normalize("NFC"), p]));
  for (const [path, hash] of Object.entries(lock.files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const onDisk = present.get(path.normalize("NFC"));
    if (onDisk === undefined) {
      drift.push({ path, change: "missing" });
      continue;
    }
    present.delete(path.normalize("NFC"));
    // Checked by lstat before any open: a FIFO in place of a file must not hang verify, it is simply not the file.
    const bytes = await readRegularFile(join(dir, ...onDisk.split("/"))).catch((err: unknown) => {
      if (err instanceof NotRegularFileError) return undefined;
      throw err;
    });
    if (bytes === undefined || (await sha256Hex(bytes)) !== hash) drift.push({ path, change: "modified" });
  }
  for (const path of [...present.values()].sort()) drift.push({ path, change: "added" });
  if (options.json) {
    io.stdout.write(toJson({
      schema: 1,
      target: options.target,
      slug: lock.slug,
      source: lock.source,
      archive_sha256: lock.archive_sha256,
      installed_at: lock.installed_at,
      files: Object.keys(lock.files).length,
      clean: drift.length === 0,
      drift,
    }));
  } else if (drift.length === 0) {
    io.stdout.write(
      `${escapeTerminal(options.target)} matches ${LOCK_FILE}: ${escapeTerminal(lock.slug)}, ${
        plural(Object.keys(lock.files).length, "file")
      }, archive sha256 ${escapeTerminal(lock.archive_sha256)}, installed ${escapeTerminal(lock.installed_at)}.\n`,
    );
  } else {
    for (const d of drift) io.stdout.write(`  ${d.change.padEnd(8)}  ${escapeTerminal(d.path)}\n`);
  }
  if (drift.length > 0) {
    throw new ProblemsFound(
      `${escapeTerminal(options.target)} drifted from ${LOCK_FILE} (${plural(drift.length, "file")} changed)`,
      {
        hint: `keep your edits, or remove ${shellWord(options.target)} and reinstall: ${
          reinstallCommand(lock, options.target)
        }`,
      },
    );
  }
  return EXIT_OK;
}
