/**
 * The daemon side of the captured tree: what the page script's walk (`page/page_tree.js`) answered, made into the tree
 * file's document (the offline area's `MapperTree`: metadata from the snapshot, secrets out). Pure: the engine
 * calls it with the snapshot it took in the same pass.
 *
 * Secrets never reach the file: a URL's credential-like query values (`redactUrl`, the one URL redactor) in every
 * attribute and in the page and frame URLs, and a password field's `value` attribute. A changed value is listed in
 * the node's `cut`, so a selector testing it is "cannot be answered" offline, never a wrong count.
 *
 * @module
 */
import {
  type MapperTree,
  MAX_TREE_BYTES,
  STATE_PSEUDOS,
  TREE_KIND,
  TREE_SCHEMA,
  type TreeNode,
} from "../offline/mod.ts";
import { redactUrl } from "../redact.ts";
import { VERSION } from "../version.ts";
import { PageError, type SnapshotPayload } from "./page_api.ts";
import type { TreeChildJs, TreeExtract, TreeNodeJs } from "./page/page_tree.js";

/** Most nodes (elements and text) a page may have to be captured: far above real pages, well below 16 MiB. */
export const MAX_TREE_NODES = 400_000;

/** What the page script's `collect` is asked for when a tree is wanted. */
export function treeRequest(): { states: readonly string[]; maxNodes: number } {
  return { states: STATE_PSEUDOS, maxNodes: MAX_TREE_NODES };
}

function tooLarge(what: string): PageError {
  return new PageError("too_large", `the page is too large to capture: ${what}`, {
    hint: "capture a smaller state of the page (a filtered list, one page of results)",
  });
}

/** Redacts one node's attributes in place (see the module documentation). */
function redactNode(n: TreeNodeJs): void {
  const cut = new Set(n.cut ?? []);
  for (const [name, value] of Object.entries(n.attrs)) {
    const clean = redactUrl(value);
    if (clean !== value) {
      n.attrs[name] = clean;
      cut.add(name);
    }
  }
  if (n.tag === "input" && n.attrs.type?.toLowerCase() === "password" && n.attrs.value) {
    n.attrs.value = "";
    cut.add("value");
  }
  if (cut.size > 0) n.cut = [...cut];
}

/** Redacts every node and frame URL of a tree in place (an explicit stack: a deep page must not exhaust ours). */
function redactTree(root: TreeNodeJs): void {
  const stack: TreeChildJs[] = [root];
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (typeof c === "string") continue;
    if ("frame" in c) c.url = redactUrl(c.url);
    else if ("tag" in c) redactNode(c);
    stack.push(...c.children);
  }
}

/**
 * The tree document of a snapshot taken with a tree (`payload.page.capture`). Throws {@linkcode PageError}
 * `too_large` when the page had more than {@linkcode MAX_TREE_NODES} nodes.
 */
export function buildTree(payload: SnapshotPayload, extract: TreeExtract, capturedAt: Date): MapperTree {
  if ("tooLarge" in extract) throw tooLarge(`more than ${MAX_TREE_NODES} nodes (or nested too deep)`);
  redactTree(extract.root);
  const c = payload.page.coverage;
  return {
    schema: TREE_SCHEMA,
    kind: TREE_KIND,
    mapper: VERSION,
    url: redactUrl(payload.url),
    title: payload.title,
    view: payload.view ? { name: payload.view.name, route: payload.view.route } : null,
    capturedAt: capturedAt.toISOString(),
    viewport: extract.viewport,
    settled: payload.settled,
    coverage: payload.corpus ? { interactive: c.interactive, t1: c.t1, t2: c.t2, t3: c.t3 } : null,
    // The page script's node is the offline TreeNode, written in JSDoc.
    root: extract.root as TreeNode,
  };
}

/**
 * The tree file's text: compact JSON and a newline (a capture is read back in bulk by the offline commands, and
 * indentation would double it); refused (`too_large`) over 16 MiB.
 */
export function treeText(tree: MapperTree): string {
  const text = JSON.stringify(tree) + "\n";
  // Characters first (cheap); the bytes only when it could be close.
  if (text.length * 3 > MAX_TREE_BYTES && new TextEncoder().encode(text).length > MAX_TREE_BYTES) {
    throw tooLarge(`its tree is over ${MAX_TREE_BYTES / 1024 / 1024} MiB`);
  }
  return text;
}
