/**
 * The captures of a map: what `mapper capture` keeps under `.mapper/snapshots/<View>/` — per capture the snapshot
 * text (`<stamp>.snap`) and the captured tree (`<stamp>.snap.tree.json`) — and what the offline commands read back.
 * Captures are filed by the view's **name** (views declared in one file keep separate sets); `<stamp>` is the UTC
 * time `YYYYMMDDTHHMMSSZ` (`-2`, `-3`… on a clash). Every file is written through the one user-file write (beside,
 * renamed in; a link planted at the path is replaced, never followed). Reading refuses what is not a regular file
 * (a symbolic link, a FIFO) and anything over the tree cap, naming the file; the rest are still read.
 *
 * Then each capture is re-matched with the current corpus ({@linkcode rematch}): the view its recorded URL resolves
 * to now, the claim on the tree, the tiers of its visible interactive elements, and its orphan slots (role, nearest
 * hooked ancestor and leaf shape: `clusters.ts`'s key), which the novelty rule and the coverage commands compare.
 *
 * @module
 */
import { exists } from "../files.ts";
import { join } from "../path.ts";
import { activeComponents, type Component, matchViews, normalizeCorpus } from "../../assets/extension/resolver.js";
import type { WireCorpus } from "../corpus/mod.ts";
import { DataError, UsageError } from "../errors.ts";
import { type CapturedTree, type OfflineElement, type OfflineEngine, readTreeFileSync } from "../offline/mod.ts";
import { escapeControls } from "../terminal.ts";
import { writeUserFile } from "../user_file.ts";
import { type Cluster, clusterNodes } from "./clusters.ts";
import { KitPage } from "./page.ts";

/** The folder of captures inside the corpus directory (never compiled, never watched). */
export const SNAPSHOTS_DIR = "snapshots";
/** The suffix of a captured tree file. */
export const TREE_SUFFIX = ".snap.tree.json";
/** The suffix of a capture's snapshot text. */
export const SNAP_SUFFIX = ".snap";

const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

/** Hex SHA-256 of a text. */
async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The folder name of a view's captures: the name as is when it is made of `A-Z a-z 0-9 . _ -` (and not `.` or
 * `..`), else a slug and the first 8 hex digits of its SHA-256 — also when another view's name differs from it only
 * in case (a case-insensitive file system would merge their folders).
 */
export async function viewDirName(name: string, allNames: readonly string[] = []): Promise<string> {
  const clash = allNames.some((other) => other !== name && other.toLowerCase() === name.toLowerCase());
  if (SAFE_NAME.test(name) && name !== "." && name !== ".." && !clash) return name;
  const slug = name.normalize("NFKD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "view";
  return `${slug}-${(await sha256(name)).slice(0, 8)}`;
}

/** A capture's stamp: the UTC time `YYYYMMDDTHHMMSSZ`. */
export function captureStamp(at: Date): string {
  return at.toISOString().replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "");
}

/** A capture file as found. */
export interface StoredCapture {
  /** The tree file's path. */
  path: string;
  /** The path shown (relative to the corpus directory: `snapshots/Catalog/20260607T193000Z.snap.tree.json`). */
  shown: string;
  /** Its folder under `snapshots/` (`""` for a file given on the command line outside it). */
  dirName: string;
  /** The stamp (the file name without the suffix). */
  stamp: string;
  /** The tree as read. */
  tree: CapturedTree;
}

/** A file that could not be read as a capture, and why. */
export interface UnreadableCapture {
  /** The path shown. */
  shown: string;
  /** Why (one line). */
  reason: string;
}

/** The stamp of a tree file: its name without the suffix. */
function stampOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name.endsWith(TREE_SUFFIX) ? name.slice(0, -TREE_SUFFIX.length) : name.replace(/\.json$/, "");
}

/** Reads one tree file; refuses what is not a regular file (never follows a link). */
function readOne(path: string, shown: string, dirName: string): StoredCapture | UnreadableCapture {
  try {
    const info = Deno.lstatSync(path);
    if (info.isSymlink) return { shown, reason: "a symbolic link (captures are read only as regular files)" };
    if (!info.isFile) return { shown, reason: "not a regular file" };
    const tree = readTreeFileSync(path);
    return { path, shown, dirName, stamp: stampOf(path), tree };
  } catch (err: unknown) {
    const message = err instanceof Error ? err.message : String(err);
    return { shown, reason: message.startsWith(`${shown}: `) ? message.slice(shown.length + 2) : message };
  }
}

/**
 * Every capture under `<corpus>/snapshots/*\/`, or the files given (`files`, relative to `cwd`), sorted by folder
 * and stamp. Unreadable files are listed apart, never thrown: one bad file does not hide the others.
 */
export function readCaptures(
  corpusPath: string,
  opts?: { files?: readonly string[]; cwd?: string; dirName?: string },
): Promise<{ captures: StoredCapture[]; unreadable: UnreadableCapture[] }>;
/**
 * The same, each capture handed to `each` as soon as it is read and only its answer kept (in the same order): the
 * tree can be dropped before the next is read, so a run over many large captures holds one summary each, not every
 * tree at once.
 */
export function readCaptures<T>(
  corpusPath: string,
  opts: { files?: readonly string[]; cwd?: string; dirName?: string },
  each: (capture: StoredCapture) => T,
): Promise<{ captures: T[]; unreadable: UnreadableCapture[] }>;
export async function readCaptures<T>(
  corpusPath: string,
  opts: { files?: readonly string[]; cwd?: string; dirName?: string } = {},
  each?: (capture: StoredCapture) => T,
): Promise<{ captures: Array<T | StoredCapture>; unreadable: UnreadableCapture[] }> {
  const jobs: Array<{ path: string; shown: string; dirName: string }> = [];
  if (opts.files && opts.files.length > 0) {
    for (const f of opts.files) {
      jobs.push({ path: f.startsWith("/") ? f : join(opts.cwd ?? ".", f), shown: f, dirName: "" });
    }
  } else {
    const root = join(corpusPath, SNAPSHOTS_DIR);
    for (const dir of await listDir(root)) {
      if (!dir.isDirectory || (opts.dirName !== undefined && dir.name !== opts.dirName)) continue;
      for (const f of await listDir(join(root, dir.name))) {
        if (!f.name.endsWith(TREE_SUFFIX) || f.name.startsWith(".")) continue;
        const shown = `${SNAPSHOTS_DIR}/${dir.name}/${f.name}`;
        jobs.push({ path: join(root, dir.name, f.name), shown, dirName: dir.name });
      }
    }
  }
  // One file at a time, in the order of the answer (folder, then stamp): `each` sees the captures in that order,
  // and only one tree is in memory at once. Blocking reads: a run is mostly reading and parsing these files.
  const order = jobs.map((job, index) => ({ index, key: `${job.dirName}/${stampOf(job.path)}` }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index));
  const captures: Array<T | StoredCapture> = [];
  const unreadable: Array<{ index: number; value: UnreadableCapture }> = [];
  for (const { index } of order) {
    const { path, shown, dirName } = jobs[index]!;
    const c = readOne(path, shown, dirName);
    if ("reason" in c) unreadable.push({ index, value: c });
    else captures.push(each ? each(c) : c);
  }
  unreadable.sort((a, b) => a.index - b.index);
  return { captures, unreadable: unreadable.map((u) => u.value) };
}

/** Entries of a directory (none when it does not exist; a link to a directory is not entered). */
async function listDir(path: string): Promise<Deno.DirEntry[]> {
  const out: Deno.DirEntry[] = [];
  try {
    for await (const e of Deno.readDir(path)) out.push(e);
  } catch (err: unknown) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return [];
    throw new DataError(`cannot read "${escapeControls(path)}": ${err instanceof Error ? err.message : String(err)}`);
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * Saves a capture's two files under `<corpus>/snapshots/<dirName>/` with the stamp of `at` (`-2`, … when taken).
 * Refuses a folder that is a symbolic link. Answers the stamp and the path shown.
 */
export async function saveCapture(
  corpusPath: string,
  dirName: string,
  files: { snap: string; tree: string },
  at: Date,
): Promise<{ stamp: string; shown: string }> {
  if (!SAFE_NAME.test(dirName) || dirName === "." || dirName === "..") {
    throw new UsageError(`"${escapeControls(dirName)}" cannot name a capture folder`, {
      hint: "this is a mapper bug: report it",
    });
  }
  const root = join(corpusPath, SNAPSHOTS_DIR);
  const dir = join(root, dirName);
  for (const d of [root, dir]) {
    try {
      const info = await Deno.lstat(d);
      if (!info.isDirectory) {
        throw new DataError(`"${escapeControls(d)}" is not a directory (a link or a file is in its place)`, {
          hint: "move it away so mapper can create the captures folder",
        });
      }
    } catch (err: unknown) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
      await Deno.mkdir(d, { mode: 0o700 });
    }
  }
  const base = captureStamp(at);
  for (let n = 1;; n++) {
    const stamp = n === 1 ? base : `${base}-${n}`;
    const treePath = join(dir, stamp + TREE_SUFFIX);
    const snapPath = join(dir, stamp + SNAP_SUFFIX);
    if (await exists(treePath) || await exists(snapPath)) continue;
    await writeUserFile(treePath, files.tree, `${SNAPSHOTS_DIR}/${dirName}/${stamp}${TREE_SUFFIX}`);
    await writeUserFile(snapPath, files.snap, `${SNAPSHOTS_DIR}/${dirName}/${stamp}${SNAP_SUFFIX}`);
    return { stamp, shown: `${SNAPSHOTS_DIR}/${dirName}/${stamp}` };
  }
}

/** Removes a capture's two files (the snapshot text may be missing). */
export async function removeCapture(c: StoredCapture): Promise<void> {
  await Deno.remove(c.path);
  await Deno.remove(c.path.slice(0, -TREE_SUFFIX.length) + SNAP_SUFFIX).catch((err: unknown) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
}

/** A capture re-matched with the current corpus. */
export interface Rematched {
  /** The capture. */
  tree: CapturedTree;
  /** The view recorded at capture time (`null`: none). */
  recordedView: string | null;
  /** The view its URL resolves to now (`null`: none). */
  view: string | null;
  /** The recorded view differs from the one its URL resolves to now: listed, left out of unions. */
  stale: boolean;
  /** The page, indexed and claimed. */
  page: KitPage;
  /** The components active at its URL now, in declaration order (what the claim ran with). */
  components: readonly Component[];
  /** Visible elements each component claims (components that claim none are absent). */
  claimed: Map<string, number>;
  /** Visible interactive elements. */
  interactive: number;
  /** Of those: a component themselves. */
  t1: number;
  /** Inside one. */
  t2: number;
  /** Orphans (T3), in document order. */
  orphans: OfflineElement[];
  /** Of the T2 elements: how many are inside each component (its nearest owned ancestor's). */
  t2By: Map<string, number>;
  /** The orphans' clusters (computed on first use). */
  readonly clusters: Cluster[];
  /** One key per cluster: what the novelty rule compares (computed on first use). */
  readonly slots: Set<string>;
  /** Components whose selector this capture cannot answer, with why. */
  unknown: Array<{ component: string; reason: string }>;
}

const normalized = new WeakMap<WireCorpus, ReturnType<typeof normalizeCorpus>>();

/** The view a URL resolves to in a compiled corpus, and the components active there. */
export function resolveAt(wire: WireCorpus, url: string): { view: string | null; components: Component[] } {
  // Normalized once per compiled corpus: a run re-matches many captures with the same one.
  let corpus = normalized.get(wire);
  if (corpus === undefined) normalized.set(wire, corpus = normalizeCorpus(wire));
  if (corpus === null) return { view: null, components: [] };
  const active = activeComponents(corpus, url);
  const best = matchViews(corpus.views, url)[0];
  return { view: best?.view.name ?? null, components: active.components };
}

/** A cluster's key: role, ancestor hook, boundary and leaf shape. */
export function slotKey(c: Cluster): string {
  return `${c.role} in ${c.ancestorHook ?? "(page)"}${c.boundary ? ` (${c.boundary})` : ""}: ${c.shape}`;
}

/** Re-matches a capture at its recorded URL with the current corpus (see the module documentation). */
export function rematch(tree: CapturedTree, wire: WireCorpus, engine: OfflineEngine, includeHidden = false): Rematched {
  const { view, components } = resolveAt(wire, tree.tree.url);
  const page = new KitPage({
    tree: tree.tree,
    tab: "",
    components,
    live: () => Promise.reject(new Error("a capture has no live page")),
  }, engine);
  const claimed = new Map<string, number>();
  for (const [el, index] of page.owner) {
    if (!includeHidden && el.node.visible === false) continue;
    const name = components[index]!.name;
    claimed.set(name, (claimed.get(name) ?? 0) + 1);
  }
  let interactive = 0;
  let t1 = 0;
  let t2 = 0;
  const orphans: OfflineElement[] = [];
  const t2By = new Map<string, number>();
  for (const el of page.doc.elements) {
    if (el.node.interactive !== true || (!includeHidden && el.node.visible !== true)) continue;
    interactive++;
    const o = page.ownership(el);
    if (o.tier === 1) t1++;
    else if (o.tier === 3) orphans.push(el);
    else {
      t2++;
      if (o.component !== null) t2By.set(o.component, (t2By.get(o.component) ?? 0) + 1);
    }
  }
  const recordedView = tree.tree.view?.name ?? null;
  // Clusters only when asked for (novelty, --trace): `report` never needs them.
  let clusters: Cluster[] | undefined;
  let slots: Set<string> | undefined;
  return {
    tree,
    recordedView,
    view,
    stale: recordedView !== null && recordedView !== view,
    page,
    components,
    claimed,
    interactive,
    t1,
    t2,
    orphans,
    t2By,
    get clusters() {
      return clusters ??= clusterNodes(orphans);
    },
    get slots() {
      return slots ??= new Set(this.clusters.map(slotKey));
    },
    unknown: page.unknown.map((u) => ({ component: components[u.index]?.name ?? "?", reason: u.reason })),
  };
}

/** What a capture adds to a set: components it has that none of the set has, and orphan slots likewise. */
export function novelty(candidate: Rematched, set: readonly Rematched[]): { components: string[]; slots: string[] } {
  const components = new Set<string>();
  const slots = new Set<string>();
  for (const r of set) {
    for (const c of r.claimed.keys()) components.add(c);
    for (const s of r.slots) slots.add(s);
  }
  return {
    components: [...candidate.claimed.keys()].filter((c) => !components.has(c)),
    slots: [...candidate.slots].filter((s) => !slots.has(s)),
  };
}
