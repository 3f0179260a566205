/**
 * The MCP resources, readable without a tool call: `mapper://corpus` (the compiled corpus of `--dir`, the `/mapper`
 * JSON, from the corpus module's `load` + `compile`) and `mapper://memory` (the memory notes that apply to the
 * pages open in the browser session: the site's notes and, per tab, its view's, from `mapper match`'s module).
 * Reading a resource never starts a browser session.
 *
 * @module
 */
import { resolve } from "node:path";
import type { Io } from "../io.ts";
import { errorText, MapperError } from "../errors.ts";
import type { StatusPayload } from "../browser/mod.ts";

/** URI of the compiled-corpus resource. */
export const CORPUS_URI = "mapper://corpus";
/** URI of the memory-notes resource. */
export const MEMORY_URI = "mapper://memory";

/** The SDK answers a thrown error with its message: make that the CLI's `message — hint` text. */
function plain(err: unknown): never {
  throw err instanceof MapperError ? new Error(errorText(err)) : err;
}

/** Loads the corpus of `dir`, refusing one another user controls (`trustedCorpusDir`). */
async function loadTrusted(dir: string, io: Io) {
  const { load, trustedCorpusDir } = await import("../corpus/mod.ts");
  const path = resolve(io.cwd, dir);
  try {
    trustedCorpusDir(path);
  } catch (err: unknown) {
    plain(err);
  }
  return await load(path).catch(plain);
}

/** The compiled corpus of `dir` as pretty JSON. */
export async function corpusJson(dir: string, io: Io): Promise<string> {
  const { compile, siteName } = await import("../corpus/mod.ts");
  const { corpus } = await loadTrusted(dir, io);
  return JSON.stringify(compile(corpus, { site: siteName(io.cwd), version: io.now() }), null, 2);
}

/** The session's content tabs (`about:blank` left out), or `undefined` when no session runs. */
async function openTabs(dir: string, io: Io): Promise<StatusPayload["tabs"] | undefined> {
  const { connect } = await import("../devtools/client.ts");
  try {
    const client = await connect(dir, io);
    const status = await client.json<StatusPayload>("/devtools/status");
    return status.tabs.filter((t) => t.url !== "about:blank");
  } catch (err: unknown) {
    if (err instanceof MapperError) return undefined;
    throw err;
  }
}

/** The memory notes that apply now, as Markdown. */
export async function memoryText(dir: string, io: Io): Promise<string> {
  const { matchUrl } = await import("../authoring/match.ts");
  const { corpus } = await loadTrusted(dir, io);
  const lines = ["# Memory notes", ""];
  const list = (notes: readonly string[]) => notes.length === 0 ? ["(none)"] : notes.map((n) => `- ${n}`);
  lines.push("## Site", ...list(corpus.memory), "");
  const tabs = await openTabs(dir, io);
  if (tabs === undefined) {
    lines.push("No browser session is running, so no page is open: the first browser tool call starts one.");
  } else if (tabs.length === 0) {
    lines.push("No page is open in the browser session.");
  }
  for (const tab of tabs ?? []) {
    const { view } = matchUrl(corpus, tab.url);
    const title = view === null ? "no view matched" : `view ${view.name} (route ${view.route})`;
    lines.push(`## Tab ${tab.id.slice(0, 8)}: ${tab.url} → ${title}`, ...(view === null ? [] : list(view.memory)), "");
  }
  return lines.join("\n").trimEnd() + "\n";
}

/** A resource as the server registers it. */
export interface ResourceSpec {
  /** Resource name. */
  readonly name: string;
  /** Resource URI. */
  readonly uri: string;
  /** Human-readable title. */
  readonly title: string;
  /** What the resource holds. */
  readonly description: string;
  /** MIME type of the content. */
  readonly mimeType: string;
  /** Reads the current content for corpus directory `dir`. */
  read(dir: string, io: Io): Promise<string>;
}

/** Every resource the server offers. */
export const RESOURCES: readonly ResourceSpec[] = [
  {
    name: "corpus",
    uri: CORPUS_URI,
    title: "Compiled corpus",
    description: "The site map of this server's corpus directory, compiled to the JSON the extension and the " +
      "browser session read (the /mapper wire format): views with routes, components, requests, messages, memory.",
    mimeType: "application/json",
    read: corpusJson,
  },
  {
    name: "memory",
    uri: MEMORY_URI,
    title: "Memory notes for the open pages",
    description: "What people who mapped this site noted for agents: the site-wide notes, then for each tab of " +
      "the browser session its URL, the view it resolves to and that view's notes. Read it before acting on a page.",
    mimeType: "text/markdown",
    read: memoryText,
  },
];
