// Checks across entries and files: merge collisions, duplicate components, route conflicts,
// message conflicts, a corpus without views, and `source`/`dependencies` globs. They run after the merge, on the
// decoded files (for declarations as written) and the assembled corpus.
import { dirname, join, relative, resolve, sep } from "../path.ts";
import type { Diagnostic, SourceLocation } from "./diagnostic.ts";
import type { RawComponent, RawDefinition, RawFile, RawView } from "./_decode.ts";
import type { Corpus } from "./model.ts";
// A route as the matcher sees it: the one resolver's canonical form (parameter names erased, slashes normalised).
import { routeKey } from "../../assets/extension/resolver.js";
import { extractForm } from "./rules.ts";

const where = (l: SourceLocation) =>
  `${l.file.slice(Math.max(l.file.lastIndexOf("/"), l.file.lastIndexOf("\\")) + 1)}:${l.line}`;

function warn(out: Diagnostic[], code: string, message: string, location: SourceLocation, component?: string): void {
  out.push({ code, severity: "warning", message, location, ...(component ? { component } : {}) });
}

/** Groups items by a key (insertion order kept), ignoring empty keys. */
function groups<T>(items: readonly T[], key: (item: T) => string | undefined): T[][] {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined || k === "") continue;
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return [...map.values()].filter((g) => g.length > 1);
}

/**
 * What is computed once per decoded entry or file: a file the live service did not re-read keeps its decoded
 * entries (the same objects), so a recompile after a one-file edit computes these for that file only. Each is a pure
 * function of the entry.
 */
const selectorKeys = new WeakMap<RawDefinition, string>();
const routeKeys = new WeakMap<RawView, string>();
const facts = new WeakMap<RawFile, FileFacts>();

/** What the checks need from one decoded file alone. */
interface FileFacts {
  /** Names of its component definitions at any depth, in order (root components first, then each view's). */
  names: string[];
  /** `duplicate-component` problems below its root definitions (in their children, at any depth). */
  rootDuplicates: Diagnostic[];
  /** `duplicate-component` problems in its views' component lists. */
  viewDuplicates: Diagnostic[];
  /** Its entries with `source` or `dependencies`. */
  sourced: Sourced[];
}

/** The facts of one file, computed on first use. */
function factsOf(file: RawFile): FileFacts {
  let known = facts.get(file);
  if (known) return known;
  const names: string[] = [];
  const collect = (list: readonly RawComponent[]) => {
    for (const c of list) {
      if (c.kind !== "def") continue;
      if (c.name) names.push(c.name);
      collect(c.children);
    }
  };
  collect(file.components);
  for (const v of file.views) collect(v.components);
  const rootDuplicates: Diagnostic[] = [];
  for (const d of definitions(file.components)) if (d.children.length > 0) duplicatesIn(d.children, rootDuplicates);
  const viewDuplicates: Diagnostic[] = [];
  for (const v of file.views) duplicatesIn(v.components, viewDuplicates);
  known = { names, rootDuplicates, viewDuplicates, sourced: sourced([file]) };
  facts.set(file, known);
  return known;
}

/** A definition's selectors, sorted, as one string. */
function selectorKey(d: RawDefinition): string {
  let key = selectorKeys.get(d);
  if (key === undefined) selectorKeys.set(d, key = [...(d.selectors ?? [])].sort().join("\n"));
  return key;
}

/** A view's route as the matcher sees it (`undefined` for none). */
function viewRouteKey(v: RawView): string | undefined {
  if (v.route === undefined || v.route === "") return undefined;
  let key = routeKeys.get(v);
  if (key === undefined) routeKeys.set(v, key = routeKey(v.route));
  return key;
}

/** The named definitions with selectors in a list (the ones `duplicate-component` compares). */
function definitions(list: readonly RawComponent[]): RawDefinition[] {
  return list.filter((c): c is RawDefinition => c.kind === "def" && !!c.name && !!c.selectors?.length);
}

/** `duplicate-component` in one list (not below it): the same name with the same selectors twice. */
function duplicatesAmong(defs: readonly RawDefinition[], out: Diagnostic[]): void {
  if (defs.length < 2) return;
  // Most lists repeat no name, and then nothing can be a duplicate: no selector key is made for them.
  const names = new Set<string>();
  for (const d of defs) names.add(d.name!);
  if (names.size === defs.length) return;
  for (const group of groups(defs, (d) => `${d.name}\0${selectorKey(d)}`)) {
    for (const dup of group.slice(1)) {
      out.push({
        code: "duplicate-component",
        severity: "error",
        message: `duplicate component name and selector: "${dup.name}" is already declared at ${
          where(group[0]!.location)
        } with the same selectors; delete one of them`,
        location: dup.location,
        component: dup.name!,
      });
    }
  }
}

/** `duplicate-component` in a list and, recursively, in every definition's children. */
function duplicatesIn(list: readonly RawComponent[], out: Diagnostic[]): void {
  const defs = definitions(list);
  duplicatesAmong(defs, out);
  for (const d of defs) if (d.children.length > 0) duplicatesIn(d.children, out);
}

/** Runs the cross-entry checks; `corpusWide` receives problems that belong to no file. */
export function crossCheck(
  dir: string,
  files: readonly RawFile[],
  corpus: Corpus,
  out: Diagnostic[],
  corpusWide: Diagnostic[],
  isSelector: ((selector: string) => boolean) | undefined,
): void {
  const validate = isSelector !== undefined;
  const perFile = files.map(factsOf);
  const names = new Set<string>();
  for (const f of perFile) for (const name of f.names) names.add(name);
  for (const f of files) {
    for (const { extract, location } of f.extracts) {
      if (extract === "") continue; // property-missing-extract already said so
      const p = extractForm(extract, names, isSelector);
      if (p) out.push({ code: p.code, severity: p.severity, message: p.message, location });
    }
  }
  const views = files.flatMap((f) => f.views);
  for (const group of groups(views, (v) => v.name)) {
    const list = group.map((v) => `${where(v.location)} route ${v.route ?? "(none)"}`).join(", ");
    warn(
      out,
      "merge-collision-view",
      `view "${group[0]!.name}" is defined ${group.length} times (${list}); rename one or merge them into one view`,
      group[1]!.location,
      group[0]!.name,
    );
  }
  for (const group of groups(views, viewRouteKey)) {
    const names = group.map((v) => `"${v.name ?? ""}" (${where(v.location)})`).join(", ");
    warn(
      out,
      "route-conflict",
      `views ${names} have the same route "${group[0]!.route}"; only the first (${
        group[0]!.name
      }) applies to that URL — merge them or make one route more specific`,
      group[1]!.location,
      group[1]!.name,
    );
  }

  const roots = files.flatMap((f) => f.components).filter((c): c is RawDefinition =>
    c.kind === "def" && !!c.name && !!c.selectors?.length
  );
  for (const group of groups(roots, (d) => d.name)) {
    const distinct = new Map<string, RawDefinition>();
    for (const d of group) if (!distinct.has(selectorKey(d))) distinct.set(selectorKey(d), d);
    if (distinct.size < 2) continue;
    const second = [...distinct.values()][1]!;
    warn(
      out,
      "merge-collision-component",
      `global component "${group[0]!.name}" is declared ${group.length} times with different selectors (${
        group.map((d) => where(d.location)).join(", ")
      }); only the first applies to a given node — rename one or merge the selectors`,
      second.location,
      group[0]!.name,
    );
  }
  // Root components are compared across files; below them, and in views, each file's own problems.
  duplicatesAmong(definitions(files.flatMap((f) => f.components)), out);
  for (const f of perFile) out.push(...f.rootDuplicates);
  for (const f of perFile) out.push(...f.viewDuplicates);

  const messages = corpus.messages;
  for (const group of groups(messages, (m) => m.name)) {
    warn(
      out,
      "merge-collision-message",
      `message "${group[0]!.name}" is defined ${group.length} times (${
        group.map((m) => where(m.location)).join(", ")
      }); rename one or merge them`,
      group[1]!.location,
      group[0]!.name,
    );
  }
  const requestScopes = [corpus.requests, ...corpus.views.map((v) => v.requests)];
  for (const scope of requestScopes) {
    for (const group of groups(scope, (r) => r.name)) {
      warn(
        out,
        "merge-collision-request",
        `request "${group[0]!.name}" is defined ${group.length} times (${
          group.map((r) => where(r.location)).join(", ")
        }); rename one or merge them`,
        group[1]!.location,
        group[0]!.name,
      );
    }
  }
  for (let i = 0; i < messages.length; i++) {
    for (let j = 0; j < i; j++) {
      const a = messages[j]!;
      const b = messages[i]!;
      if (!a.name || !b.name || a.name === b.name) continue;
      const levels = !a.level || !b.level || a.level.toLowerCase() === b.level.toLowerCase();
      const texts = a.message === undefined || b.message === undefined || a.message === b.message;
      if (!levels || !texts) continue;
      warn(
        out,
        "message-conflict",
        `messages "${a.name}" (${where(a.location)}) and "${b.name}" can match the same record (level ${
          a.level || "any"
        } / ${b.level || "any"}, message ${a.message === undefined ? "any" : JSON.stringify(a.message)} / ${
          b.message === undefined ? "any" : JSON.stringify(b.message)
        }); give them distinct levels or message patterns`,
        b.location,
        b.name,
      );
    }
  }
  if (validate && corpus.views.length === 0 && corpus.globals.length > 0) {
    warn(
      corpusWide,
      "no-views",
      `the corpus has ${corpus.globals.length} global component(s) but no views; add a views: entry with a route ` +
        `so pages can be recognised`,
      { file: dir, line: 0, column: 0 },
    );
  }
  dependencyChecks(perFile.flatMap((f) => f.sourced), out);
}

/** An entry that may carry `source` and `dependencies` globs. */
interface Sourced {
  kind: string;
  name: string;
  source?: string;
  dependencies?: string[];
  location: SourceLocation;
}

function sourced(files: readonly RawFile[]): Sourced[] {
  const out: Sourced[] = [];
  const walk = (list: readonly RawComponent[]) => {
    for (const c of list) {
      if (c.kind !== "def") continue;
      if (c.source !== undefined || c.dependencies !== undefined) {
        out.push({ kind: "component", name: c.name ?? "", ...pick(c), location: c.location });
      }
      walk(c.children);
    }
  };
  for (const f of files) {
    walk(f.components);
    for (const v of f.views) {
      if (v.source !== undefined || v.dependencies !== undefined) {
        out.push({ kind: "view", name: v.name ?? "", ...pick(v), location: v.location });
      }
      walk(v.components);
    }
  }
  return out;
}

function pick(e: { source?: string; dependencies?: string[] }): { source?: string; dependencies?: string[] } {
  return {
    ...(e.source === undefined ? {} : { source: e.source }),
    ...(e.dependencies === undefined ? {} : { dependencies: e.dependencies }),
  };
}

/** A `source`/`dependencies` glob as a regular expression: `**` any depth, `*` within a segment, `?` one char. */
export function globRegex(glob: string): RegExp {
  let re = "";
  const g = glob.replace(/^\.\//, "");
  for (let i = 0; i < g.length; i++) {
    const ch = g[i]!;
    if (ch === "*" && g[i + 1] === "*") {
      i++;
      if (g[i + 1] === "/") {
        i++;
        re += "(?:.*/)?";
      } else re += ".*";
    } else if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else re += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

function dependencyChecks(entries: readonly Sourced[], out: Diagnostic[]): void {
  const withSource = entries.filter((e) => e.source !== undefined && !/[*?]/.test(e.source));
  for (const e of entries) {
    for (const dep of e.dependencies ?? []) {
      const re = globRegex(dep);
      const label = `${e.kind} "${e.name}"`;
      if (e.source !== undefined && (dep === e.source || re.test(e.source.replace(/^\.\//, "")))) {
        warn(
          out,
          "dependencies.self-redundant",
          `${label} lists dependency "${dep}", which is its own source "${e.source}"; remove it from dependencies`,
          { ...e.location, ...(e.location.path === undefined ? {} : { path: `${e.location.path}.dependencies` }) },
          e.name,
        );
        continue;
      }
      const other = withSource.find((o) => o !== e && re.test(o.source!.replace(/^\.\//, "")));
      if (other) {
        warn(
          out,
          "dependencies.overlaps-entry",
          `${label} lists dependency "${dep}", which is the source of ${other.kind} "${other.name}" (${
            where(other.location)
          }); depend on that entry's name instead, or narrow the glob`,
          { ...e.location, ...(e.location.path === undefined ? {} : { path: `${e.location.path}.dependencies` }) },
          e.name,
        );
      }
    }
  }
}

/** Upper bound on files listed when looking up `source` globs (a project tree, not the whole disk). */
const SOURCE_WALK_LIMIT = 50_000;
const SKIP_DIRS = new Set(["node_modules", ".git", ".hg", ".svn", "dist", "build", "target", "vendor"]);

async function listProject(root: string, skip: string): Promise<string[] | undefined> {
  const out: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      continue;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory) {
        if (!SKIP_DIRS.has(e.name) && path !== skip) stack.push(path);
      } else {
        out.push(relative(root, path).split(sep).join("/"));
        if (out.length > SOURCE_WALK_LIMIT) return undefined;
      }
    }
  }
  return out;
}

/**
 * `unknown-source`: every `source`/`dependencies` glob must match a file of the project (the parent of the corpus
 * directory). Skipped when the project tree is too large to list.
 */
export async function sourceCheck(dir: string, files: readonly RawFile[], out: Diagnostic[]): Promise<void> {
  const entries = sourced(files);
  if (entries.length === 0) return;
  const absDir = resolve(dir);
  const root = dirname(absDir);
  const listing = await listProject(root, absDir);
  if (!listing) return;
  for (const e of entries) {
    const globs = [
      ...(e.source === undefined ? [] : [["source", e.source] as const]),
      ...(e.dependencies ?? []).map((d) => ["dependencies", d] as const),
    ];
    for (const [key, glob] of globs) {
      const re = globRegex(glob);
      if (listing.some((f) => re.test(f))) continue;
      warn(
        out,
        "unknown-source",
        `${e.kind} "${e.name}" ${key} "${glob}" matches no file under ${root}; fix the path (relative to the ` +
          `folder that holds .mapper/) or remove it`,
        { ...e.location, ...(e.location.path === undefined ? {} : { path: `${e.location.path}.${key}` }) },
        e.name,
      );
    }
  }
}
