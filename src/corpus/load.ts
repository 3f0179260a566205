/**
 * `load(dir)`: discover, parse, merge, expand `$ref`s and flatten a `.mapper/` corpus.
 *
 * Rules (corpus.md §2): files in lexical byte order per directory, depth-first; `.yaml`/`.yml` any case;
 * `snapshots/` and `review/` skipped at any depth; plain append merge without de-duplication; `$ref` expansion from
 * a registry of named root components; required fields checked after expansion; nesting flattened in pre-order
 * into descendant selectors (cross product) with a root-first `parentChain`.
 *
 * @module
 */
import { assertRegularFileSync } from "../files.ts";
import { CorpusLoadError, type Diagnostic, sortByLocation, type SourceLocation } from "./diagnostic.ts";
import type { RawComponent, RawDefinition, RawFile, RawRequest } from "./_decode.ts";
import { walkCorpus, type WalkedFile } from "./_walk.ts";
import { resolve } from "../path.ts";
import type { ParseJob, ParseOutcome } from "./_parse_pool.ts";
import { lazy } from "../lazy.ts";
import { composeSelectors } from "./selector.ts";
import type { Corpus, CorpusComponent, CorpusMessage, CorpusRequest, CorpusView } from "./model.ts";

/** What {@linkcode load} returns: the corpus and every non-fatal diagnostic, in file order. */
export interface LoadResult {
  /** The loaded corpus. */
  corpus: Corpus;
  /** Problems found while loading (with `deferCrossChecks`, the checks across files run when this is first read). */
  readonly diagnostics: Diagnostic[];
}

/** Options of {@linkcode load}. */
export interface LoadOptions {
  /**
   * Reuse decoded files that are unchanged since the previous load with the same cache (the live service recompiles
   * a large corpus after a one-file edit without reading or parsing the rest).
   */
  cache?: LoadCache;
  /** Parse workers for a large batch of files (default: see `_parse_pool.ts`; 0 = parse in-process). */
  workers?: number;
  /**
   * The paths a file watcher reported since the previous load with the same `cache`. When every one is a corpus
   * file that load already had and that still exists (an edit of existing files), the directory is not walked and
   * no other file is even stat'ed: only these are read and, when their text changed, parsed. Anything else (a new,
   * removed or renamed file, a directory, an empty list) makes the load walk and check everything as usual.
   */
  changed?: Iterable<string>;
  /**
   * Run every authoring check (`mapper validate`, the corpus server's `/mapper/diagnostics`): selectors are parsed
   * with a real CSS parser and `source`/`dependencies` globs are looked up on disk. Default false: the cheap checks
   * only (no CSS parser is loaded).
   */
  validate?: boolean;
  /** With `validate`: also look `source`/`dependencies` globs up on disk (`unknown-source`). Default true. */
  sources?: boolean;
  /**
   * Run the checks across entries and files (merge collisions, duplicates, route conflicts, …) when the result's
   * `diagnostics` is first read, not before the load returns: a server can answer with the corpus first. They never
   * change the corpus, only what is reported. Not with the disk lookup of globs (`sources`), which stays part of the
   * load. Default false.
   */
  deferCrossChecks?: boolean;
  /**
   * Keep going past a file that cannot be decoded (YAML syntax, wrong types, unreadable): it becomes one
   * `parse-error` diagnostic and the rest of the corpus is loaded. Default false (the load throws).
   */
  tolerant?: boolean;
}

/** The stat of a file that {@linkcode entryUnchanged} compares: what the load cache (and the start cache) record. */
export interface FileStamp {
  /** Size in bytes when the file was read. */
  size: number;
  /** Modification time (ms) when read; `undefined` when the OS has none. */
  mtime: number | undefined;
  /** Status-change time (ms) when read: set by any write, rename or `utime`, never by a user. `undefined`: none. */
  ctime: number | undefined;
  /** Inode number when read (a file replaced by another has another); `undefined` when the OS has none. */
  ino: number | undefined;
  /** Wall-clock time just before that read. */
  checkedAt: number;
}

/** What the load cache remembers about one file. */
export interface CacheEntry extends FileStamp {
  /** File text; `undefined` when not kept (an entry restored from the start cache: a changed file is parsed again). */
  text: string | undefined;
  /** Decoded file. */
  raw: RawFile;
  /** Warnings found in the file. */
  warnings: Diagnostic[];
  /** Whether it was decoded with validation on. */
  validated: boolean;
}

/**
 * A file whose modification time is this close to the moment it was read may have changed again within the same
 * timestamp tick without changing size ("racy" in git's words): such files are re-read and compared by text.
 */
const RACY_MS = 2_000;

/** The stamp of a file from its stat, taken just after `checkedAt`. */
export function stampOf(info: Deno.FileInfo, checkedAt: number): FileStamp {
  return {
    size: info.size,
    mtime: info.mtime?.getTime(),
    ctime: info.ctime?.getTime(),
    ino: info.ino ?? undefined,
    checkedAt,
  };
}

/**
 * Whether a file whose stat is `info` now is certainly the file that `stamp` recorded, without reading it: the same
 * size, modification time, status-change time and inode, and neither time was within {@linkcode RACY_MS} of the
 * read (a second write in the same timestamp tick would not show). The status-change time catches a file written and
 * then given its old modification time back (`touch -d`, `tar x`, `cp -p`). Runtimes report it to the second: it
 * counts as a second later. The one rule for every reuse of a decoded file without reading it.
 */
export function entryUnchanged(stamp: FileStamp, info: Deno.FileInfo): boolean {
  const mtime = info.mtime?.getTime();
  const ctime = info.ctime?.getTime();
  if (mtime === undefined || stamp.mtime !== mtime || stamp.size !== info.size) return false;
  if (stamp.ctime !== ctime || stamp.ino !== (info.ino ?? undefined)) return false;
  return stamp.checkedAt - Math.max(mtime, ctime === undefined ? mtime : ctime + 1000) > RACY_MS;
}

/**
 * Fatal load problems as authoring diagnostics: a file that cannot be decoded (YAML syntax, wrong types,
 * unreadable) is `parse-error`; other problems keep their code.
 */
export function asParseErrors(problems: readonly Diagnostic[]): Diagnostic[] {
  return problems.map((d) =>
    FILE_FATAL.has(d.code)
      ? { ...d, code: "parse-error", cause: d.code, message: `${d.message} (the file is skipped until this is fixed)` }
      : d
  );
}

/** Loader problem codes that mean "this file could not be decoded" (reported as `parse-error` when tolerant). */
const FILE_FATAL = new Set(["file-unreadable", "file-encoding", "yaml-syntax", "yaml-alias-limit", "type-mismatch"]);

/**
 * Decoded files from the previous load, keyed by path. A file is reused without being read when its size and
 * modification time are unchanged and it was not modified just before it was read; otherwise it is read and reused
 * when its text is identical. Opaque.
 */
export class LoadCache {
  /** Path → decoded file of the last load (files that vanished are dropped at the next load). */
  entries: Map<string, CacheEntry>;
  /**
   * The last walk: its directory, files in load order, the warnings it produced, and (made on first use) its files
   * by resolved path.
   */
  walk: { dir: string; files: WalkedFile[]; warnings: Diagnostic[]; byPath?: Map<string, string> } | undefined;

  /** An empty cache, or one restored from what an earlier process recorded (the start cache). */
  constructor(entries: Map<string, CacheEntry> = new Map(), walk?: LoadCache["walk"]) {
    this.entries = entries;
    this.walk = walk;
  }
}

/**
 * Whether the corpus in `dir` is, file for file, what `cache` recorded: the walk finds the same files in the same
 * order with the same warnings, and each is unchanged by {@linkcode entryUnchanged}. Reads no file (unless
 * `readUnvouched`): a corpus that passes compiles to what the load that filled the cache compiled to.
 *
 * `readUnvouched`: a file whose stamps cannot vouch for it (written just before it was read, or since) is read, and
 * passes when its text is the one recorded. For a caller that must not mistake a corpus written a moment before the
 * load for an edit (a deferred watch), where the start cache must trust nothing it has not decoded.
 */
export function unchangedSince(dir: string, cache: LoadCache, readUnvouched = false): boolean {
  const walk = cache.walk;
  if (!walk || walk.dir !== dir) return false;
  const fatal: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  const files = walkCorpus(dir, fatal, warnings);
  if (fatal.length > 0 || files.length !== walk.files.length) return false;
  if (JSON.stringify(warnings) !== JSON.stringify(walk.warnings)) return false;
  return files.every((f, i) => {
    if (f.path !== walk.files[i]!.path) return false;
    const entry = cache.entries.get(f.path);
    if (!entry) return false;
    const checkedAt = Date.now();
    try {
      const info = assertRegularFileSync(f.path);
      if (entryUnchanged(entry, info) && checkedAt >= entry.checkedAt) return true;
      return readUnvouched && entry.text !== undefined && Deno.readTextFileSync(f.path) === entry.text;
    } catch {
      return false;
    }
  });
}

/** The last walk's files when `changed` names only files it had that still exist; else `undefined` (walk again). */
async function unchangedWalk(
  dir: string,
  cache: LoadCache | undefined,
  changed: Iterable<string> | undefined,
): Promise<{ files: WalkedFile[]; warnings: Diagnostic[]; changed: Set<string> } | undefined> {
  const walk = cache?.walk;
  if (!walk || walk.dir !== dir || changed === undefined) return undefined;
  const known = walk.byPath ??= new Map(walk.files.map((f) => [resolve(f.path), f.path]));
  const paths = new Set<string>();
  for (const path of changed) {
    const own = known.get(resolve(path));
    if (own === undefined) return undefined;
    paths.add(own);
  }
  if (paths.size === 0) return undefined;
  // A file that became a symbolic link is walked again: the walk decides whether its target may be read.
  const stillFiles = await Promise.all([...paths].map((p) => Deno.lstat(p).then((i) => i.isFile, () => false)));
  if (stillFiles.includes(false)) return undefined;
  return { files: walk.files, warnings: walk.warnings, changed: paths };
}

/** Strict UTF-8 (a file that is not is `file-encoding`); one decoder for every file: a whole-buffer decode keeps no state. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** What the read step found for one file. */
type ReadResult =
  | { kind: "cached"; entry: CacheEntry }
  | { kind: "text"; text: string; stamp: FileStamp }
  | { kind: "failed" };

/**
 * Stats the file and reads it unless the cache entry is certainly still valid. Synchronous: a corpus is hundreds of
 * small files, and a blocking `lstat` + read each costs a quarter of three asynchronous calls (the type is checked
 * before the open, so a FIFO swapped in since the walk never blocks a compile).
 */
function readOne(f: WalkedFile, hit: CacheEntry | undefined, fatal: Diagnostic[]): ReadResult {
  const checkedAt = Date.now();
  try {
    const info = assertRegularFileSync(f.path);
    if (hit && entryUnchanged(hit, info)) return { kind: "cached", entry: hit };
    // Decoded by the runtime as it reads (no byte array handed to JavaScript), which replaces a malformed sequence
    // with U+FFFD: a text holding one is read again strictly (a file that is not UTF-8 is `file-encoding`; one
    // that holds a real U+FFFD keeps it).
    let text = Deno.readTextFileSync(f.path);
    if (text.includes("\uFFFD")) text = UTF8.decode(Deno.readFileSync(f.path));
    return { kind: "text", text, stamp: stampOf(info, checkedAt) };
  } catch (err: unknown) {
    fatal.push({
      code: err instanceof TypeError ? "file-encoding" : "file-unreadable",
      severity: "error",
      message: err instanceof TypeError
        ? "the file is not valid UTF-8"
        : `cannot read file: ${err instanceof Error ? err.message : String(err)}`,
      location: { file: f.path, line: 0, column: 0 },
    });
    return { kind: "failed" };
  }
}

/** Hint attached to a missing-directory failure. */
const START_HINT = "run 'mapper atlas add <slug>' to install a published corpus, or create the directory and add YAML";

/**
 * Loads the corpus in `dir`. Throws {@linkcode CorpusLoadError} listing every fatal problem (missing or unreadable
 * directory, unreadable file, YAML syntax error, wrong type) across all files; everything else is a diagnostic.
 */
export async function load(dir: string, options: LoadOptions = {}): Promise<LoadResult> {
  const fatal: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dir);
  } catch (err: unknown) {
    const missing = err instanceof Deno.errors.NotFound;
    throw new CorpusLoadError([{
      code: missing ? "dir-not-found" : "dir-unreadable",
      severity: "error",
      message: missing
        ? `corpus directory "${dir}" does not exist`
        : `cannot read corpus directory "${dir}": ${err instanceof Error ? err.message : String(err)}`,
      location: { file: dir, line: 0, column: 0 },
    }], missing ? { hint: START_HINT } : {});
  }
  if (!info.isDirectory) {
    throw new CorpusLoadError([{
      code: "not-a-directory",
      severity: "error",
      message: `corpus path "${dir}" is not a directory`,
      location: { file: dir, line: 0, column: 0 },
    }]);
  }
  const validate = options.validate === true;
  const cache = options.cache;
  const known = await unchangedWalk(dir, cache, options.changed);
  const walkWarnings: Diagnostic[] = [];
  const files = known?.files ?? walkCorpus(dir, fatal, walkWarnings);
  warnings.push(...(known?.warnings ?? walkWarnings));
  // What only a corpus with files needs is loaded once there are files: an empty corpus never loads the checks, the
  // parser or a YAML library, and Deno does not resolve them at start-up.
  const some = files.length > 0;
  const checks = some
    ? lazy<typeof import("./_crosscheck.ts")>(new URL("./_crosscheck.ts", import.meta.url))
    : undefined;
  // The CSS parser only when validating (`crossCheck` needs its `isSelector` too).
  const css = validate && some ? lazy<typeof import("./_css.ts")>(new URL("./_css.ts", import.meta.url)) : undefined;
  // The reader and decoder too: asked for together, they load in the same turns of the event loop instead of one
  // after the other once the files are read.
  const pool = some ? lazy<typeof import("./_parse_pool.ts")>(new URL("./_parse_pool.ts", import.meta.url)) : undefined;
  // A failure is thrown where it is awaited, unless a fatal problem ends the load first.
  for (const loading of [checks, css, pool]) loading?.catch(() => {});
  const reads = files.map((f): ReadResult => {
    // An entry decoded with other checks (validate on/off) is never reused as it is.
    const cached = cache?.entries.get(f.path);
    const hit = cached?.validated === validate ? cached : undefined;
    // Told what changed: everything else is reused as it is (a file whose last load failed is read again).
    if (known && hit && !known.changed.has(f.path)) return { kind: "cached", entry: hit } as const;
    return readOne(f, known?.changed.has(f.path) ? undefined : hit, fatal);
  });
  // Parse what is new or changed (in workers when there is a lot of it); everything else comes from the cache.
  const jobs: ParseJob[] = [];
  reads.forEach((r, i) => {
    if (r.kind !== "text") return;
    const hit = cache?.entries.get(files[i]!.path);
    if (hit && hit.text === r.text && hit.validated === validate) {
      reads[i] = { kind: "cached", entry: { ...hit, ...r.stamp } };
    } else {
      jobs.push({ path: files[i]!.path, text: r.text });
    }
  });
  let parsed: ParseOutcome[] = [];
  if (jobs.length > 0) {
    const { parseFiles } = await (pool ??
      lazy<typeof import("./_parse_pool.ts")>(new URL("./_parse_pool.ts", import.meta.url)));
    parsed = await parseFiles(
      jobs,
      options.workers === undefined ? { validate } : { workers: options.workers, validate },
    );
  }
  const decoded: RawFile[] = [];
  const entries = new Map<string, CacheEntry>();
  let next = 0;
  files.forEach((f, i) => {
    const r = reads[i]!;
    if (r.kind === "failed") return;
    if (r.kind === "cached") {
      warnings.push(...r.entry.warnings);
      decoded.push(r.entry.raw);
      entries.set(f.path, r.entry);
      return;
    }
    const outcome = parsed[next++]!;
    fatal.push(...outcome.fatal);
    warnings.push(...outcome.warnings);
    if (outcome.raw) {
      decoded.push(outcome.raw);
      entries.set(f.path, {
        ...r.stamp,
        text: r.text,
        raw: outcome.raw,
        warnings: outcome.warnings,
        validated: validate,
      });
    }
  });
  if (cache) {
    cache.entries = entries;
    cache.walk = fatal.some((d) => d.code === "dir-unreadable")
      ? undefined
      : { dir, files, warnings: known?.warnings ?? walkWarnings };
  }
  if (options.tolerant && fatal.every((d) => FILE_FATAL.has(d.code))) {
    // Each file that cannot be decoded is one `parse-error` per problem; the others load as usual.
    warnings.push(...asParseErrors(fatal.splice(0)));
  }
  const paths = files.map((f) => f.path);
  if (fatal.length > 0) throw new CorpusLoadError(dedupe(sortByLocation(fatal, paths)));
  const result = assemble(dir, paths, decoded, warnings, fatal);
  if (fatal.length > 0) throw new CorpusLoadError(fatal);
  const corpusWide: Diagnostic[] = [];
  // With no file there is nothing to check across files, nor any `source` glob.
  const { crossCheck, sourceCheck } = checks ? await checks : { crossCheck: undefined, sourceCheck: undefined };
  const isSelector = (await css)?.isSelector;
  const sources = validate && options.sources !== false;
  const cross = () => crossCheck?.(dir, decoded, result, warnings, corpusWide, isSelector);
  const sorted = (): Diagnostic[] => [...dedupe(sortByLocation(warnings, paths)), ...corpusWide];
  if (options.deferCrossChecks !== true || sources) {
    cross();
    if (sources) await sourceCheck?.(dir, decoded, warnings);
    return { corpus: result, diagnostics: sorted() };
  }
  let diagnostics: Diagnostic[] | undefined;
  return {
    corpus: result,
    get diagnostics() {
      return diagnostics ??= (cross(), sorted());
    },
  };
}

/** Merges decoded files (append, file order), expands `$ref`s and flattens nesting. */
function assemble(
  dir: string,
  paths: string[],
  files: RawFile[],
  diagnostics: Diagnostic[],
  fatal: Diagnostic[],
): Corpus {
  // DECISION: `$ref` to a name declared more than once resolves to the FIRST declaration in load order, as the
  // Sightmap format says; other implementations let the last one win. A warning
  // (`ref-ambiguous`) names both places so the author can rename one.
  const registry = new Map<string, RawDefinition>();
  const duplicates = new Map<string, RawDefinition[]>();
  for (const file of files) {
    for (const c of file.components) {
      if (c.kind !== "def" || c.name === undefined || c.name === "") continue;
      const first = registry.get(c.name);
      if (!first) registry.set(c.name, c);
      else duplicates.set(c.name, [...(duplicates.get(c.name) ?? [first]), c]);
    }
  }
  const flattener = new Flattener(registry, duplicates, diagnostics, fatal);
  const corpus: Corpus = {
    dir,
    files: paths,
    memory: [],
    memoryAt: [],
    globals: [],
    views: [],
    requests: [],
    messages: [],
  };
  for (const file of files) {
    corpus.memory.push(...file.memory);
    corpus.memoryAt!.push(...file.memoryAt);
    flattener.flatten(file.components, undefined, [], corpus.globals);
    for (const r of file.requests) {
      const req = checkRequest(r, diagnostics);
      if (req) corpus.requests.push(req);
    }
    for (const m of file.messages) {
      if (m.name === undefined || m.name === "") {
        error(diagnostics, "missing-name", 'message is missing a "name"; add name: <PascalCase name>', m.location);
      }
      const message: CorpusMessage = { ...m, name: m.name ?? "" };
      corpus.messages.push(message);
    }
    for (const v of file.views) {
      if (v.name === undefined || v.name === "") {
        error(diagnostics, "missing-name", 'view is missing a "name"; add name: <PascalCase view name>', v.location);
      }
      if (v.route === undefined || v.route === "") {
        error(
          diagnostics,
          "missing-route",
          `view ${v.name ? `"${v.name}" ` : ""}has no "route"; add route: /path (":param", "*" and "**" allowed)`,
          v.location,
          v.name,
        );
      }
      const view: CorpusView = {
        name: v.name ?? "",
        memory: [...v.memory],
        components: [],
        requests: [],
        location: v.location,
      };
      if (v.route !== undefined) view.route = v.route;
      if (v.url !== undefined) view.url = v.url;
      if (v.description !== undefined) view.description = v.description;
      if (v.source !== undefined) view.source = v.source;
      if (v.tags !== undefined) view.tags = [...v.tags];
      if (v.dependencies !== undefined) view.dependencies = [...v.dependencies];
      if (v.fieldAt !== undefined) view.fieldAt = v.fieldAt;
      flattener.flatten(v.components, undefined, [], view.components);
      for (const r of v.requests) {
        const req = checkRequest(r, diagnostics);
        if (req) view.requests.push(req);
      }
      corpus.views.push(view);
    }
  }
  return corpus;
}

/** The enclosing component while flattening children. */
interface Parent {
  selectors: string[];
  chain: string[];
}

/** Upper bound on flattened components in one corpus: `$ref`s and cross products can grow exponentially. */
const MAX_COMPONENTS = 100_000;
/** Upper bound on the composed selectors of one component. */
const MAX_SELECTORS = 1_024;

class Flattener {
  count = 0;
  /** `ref-unresolved` is reported once per name, `ref-circular` once per chain. */
  readonly reported = new Set<string>();

  constructor(
    readonly registry: Map<string, RawDefinition>,
    readonly duplicates: Map<string, RawDefinition[]>,
    readonly diagnostics: Diagnostic[],
    readonly fatal: Diagnostic[],
  ) {}

  /**
   * Appends `list` flattened in pre-order to `out`. `refs` is the chain of `$ref` names being expanded: a repeat
   * cuts the cycle there (so a self-reference emits one level of self-expansion, as other implementations do).
   */
  flatten(list: RawComponent[], parent: Parent | undefined, refs: string[], out: CorpusComponent[]): void {
    for (const entry of list) {
      if (this.count > MAX_COMPONENTS) return;
      let def: RawDefinition;
      let chain = refs;
      if (entry.kind === "ref") {
        if (refs.includes(entry.ref)) {
          const chainText = [...refs.slice(refs.indexOf(entry.ref)), entry.ref].join(" → ");
          if (!this.reported.has(`circular\0${chainText}`)) {
            this.reported.add(`circular\0${chainText}`);
            error(
              this.diagnostics,
              "ref-circular",
              `circular $ref chain ${chainText}; the cycle is cut here — reference a component that does not ` +
                `contain itself`,
              entry.location,
              entry.ref,
            );
          }
          continue;
        }
        const target = this.registry.get(entry.ref);
        if (!target) {
          if (!this.reported.has(`unresolved\0${entry.ref}`)) {
            this.reported.add(`unresolved\0${entry.ref}`);
            error(
              this.diagnostics,
              "ref-unresolved",
              `$ref "${entry.ref}" does not resolve to any global component; the entry is dropped — declare ` +
                `"${entry.ref}" under a file's top-level "components:" or fix the name`,
              entry.location,
              entry.ref,
            );
          }
          continue;
        }
        const dups = this.duplicates.get(entry.ref);
        if (dups) {
          const others = dups.slice(1).map((d) => `${d.location.file}:${d.location.line}`).join(", ");
          warn(
            this.diagnostics,
            "ref-ambiguous",
            `"$ref: ${entry.ref}" matches ${dups.length} top-level components; the first (${target.location.file}:${target.location.line}) is used, not ${others}`,
            entry.location,
          );
        }
        def = target;
        chain = [...refs, entry.ref];
      } else {
        def = entry;
      }
      const children = def.children.length;
      const dropped = children > 0 ? ` (with its ${children} direct ${children === 1 ? "child" : "children"})` : "";
      if (def.name === undefined || def.name === "") {
        error(
          this.diagnostics,
          "missing-name",
          `component is missing a "name"; it is dropped${dropped} — add name: <PascalCase name>`,
          def.location,
        );
        continue;
      }
      if (!def.selectors || def.selectors.length === 0) {
        error(
          this.diagnostics,
          "missing-selector",
          def.selectorGiven
            ? `component "${def.name}" has a selector with no usable part; it is dropped${dropped} — give a CSS selector`
            : `component "${def.name}" is missing a "selector"; it is dropped${dropped} — add selector: <CSS selector>`,
          def.location,
          def.name,
        );
        continue;
      }
      if (parent && parent.selectors.length * def.selectors.length > MAX_SELECTORS) {
        error(
          this.diagnostics,
          "selector-explosion",
          `component "${def.name}" would have ${
            parent.selectors.length * def.selectors.length
          } selectors once nested (more than ${MAX_SELECTORS}); it is dropped${dropped}`,
          def.location,
        );
        continue;
      }
      const selectors = parent ? composeSelectors(parent.selectors, def.selectors) : [...def.selectors];
      if (++this.count > MAX_COMPONENTS) {
        this.fatal.push({
          code: "corpus-too-large",
          severity: "error",
          message: `the corpus expands to more than ${MAX_COMPONENTS} components (check $ref and children nesting)`,
          location: def.location,
        });
        return;
      }
      const parentChain = parent ? parent.chain : [];
      const c: CorpusComponent = {
        name: def.name,
        selectors,
        parentChain: [...parentChain],
        properties: def.properties.map((p) => ({ ...p })),
        location: def.location,
      };
      if (parent) c.ownSelectors = [...def.selectors];
      if (def.memory !== undefined) c.memory = [...def.memory];
      if (def.tags !== undefined) c.tags = [...def.tags];
      if (def.source !== undefined) c.source = def.source;
      if (def.stability !== undefined) c.stability = def.stability;
      if (def.description !== undefined) c.description = def.description;
      if (def.selectorText !== undefined) c.selectorText = def.selectorText;
      if (def.selectorLocation !== undefined) c.selectorLocation = def.selectorLocation;
      if (def.fieldAt !== undefined) c.fieldAt = def.fieldAt;
      out.push(c);
      if (def.children.length > 0) {
        this.flatten(def.children, { selectors, chain: [...parentChain, def.name] }, chain, out);
      }
    }
  }
}

function checkRequest(r: RawRequest, diagnostics: Diagnostic[]): CorpusRequest | undefined {
  if (r.name === undefined || r.name === "") {
    error(
      diagnostics,
      "missing-name",
      'request is missing a "name"; it is dropped — add name: <PascalCase>',
      r.location,
    );
    return undefined;
  }
  if (r.route === undefined || r.route === "") {
    error(
      diagnostics,
      "missing-route",
      `request "${r.name}" has no "route"; it is dropped — add route: /api/path`,
      r.location,
      r.name,
    );
    return undefined;
  }
  return { ...r, name: r.name, route: r.route };
}

function error(
  diagnostics: Diagnostic[],
  code: string,
  message: string,
  location: SourceLocation,
  component?: string,
): void {
  diagnostics.push({ code, severity: "error", message, location, ...(component ? { component } : {}) });
}

function warn(diagnostics: Diagnostic[], code: string, message: string, location: SourceLocation): void {
  diagnostics.push({ code, severity: "warning", message, location });
}

/** Drops repeats (a definition reached through several `$ref`s reports its problems once). */
function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.code}\0${d.location.file}\0${d.location.line}\0${d.location.column}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
