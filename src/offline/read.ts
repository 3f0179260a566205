/**
 * Reading captured tree files: mapper's own (`kind: "mapper-tree"`, checked field by field) and the other
 * implementation's component trees (`component-tree.json`, `*.snap.tree.json`), converted to the same shape so its
 * users keep their captures. Every refusal is one line naming the file and the place in the JSON
 * (`root.children[3].attrs.class: expected a string, found 12`); a file over {@linkcode MAX_TREE_BYTES} is refused
 * before it is read whole.
 *
 * @module
 */
import { DataError, NotFoundError } from "../errors.ts";
import { decodeUtf8, NotRegularFileError, readRegularFileCappedSync } from "../files.ts";
import { escapeControls } from "../terminal.ts";
import { convertComponentTree, looksLikeComponentNode } from "./_sightmap.ts";
import {
  type CapturedTree,
  type MapperTree,
  MAX_TREE_BYTES,
  STATE_PSEUDOS,
  TREE_KIND,
  TREE_SCHEMA,
  type TreeNode,
} from "./tree.ts";

const HINT = "pass a .snap.tree.json written by 'mapper capture' (or the other implementation's component tree)";
const STATES = new Set(STATE_PSEUDOS);

/** A value's kind in words, for messages: `a string`, `12`, `an array`, `null`. */
function found(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value.length <= 40 ? JSON.stringify(value) : "a string";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Fails with `<file>: <path>: <what>`. */
export class TreeShapeError extends DataError {
  /** Creates the error for `file` at the JSON `path` (`root.children[2]`; empty for the document). */
  constructor(file: string, path: string, what: string) {
    super(`${escapeControls(file)}: ${path ? `${escapeControls(path)}: ` : ""}${what}`, { hint: HINT });
  }
}

type Fail = (path: string, what: string) => never;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Parses and checks a tree file's text. `file` names it in messages. Throws {@linkcode TreeShapeError} (a
 * {@linkcode DataError}) for anything that is not a tree of either format.
 */
export function parseTree(text: string, file: string): CapturedTree {
  const fail: Fail = (path, what) => {
    throw new TreeShapeError(file, path, what);
  };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err: unknown) {
    fail("", `not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!isObject(json)) fail("", `expected a tree object, found ${found(json)}`);
  if (json.kind === TREE_KIND) return { file, format: "mapper", tree: checkMapperTree(json, fail), recorded: ALL };
  if (json.kind !== undefined) fail("kind", `expected "${TREE_KIND}", found ${found(json.kind)}`);
  // The other implementation's trees: a component node, bare or under `tree` / `root` with the page's URL beside.
  for (const [key, node, meta] of [["", json, {}], ["tree", json.tree, json], ["root", json.root, json]] as const) {
    if (looksLikeComponentNode(node)) {
      return { file, format: "sightmap", tree: convertComponentTree(node, meta, key, fail), recorded: NONE };
    }
  }
  return fail("", `not a captured tree: expected "kind": "${TREE_KIND}" or a component tree ({"id", "element", …})`);
}

const ALL = Object.freeze({ states: true, text: true });
const NONE = Object.freeze({ states: false, text: false });

function checkMapperTree(json: Record<string, unknown>, fail: Fail): MapperTree {
  if (json.schema !== TREE_SCHEMA) {
    fail(
      "schema",
      typeof json.schema === "number" && json.schema > TREE_SCHEMA
        ? `schema ${json.schema} is newer than this mapper reads (${TREE_SCHEMA}); update mapper`
        : `expected ${TREE_SCHEMA}, found ${found(json.schema)}`,
    );
  }
  for (const key of ["mapper", "url", "title", "capturedAt"] as const) {
    if (typeof json[key] !== "string") fail(key, `expected a string, found ${found(json[key])}`);
  }
  if (typeof json.settled !== "boolean") fail("settled", `expected true or false, found ${found(json.settled)}`);
  const view = json.view;
  if (view !== null) {
    if (!isObject(view)) fail("view", `expected {name, route} or null, found ${found(view)}`);
    for (const key of ["name", "route"] as const) {
      if (typeof view[key] !== "string") fail(`view.${key}`, `expected a string, found ${found(view[key])}`);
    }
  }
  const viewport = json.viewport;
  if (!isObject(viewport)) fail("viewport", `expected {width, height, dpr}, found ${found(viewport)}`);
  for (const key of ["width", "height", "dpr"] as const) {
    if (!isFiniteNumber(viewport[key])) fail(`viewport.${key}`, `expected a number, found ${found(viewport[key])}`);
  }
  const coverage = json.coverage;
  if (coverage !== null) {
    if (!isObject(coverage)) fail("coverage", `expected {interactive, t1, t2, t3} or null, found ${found(coverage)}`);
    for (const key of ["interactive", "t1", "t2", "t3"] as const) {
      if (!isFiniteNumber(coverage[key])) fail(`coverage.${key}`, `expected a number, found ${found(coverage[key])}`);
    }
  }
  checkNode(json.root, "root", fail);
  return json as unknown as MapperTree;
}

const isFiniteNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/**
 * A node waiting to be checked, with the way to it; its JSON path (`root.children[2].children[0]`) is spelled out
 * only when a message needs it (building it for every node was a tenth of reading a capture).
 */
interface Pending {
  value: unknown;
  up: Pending | null;
  /** Its index in the parent's `children`, or in the `children` of the shadow or frame entry at `entry`. */
  index: number;
  /** The index of that shadow or frame entry in the parent's `children`; -1 when the node is a direct child. */
  entry: number;
}

function pathOf(p: Pending, rootPath: string): string {
  const steps: string[] = [];
  for (let at: Pending | null = p; at !== null && at.up !== null; at = at.up) {
    steps.push(at.entry < 0 ? `.children[${at.index}]` : `.children[${at.entry}].children[${at.index}]`);
  }
  return rootPath + steps.reverse().join("");
}

/**
 * Checks a node and everything below it (iteratively: a deep page must not exhaust the stack). A path is spelled
 * out only where a check fails, with no closure made per node: the walk runs over every node of every capture.
 */
function checkNode(root: unknown, rootPath: string, fail: Fail): void {
  const stack: Pending[] = [{ value: root, up: null, index: 0, entry: -1 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const value = item.value;
    if (!isObject(value)) fail(pathOf(item, rootPath), `expected an element node, found ${found(value)}`);
    const n = value as Partial<TreeNode> & Record<string, unknown>;
    const id = n.id;
    if (!(typeof id === "number" && Number.isSafeInteger(id)) && !(typeof id === "string" && id !== "")) {
      fail(`${pathOf(item, rootPath)}.id`, `expected a whole number, found ${found(id)}`);
    }
    if (typeof n.tag !== "string" || n.tag === "") {
      fail(`${pathOf(item, rootPath)}.tag`, `expected a tag name, found ${found(n.tag)}`);
    }
    if (n.ns !== undefined && typeof n.ns !== "string") {
      fail(`${pathOf(item, rootPath)}.ns`, `expected a string, found ${found(n.ns)}`);
    }
    const attrs = n.attrs;
    if (!isObject(attrs)) {
      fail(`${pathOf(item, rootPath)}.attrs`, `expected an object of strings, found ${found(attrs)}`);
    }
    for (const key in attrs) {
      if (typeof attrs[key] !== "string") {
        fail(
          `${pathOf(item, rootPath)}.attrs[${JSON.stringify(key)}]`,
          `expected a string, found ${found(attrs[key])}`,
        );
      }
    }
    if (n.cut !== undefined) stringList(n.cut, `${pathOf(item, rootPath)}.cut`, fail);
    if (typeof n.role !== "string") fail(`${pathOf(item, rootPath)}.role`, `expected a string, found ${found(n.role)}`);
    if (typeof n.name !== "string") fail(`${pathOf(item, rootPath)}.name`, `expected a string, found ${found(n.name)}`);
    if (typeof n.visible !== "boolean" && n.visible !== "boxless") {
      fail(`${pathOf(item, rootPath)}.visible`, `expected true, false or "boxless", found ${found(n.visible)}`);
    }
    if (n.interactive !== undefined && n.interactive !== true) {
      fail(`${pathOf(item, rootPath)}.interactive`, `expected true or nothing, found ${found(n.interactive)}`);
    }
    if (n.states !== undefined) {
      stringList(n.states, `${pathOf(item, rootPath)}.states`, fail);
      for (const [i, s] of n.states.entries()) {
        if (!STATES.has(s)) {
          fail(
            `${pathOf(item, rootPath)}.states[${i}]`,
            `unknown state ${found(s)} (known: ${STATE_PSEUDOS.join(", ")})`,
          );
        }
      }
    }
    if (n.box !== undefined && !(Array.isArray(n.box) && n.box.length === 4 && n.box.every(isFiniteNumber))) {
      fail(`${pathOf(item, rootPath)}.box`, `expected [x, y, width, height], found ${found(n.box)}`);
    }
    const children = n.children;
    if (!Array.isArray(children)) {
      fail(`${pathOf(item, rootPath)}.children`, `expected an array, found ${found(children)}`);
    }
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i] as unknown;
      if (typeof child === "string") continue;
      if (isObject(child) && "shadow" in child) {
        const at = () => `${pathOf(item, rootPath)}.children[${i}]`;
        if (child.shadow !== "open") fail(`${at()}.shadow`, `expected "open", found ${found(child.shadow)}`);
        pushEntries(child.children, item, i, at, stack, fail);
      } else if (isObject(child) && "frame" in child) {
        const at = () => `${pathOf(item, rootPath)}.children[${i}]`;
        if (child.frame !== "same-origin" && child.frame !== "cross-origin") {
          fail(`${at()}.frame`, `expected "same-origin" or "cross-origin", found ${found(child.frame)}`);
        }
        if (typeof child.url !== "string") fail(`${at()}.url`, `expected a string, found ${found(child.url)}`);
        pushEntries(child.children, item, i, at, stack, fail);
      } else {
        stack.push({ value: child, up: item, index: i, entry: -1 });
      }
    }
  }
}

/** Queues the element entries of a shadow root's or frame's `children` (text allowed, nothing nested). */
function pushEntries(
  children: unknown,
  up: Pending,
  entry: number,
  at: () => string,
  stack: Pending[],
  fail: Fail,
): void {
  if (!Array.isArray(children)) fail(`${at()}.children`, `expected an array, found ${found(children)}`);
  for (let j = children.length - 1; j >= 0; j--) {
    if (typeof children[j] !== "string") stack.push({ value: children[j], up, index: j, entry });
  }
}

function stringList(value: unknown, path: string, fail: Fail): asserts value is string[] {
  if (!Array.isArray(value)) fail(path, `expected a list of strings, found ${found(value)}`);
  value.forEach((v, i) => {
    if (typeof v !== "string") fail(`${path}[${i}]`, `expected a string, found ${found(v)}`);
  });
}

/**
 * Reads a tree file: a regular file (a FIFO or directory is refused without opening it) of at most
 * {@linkcode MAX_TREE_BYTES}, UTF-8, then {@linkcode parseTree}. `shown` is the name used in messages (default:
 * `path`). Rejects as {@linkcode readTreeFileSync} throws.
 */
export function readTreeFile(path: string, shown = path): Promise<CapturedTree> {
  return new Promise((resolve) => resolve(readTreeFileSync(path, shown)));
}

/** {@linkcode readTreeFile}, blocking: the offline commands read many captures one after another. */
export function readTreeFileSync(path: string, shown = path): CapturedTree {
  const tooBig = () =>
    new DataError(`${escapeControls(shown)}: larger than the ${MAX_TREE_BYTES / 1024 / 1024} MiB limit of a tree`, {
      hint: "capture a smaller page or part of it",
    });
  let bytes: Uint8Array;
  try {
    bytes = readRegularFileCappedSync(path, MAX_TREE_BYTES, tooBig);
  } catch (err: unknown) {
    if (err instanceof DataError) throw err;
    if (err instanceof Deno.errors.NotFound) {
      throw new NotFoundError(`no tree file "${escapeControls(shown)}"`, { hint: HINT });
    }
    const why = err instanceof NotRegularFileError ? err.message : err instanceof Error ? err.message : String(err);
    throw new DataError(`cannot read "${escapeControls(shown)}": ${why}`, { hint: HINT });
  }
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch {
    throw new TreeShapeError(shown, "", "not UTF-8 text");
  }
  return parseTree(text, shown);
}
