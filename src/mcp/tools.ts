/**
 * The MCP tools: each one a thin adapter over the module function its CLI command runs (`mapper console list` →
 * `runConsoleList`, …), called with captured output. Argument names follow one vocabulary across tools
 * (snake_case; `target`, `text`, `key`, `timeout_ms`, …) and every description says what to pass and what comes back.
 *
 * @module
 */
import { z } from "zod";
import { UsageError } from "../errors.ts";
import { LEVELS } from "../browser/mod.ts";
import { type Annotations, defineTool, READ_LOCAL, type ToolSpec } from "./registry.ts";
import { PAGE_TOOLS } from "./page_tools.ts";
import { KIT_TOOLS } from "./kit_tools.ts";
import { cliInput } from "./from_cli.ts";
import { registerDevtools } from "../cli/devtools.ts";
import { registerCorpusCommands } from "../cli/corpus_cmds.ts";
import { registerOffline } from "../cli/offline.ts";
import { registerAtlas } from "../cli/atlas.ts";
import { registerCaptures } from "../cli/captures.ts";

// Parameters come from the commands' flags (`from_cli.ts`); these descriptions are written for an agent instead.
const TAB = "Only this tab: its id or a unique prefix of it (the 8-character ids listings show). Omit for every tab.";
const FORMAT_REASON = "tools answer in the text layout; the other formats are for CI annotations and scripts";

/** `console_list`: `mapper console list`. */
const consoleList = defineTool({
  name: "console_list",
  title: "List console messages",
  description: "List the console messages the browser session captured, oldest to newest, one line each: " +
    "`[index] level text`. Uncaught exceptions and browser log entries are included (level `exception`, …). " +
    "Use the index with console_get for the source location and time. The session keeps the last 1000 messages " +
    "across navigations; a line says when older ones were dropped.",
  input: cliInput<{ level?: Array<typeof LEVELS[number]>; tab?: string; limit?: number }>({
    register: registerDevtools,
    command: "console list",
    schema: { level: z.array(z.enum(LEVELS)).min(1) },
    describe: { level: 'Only these levels, e.g. ["error", "exception"]. Omit for all.', tab: TAB },
  }),
  annotations: READ_LOCAL,
  browser: true,
  async call(a, ctx) {
    const { runConsoleList } = await import("../devtools/commands.ts");
    return await ctx.capture((io) =>
      runConsoleList({ dir: ctx.dir, level: a.level?.join(","), tab: a.tab, limit: a.limit, json: false }, io)
    );
  },
});

/** `console_get`: `mapper console get`. */
const consoleGet = defineTool({
  name: "console_get",
  title: "Get one console message",
  description: "Show one captured console message in full: level and tab, the whole text, the source location " +
    "(function, URL, line, column), the time, and the corpus messages it matched.",
  input: cliInput<{ index: number }>({
    register: registerDevtools,
    command: "console get",
    schema: { index: z.number().int().min(0) },
    describe: { index: "The message index, as console_list shows it in brackets." },
  }),
  annotations: READ_LOCAL,
  browser: true,
  async call(a, ctx) {
    const { runConsoleGet } = await import("../devtools/commands.ts");
    return await ctx.capture((io) => runConsoleGet({ dir: ctx.dir, index: String(a.index), json: false }, io));
  },
});

/** `network_list`: `mapper network list`. */
const networkList = defineTool({
  name: "network_list",
  title: "List network requests",
  description: "List the requests the browser session captured, oldest to newest, one line each: " +
    "`[index] METHOD url → status (ResourceType)`. Filter by resource type or URL text to keep the answer short. " +
    "Use the index with network_get for headers and the response body.",
  input: cliInput<{ type?: string; url?: string; tab?: string; limit?: number }>({
    register: registerDevtools,
    command: "network list",
    describe: { tab: TAB },
  }),
  annotations: READ_LOCAL,
  browser: true,
  async call(a, ctx) {
    const { runNetworkList } = await import("../devtools/commands.ts");
    return await ctx.capture((io) =>
      runNetworkList({ dir: ctx.dir, type: a.type, url: a.url, tab: a.tab, limit: a.limit, json: false }, io)
    );
  },
});

/** `network_get`: `mapper network get`. */
const networkGet = defineTool({
  name: "network_get",
  title: "Get one network request",
  description: "Show one captured request: method, URL, status, timing, request and response headers, then a " +
    "preview of the response body (the first 4096 bytes of text; binary bodies are described, never dumped). " +
    "Authorization, Cookie and Set-Cookie values are redacted unless show_secrets is true.",
  input: cliInput<{ index: number; show_secrets?: boolean }>({
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
  }),
  annotations: READ_LOCAL,
  browser: true,
  async call(a, ctx) {
    const { runNetworkGet } = await import("../devtools/commands.ts");
    return await ctx.capture((io) =>
      runNetworkGet({ dir: ctx.dir, index: String(a.index), json: false, showSecrets: a.show_secrets === true }, io)
    );
  },
});

const CATALOG_INDEX = "Catalog location: an HTTPS URL or a local index.json path. Omit for the public atlas.";

/** `atlas_find`: `mapper atlas find`. */
const atlasFind = defineTool({
  name: "atlas_find",
  title: "Find a site map in the atlas",
  description: "Search the atlas, the catalog of community-made site maps (corpora), by domain or words. Each hit " +
    "shows the slug, what it covers and how to install it (atlas_add with that slug). Use it before mapping a site " +
    "yourself. An empty query lists the catalog. The catalog is cached for 24 hours.",
  input: cliInput<{ query?: string; category?: string; limit?: number; index?: string; refresh?: boolean }>({
    register: registerAtlas,
    command: "atlas find",
    // One string of words: the CLI's words are split by the shell, a model passes a phrase.
    schema: { query: z.string() },
    describe: { query: 'A domain or words, e.g. "example.com" or "shop checkout".', index: CATALOG_INDEX },
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  browser: false,
  async call(a, ctx) {
    const { runFind } = await import("../atlas/find.ts");
    const query = (a.query ?? "").trim();
    return await ctx.capture((io) =>
      runFind({
        query: query === "" ? [] : [query],
        category: a.category,
        limit: a.limit ?? 10,
        index: a.index,
        refresh: a.refresh,
      }, io)
    );
  },
});

const ADD: Annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

/** `atlas_add`: `mapper atlas add` into the server's corpus directory, after the user confirmed. */
const atlasAdd = defineTool({
  name: "atlas_add",
  title: "Install a site map from the atlas",
  description: "Install one atlas corpus (a slug from atlas_find) into this server's corpus directory, which must " +
    "be empty or missing (nothing is ever overwritten). The archive is fetched over HTTPS, size-capped, checked for " +
    "unsafe paths and loaded before it is moved into place. The user is asked to confirm through the client when " +
    "the client supports it; otherwise ask the user yourself and pass confirm: true.",
  input: cliInput<{ slug: string; index?: string; expect_sha256?: string; confirm?: boolean }>({
    register: registerAtlas,
    command: "atlas add",
    omit: {
      "--target": "a tool installs only into the server's corpus directory (mapper mcp --dir)",
      "--source": "archives come from beside the catalog the user chose; a model never picks an archive URL",
    },
    describe: {
      slug: 'The atlas entry to install, e.g. "example" (from atlas_find).',
      index: "The catalog the slug came from (same value as atlas_find's index); archives are fetched beside it. " +
        "Omit for the public atlas.",
    },
    extra: {
      confirm: z.boolean().optional().describe(
        "Set true once the user agreed to this install. Needed only when the client cannot ask the user itself " +
          "(without elicitation support); ignored otherwise, because the client then asks.",
      ),
    },
  }),
  annotations: ADD,
  browser: false,
  async call(a, ctx) {
    const asked = await ctx.confirm(`Install the atlas corpus "${a.slug}" into ${ctx.dir}?`);
    if (asked === false) return `Nothing installed: the user declined installing "${a.slug}".`;
    if (asked === undefined && a.confirm !== true) {
      throw new UsageError(`installing "${a.slug}" needs the user's confirmation`, {
        hint: "ask the user, then call atlas_add again with confirm: true",
      });
    }
    const { runAdd } = await import("../atlas/install.ts");
    return await ctx.capture((io) =>
      runAdd({ slug: a.slug, target: ctx.dir, index: a.index, expectSha256: a.expect_sha256 }, io)
    );
  },
});

/** `match`: `mapper match`. */
const match = defineTool({
  name: "match",
  title: "What the map says about a URL",
  description: "Which view of the corpus a URL resolves to (the single most specific route) and its route " +
    "parameters, the other views that also match, the components active there (global or view-scoped, with their " +
    "selectors) and the API requests that apply. Reads the corpus only: no browser, nothing changes.",
  input: cliInput<{ url: string; method?: string }>({
    register: registerCorpusCommands,
    command: "match",
    omit: { "--format": FORMAT_REASON },
    describe: { url: 'A page URL or path, e.g. "https://shop.example.com/product/42" or "/product/42".' },
  }),
  annotations: READ_LOCAL,
  browser: false,
  async call(a, ctx) {
    const { runMatch } = await import("../authoring/match.ts");
    return await ctx.capture((io) =>
      runMatch({ url: a.url, dir: ctx.dir, ...(a.method === undefined ? {} : { method: a.method }) }, io)
    );
  },
});

/** `sel_check`: `mapper sel-check`. */
const selCheck = defineTool({
  name: "sel_check",
  title: "What a selector matches in captured pages",
  description: "Answers a CSS selector on captured page trees (.snap.tree.json files from 'mapper capture', or the " +
    "other implementation's component trees) without a browser, as querySelectorAll would on the page: per root " +
    "(document, open shadow roots, same-origin frames, never crossing into one). Returns, per file, the count " +
    "(hidden ones and roots named) and the matches (id, element with key attributes, role, accessible name). A " +
    "selector a capture cannot answer (:hover, a cut attribute value, an unrecorded state) is reported as such, " +
    "never as 0 matches. Nothing changes.",
  input: cliInput<{ selector: string; files: string[]; limit?: number; include_hidden?: boolean }>({
    register: registerOffline,
    command: "sel-check",
    rename: { "<file>": "files" },
    schema: { selector: z.string().min(1), files: z.array(z.string().min(1)).min(1) },
    describe: {
      files: "Tree files to answer it on, relative to the server's working directory (e.g. " +
        '".mapper/snapshots/Catalog/20260607T193000Z.snap.tree.json").',
    },
  }),
  annotations: READ_LOCAL,
  browser: false,
  async call(a, ctx) {
    const { runSelCheck } = await import("../offline/sel_check.ts");
    return await ctx.capture((io) =>
      runSelCheck({
        selector: a.selector,
        files: a.files,
        limit: a.limit ?? 20,
        includeHidden: a.include_hidden === true,
        json: false,
      }, io)
    );
  },
});

/** `search`: `mapper search`. */
const search = defineTool({
  name: "search",
  title: "Find text in the map",
  description: "Searches the corpus as written (names, selectors, descriptions, memory notes, routes, URLs of " +
    "components, views, requests and messages) with a JavaScript regular expression, case-insensitive by default. " +
    "Each hit: file:line:col, the path to the declaration (View › Parent › Component), the field and its value. " +
    "Reads the corpus only: no browser, nothing changes.",
  input: cliInput<{
    pattern: string;
    field?: "name" | "selector" | "description" | "memory" | "route" | "url" | "all";
    type?: "component" | "view" | "request" | "message" | "all";
    case?: boolean;
    fixed?: boolean;
  }>({
    register: registerOffline,
    command: "search",
    schema: {
      pattern: z.string().min(1),
      field: z.enum(["name", "selector", "description", "memory", "route", "url", "all"]),
      type: z.enum(["component", "view", "request", "message", "all"]),
    },
    describe: { pattern: 'A JavaScript regular expression, e.g. "card|tile" (or plain text with fixed).' },
  }),
  annotations: READ_LOCAL,
  browser: false,
  async call(a, ctx) {
    const { runSearch } = await import("../authoring/search.ts");
    return await ctx.capture((io) =>
      runSearch({
        pattern: a.pattern,
        ...(a.field === undefined ? {} : { field: a.field }),
        ...(a.type === undefined ? {} : { type: a.type }),
        caseSensitive: a.case === true,
        fixed: a.fixed === true,
        dir: ctx.dir,
      }, io)
    );
  },
});

/** `coverage`: `mapper coverage`. */
const coverage = defineTool({
  name: "coverage",
  title: "Check the map against its captures",
  description: "Re-matches every capture (or the files given) at its recorded URL with the current corpus, without a " +
    "browser: per capture interactive nodes and tiers (T1 a component itself, T2 inside one, T3 orphaned); per view " +
    "components that matched nothing in any capture (absent, broken scope, shadowed by an earlier component, " +
    "unknown), presence K/N, advisory annotation gaps. trace lists the orphans in clusters. A capture whose URL now " +
    "resolves to another view is stale and left out. An error result means the gate failed (orphans, an empty or " +
    "unreadable capture); the text says which. Nothing changes.",
  input: cliInput<{ files?: string[]; include_hidden?: boolean; trace?: boolean }>({
    register: registerCaptures,
    command: "coverage",
    schema: { files: z.array(z.string().min(1)).optional() },
    describe: {
      files: "Capture files relative to the server's working directory (default: every .snap.tree.json under " +
        ".mapper/snapshots/).",
    },
  }),
  annotations: READ_LOCAL,
  browser: false,
  async call(a, ctx) {
    const { runCoverage } = await import("../kit/coverage.ts");
    return await ctx.capture((io) =>
      runCoverage({
        dir: ctx.dir,
        files: a.files,
        includeHidden: a.include_hidden === true,
        trace: a.trace === true,
        json: false,
      }, io)
    );
  },
});

/** `report`: `mapper report`. */
const report = defineTool({
  name: "report",
  title: "The map's state per view",
  description: "One row per view of the corpus: route, whether it has a url:, captures and the last one's time, " +
    "T1/T2/T3 over its captures, dead components, the component with the most T2 nodes; views with a url: but no " +
    "capture say 'missing: mapper capture --all'. An error result means something needs attention (orphans, dead " +
    "components, missing captures). Reads files only: nothing changes.",
  input: cliInput<Record<string, never>>({ register: registerCaptures, command: "report" }),
  annotations: READ_LOCAL,
  browser: false,
  async call(_a, ctx) {
    const { runReport } = await import("../kit/coverage.ts");
    return await ctx.capture((io) => runReport({ dir: ctx.dir, json: false }, io));
  },
});

/** `multi_coverage`: `mapper multi-coverage`. */
const multiCoverage = defineTool({
  name: "multi_coverage",
  title: "Components across views",
  description: "A components × views matrix from the captures (each cell: most elements the component claimed in one " +
    "capture of the view; g marks a global), then advice: the same component declared alike in several views " +
    "(promote it to a global), the same name with different selectors (unify, or keep scoped), different names " +
    "with one selector (duplicates). Stale captures are left out with a warning. Nothing changes.",
  input: cliInput<{ files?: string[] }>({
    register: registerCaptures,
    command: "multi-coverage",
    schema: { files: z.array(z.string().min(1)).optional() },
    describe: {
      files: "Capture files relative to the server's working directory (default: every .snap.tree.json under " +
        ".mapper/snapshots/).",
    },
  }),
  annotations: READ_LOCAL,
  browser: false,
  async call(a, ctx) {
    const { runMultiCoverage } = await import("../kit/coverage.ts");
    return await ctx.capture((io) => runMultiCoverage({ dir: ctx.dir, files: a.files, json: false }, io));
  },
});

/** `capture`: `mapper capture`. */
const capture = defineTool({
  name: "capture",
  title: "Keep the current page for offline checks",
  description: "Saves the current page's snapshot text and captured tree under .mapper/snapshots/<View>/ — only when " +
    "it is the view's first capture or adds a component or an orphan slot the view's captures lack (else 'not " +
    "saved: adds nothing', unless force). Refused: no view for the URL, a page without an interactive node (unless " +
    "force). all captures every view's url: in scratch tabs (the current tab stays). Writes files in the corpus.",
  input: cliInput<{ url?: string; all?: boolean; force?: boolean; tab?: string }>({
    register: registerCaptures,
    command: "capture",
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  browser: true,
  async call(a, ctx) {
    const { runCapture } = await import("../kit/capture.ts");
    return await ctx.capture((io) =>
      runCapture({
        dir: ctx.dir,
        url: a.url,
        tab: a.tab,
        all: a.all === true,
        force: a.force === true,
        json: false,
      }, io)
    );
  },
});

/** `capture_prune`: `mapper capture-prune`. */
const capturePrune = defineTool({
  name: "capture_prune",
  title: "Remove captures the rest already cover",
  description: "Removes the captures of a view (or every view with all) whose components and orphan slots the other " +
    "captures of the set already have, oldest first, never the last one. dry_run only says what would go. Deletes " +
    "files under .mapper/snapshots/.",
  input: cliInput<{ view?: string; all?: boolean; dry_run?: boolean }>({
    register: registerCaptures,
    command: "capture-prune",
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  browser: false,
  async call(a, ctx) {
    const { runCapturePrune } = await import("../kit/capture.ts");
    return await ctx.capture((io) =>
      runCapturePrune({ dir: ctx.dir, view: a.view, all: a.all === true, dryRun: a.dry_run === true, json: false }, io)
    );
  },
});

/** `discover`: `mapper discover`. */
const discover = defineTool({
  name: "discover",
  title: "Where the map could go next",
  description: "Folds the current page's same-origin links (every root; with all, the captures' links too) into URL " +
    "patterns (/products/:id) and marks each: mapped by a view, reached only by a catch-all route (warned: give it " +
    "a view), surveyed (captured, no view) or unseen. Reads the page, changes nothing.",
  input: cliInput<{ all?: boolean; tab?: string }>({ register: registerCaptures, command: "discover" }),
  annotations: READ_LOCAL,
  browser: true,
  async call(a, ctx) {
    const { runDiscover } = await import("../kit/discover.ts");
    return await ctx.capture((io) => runDiscover({ dir: ctx.dir, tab: a.tab, all: a.all === true, json: false }, io));
  },
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
