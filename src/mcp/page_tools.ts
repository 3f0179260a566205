/**
 * The page tools: `snapshot` over `mapper snapshot` (`runSnapshot`) and the acting tools over `mapper browser
 * navigate|click|fill|hover|keypress|scroll|wait-for|eval|screenshot|tabs|dialog` (`src/see/act_commands.ts`), each
 * a thin adapter that maps the one argument vocabulary (`target`, `text`, `key`, `timeout_ms`, …) to the command's
 * options and returns what the command prints. `screenshot` returns the image itself as an MCP image block.
 *
 * @module
 */
import { join } from "node:path";
import { z } from "zod";
import type { Content } from "./registry.ts";
import { type Annotations, defineTool, type ToolSpec } from "./registry.ts";

const tab = z.string().min(1).optional().describe(
  "The tab to use: its id or a unique prefix (tabs lists them). Needed only when several pages are open.",
);
const target = z.string().min(1).describe(
  'What to act on: a node id from snapshot (e.g. "42") or a component query, e.g. ' +
    "'ProductCard[name=\"Basalt Coffee Mug\"] AddToCartButton' (brackets test extracted properties; spaces chain " +
    'matched ancestors; "#N" picks the N-th match, 0-based).',
);
const timeout = (ms: number, what: string) =>
  z.number().int().min(1).optional().describe(`Longest wait ${what}, in milliseconds (default ${ms}).`);

/** Read the page, change nothing. */
const READ_PAGE: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const snapshot = defineTool({
  name: "snapshot",
  title: "Snapshot the page through the map",
  description: "Read the current page as an annotated tree: the view it resolves to and that view's memory notes, " +
    "a [Blocked] line when an overlay covers the page, a [Guide] of component counts, then one line per node: " +
    'node id, then [Component prop="value" … state…] or role "name". Act on what you see with a component query ' +
    "(preferred, survives re-renders) or the node id. Call it first on every page, and again after the page changed.",
  input: {
    tab,
    interactive: z.boolean().optional().describe("Only interactive nodes and the components around them."),
    coverage: z.boolean().optional().describe(
      "Only the view, blocking overlay, warnings and coverage (how much of the page the map names).",
    ),
    depth: z.number().int().min(0).optional().describe("Cut the tree below this depth (0 = top level only)."),
    include_hidden: z.boolean().optional().describe("Also show hidden nodes (display: none, aria-hidden, inert)."),
  },
  annotations: READ_PAGE,
  browser: true,
  async call(a, ctx) {
    const { runSnapshot } = await import("../see/commands.ts");
    return await ctx.capture((io) =>
      runSnapshot({
        dir: ctx.dir,
        tab: a.tab,
        interactive: a.interactive === true,
        coverage: a.coverage === true,
        depth: a.depth,
        includeHidden: a.include_hidden === true,
        json: false,
      }, io)
    );
  },
});

const navigate = defineTool({
  name: "navigate",
  title: "Open a URL",
  description: "Open an absolute URL in the tab and wait for it to load (and for a client-side redirect); answers " +
    "with the final URL and the view it resolves to. Then call wait_for (view or component) if the page renders " +
    "late, and snapshot.",
  input: {
    url: z.string().min(1).describe('An absolute URL, e.g. "http://localhost:3000/cart".'),
    timeout_ms: timeout(30_000, "for the load"),
    tab,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  browser: true,
  async call(a, ctx) {
    const { runNavigate } = await import("../see/act_commands.ts");
    return await ctx.capture((io) =>
      runNavigate({ dir: ctx.dir, tab: a.tab, json: false, url: a.url, timeoutMs: a.timeout_ms ?? 30_000 }, io)
    );
  },
});

/** A click or key press can submit, buy or delete: destructive, and never assumed idempotent. */
const ACT: Annotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

const pointer = (name: "click" | "hover") =>
  defineTool({
    name,
    title: name === "click" ? "Click an element" : "Hover over an element",
    description: name === "click"
      ? "Click an element by component query or snapshot node id (or a viewport point x/y). The element is " +
        "scrolled into view and waited for (attached, visible, stable); the click is REFUSED with an error when " +
        "it is disabled or covered (the error names the overlay, e.g. a cookie dialog: deal with it first), or " +
        "when something came over it as the pointer arrived (a hover menu: close it). The answer says what the " +
        "click changed: 'checked false → true' for checkboxes, switches and aria-pressed/expanded controls, or " +
        "'no visible effect' when nothing changed (the step did not happen: snapshot before going on). A wrapper " +
        "component (a web component) is clicked through its one inner control, named in the answer. Does not " +
        "wait for what the click causes: follow with wait_for when it navigates or loads."
      : "Move the pointer over an element by component query or snapshot node id (or a viewport point x/y), to " +
        "open menus or tooltips. Refused with an error when the element is covered.",
    input: {
      target: target.optional(),
      x: z.number().optional().describe("Viewport x in CSS pixels (with y, instead of target)."),
      y: z.number().optional().describe("Viewport y in CSS pixels (with x, instead of target)."),
      timeout_ms: timeout(5000, "for the element to be visible and stable"),
      tab,
    },
    annotations: name === "click"
      ? ACT
      : { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    browser: true,
    async call(a, ctx) {
      const { runClick, runHover } = await import("../see/act_commands.ts");
      const run = name === "click" ? runClick : runHover;
      return await ctx.capture((io) =>
        run({
          dir: ctx.dir,
          tab: a.tab,
          json: false,
          target: a.target,
          x: a.x,
          y: a.y,
          timeoutMs: a.timeout_ms ?? 5000,
        }, io)
      );
    },
  });

const fill = defineTool({
  name: "fill",
  title: "Fill a field",
  description: "Replace a field's value with text by real typing (framework-controlled inputs see real events), " +
    "then read it back: an error shows the value found when it is not exactly the text. On a <select>, text picks " +
    "an option by label or value. A wrapper component holding one text field (a web component like sl-input) is " +
    "filled through it. Refused when the field is covered or disabled; for checkboxes and radios use click.",
  input: {
    target,
    text: z.string().describe('The text the field must hold afterwards ("" empties it).'),
    append: z.boolean().optional().describe("Type after the current value instead of replacing it."),
    timeout_ms: timeout(5000, "for the field to be visible and stable"),
    tab,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  browser: true,
  async call(a, ctx) {
    const { runFill } = await import("../see/act_commands.ts");
    return await ctx.capture((io) =>
      runFill({
        dir: ctx.dir,
        tab: a.tab,
        json: false,
        target: a.target,
        text: a.text,
        append: a.append === true,
        timeoutMs: a.timeout_ms ?? 5000,
      }, io)
    );
  },
});

const pressKey = defineTool({
  name: "press_key",
  title: "Press a key",
  description: "Press a key or chord with real key events: Enter, Escape, Tab, ArrowDown, Backspace, a single " +
    "character, or Modifier+Key such as Control+A or Shift+Tab. With target, that element is focused first.",
  input: {
    key: z.string().min(1).describe('The key or chord, e.g. "Enter", "Escape", "Control+A".'),
    target: target.optional().describe("Focus this element first (a node id or a component query)."),
    timeout_ms: timeout(5000, "for the target to be visible and stable"),
    tab,
  },
  annotations: ACT,
  browser: true,
  async call(a, ctx) {
    const { runKeypress } = await import("../see/act_commands.ts");
    return await ctx.capture((io) =>
      runKeypress({
        dir: ctx.dir,
        tab: a.tab,
        json: false,
        key: a.key,
        target: a.target,
        timeoutMs: a.timeout_ms ?? 5000,
      }, io)
    );
  },
});

const scroll = defineTool({
  name: "scroll",
  title: "Scroll",
  description: "Bring an element into view (verified: an error names the container that did not move), or " +
    "scroll the page (or the target's scrolling container) by delta_x / delta_y pixels and report the new position.",
  input: {
    target: target.optional(),
    delta_x: z.number().int().optional().describe("Pixels to scroll right (negative: left)."),
    delta_y: z.number().int().optional().describe("Pixels to scroll down (negative: up)."),
    timeout_ms: timeout(5000, "for the target to be visible and stable"),
    tab,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  browser: true,
  async call(a, ctx) {
    const { runScroll } = await import("../see/act_commands.ts");
    return await ctx.capture((io) =>
      runScroll({
        dir: ctx.dir,
        tab: a.tab,
        json: false,
        target: a.target,
        deltaX: a.delta_x ?? 0,
        deltaY: a.delta_y ?? 0,
        timeoutMs: a.timeout_ms ?? 5000,
      }, io)
    );
  },
});

const waitFor = defineTool({
  name: "wait_for",
  title: "Wait for a condition",
  description: "Wait until exactly one condition holds (answers at once when it already does): component (a " +
    "component query matches), view (the URL resolves to this view), url (the URL contains text), selector (a CSS " +
    "match is visible), text (visible text contains it) or load (the document finished loading). With gone, wait " +
    "for it to stop holding. A timeout error says what was last seen. Use it after every action that navigates.",
  input: {
    component: z.string().min(1).optional().describe('A component query, e.g. "ProductCard".'),
    view: z.string().min(1).optional().describe('A view name from the corpus, e.g. "Checkout".'),
    url: z.string().min(1).optional().describe("Text the tab's URL must contain."),
    selector: z.string().min(1).optional().describe("A CSS selector that must match a visible element."),
    text: z.string().min(1).optional().describe("Text the page must visibly contain."),
    load: z.boolean().optional().describe("Wait for the document to finish loading."),
    gone: z.boolean().optional().describe("Wait for the condition to stop holding instead."),
    timeout_ms: timeout(10_000, ""),
    tab,
  },
  annotations: READ_PAGE,
  browser: true,
  async call(a, ctx) {
    const { runWaitFor } = await import("../see/act_commands.ts");
    return await ctx.capture((io) =>
      runWaitFor({
        dir: ctx.dir,
        tab: a.tab,
        json: false,
        url: a.url,
        selector: a.selector,
        component: a.component,
        view: a.view,
        text: a.text,
        load: a.load === true,
        gone: a.gone === true,
        timeoutMs: a.timeout_ms ?? 10_000,
      }, io)
    );
  },
});

const evaluate = defineTool({
  name: "evaluate",
  title: "Run JavaScript in the page",
  description: "Run JavaScript in the page: an expression, or a body with return statements (await allowed). " +
    "Promises are awaited; the result comes back as JSON. A DOM node, function or cyclic value is an error (return " +
    "plain data such as el.textContent). Prefer the other tools for interaction: this one bypasses every check.",
  input: {
    script: z.string().min(1).describe('The script, e.g. "document.title" or "return [...document.links].length".'),
    tab,
  },
  annotations: ACT,
  browser: true,
  async call(a, ctx) {
    const { runEval } = await import("../see/act_commands.ts");
    return await ctx.capture((io) => runEval({ dir: ctx.dir, tab: a.tab, json: false, js: a.script }, io));
  },
});

const screenshot = defineTool({
  name: "screenshot",
  title: "Take a screenshot",
  description: "Capture the viewport, the full page, or one element (target: a component query, or selector: " +
    "CSS) scrolled into view and clipped to its box; answers with the PNG image and a line naming its size and " +
    "target. Scrolls the page when the element is out of view.",
  input: {
    target: z.string().min(1).optional().describe(
      "A component query for the element to capture, e.g. 'ProductCard[name=\"Basalt Coffee Mug\"]'.",
    ),
    selector: z.string().min(1).optional().describe("A CSS selector for the element to capture (instead of target)."),
    expand_pct: z.number().int().min(0).max(1000).optional().describe(
      "Margin around the element, in percent of its size on each side.",
    ),
    full_page: z.boolean().optional().describe("Capture the whole scrollable page."),
    timeout_ms: timeout(5000, "for the element to be visible and stable"),
    tab,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  browser: true,
  async call(a, ctx) {
    const { runScreenshot } = await import("../see/act_commands.ts");
    // The command writes the image file it is given; a private temporary file is read back and removed.
    const tmp = await Deno.makeTempDir({ prefix: "mapper-mcp-shot-" });
    try {
      const out = join(tmp, "shot.png");
      const printed = await ctx.capture((io) =>
        runScreenshot({
          dir: ctx.dir,
          tab: a.tab,
          json: true,
          out,
          component: a.target,
          selector: a.selector,
          expandPct: a.expand_pct,
          fullPage: a.full_page === true,
          timeoutMs: a.timeout_ms ?? 5000,
        }, io)
      );
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

const tabs = defineTool({
  name: "tabs",
  title: "List, open or close tabs",
  description: "action list: every tab with its id, URL, title and the view it resolves to. action new: open a tab " +
    "(on url when given, waiting for the load). action close: close the tab whose id (or prefix) is tab.",
  input: {
    action: z.enum(["list", "new", "close"]).describe("list, new or close."),
    url: z.string().min(1).optional().describe("new: the absolute URL to open."),
    tab: z.string().min(1).optional().describe("close: the id (or unique prefix) of the tab to close."),
    timeout_ms: timeout(30_000, "for a new tab's page to load"),
  },
  annotations: ACT,
  browser: true,
  async call(a, ctx) {
    const { runTabs } = await import("../see/act_commands.ts");
    const arg = a.action === "new" ? a.url : a.action === "close" ? a.tab : undefined;
    return await ctx.capture((io) =>
      runTabs({ dir: ctx.dir, tab: undefined, json: false, op: a.action, arg, timeoutMs: a.timeout_ms ?? 30_000 }, io)
    );
  },
});

const handleDialog = defineTool({
  name: "handle_dialog",
  title: "Answer a dialog",
  description: "Answer the alert, confirm or prompt that blocks the tab: accept (with text for a prompt) or " +
    "dismiss. While a dialog is open every other page tool says so instead of hanging.",
  input: {
    action: z.enum(["accept", "dismiss"]).describe("accept or dismiss."),
    text: z.string().optional().describe("The answer typed into a prompt (with accept)."),
    tab,
  },
  annotations: ACT,
  browser: true,
  async call(a, ctx) {
    const { runDialog } = await import("../see/act_commands.ts");
    return await ctx.capture((io) =>
      runDialog({ dir: ctx.dir, tab: a.tab, json: false, op: a.action, text: a.text }, io)
    );
  },
});

const drag = defineTool({
  name: "drag",
  title: "Drag one element onto another",
  description: "Drag FROM onto TO with real pointer input (a slider knob, a sortable row, an HTML5 drag source): " +
    "FROM gets a click's checks, the button is held through every move, and the result says what changed (moved, " +
    "dom); a drag that changes nothing is an error naming the mode.",
  input: {
    from: target,
    to: z.string().min(1).describe("Where to drop it: a node id or component query."),
    mode: z.enum(["auto", "pointer", "html5"]).optional().describe(
      "auto (default: html5 for draggable elements, links, images), pointer or html5.",
    ),
    steps: z.number().int().min(1).max(200).optional().describe("Pointer moves between press and release (12)."),
    tab,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  browser: true,
  async call(a, ctx) {
    const { runDrag } = await import("../see/act_commands.ts");
    return await ctx.capture((io) =>
      runDrag({
        dir: ctx.dir,
        tab: a.tab,
        json: false,
        from: a.from,
        to: a.to,
        mode: a.mode,
        steps: a.steps,
        timeoutMs: 5000,
      }, io)
    );
  },
});

const resize = defineTool({
  name: "resize",
  title: "Set the tab's window size",
  description: "Set the tab's viewport to width × height CSS pixels (200–8192; kept across navigations), or reset " +
    "it to the browser window's size; answers the size read back and the size before.",
  input: {
    width: z.number().int().min(200).max(8192).optional().describe("Viewport width in CSS pixels."),
    height: z.number().int().min(200).max(8192).optional().describe("Viewport height in CSS pixels."),
    reset: z.boolean().optional().describe("Back to the browser window's own size (instead of width and height)."),
    tab,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  browser: true,
  async call(a, ctx) {
    const { runTabs } = await import("../see/act_commands.ts");
    return await ctx.capture((io) =>
      runTabs({
        dir: ctx.dir,
        tab: a.tab,
        json: false,
        op: "resize",
        arg: a.reset ? undefined : a.width === undefined ? undefined : String(a.width),
        arg2: a.reset ? undefined : a.height === undefined ? undefined : String(a.height),
        timeoutMs: 10_000,
        reset: a.reset === true,
      }, io)
    );
  },
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
