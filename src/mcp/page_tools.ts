/**
 * The page tools: `snapshot` over `mapper snapshot` (`runSnapshot`) and the acting tools over `mapper browser
 * navigate|click|fill|hover|keypress|scroll|wait-for|eval|screenshot|tabs|dialog|drag` (`src/see/act_commands.ts`),
 * each declared over its command (`cliTool`) in the one argument vocabulary (`target`, `text`, `key`, `timeout_ms`,
 * …) and answering what the command prints. `screenshot` returns the image itself as an MCP image block.
 *
 * @module
 */
import { join } from "node:path";
import { z } from "zod";
import type { Content } from "./registry.ts";
import { type Annotations, defineTool, type ToolSpec } from "./registry.ts";
import { ALLOW_SCHEME_REASON, cliInput, type CliParams, cliTool, runAsCli } from "./from_cli.ts";
import { registerBrowser } from "../cli/browser.ts";
import { registerSee } from "../cli/see.ts";

// Parameters come from the commands' flags (`from_cli.ts`); these descriptions are written for an agent instead.
const TAB = "The tab to use: its id or a unique prefix (tabs lists them). Needed only when several pages are open.";
const TARGET = 'What to act on: a node id from snapshot (e.g. "42") or a component query, e.g. ' +
  "'ProductCard[name=\"Basalt Coffee Mug\"] AddToCartButton' (brackets test extracted properties; spaces chain " +
  'matched ancestors; "#N" picks the N-th match, 0-based).';

const browser = (command: string) => ({ register: registerBrowser, command: `browser ${command}` });

/** Read the page, change nothing. */
const READ_PAGE: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const snapshot = cliTool<{
  url?: string;
  tab?: string;
  interactive?: boolean;
  coverage?: boolean;
  depth?: number;
  include_hidden?: boolean;
}>({
  name: "snapshot",
  title: "Snapshot the page through the map",
  description: "Read the current page as an annotated tree: the view it resolves to and that view's memory notes, " +
    "a [Blocked] line when an overlay covers the page, a [Guide] with the name every line of a component shares " +
    '(said once, not on each line), then one line per node: node id, then [Component prop="value" … state…] or ' +
    'role "name" (a name the properties of the node or of the component around it say is not repeated). Act on ' +
    "what you see with a component query (preferred, survives re-renders) or the node id. Call it first on every " +
    "page, and again after the page changed.",
  cli: {
    register: registerSee,
    command: "snapshot",
    omit: {
      "--out": "the snapshot is the tool's answer",
      "--tree-out": "a tool writes no files the user did not ask for; the capture tool keeps a page's tree",
      "--allow-scheme": ALLOW_SCHEME_REASON,
    },
    describe: { tab: TAB },
  },
  annotations: READ_PAGE,
  browser: true,
});

const navigate = cliTool<{ url: string; timeout_ms?: number; tab?: string }>({
  name: "navigate",
  title: "Open a URL",
  description: "Open an absolute URL in the tab and wait for it to load (and for a client-side redirect); answers " +
    "with the final URL and the view it resolves to. Then call wait_for (view or component) if the page renders " +
    "late, and snapshot. Only http(s) URLs (and about:blank) open unless the user started the server with " +
    "--allow-scheme.",
  cli: {
    ...browser("navigate"),
    omit: { "--allow-scheme": ALLOW_SCHEME_REASON },
    describe: { url: 'An absolute URL, e.g. "http://localhost:3000/cart".', tab: TAB },
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  browser: true,
});

/** A click or key press can submit, buy or delete: destructive, and never assumed idempotent. */
const ACT: Annotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

const pointer = (name: "click" | "hover") =>
  cliTool<{ target?: string; x?: number; y?: number; timeout_ms?: number; tab?: string }>({
    name,
    title: name === "click" ? "Click an element" : "Hover over an element",
    description: name === "click"
      ? "Click an element by component query or snapshot node id (or a viewport point x/y). The element is " +
        "scrolled into view and waited for (attached, visible, stable); the click is REFUSED with an error when " +
        "it is disabled or covered (the error names the overlay, e.g. a cookie dialog: deal with it first; a cover " +
        "on its way out, a closing dialog or menu, is waited for), hidden from sight (in a collapsed panel: open " +
        "it; a control kept for screen readers: use the visible one in its place; a panel still opening is waited " +
        "for), or when something came over it as the pointer arrived (a hover menu: close it). The answer says what the " +
        "click changed: 'checked false → true' for checkboxes, radios, switches and aria-pressed/expanded controls, " +
        "'selected false → true' for tabs (web components' own states included), or " +
        "'no visible effect' when nothing changed (the step did not happen: snapshot before going on). A wrapper " +
        "component (a web component) is clicked through its one inner control, and a checkbox or radio kept for " +
        "screen readers under a styled one through its visible label, named in the answer. Does not " +
        "wait for what the click causes: follow with wait_for when it navigates or loads."
      : "Move the pointer over an element by component query or snapshot node id (or a viewport point x/y), to " +
        "open menus or tooltips. Refused with an error when the element is covered.",
    cli: { ...browser(name), describe: { target: TARGET, tab: TAB } },
    annotations: name === "click"
      ? ACT
      : { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    browser: true,
  });

const fill = cliTool<{ target: string; text: string; append?: boolean; timeout_ms?: number; tab?: string }>({
  name: "fill",
  title: "Fill a field",
  description: "Replace a field's value with text by real typing (framework-controlled inputs see real events), " +
    "then read it back: an error shows the value found when it is not exactly the text. On a <select>, text picks " +
    "an option by label or value. A wrapper component holding one text field (a web component like sl-input) is " +
    "filled through it. Refused when the field is covered or disabled; for checkboxes and radios use click.",
  cli: {
    ...browser("fill"),
    omit: { "--clear": "replacing is what fill does without append; the flag only lets a script say so" },
    describe: { target: TARGET, text: 'The text the field must hold afterwards ("" empties it).', tab: TAB },
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  browser: true,
});

const pressKey = cliTool<{ key: string; target?: string; timeout_ms?: number; tab?: string }>({
  name: "press_key",
  title: "Press a key",
  description: "Press a key or chord with real key events: Enter, Escape, Tab, ArrowDown, Backspace, a single " +
    "character, or Modifier+Key such as Control+A or Shift+Tab. With target, that element is focused first.",
  cli: {
    ...browser("keypress"),
    describe: {
      key: 'The key or chord, e.g. "Enter", "Escape", "Control+A".',
      target: "Focus this element first (a node id or a component query).",
      tab: TAB,
    },
  },
  annotations: ACT,
  browser: true,
});

const scroll = cliTool<{ target?: string; delta_x?: number; delta_y?: number; timeout_ms?: number; tab?: string }>({
  name: "scroll",
  title: "Scroll",
  description: "Bring an element into view (verified: an error names the container that did not move), or " +
    "scroll the page (or the target's scrolling container) by delta_x / delta_y pixels and report the new position.",
  cli: {
    ...browser("scroll"),
    describe: { target: TARGET, tab: TAB },
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  browser: true,
});

const waitFor = cliTool<{
  url?: string;
  selector?: string;
  component?: string;
  view?: string;
  text?: string;
  load?: boolean;
  gone?: boolean;
  timeout_ms?: number;
  tab?: string;
}>({
  name: "wait_for",
  title: "Wait for a condition",
  description: "Wait until exactly one condition holds (answers at once when it already does): component (a " +
    "component query matches), view (the URL resolves to this view), url (the URL contains text), selector (a CSS " +
    "match is visible), text (visible text contains it) or load (the document finished loading). With gone, wait " +
    "for it to stop holding. A timeout error says what was last seen. Use it after every action that navigates.",
  cli: {
    ...browser("wait-for"),
    describe: {
      component: 'A component query, e.g. "ProductCard".',
      view: 'A view name from the corpus, e.g. "Checkout".',
      tab: TAB,
    },
  },
  annotations: READ_PAGE,
  browser: true,
});

const evaluate = cliTool<{ script: string; tab?: string }>({
  name: "evaluate",
  title: "Run JavaScript in the page",
  description: "Run JavaScript in the page: an expression, or a body with return statements (await allowed). " +
    "Promises are awaited; the result comes back as JSON. A DOM node, function or cyclic value is an error (return " +
    "plain data such as el.textContent). Prefer the other tools for interaction: this one bypasses every check.",
  cli: {
    ...browser("eval"),
    rename: { "<js>": "script" },
    describe: { script: 'The script, e.g. "document.title" or "return [...document.links].length".', tab: TAB },
  },
  annotations: ACT,
  browser: true,
});

const SCREENSHOT_CLI: CliParams = {
  ...browser("screenshot"),
  omit: { "--out": "the image is the tool's answer (an MCP image block), never a file" },
  rename: { "--component": "target" },
  describe: {
    target: "A component query for the element to capture, e.g. 'ProductCard[name=\"Basalt Coffee Mug\"]'.",
    tab: TAB,
  },
};

const screenshot = defineTool({
  name: "screenshot",
  title: "Take a screenshot",
  description: "Capture the viewport, the full page, or one element (target: a component query, or selector: " +
    "CSS) scrolled into view and clipped to its box; answers with the PNG image and a line naming its size and " +
    "target. Scrolls the page when the element is out of view.",
  input: cliInput<{
    target?: string;
    selector?: string;
    expand_pct?: number;
    full_page?: boolean;
    timeout_ms?: number;
    tab?: string;
  }>(SCREENSHOT_CLI),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  browser: true,
  async call(a, ctx) {
    // The command writes the image file it is given; a private temporary file is read back and removed.
    const tmp = await Deno.makeTempDir({ prefix: "mapper-mcp-shot-" });
    try {
      const out = join(tmp, "shot.png");
      const printed = await runAsCli(SCREENSHOT_CLI, a, ctx, { "--out": out, "--json": true });
      const meta = JSON.parse(printed) as { width: number; height: number; target?: string };
      const data = (await Deno.readFile(out)).toBase64();
      const what = meta.target ? ` of ${meta.target}` : a.full_page ? " of the full page" : " of the viewport";
      const content: Content[] = [
        { type: "image", data, mimeType: "image/png" },
        { type: "text", text: `screenshot${what} (${meta.width}×${meta.height} px)\n` },
      ];
      return content;
    } finally {
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    }
  },
});

const tabs = cliTool<{ action: "list" | "new" | "close"; url?: string; tab?: string; timeout_ms?: number }>({
  name: "tabs",
  title: "List, open or close tabs",
  description: "action list: every tab with its id, URL, title and the view it resolves to. action new: open a tab " +
    "(on url when given, waiting for the load). action close: close the tab whose id (or prefix) is tab.",
  cli: {
    ...browser("tabs"),
    // The CLI's one `[arg]` is two parameters here, so a model never passes a URL where a tab id belongs.
    omit: {
      "<arg>": "split into url (new) and tab (close)",
      "--allow-scheme": ALLOW_SCHEME_REASON,
      "<height>": "resizing is the resize tool",
      "--dpr": "resizing is the resize tool",
      "--mobile": "resizing is the resize tool",
      "--reset": "resizing is the resize tool",
    },
    schema: { action: z.enum(["list", "new", "close"]) },
    describe: { tab: "close: the id (or unique prefix) of the tab to close." },
    extra: { url: z.string().min(1).optional().describe("new: the absolute URL to open.") },
  },
  annotations: ACT,
  browser: true,
  // The CLI's `[arg]` is the URL to open or the tab to close; its `--tab` stays unset, as the tab is the argument.
  given: (a) => ({
    "<arg>": a.action === "new" ? a.url : a.action === "close" ? a.tab : undefined,
    "--tab": undefined,
  }),
});

const handleDialog = cliTool<{ action: "accept" | "dismiss"; text?: string; tab?: string }>({
  name: "handle_dialog",
  title: "Answer a dialog",
  description: "Answer the alert, confirm or prompt that blocks the tab: accept (with text for a prompt) or " +
    "dismiss. While a dialog is open every other page tool says so instead of hanging.",
  cli: {
    ...browser("dialog"),
    schema: { action: z.enum(["accept", "dismiss"]) },
    describe: { text: "The answer typed into a prompt (with accept).", tab: TAB },
  },
  annotations: ACT,
  browser: true,
});

const drag = cliTool<
  { from: string; to: string; steps?: number; mode?: "auto" | "pointer" | "html5"; timeout_ms?: number; tab?: string }
>({
  name: "drag",
  title: "Drag one element onto another",
  description: "Drag FROM onto TO with real pointer input (a slider knob, a sortable row, an HTML5 drag source): " +
    "FROM gets a click's checks, the button is held through every move, and the result says what changed (moved, " +
    "dom); a drag that changes nothing is an error naming the mode.",
  cli: {
    ...browser("drag"),
    schema: { mode: z.enum(["auto", "pointer", "html5"]) },
    describe: { from: `What to drag. ${TARGET}`, tab: TAB },
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  browser: true,
});

const resize = cliTool<
  { width?: number; height?: number; dpr?: number; mobile?: boolean; reset?: boolean; tab?: string }
>({
  name: "resize",
  title: "Set the tab's window size",
  description: "Set the tab's viewport to width × height CSS pixels (200–8192; kept across navigations), or reset " +
    "it to the browser window's size; answers the size read back and the size before.",
  cli: {
    ...browser("tabs"),
    omit: {
      "<action>": "this tool is the resize action",
      "--timeout-ms": "resizing loads nothing",
      "--allow-scheme": "resizing opens no URL",
    },
    rename: { "<arg>": "width" },
    schema: {
      width: z.number().int().min(200).max(8192),
      height: z.number().int().min(200).max(8192),
    },
    describe: {
      width: "Viewport width in CSS pixels (200–8192).",
      height: "Viewport height in CSS pixels (200–8192).",
      tab: TAB,
    },
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  browser: true,
  given: (a) => ({
    "<action>": "resize",
    "<arg>": a.reset ? undefined : a.width,
    "<height>": a.reset ? undefined : a.height,
    "--timeout-ms": 10_000,
  }),
});

/** The page tools, in the order an agent uses them. */
export const PAGE_TOOLS: readonly ToolSpec[] = [
  snapshot,
  navigate,
  pointer("click"),
  fill,
  pointer("hover"),
  pressKey,
  scroll,
  waitFor,
  evaluate,
  screenshot,
  tabs,
  handleDialog,
  drag,
  resize,
];
