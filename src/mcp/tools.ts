/**
 * The MCP tools: each one its CLI command (`mapper console list` → `console_list`, …), declared with `cliTool`: the
 * command's flags are its parameters and a call runs the command's own action with captured output. Argument names
 * follow one vocabulary across tools (snake_case; `target`, `text`, `key`, `timeout_ms`, …) and every description
 * says what to pass and what comes back.
 *
 * @module
 */
import { z } from "zod";
import { PolicyError, UsageError } from "../errors.ts";
import { quote } from "../terminal.ts";
import { LEVELS } from "../browser/mod.ts";
import { type Annotations, defineTool, READ_LOCAL, type ToolSpec } from "./registry.ts";
import { PAGE_TOOLS } from "./page_tools.ts";
import { KIT_TOOLS } from "./kit_tools.ts";
import { cliInput, type CliParams, cliTool, runAsCli } from "./from_cli.ts";
import { registerDevtools } from "../cli/devtools.ts";
import { registerCorpusCommands } from "../cli/corpus_cmds.ts";
import { registerOffline } from "../cli/offline.ts";
import { registerAtlas } from "../cli/atlas.ts";
import { registerCaptures } from "../cli/captures.ts";

// Parameters come from the commands' flags (`from_cli.ts`); these descriptions are written for an agent instead.
const TAB = "Only this tab: its id or a unique prefix of it (the 8-character ids listings show). Omit for every tab.";
const FORMAT_REASON = "tools answer in the text layout; the other formats are for CI annotations and scripts";

/** `console_list`: `mapper console list`. */
const consoleList = cliTool<{ level?: Array<typeof LEVELS[number]>; tab?: string; limit?: number }>({
  name: "console_list",
  title: "List console messages",
  description: "List the console messages the browser session captured, oldest to newest, one line each: " +
    "`[index] level text`. Uncaught exceptions and browser log entries are included (level `exception`, …). " +
    "Use the index with console_get for the source location and time. The session keeps the last 1000 messages " +
    "across navigations; a line says when older ones were dropped.",
  cli: {
    register: registerDevtools,
    command: "console list",
    schema: { level: z.array(z.enum(LEVELS)).min(1) },
    describe: { level: 'Only these levels, e.g. ["error", "exception"]. Omit for all.', tab: TAB },
  },
  annotations: READ_LOCAL,
  browser: true,
});

/** `console_get`: `mapper console get`. */
const consoleGet = cliTool<{ index: number }>({
  name: "console_get",
  title: "Get one console message",
  description: "Show one captured console message in full: level and tab, the whole text, the source location " +
    "(function, URL, line, column), the time, and the corpus messages it matched.",
  cli: {
    register: registerDevtools,
    command: "console get",
    schema: { index: z.number().int().min(0) },
    describe: { index: "The message index, as console_list shows it in brackets." },
  },
  annotations: READ_LOCAL,
  browser: true,
});

/** `network_list`: `mapper network list`. */
const networkList = cliTool<{ type?: string; url?: string; tab?: string; limit?: number }>({
  name: "network_list",
  title: "List network requests",
  description: "List the requests the browser session captured, oldest to newest, one line each: " +
    "`[index] METHOD url → status (ResourceType)`. Filter by resource type or URL text to keep the answer short. " +
    "Use the index with network_get for headers and the response body.",
  cli: {
    register: registerDevtools,
    command: "network list",
    describe: { tab: TAB },
  },
  annotations: READ_LOCAL,
  browser: true,
});

/** `network_get`: `mapper network get`. */
const networkGet = cliTool<{ index: number; show_secrets?: boolean }>({
  name: "network_get",
  title: "Get one network request",
  description: "Show one captured request: method, URL, status, timing, request and response headers, then a " +
    "preview of the response body (the first 4096 bytes of text; binary bodies are described, never dumped). " +
    "Authorization, Cookie and Set-Cookie values are redacted unless show_secrets is true.",
  cli: {
    register: registerDevtools,
    command: "network get",
    omit: {
      "--response-file": "the preview is the answer; a tool writes no files the user did not ask for",
      "--request-file": "the preview is the answer; a tool writes no files the user did not ask for",
    },
    schema: { index: z.number().int().min(0) },
    describe: {
      index: "The request index, as network_list shows it in brackets.",
      show_secrets:
        "Show Authorization, Cookie and Set-Cookie values instead of redacting them. Only when the task needs them.",
    },
  },
  annotations: READ_LOCAL,
  browser: true,
});

const CATALOG_INDEX = "Catalog location: an HTTPS URL (plain HTTP only on localhost). Omit for the public atlas.";

/**
 * The catalog an MCP client names: an HTTPS URL (or plain HTTP on the loopback) under the atlas transport policy,
 * never a local file. A client is an agent a web page may have talked into anything; a local path would let it read
 * files through catalog parsing (and their first bytes through its errors). Local catalogs are the user's to give,
 * with `mapper atlas find --index FILE` or `MAPPER_ATLAS_INDEX`.
 */
async function clientIndex(index: string | undefined): Promise<string | undefined> {
  if (index === undefined) return undefined;
  const { isUrl, allowedUrl } = await import("../atlas/mod.ts");
  if (!isUrl(index)) {
    throw new PolicyError(`index ${quote(index)} is not a URL; an MCP client may name only an https:// catalog`, {
      hint: "pass the catalog's https:// URL (http:// only on localhost); a local catalog file is for the user " +
        "to give (MAPPER_ATLAS_INDEX)",
    });
  }
  allowedUrl(index, "pass the catalog's https:// URL (http:// only on localhost)");
  return index;
}

/** `atlas_find`: `mapper atlas find`. */
const atlasFind = cliTool<
  { query?: string | undefined; category?: string; limit?: number; index?: string | undefined; refresh?: boolean }
>({
  name: "atlas_find",
  title: "Find a site map in the atlas",
  description: "Search the atlas, the catalog of community-made site maps (corpora), by domain or words. Each hit " +
    "shows the slug, what it covers and how to install it (atlas_add with that slug). Use it before mapping a site " +
    "yourself. An empty query lists the catalog. The catalog is cached for 24 hours.",
  cli: {
    register: registerAtlas,
    command: "atlas find",
    // One string of words: the CLI's words are split by the shell, a model passes a phrase.
    schema: { query: z.string() },
    describe: { query: 'A domain or words, e.g. "example.com" or "shop checkout".', index: CATALOG_INDEX },
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  browser: false,
  async prepare(a) {
    const query = (a.query ?? "").trim();
    return { ...a, query: query === "" ? undefined : query, index: await clientIndex(a.index) };
  },
});

const ADD: Annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

const ADD_CLI: CliParams = {
  register: registerAtlas,
  command: "atlas add",
  omit: {
    "--target": "a tool installs only into the server's corpus directory (mapper mcp --dir)",
    "--source": "archives come from beside the catalog the user chose; a model never picks an archive URL",
  },
  describe: {
    slug: 'The atlas entry to install, e.g. "example" (from atlas_find).',
    index: "The catalog the slug came from (same value as atlas_find's index): an HTTPS URL (plain HTTP only on " +
      "localhost); archives are fetched beside it. Omit for the public atlas.",
  },
  extra: {
    confirm: z.boolean().optional().describe(
      "Set true once the user agreed to this install. Needed only when the client cannot ask the user itself " +
        "(without elicitation support); ignored otherwise, because the client then asks.",
    ),
  },
};

/** `atlas_add`: `mapper atlas add` into the server's corpus directory, after the user confirmed. */
const atlasAdd = defineTool({
  name: "atlas_add",
  title: "Install a site map from the atlas",
  description: "Install one atlas corpus (a slug from atlas_find) into this server's corpus directory, which must " +
    "be empty or missing (nothing is ever overwritten). The archive is fetched over HTTPS, size-capped, checked for " +
    "unsafe paths and loaded before it is moved into place. The user is asked to confirm through the client when " +
    "the client supports it; otherwise ask the user yourself and pass confirm: true.",
  input: cliInput<{ slug: string; index?: string; expect_sha256?: string; confirm?: boolean }>(ADD_CLI),

  annotations: ADD,
  browser: false,
  async call(a, ctx) {
    const index = await clientIndex(a.index);
    const { archiveLocation, indexLocation } = await import("../atlas/mod.ts");
    // The user decides knowing where the corpus comes from: the catalog the agent chose, and the archive fetched.
    const archive = archiveLocation({ slug: a.slug, index }, ctx.io);
    const asked = await ctx.confirm(
      `Install the atlas corpus ${quote(a.slug)} into ${quote(ctx.dir)}? Catalog: ${
        quote(indexLocation(index, ctx.io))
      }. Archive: ${quote(String(archive))}.`,
    );
    if (asked === false) return `Nothing installed: the user declined installing "${a.slug}".`;
    if (asked === undefined && a.confirm !== true) {
      throw new UsageError(`installing "${a.slug}" needs the user's confirmation`, {
        hint: "ask the user, then call atlas_add again with confirm: true",
      });
    }
    return await runAsCli(ADD_CLI, { ...a, index }, ctx, { "--target": ctx.dir });
  },
});

/** `match`: `mapper match`. */
const match = cliTool<{ url: string; method?: string }>({
  name: "match",
  title: "What the map says about a URL",
  description: "Which view of the corpus a URL resolves to (the single most specific route) and its route " +
    "parameters, the other views that also match, the components active there (global or view-scoped, with their " +
    "selectors) and the API requests that apply. Reads the corpus only: no browser, nothing changes.",
  cli: {
    register: registerCorpusCommands,
    command: "match",
    omit: { "--format": FORMAT_REASON },
    describe: { url: 'A page URL or path, e.g. "https://shop.example.com/product/42" or "/product/42".' },
  },
  annotations: READ_LOCAL,
  browser: false,
});

/** `sel_check`: `mapper sel-check`. */
const selCheck = cliTool<{ selector: string; files: string[]; limit?: number; include_hidden?: boolean }>({
  name: "sel_check",
  title: "What a selector matches in captured pages",
  description: "Answers a CSS selector on captured page trees (.snap.tree.json files from 'mapper capture', or the " +
    "other implementation's component trees) without a browser, as querySelectorAll would on the page: per root " +
    "(document, open shadow roots, same-origin frames, never crossing into one). Returns, per file, the count " +
    "(hidden ones and roots named) and the matches (id, element with key attributes, role, accessible name). A " +
    "selector a capture cannot answer (:hover, a cut attribute value, an unrecorded state) is reported as such, " +
    "never as 0 matches. Nothing changes.",
  cli: {
    register: registerOffline,
    command: "sel-check",
    rename: { "<file>": "files" },
    schema: { selector: z.string().min(1), files: z.array(z.string().min(1)).min(1) },
    describe: {
      files: "Tree files to answer it on, relative to the server's working directory (e.g. " +
        '".mapper/snapshots/Catalog/20260607T193000Z.snap.tree.json").',
    },
  },
  annotations: READ_LOCAL,
  browser: false,
});

/** `search`: `mapper search`. */
const search = cliTool<{
  pattern: string;
  field?: "name" | "selector" | "description" | "memory" | "route" | "url" | "all";
  type?: "component" | "view" | "request" | "message" | "all";
  case?: boolean;
  fixed?: boolean;
}>({
  name: "search",
  title: "Find text in the map",
  description: "Searches the corpus as written (names, selectors, descriptions, memory notes, routes, URLs of " +
    "components, views, requests and messages) with a JavaScript regular expression, case-insensitive by default. " +
    "Each hit: file:line:col, the path to the declaration (View › Parent › Component), the field and its value. " +
    "Reads the corpus only: no browser, nothing changes.",
  cli: {
    register: registerOffline,
    command: "search",
    schema: {
      pattern: z.string().min(1),
      field: z.enum(["name", "selector", "description", "memory", "route", "url", "all"]),
      type: z.enum(["component", "view", "request", "message", "all"]),
    },
    describe: { pattern: 'A JavaScript regular expression, e.g. "card|tile" (or plain text with fixed).' },
  },
  annotations: READ_LOCAL,
  browser: false,
});

/** The `files` parameter of the tools that read captures. */
const CAPTURE_FILES = {
  schema: { files: z.array(z.string().min(1)).optional() },
  describe: {
    files: "Capture files relative to the server's working directory (default: every .snap.tree.json under " +
      ".mapper/snapshots/).",
  },
} as const;

/** `coverage`: `mapper coverage`. */
const coverage = cliTool<{ files?: string[]; include_hidden?: boolean; trace?: boolean }>({
  name: "coverage",
  title: "Check the map against its captures",
  description: "Re-matches every capture (or the files given) at its recorded URL with the current corpus, without a " +
    "browser: per capture interactive nodes and tiers (T1 a component itself, T2 inside one, T3 orphaned); per view " +
    "components that matched nothing in any capture (absent, broken scope, shadowed by an earlier component, " +
    "unknown), presence K/N, advisory annotation gaps. trace lists the orphans in clusters. A capture whose URL now " +
    "resolves to another view is stale and left out. An error result means the gate failed (orphans, an empty or " +
    "unreadable capture); the text says which. Nothing changes.",
  cli: {
    register: registerCaptures,
    command: "coverage",
    ...CAPTURE_FILES,
  },
  annotations: READ_LOCAL,
  browser: false,
});

/** `report`: `mapper report`. */
const report = cliTool<Record<string, never>>({
  name: "report",
  title: "The map's state per view",
  description: "One row per view of the corpus: route, whether it has a url:, captures and the last one's time, " +
    "T1/T2/T3 over its captures, dead components, the component with the most T2 nodes; views with a url: but no " +
    "capture say 'missing: mapper capture --all'. An error result means something needs attention (orphans, dead " +
    "components, missing captures). Reads files only: nothing changes.",
  cli: { register: registerCaptures, command: "report" },
  annotations: READ_LOCAL,
  browser: false,
});

/** `multi_coverage`: `mapper multi-coverage`. */
const multiCoverage = cliTool<{ files?: string[] }>({
  name: "multi_coverage",
  title: "Components across views",
  description: "A components × views matrix from the captures (each cell: most elements the component claimed in one " +
    "capture of the view; g marks a global), then advice: the same component declared alike in several views " +
    "(promote it to a global), the same name with different selectors (unify, or keep scoped), different names " +
    "with one selector (duplicates). Stale captures are left out with a warning. Nothing changes.",
  cli: {
    register: registerCaptures,
    command: "multi-coverage",
    ...CAPTURE_FILES,
  },
  annotations: READ_LOCAL,
  browser: false,
});

/** `capture`: `mapper capture`. */
const capture = cliTool<{ url?: string; all?: boolean; force?: boolean; tab?: string }>({
  name: "capture",
  title: "Keep the current page for offline checks",
  description: "Saves the current page's snapshot text and captured tree under .mapper/snapshots/<View>/ — only when " +
    "it is the view's first capture or adds a component or an orphan slot the view's captures lack (else 'not " +
    "saved: adds nothing', unless force). Refused: no view for the URL, a page without an interactive node (unless " +
    "force). all captures every view's url: in scratch tabs (the current tab stays). Writes files in the corpus.",
  cli: {
    register: registerCaptures,
    command: "capture",
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  browser: true,
});

/** `capture_prune`: `mapper capture-prune`. */
const capturePrune = cliTool<{ view?: string; all?: boolean; dry_run?: boolean }>({
  name: "capture_prune",
  title: "Remove captures the rest already cover",
  description: "Removes the captures of a view (or every view with all) whose components and orphan slots the other " +
    "captures of the set already have, oldest first, never the last one. dry_run only says what would go. Deletes " +
    "files under .mapper/snapshots/.",
  cli: {
    register: registerCaptures,
    command: "capture-prune",
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  browser: false,
});

/** `discover`: `mapper discover`. */
const discover = cliTool<{ all?: boolean; tab?: string }>({
  name: "discover",
  title: "Where the map could go next",
  description: "Folds the current page's same-origin links (every root; with all, the captures' links too) into URL " +
    "patterns (/products/:id) and marks each: mapped by a view, reached only by a catch-all route (warned: give it " +
    "a view), surveyed (captured, no view) or unseen. Reads the page, changes nothing.",
  cli: { register: registerCaptures, command: "discover" },
  annotations: READ_LOCAL,
  browser: true,
});

/** Every tool the server offers, in the order `tools/list` shows them. */
export const TOOLS: readonly ToolSpec[] = [
  ...PAGE_TOOLS,
  ...KIT_TOOLS,
  match,
  search,
  selCheck,
  coverage,
  report,
  multiCoverage,
  capture,
  capturePrune,
  discover,
  consoleList,
  consoleGet,
  networkList,
  networkGet,
  atlasFind,
  atlasAdd,
];
