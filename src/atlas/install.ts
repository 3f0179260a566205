/**
 * `mapper atlas add SLUG`: install one published corpus. The order of checks is part of the contract:
 *
 * 1. slug rule → 2. non-empty `--target` → 3. `--expect-sha256` shape → 4. archive URL template (`{slug}`, parse,
 *    transport policy) → 5. target must be missing or an empty directory (decided before any network I/O) →
 * 6. download (policy per hop, caps; 404 = "no corpus published") → 7. archive sha256 (and `--expect-sha256`) →
 * 8. create parents + a fresh staging directory beside the target → 9. stream-extract under the archive rules →
 * 10. load gate → 11. write `atlas-lock.json` → 12. rename staging into place.
 *
 * On any failure the staging directory (and any parent directory this run created) is removed, the target is left
 * as it was, and no message shows the staging path.
 *
 * Memory: the compressed archive is held whole, but never more than the 8 MiB wire cap, so its sha256 (and
 * `--expect-sha256`) is settled before a single byte is inflated or written. Decompression then streams in small
 * slices under the 32 MiB cap (see `_tar.ts`), and each file is held only up to the 4 MiB per-file cap before it is
 * written. Peak memory is therefore bounded by the caps, whatever the archive claims.
 *
 * The archive rules and extraction are `_extract.ts`; the target check, staging and clean-up are `_staging.ts`.
 *
 * @module
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import {
  DataError,
  describe,
  EXIT_OK,
  FileError,
  MapperError,
  NotFoundError,
  PolicyError,
  UsageError,
} from "../errors.ts";
import type { Io } from "../io.ts";
import { escapeTerminal, flagUnlessDefault, plural, quote, rfc3339 } from "./_text.ts";
import { toJson } from "../terminal.ts";
import { escapeControls } from "../terminal.ts";
import { writeUserFile } from "../user_file.ts";
import { DEFAULT_SOURCE, ENV_INDEX, ENV_SOURCE, GALLERY_URL, isUrl, SLUG_PLACEHOLDER } from "./defaults.ts";
import { type AtlasLock, formatLock, LOCK_FILE, LOCK_SCHEMA, sha256Hex } from "./lock.ts";
import { pathEscape, slugProblem } from "./slug.ts";
import { allowedUrl, download, type DownloadOptions, MAX_BODY_BYTES } from "./transport.ts";
import { ArchiveRuleError, extract, type StagedFile } from "./_extract.ts";
import { mkdirTracked, pathKind, removeEmptyUpTo, removeStaleStaging, STAGING_PREFIX } from "./_staging.ts";

export { ARCHIVE_PREFIXES, MAX_FILE_BYTES, MAX_MEMBERS, MAX_TOTAL_BYTES, unsafePathReason } from "./_extract.ts";
export { removeStaleStaging, STAGING_PREFIX } from "./_staging.ts";

/** Options of `atlas add`. */
export interface AddOptions {
  /** Slug of the catalog entry to install. */
  slug: string;
  /** `--target`, default `.mapper`. */
  target: string;
  /** `--source` URL (or path) template with `{slug}`. */
  source?: string | undefined;
  /** `--index`: archives are fetched beside it when `--source` is not given. */
  index?: string | undefined;
  /** `--expect-sha256`. */
  expectSha256?: string | undefined;
  /** `--json`: print the installed files and next steps as one JSON document. */
  json?: boolean | undefined;
  /** Transport overrides (tests). */
  transport?: DownloadOptions | undefined;
}

/** The commands to run next on an installed target, each complete enough to paste. */
export function nextSteps(target: string): { serve: string; verify: string } {
  return {
    serve: `mapper serve-mapper${flagUnlessDefault("--dir", target, ".mapper")}`,
    verify: `mapper atlas verify${flagUnlessDefault("--target", target, ".mapper")}`,
  };
}

/** The archive URL template in effect: `--source`, else beside `--index`, else the environment, else the default. */
export function sourceTemplate(options: Pick<AddOptions, "source" | "index">, io: Io): string {
  if (options.source) return options.source;
  if (options.index) return besideIndex(options.index);
  const envSource = io.env(ENV_SOURCE);
  if (envSource) return envSource;
  const envIndex = io.env(ENV_INDEX);
  if (envIndex) return besideIndex(envIndex);
  return DEFAULT_SOURCE;
}

/**
 * Where to look for the right slug when an archive is not published: the catalog actually in use, not always the
 * public gallery.
 */
export function notPublishedHint(options: Pick<AddOptions, "source" | "index">, io: Io): string {
  if (options.source) {
    return `check the slug and the --source template ${quote(options.source)}, or search: mapper atlas find <domain>`;
  }
  if (options.index) return `search that catalog: mapper atlas find <domain> --index ${quote(options.index)}`;
  if (io.env(ENV_SOURCE)) {
    return `check the slug and ${ENV_SOURCE} ${quote(io.env(ENV_SOURCE) ?? "")}, or search: mapper atlas find <domain>`;
  }
  if (io.env(ENV_INDEX)) return `search that catalog (${ENV_INDEX}): mapper atlas find <domain>`;
  return `browse ${GALLERY_URL}, or search for the site: mapper atlas find <domain>`;
}

/** `<directory of the index>/{slug}.tar.gz` for a URL or a local path. */
export function besideIndex(index: string): string {
  if (isUrl(index)) {
    const cut = index.replace(/[?#].*$/s, "");
    return cut.slice(0, cut.lastIndexOf("/") + 1) + `${SLUG_PLACEHOLDER}.tar.gz`;
  }
  return join(dirname(index), `${SLUG_PLACEHOLDER}.tar.gz`);
}

/**
 * The load gate: the corpus loader (the one every other command uses) must accept the staged directory. It parses
 * every `.yaml`/`.yml` outside `snapshots/` and `review/`; only unreadable files, YAML syntax and wrong types fail,
 * semantic problems (unknown fields, dangling `$ref`) pass. Its problems are shown against the target's name.
 */
async function loadGate(staging: string, label: string): Promise<void> {
  const { load, CorpusLoadError } = await import("../corpus/mod.ts");
  try {
    await load(staging);
  } catch (err: unknown) {
    if (err instanceof CorpusLoadError) {
      const detail = err.problems.slice(0, 3).map((p) => {
        const file = relative(staging, p.location.file).split(sep).join("/");
        return `${label}/${file}:${p.location.line}: ${p.message}`;
      }).join("; ");
      throw new DataError(`publishes a corpus that does not load: ${escapeTerminal(detail)}`, {
        hint: "the atlas entry is broken, nothing was installed",
      });
    }
    throw err;
  }
}

/** Shows progress on stderr when the download is slow and stderr is a terminal. */
function progress(io: Io): { onProgress: (n: number, total: number | undefined) => void; done: () => void } {
  const start = io.now();
  let last = 0;
  let shown = false;
  return {
    onProgress: (n, total) => {
      if (!io.isTTY.stderr) return;
      const t = io.now();
      if (t - start < 1000 || t - last < 200) return;
      last = t;
      shown = true;
      const mib = (x: number) => (x / 1048576).toFixed(1);
      io.stderr.write(`\r\x1b[2Kdownloading… ${mib(n)} MiB${total ? ` of ${mib(total)} MiB` : ""}`);
    },
    done: () => {
      if (shown) io.stderr.write("\r\x1b[2K");
    },
  };
}

/** Fetches the archive from a URL (transport policy) or reads it from a local path (same cap). */
async function fetchArchive(
  location: string | URL,
  slug: string,
  io: Io,
  transport: DownloadOptions | undefined,
  hint: string,
): Promise<Uint8Array> {
  const notPublished = () => new NotFoundError(`no corpus published for slug ${quote(slug)}`, { hint });
  if (!(location instanceof URL)) {
    try {
      // Counted on bytes read, like a download: a FIFO or a growing file has no trustworthy size.
      using file = await Deno.open(location);
      const body = new Uint8Array(MAX_BODY_BYTES + 1);
      let size = 0;
      for (;;) {
        const n = await file.read(body.subarray(size));
        if (n === null) break;
        size += n;
        if (size > MAX_BODY_BYTES) {
          throw new PolicyError(`${quote(location)} exceeds the ${MAX_BODY_BYTES}-byte limit — refusing to install it`);
        }
      }
      return body.subarray(0, size);
    } catch (err: unknown) {
      if (err instanceof MapperError) throw err;
      if (err instanceof Deno.errors.NotFound) throw notPublished();
      throw new FileError(`cannot read archive ${quote(location)}: ${describe(err)}`);
    }
  }
  const p = progress(io);
  try {
    const { bytes } = await download(location, io, {
      onNotFound: notPublished,
      onProgress: p.onProgress,
      ...transport,
    });
    return bytes;
  } finally {
    p.done();
  }
}

/**
 * Where `atlas add` fetches the archive of `options.slug`: the URL (parsed once and checked by the transport policy:
 * that object is what is fetched and what the lock records) or a local path. Throws a usage error when the template
 * has no `{slug}`, and the policy's error for a URL it refuses.
 */
export function archiveLocation(options: Pick<AddOptions, "slug" | "source" | "index">, io: Io): string | URL {
  const template = sourceTemplate(options, io);
  if (!template.includes(SLUG_PLACEHOLDER)) {
    throw new UsageError(
      `archive URL ${quote(template)} has no {slug} placeholder — it must name where one entry's archive lives, ` +
        `for example ${DEFAULT_SOURCE}`,
    );
  }
  return isUrl(template)
    ? allowedUrl(template.replaceAll(SLUG_PLACEHOLDER, pathEscape(options.slug)), "use an https:// URL in --source")
    : resolve(io.cwd, template.replaceAll(SLUG_PLACEHOLDER, options.slug));
}

/** Runs `atlas add`; returns 0 or throws a typed error (exit 1, or 2 for bad arguments). */
export async function runAdd(options: AddOptions, io: Io): Promise<number> {
  const { slug, target } = options;
  const reason = slugProblem(slug);
  if (reason !== undefined) {
    throw new UsageError(`invalid slug ${quote(slug)}: ${reason}`, {
      hint: "find the right slug with 'mapper atlas find <domain>'",
    });
  }
  if (target === "") throw new UsageError("no install target: name the directory to install the corpus into");
  const expect = options.expectSha256?.trim().toLowerCase();
  if (expect !== undefined && !/^[0-9a-f]{64}$/.test(expect)) {
    throw new UsageError(`--expect-sha256 must be 64 hexadecimal digits, got ${quote(options.expectSha256 ?? "")}`);
  }
  const location = archiveLocation(options, io);
  const targetAbs = resolve(io.cwd, target);
  const fromTarget = relative(targetAbs, resolve(io.cwd));
  if (fromTarget !== ".." && !fromTarget.startsWith(`..${sep}`) && !isAbsolute(fromTarget)) {
    // The corpus is swapped in by rename: that would pull the directory the user stands in out from under them.
    throw new UsageError(`install target ${quote(target)} is the current directory or contains it`, {
      hint: "pass a new directory with --target (the default is .mapper)",
    });
  }
  const shownTarget = escapeTerminal(target);
  let state: Awaited<ReturnType<typeof pathKind>>;
  try {
    state = await pathKind(targetAbs);
  } catch (err: unknown) {
    throw new FileError(`cannot read install target ${quote(target)}: ${describe(err)}`, {
      hint: "pass --target with a directory path you can write to",
    });
  }
  if (state === "notdir") {
    throw new FileError(`install target ${quote(target)} exists and is not a directory`, {
      hint: "pass --target with a directory path",
    });
  }
  if (state === "symlink") {
    throw new FileError(`install target ${quote(target)} is a symbolic link`, {
      hint: "pass the real directory path with --target",
    });
  }
  if (state === "nonempty") {
    throw new PolicyError(`install target ${quote(target)} already exists and is not empty`, {
      hint: "delete it and run this again to install over it",
    });
  }

  const archive = await fetchArchive(location, slug, io, options.transport, notPublishedHint(options, io));
  const archiveSha = await sha256Hex(archive);
  if (expect !== undefined && expect !== archiveSha) {
    throw new PolicyError(
      `archive for ${quote(slug)} has sha256 ${archiveSha}, but --expect-sha256 is ${expect}; nothing was installed`,
    );
  }

  const parent = dirname(targetAbs);
  let createdTop: string | undefined;
  let staging: string | undefined;
  try {
    createdTop = await mkdirTracked(parent);
    await removeStaleStaging(parent);
    staging = await Deno.makeTempDir({ dir: parent, prefix: `${STAGING_PREFIX}${Deno.pid}-` });
    let files: StagedFile[];
    try {
      files = await extract(archive, staging, io.signal);
    } catch (err: unknown) {
      if (err instanceof ArchiveRuleError) throw new PolicyError(`atlas entry ${quote(slug)}: ${err.message}`);
      throw err;
    }
    try {
      await loadGate(staging, target.replace(Deno.build.os === "windows" ? /[\\/]+$/ : /\/+$/, "") || target);
    } catch (err: unknown) {
      if (err instanceof DataError) {
        throw new DataError(`atlas entry ${quote(slug)} ${err.message}`, err.hint ? { hint: err.hint } : {});
      }
      throw err;
    }
    const lock: AtlasLock = {
      schema: LOCK_SCHEMA,
      slug,
      source: location instanceof URL ? location.href : location,
      archive_sha256: archiveSha,
      installed_at: rfc3339(io.now()),
      files: Object.fromEntries(files.map((f) => [f.rel, f.sha256])),
    };
    await writeUserFile(join(staging, LOCK_FILE), formatLock(lock), LOCK_FILE, { mode: 0o644 });
    io.signal.throwIfAborted(); // interrupted: install nothing
    await Deno.chmod(staging, 0o755);
    // Not `replaceDirectory` (src/user_file.ts): that one replaces an existing copy (with rollback) from text held in
    // memory, in one call. An install never replaces anything (the target must still be missing or empty at the
    // rename), streams binary archive members into staging, gates the staged corpus before the swap, and names
    // staging `.mapper-add-<pid>-…` so a killed install's leftovers can be swept.
    if (state === "empty") {
      try {
        await Deno.remove(targetAbs); // fails if it gained files meanwhile: never overwrite
      } catch {
        throw new PolicyError(`install target ${quote(target)} changed while installing and is no longer empty`, {
          hint: "delete it and run this again to install over it",
        });
      }
    }
    try {
      await Deno.rename(staging, targetAbs);
    } catch (err: unknown) {
      // Another install into the same target won the race between our emptiness check and this rename.
      if ((await pathKind(targetAbs).catch(() => "missing")) === "nonempty") {
        throw new PolicyError(`install target ${quote(target)} already exists — another install finished first`, {
          hint: "use a new --target or remove it",
        });
      }
      throw new FileError(`cannot move the corpus into ${quote(target)}: ${describe(err)}`, {
        hint: "check that you can write to its parent directory",
      });
    }
    staging = undefined;
    createdTop = undefined;
    const next = nextSteps(target);
    const shownPath = (rel: string) => join(target, rel).split(sep).join("/");
    if (options.json) {
      io.stdout.write(toJson({
        schema: 1,
        slug,
        target,
        source: location instanceof URL ? location.href : location,
        archive_sha256: archiveSha,
        lock: shownPath(LOCK_FILE),
        files: files.map((f) => ({ path: shownPath(f.rel), sha256: f.sha256 })),
        next: [next.serve, next.verify],
      }));
      return EXIT_OK;
    }
    // Names come from the archive: control characters AND bidirectional overrides are shown, never obeyed.
    const safe = (text: string) => escapeControls(text);
    const lines = files.map((f) => `  wrote  ${safe(shownPath(f.rel))}\n`);
    io.stdout.write(
      lines.join("") + "\n" +
        `Archive sha256 ${archiveSha} (recorded in ${safe(shownPath(LOCK_FILE))}; check with ${next.verify}).\n` +
        `Installed ${escapeTerminal(slug)}: ${plural(files.length, "file")} → ${safe(target)}. Next:\n` +
        `  ${next.serve}\n`,
    );
    return EXIT_OK;
  } catch (err: unknown) {
    // Never leak the staging path: show the target instead.
    if (err instanceof MapperError) {
      if (staging && err.message.includes(staging)) err.message = err.message.split(staging).join(shownTarget);
      throw err;
    }
    if (io.signal.aborted) throw err; // reported as "interrupted" (exit 130); the finally block cleans up
    const kind = err instanceof Error ? err.name : "error";
    const msg = err instanceof Error && staging ? err.message.split(staging).join(shownTarget) : String(err);
    throw new FileError(`cannot install into ${quote(target)}: ${kind}: ${escapeTerminal(msg)}`);
  } finally {
    if (staging) await Deno.remove(staging, { recursive: true }).catch(() => {});
    if (createdTop) await removeEmptyUpTo(parent, createdTop);
  }
}
