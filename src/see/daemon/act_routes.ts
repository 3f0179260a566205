/**
 * The acting commands' daemon routes (`POST /devtools/page/<command>`, added to `PAGE_ROUTES`): each adapts the
 * page engine's tab (`engine.target`) and resolver (`engine.resolve`) to the action engine's {@linkcode ActPage}
 * and calls one engine function. Bodies and answers (all with `schema: 1`):
 *
 * | Command | Body | Answer |
 * |---|---|---|
 * | `navigate` | `{tab?, url, timeoutMs?}` | {@linkcode NavigateResult} + `view` |
 * | `click`, `hover` | `{tab?, target? \| x, y, timeoutMs?}` | {@linkcode PointerResult} |
 * | `fill` | `{tab?, target, text, append?, timeoutMs?}` | {@linkcode FillResult} |
 * | `keypress` | `{tab?, key, target?, timeoutMs?}` | {@linkcode KeyResult} |
 * | `scroll` | `{tab?, target?, deltaX?, deltaY?, timeoutMs?}` | {@linkcode ScrollResult} |
 * | `wait-for` | `{tab?, url? \| selector? \| component? \| view? \| text? \| load?, gone?, timeoutMs?}` | {@linkcode WaitResult} |
 * | `eval` | `{tab?, js}` | {@linkcode EvalResult} (`json` text and `value`) |
 * | `screenshot` | `{tab?, component? \| selector?, expandPct?, fullPage?, format?, quality?}` | {@linkcode ScreenshotResult} (base64 `data`) |
 * | `tab-list` | `{}` | `{tabs: TabInfo[]}` |
 * | `tab-close` | `{tab}` | `{closed: id}` |
 * | `tab-resize` | `{tab?, width, height, dpr?, mobile?} \| {tab?, reset: true}` | `{tab, width, height, was}` |
 * | `drag` | `{tab?, from, to, steps?, mode?, timeoutMs?}` | {@linkcode DragResult} |
 * | `dialog` | `{tab?, accept, text?}` | {@linkcode DialogResult} |
 *
 * Errors are `PageError`s (usage mistakes with status 400, so the CLI exits 2).
 *
 * @module
 */
import { NetworkError, UsageError } from "../../errors.ts";
import { PageError, type ResolvedSummary } from "../page_api.ts";
import type { PageEngine, PageTarget } from "./engine.ts";
import { findNode, matchedNodes, queryMatches, whyNoMatch } from "./resolve.ts";
import { parseTarget, QueryParseError } from "./query.ts";
import { num, openableUrl, type PageRoute, str } from "./_body.ts";
import { ACTION_TIMEOUT_MS } from "../../timeouts.ts";
import type { SeeCollect, SeeNode } from "../page/page.js";
import { type ActPage, click, drag, fill, hover, keypress, scroll } from "./actions.ts";
import { navigate, type WaitCondition, waitFor } from "./navigate.ts";
import { evaluate } from "./evaluate.ts";
import { screenshot } from "./screenshot.ts";
import { handleDialog, type TabInfo } from "./tabs.ts";

function quote(s: string): string {
  return JSON.stringify(s.length > 60 ? s.slice(0, 59) + "…" : s);
}

function propText(props: ReadonlyArray<readonly [string, string]>): string {
  return props.map(([k, v]) => ` ${k}=${quote(v)}`).join("");
}

/**
 * A resolved element named as a snapshot line would, with its nearest matched ancestor (what tells identical
 * buttons apart): `AddToCartButton "Add to cart" (id 35) in ProductCard name="Basalt Coffee Mug" …`.
 */
export function targetLabel(s: ResolvedSummary): string {
  const named = s.name && !s.props.some(([, v]) => v === s.name) ? ` ${quote(s.name)}` : "";
  const own = s.component ? `${s.component}${propText(s.props)}${named}` : `${s.role}${named}`;
  const parent = s.ancestors.at(-1);
  const inside = parent ? ` in ${parent.component}${propText(parent.props)}` : "";
  return `${own} (id ${s.id})${inside}`;
}

/** A node of the collected tree named for a message: `CookieConsent (dialog "We value your privacy")`. */
function nodeLabel(n: SeeNode): string {
  const role = `${n.role}${n.name ? ` ${quote(n.name)}` : ""}`;
  return n.component ? `${n.component}${propText(n.props ?? [])} (${role})` : role;
}

/** The outermost matched component among the cover chain (innermost first), else the outermost named node. */
function coverLabel(page: SeeCollect, ids: readonly number[]): string | undefined {
  let best: SeeNode | undefined;
  let fallback: SeeNode | undefined;
  for (const id of ids) {
    const n = findNode(page.tree, id)?.node;
    if (!n) continue;
    if (n.component) best = n;
    else if (n.role === "dialog" || n.role === "alertdialog") fallback ??= n;
  }
  const n = best ?? fallback;
  return n ? nodeLabel(n) : undefined;
}

/** Engine errors that are the caller's mistake or the network's, as page errors the CLI maps back. */
function asPageError(err: unknown): unknown {
  if (err instanceof PageError) return err;
  if (err instanceof UsageError) {
    return new PageError("bad_request", err.message, { ...(err.hint ? { hint: err.hint } : {}), status: 400 });
  }
  if (err instanceof NetworkError) {
    return new PageError("navigation_failed", err.message, err.hint ? { hint: err.hint } : {});
  }
  return err;
}

/**
 * Whether the component a query that matched nothing asks for is declared for this page but not on it at all yet
 * (`absent`: a list that renders after the page, the shop's grid — worth waiting for), on it now (`present`), or
 * not declared here / not a query (`other`: a misspelt name fails at once).
 */
async function presence(engine: PageEngine, t: PageTarget, target: string): Promise<"absent" | "present" | "other"> {
  let parsed;
  try {
    parsed = parseTarget(target);
  } catch {
    return "other";
  }
  if (parsed.kind !== "query") return "other";
  const name = parsed.parts.at(-1)?.name;
  if (name === undefined) return "other";
  const { page, resolution } = await engine.collect(t);
  if (!resolution.components.some((c) => c.name === name)) return "other";
  return page.counts[name] ? "present" : "absent";
}

/**
 * The action engine's view of one tab of the page engine (`body.tab` picks it): what the engine functions
 * (`click`, `fill`, … in `actions.ts`) take. Exported for adapters other than HTTP (the MCP tools). Dispose it when the
 * action is done (`await using`): that releases the element handles it made (`group`), which would otherwise keep
 * every element acted on alive in the page until it navigates.
 */
export async function actPage(
  engine: PageEngine,
  body: Record<string, unknown>,
): Promise<{ t: PageTarget; page: ActPage; group: string } & AsyncDisposable> {
  const t = await engine.target(str(body, "tab"));
  // Every element handle of this action, released when it is done: a handle keeps its element alive in the page, and
  // a long session on a single-page app would keep every element it ever acted on.
  const group = `mapper-act-${++actions}`;
  const events = engine.events;
  await events.enable(t.session);
  let last: SeeCollect | undefined;
  const page: ActPage = {
    send: engine.sessionSend(t),
    tabId: t.tab,
    sessionId: t.session,
    events,
    async resolve(target, timeoutMs = 0) {
      const deadline = Date.now() + timeoutMs;
      let rechecked = false;
      for (;;) {
        try {
          const r = await engine.resolve(t, target, group);
          last = r.page;
          return { objectId: r.objectId, id: r.summary.id, label: targetLabel(r.summary) };
        } catch (err: unknown) {
          if (!(err instanceof PageError) || err.code !== "no_match" || Date.now() >= deadline) throw err;
          const state = await presence(engine, t, target);
          if (state === "absent") {
            await new Promise((r) => setTimeout(r, 100));
            continue;
          }
          // It appeared between the two looks (the list rendered just then): one more resolution decides.
          if (state === "present" && !rechecked) {
            rechecked = true;
            continue;
          }
          throw err;
        }
      }
    },
    nameCover: (ids) => (last ? coverLabel(last, ids) : undefined),
    nameNode(id) {
      const n = last ? findNode(last.tree, id)?.node : undefined;
      return n ? nodeLabel(n) : undefined;
    },
  };
  return {
    t,
    page,
    group,
    [Symbol.asyncDispose]: () => Promise.resolve(engine.release(t, group)),
  };
}

/** Actions so far, naming each one's handle group. */
let actions = 0;

function route(fn: PageRoute): PageRoute {
  return async (engine, body) => {
    try {
      return await fn(engine, body);
    } catch (err: unknown) {
      throw asPageError(err);
    }
  };
}

function required(body: Record<string, unknown>, key: string, what: string): string {
  const v = str(body, key);
  if (v === undefined) throw new PageError("bad_request", `${what} is missing`, { status: 400 });
  return v;
}

/** The target of click/hover: a query or id, or a point. */
function pointerTarget(body: Record<string, unknown>): string | { x: number; y: number } {
  const target = str(body, "target");
  const x = num(body, "x");
  const y = num(body, "y");
  if (target !== undefined && (x !== undefined || y !== undefined)) {
    throw new PageError("bad_request", "give a target or --x/--y, not both", { status: 400 });
  }
  if (target !== undefined) return target;
  if (x === undefined || y === undefined) {
    throw new PageError("bad_request", "give a target (ID or component query), or both --x and --y", { status: 400 });
  }
  return { x, y };
}

function timeout(body: Record<string, unknown>): { timeoutMs?: number } {
  const ms = num(body, "timeoutMs");
  return ms === undefined ? {} : { timeoutMs: ms };
}

/** The one condition of `wait-for`. */
function condition(body: Record<string, unknown>): WaitCondition {
  const given: WaitCondition[] = [];
  const url = str(body, "url");
  if (url !== undefined) given.push({ kind: "url", text: url });
  const selector = str(body, "selector");
  if (selector !== undefined) given.push({ kind: "selector", css: selector });
  const component = str(body, "component");
  if (component !== undefined) given.push({ kind: "component", query: component });
  const view = str(body, "view");
  if (view !== undefined) given.push({ kind: "view", name: view });
  const text = str(body, "text");
  if (text !== undefined) given.push({ kind: "text", text });
  if (body.load === true) given.push({ kind: "load" });
  if (given.length !== 1) {
    throw new PageError(
      "bad_request",
      given.length === 0 ? "nothing to wait for" : "wait for one condition at a time",
      { hint: "give exactly one of --url, --selector, --component, --view, --text, --load", status: 400 },
    );
  }
  return given[0]!;
}

/** The acting routes, by command name. */
export const ACT_ROUTES: Record<string, PageRoute> = {
  navigate: route(async (engine, body) => {
    const url = openableUrl(body, "url") ?? required(body, "url", "the URL");
    await using act = await actPage(engine, body);
    const { page } = act;
    const r = await navigate(page, url, timeout(body));
    return { ...r, view: engine.resolution(r.url).view?.name ?? null };
  }),
  click: route(async (engine, body) => {
    await using act = await actPage(engine, body);
    const { page } = act;
    return { ...await click(page, pointerTarget(body), timeout(body)) };
  }),
  drag: route(async (engine, body) => {
    await using act = await actPage(engine, body);
    const { page } = act;
    const mode = str(body, "mode");
    if (mode !== undefined && !["auto", "pointer", "html5"].includes(mode)) {
      throw new PageError("bad_request", `--mode must be auto, pointer or html5, not "${mode}"`, { status: 400 });
    }
    const steps = num(body, "steps");
    return {
      ...await drag(page, required(body, "from", "FROM"), required(body, "to", "TO"), {
        ...timeout(body),
        ...(steps !== undefined ? { steps } : {}),
        ...(mode !== undefined ? { mode: mode as "auto" | "pointer" | "html5" } : {}),
      }),
    };
  }),
  "tab-resize": route(async (engine, body) => {
    const t = await engine.target(str(body, "tab"));
    const size = async () =>
      (await engine.evaluate<{ width: number; height: number }>(
        t,
        "({ width: innerWidth, height: innerHeight })",
      )).value;
    const was = await size();
    if (body.reset === true) {
      await engine.send(t, "Emulation.clearDeviceMetricsOverride", {});
    } else {
      const width = num(body, "width");
      const height = num(body, "height");
      for (const [name, v] of [["width", width], ["height", height]] as const) {
        if (v === undefined || !Number.isInteger(v) || v < 200 || v > 8192) {
          throw new PageError("bad_request", `${name} must be a whole number from 200 to 8192`, { status: 400 });
        }
      }
      const dpr = num(body, "dpr");
      // Kept by the browser for this tab across navigations, until --reset (or the session stops).
      await engine.send(t, "Emulation.setDeviceMetricsOverride", {
        width: width!,
        height: height!,
        deviceScaleFactor: dpr ?? 0,
        mobile: body.mobile === true,
      });
    }
    return { action: "tab-resize", tab: t.tab, ...await size(), was, reset: body.reset === true };
  }),
  hover: route(async (engine, body) => {
    await using act = await actPage(engine, body);
    const { page } = act;
    return { ...await hover(page, pointerTarget(body), timeout(body)) };
  }),
  fill: route(async (engine, body) => {
    await using act = await actPage(engine, body);
    const { page } = act;
    const text = str(body, "text");
    if (text === undefined) throw new PageError("bad_request", "the text to fill is missing", { status: 400 });
    return {
      ...await fill(page, required(body, "target", "the target"), text, {
        ...timeout(body),
        append: body.append === true,
      }),
    };
  }),
  keypress: route(async (engine, body) => {
    await using act = await actPage(engine, body);
    const { page } = act;
    const target = str(body, "target");
    return {
      ...await keypress(page, required(body, "key", "the key"), {
        ...timeout(body),
        ...(target === undefined ? {} : { target }),
      }),
    };
  }),
  scroll: route(async (engine, body) => {
    await using act = await actPage(engine, body);
    const { page } = act;
    const target = str(body, "target");
    return {
      ...await scroll(page, {
        ...timeout(body),
        ...(target === undefined ? {} : { target }),
        deltaX: num(body, "deltaX") ?? 0,
        deltaY: num(body, "deltaY") ?? 0,
      }),
    };
  }),
  "wait-for": route(async (engine, body) => {
    await using act = await actPage(engine, body);
    const { t, page } = act;
    const c = condition(body);
    let parts: ReturnType<typeof parseTarget> | undefined;
    if (c.kind === "component") {
      try {
        parts = parseTarget(c.query);
      } catch (err: unknown) {
        if (err instanceof QueryParseError) throw new PageError("bad_query", err.message, { status: 400 });
        throw err;
      }
      if (parts.kind !== "query") {
        throw new PageError("bad_query", "--component takes a component query, not a node id", { status: 400 });
      }
    }
    const r = await waitFor(
      page,
      {
        evaluate: async <T>(expression: string) => (await engine.evaluate<T>(t, expression)).value,
        async count() {
          const { page: p } = await engine.collect(t);
          if (parts?.kind !== "query") return 0;
          const q = parts;
          return matchedNodes(p.tree).filter((m) => queryMatches(q.parts, m)).length;
        },
        async whyNoMatch() {
          if (parts?.kind !== "query") return "";
          const { page: p, resolution: r } = await engine.collect(t);
          return whyNoMatch(p, parts.parts, r.declared, { view: r.view?.name ?? null, components: r.components });
        },
        async view() {
          const url = (await engine.evaluate<string>(t, "location.href")).value;
          return engine.resolution(url).view?.name ?? null;
        },
      },
      c,
      { ...timeout(body), gone: body.gone === true },
    );
    return { ...r };
  }),
  eval: route(async (engine, body) => {
    await using act = await actPage(engine, body);
    const { page } = act;
    const r = await evaluate(page, required(body, "js", "the script"));
    return r.json === undefined ? { action: "eval", json: null, undefined: true } : { ...r };
  }),
  screenshot: route(async (engine, body) => {
    await using act = await actPage(engine, body);
    const { t, page } = act;
    const component = str(body, "component");
    const selector = str(body, "selector");
    if (component !== undefined && selector !== undefined) {
      throw new PageError("bad_request", "give --component or --selector, not both", { status: 400 });
    }
    let element;
    if (component !== undefined) element = await page.resolve(component, num(body, "timeoutMs") ?? ACTION_TIMEOUT_MS);
    else if (selector !== undefined) {
      const valid = (await engine.evaluate<boolean>(
        t,
        `(() => { try { document.createDocumentFragment().querySelector(${
          JSON.stringify(selector)
        }); return true; } catch { return false; } })()`,
      )).value;
      if (!valid) {
        throw new PageError("bad_request", `--selector ${JSON.stringify(selector)} is not a valid CSS selector`, {
          status: 400,
        });
      }
      const { object } = await engine.evaluate<unknown>(t, `document.querySelector(${JSON.stringify(selector)})`, {
        byValue: false,
        objectGroup: act.group,
      });
      if (!object.objectId) {
        throw new PageError("no_match", `no element matches --selector ${JSON.stringify(selector)}`, {
          hint:
            "check the selector against 'mapper snapshot', or wait for it with 'mapper browser wait-for --selector'",
          status: 404,
        });
      }
      element = { objectId: object.objectId, id: 0, label: `selector ${JSON.stringify(selector)}` };
    }
    const format = str(body, "format") === "jpeg" ? "jpeg" : "png";
    const expandPct = num(body, "expandPct");
    const quality = num(body, "quality");
    return {
      ...await screenshot(page, {
        ...(element ? { element } : {}),
        fullPage: body.fullPage === true,
        ...(expandPct === undefined ? {} : { expandPct }),
        format,
        ...(quality === undefined ? {} : { quality }),
      }),
    };
  }),
  "tab-list": route(async (engine) => {
    const tabs: TabInfo[] = [];
    for (const tab of await engine.tabs()) {
      const info: TabInfo = { ...tab, view: engine.resolution(tab.url).view?.name ?? null };
      const d = engine.events.dialogOfTab(tab.id);
      if (d) info.dialog = d;
      tabs.push(info);
    }
    return { tabs };
  }),
  "tab-close": route(async (engine, body) => {
    const t = await engine.target(required(body, "tab", "the tab id"));
    await engine.closeTab(t);
    return { closed: t.tab, url: t.url };
  }),
  dialog: route(async (engine, body) => {
    await using act = await actPage(engine, body);
    const { page } = act;
    const text = str(body, "text");
    return { ...await handleDialog(page, body.accept === true, text) };
  }),
};
