/**
 * `POST /devtools/page/<command>`: the page commands' daemon routes (documented in `../page_api.ts`). Served by the
 * daemon's `/devtools/*` handler, so whatever guards that prefix guards these too. A route takes the engine and
 * the JSON body and answers a JSON object (`schema` is added here); a {@linkcode PageError} becomes
 * `{schema, error, code, hint}` with its status.
 *
 * Adding a command: write `async (engine, body) => ({…})` in its own file and add one line to
 * {@linkcode PAGE_ROUTES}.
 *
 * @module
 */
import { PAGE_SCHEMA, PageError, type PrintedSnapshot, type SnapshotPrint } from "../page_api.ts";
import { printSnapshot } from "../snapshot.ts";
import { CdpTimeout } from "../../browser/mod.ts";
import type { PageEngine } from "./engine.ts";
import { num, openableUrl, type PageRoute, str } from "./_body.ts";
import { ACT_ROUTES } from "./act_routes.ts";
import { KIT_ROUTES } from "../../kit/routes.ts";

export { num, type PageRoute, str } from "./_body.ts";
/** The routes, by command name. */
export const PAGE_ROUTES: Record<string, PageRoute> = {
  ...ACT_ROUTES,
  // The authoring kit (`probe`, `gap`, `suggest`, `explain`, `inspect`): one engine pass made into a captured tree.
  ...KIT_ROUTES,
  tabs: async (engine) => ({ tabs: await engine.tabs() }),
  snapshot: async (engine, body) => {
    const url = openableUrl(body, "url");
    const print = printOptions(body.print);
    const t = await engine.target(str(body, "tab"));
    const opts = {
      url,
      includeHidden: body.includeHidden === true,
      settleMs: num(body, "settleMs") ?? 3000,
    };
    // `tree: true`: the captured tree of the same pass rides along (`snapshot --tree-out`, `capture`).
    if (body.tree === true) {
      const { payload, tree } = await engine.captureTree(t, opts);
      return { ...payload, tree };
    }
    const payload = await engine.snapshot(t, opts);
    if (print === undefined) return { ...payload };
    const printed: PrintedSnapshot = {
      schema: PAGE_SCHEMA,
      tab: payload.tab,
      url: payload.url,
      interactive: payload.page.coverage.interactive,
      printed: printSnapshot(payload, print),
    };
    return { ...printed };
  },
  // Live matches of selectors per root, by snapshot id (what a captured tree's offline answer is checked against).
  "query-all": async (engine, body) => {
    const t = await engine.target(str(body, "tab"));
    const selectors = Array.isArray(body.selectors) ? body.selectors.filter((s) => typeof s === "string") : [];
    return { tab: t.tab, results: await engine.call(t, "queryAll", selectors) };
  },
  resolve: async (engine, body) => {
    const t = await engine.target(str(body, "tab"));
    const group = "mapper-resolve";
    try {
      const r = await engine.resolve(t, str(body, "target") ?? "", group);
      return { tab: t.tab, target: r.summary };
    } finally {
      engine.release(t, group); // the handle is not used: the page need not keep the element
    }
  },
};

/** The `print` field of a snapshot request, checked: `undefined` when absent; anything malformed is a 400. */
function printOptions(v: unknown): SnapshotPrint | undefined {
  if (v === undefined || v === null) return undefined;
  const bad = (what: string) => new PageError("bad_request", `"print" ${what}`, { status: 400 });
  if (typeof v !== "object" || Array.isArray(v)) throw bad("must be an object");
  const o = v as Record<string, unknown>;
  for (const key of ["interactive", "coverage"] as const) {
    if (o[key] !== undefined && typeof o[key] !== "boolean") throw bad(`.${key} must be true or false`);
  }
  if (o.form !== undefined && o.form !== "text" && o.form !== "json") throw bad('.form must be "text" or "json"');
  if (o.depth !== undefined && (typeof o.depth !== "number" || !Number.isInteger(o.depth) || o.depth < 0)) {
    throw bad(".depth must be a whole number, 0 or more");
  }
  return {
    form: o.form as SnapshotPrint["form"],
    interactive: o.interactive as boolean | undefined,
    depth: o.depth as number | undefined,
    coverage: o.coverage as boolean | undefined,
  };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body) + "\n", {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** The handler of `/devtools/page/<command>`; `rest` is the path after `/devtools/page/`. */
export function pageHandler(engine: PageEngine): (req: Request, rest: readonly string[]) => Promise<Response> {
  return async (req, rest) => {
    const [command, ...more] = rest;
    const route = command === undefined || more.length > 0 ? undefined : PAGE_ROUTES[command];
    if (!route || !Object.hasOwn(PAGE_ROUTES, command!)) {
      return json({ schema: PAGE_SCHEMA, error: `no page command "${rest.join("/")}"`, code: "not_found" }, 404);
    }
    if (req.method !== "POST") {
      return json({ schema: PAGE_SCHEMA, error: "use POST with a JSON body", code: "method_not_allowed" }, 405);
    }
    let body: Record<string, unknown> = {};
    const text = await req.text();
    if (text.trim() !== "") {
      try {
        const parsed: unknown = JSON.parse(text);
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
        body = parsed as Record<string, unknown>;
      } catch {
        return json({ schema: PAGE_SCHEMA, error: "the body must be a JSON object", code: "bad_request" }, 400);
      }
    }
    try {
      // Every page command reads the corpus (views, components, queries): an edit just saved is what it sees.
      await engine.freshCorpus();
      return json({ schema: PAGE_SCHEMA, ...await route(engine, body) });
    } catch (caught: unknown) {
      const err = pageChanged(caught) ?? pageBusy(caught) ?? caught;
      if (err instanceof PageError) {
        return json({ schema: PAGE_SCHEMA, error: err.message, code: err.code, hint: err.hint }, err.status);
      }
      return json(
        { schema: PAGE_SCHEMA, error: err instanceof Error ? err.message : String(err), code: "internal" },
        500,
      );
    }
  };
}

/** Chromium's words when the document a call ran in went away under it (a navigation, a reload, a closed tab). */
const CONTEXT_GONE = /Inspected target navigated or closed|Execution context was destroyed|Cannot find context with/;

/**
 * The page left while a command read it: the user's page did it, not mapper, so a {@linkcode PageError} saying so
 * (exit 1 with what to do) rather than an internal error; `undefined` for any other error.
 */
export function pageChanged(err: unknown): PageError | undefined {
  if (!(err instanceof Error) || !CONTEXT_GONE.test(err.message)) return undefined;
  return new PageError("page_changed", "the page navigated away (or reloaded) while it was being read", {
    hint: "wait until it stays put ('mapper browser wait-for'), then run the command again",
  });
}

/** The protocol domains whose commands the page's own process answers: a busy script holds them up. */
const PAGE_PROCESS = /^(Runtime|DOM|DOMSnapshot|Input|Accessibility|CSS|Overlay)\.|^Page\.captureScreenshot:/;

/**
 * The page did not answer a command in time: its script is busy (an endless loop, a long task), which the user's page
 * did, so a {@linkcode PageError} saying so and how to get out, rather than an internal error; `undefined` otherwise.
 */
export function pageBusy(err: unknown): PageError | undefined {
  if (!(err instanceof CdpTimeout) || !PAGE_PROCESS.test(err.message)) return undefined;
  return new PageError(
    "page_busy",
    `the page did not answer within ${err.timeoutMs / 1000} s: its script is busy (an endless loop or a long task)`,
    {
      hint: "run the command again once it is done; if it stays busy, close its tab ('mapper browser tabs close ID', " +
        "ids in 'mapper browser tabs list') and open the page again ('mapper browser tabs new URL')",
    },
  );
}
