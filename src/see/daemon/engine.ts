/**
 * The daemon side of every page command: picks the tab, runs the page script in an isolated world of it (page
 * scripts can neither see nor break it; node ids live there as long as their elements do), resolves the URL's
 * view and active components, collects the annotated tree, and resolves component queries to CDP node handles.
 *
 * One engine per daemon, built on the daemon's CDP connection (`send` only: events stay the collector's).
 *
 * @module
 */
import type {
  CdpConnection,
  CdpMethod,
  CdpParams,
  CdpResult,
  CdpSessionSend,
  UnmappedMethod,
} from "../../browser/mod.ts";
import type { WireCorpus } from "../../corpus/mod.ts";
import { PageError, type PageTab, shownTabUrl, type SnapshotPayload } from "../page_api.ts";
import { buildPageScript, SEE_GLOBAL } from "./_script.ts";
import { type Resolution, resolveUrl } from "./_view.ts";
import { type Resolved, resolveTarget, summarize } from "./resolve.ts";
import { parseTarget, QueryParseError, type Target } from "./query.ts";
import type { AxFacts, SeeCollect } from "../page/page.js";
import { axFacts, type AxNode } from "./_ax.ts";
import type { PageEvents } from "./page_events.ts";
import { dialogOpenError } from "./actions.ts";
import type { ResolvedSummary } from "../page_api.ts";
import type { MapperTree } from "../../offline/mod.ts";
import { buildTree, treeRequest } from "../capture_tree.ts";

export type { Resolution };

/** The CDP `send` the engine needs (the daemon's {@linkcode CdpConnection.send}, bound: typed the same way). */
export type CdpSend = CdpConnection["send"];

/** The longest a page command waits for a corpus edit to be compiled before it reads the corpus as it is. */
export const FRESH_WAIT_MS = 2000;

/** What the engine needs from the daemon. */
export interface EngineDeps {
  /** Sends a CDP command. */
  send: CdpSend;
  /** Page tabs (no `chrome:`/extension pages), in the browser's order. */
  tabs(): Promise<PageTab[]>;
  /** The flattened CDP session of a tab, once its domains are enabled. */
  session(targetId: string): Promise<string>;
  /** The current compiled corpus (`undefined` when none is loaded). */
  corpus(): WireCorpus | undefined;
  /** Resolves once an edit of the corpus already seen is compiled (see `CorpusService.fresh`); absent: nothing waits. */
  fresh?(): Promise<void>;
  /** Page events (open dialogs, navigation lifecycle) for the acting commands. */
  events: PageEvents;
}

/** A tab a command acts on. */
export interface PageTarget {
  /** Target id. */
  tab: string;
  /** Flattened CDP session id. */
  session: string;
  /** Page URL. */
  url: string;
  /** Page title. */
  title: string;
}

/** A query resolved to an element: CDP handles plus what the snapshot would say about it. */
export interface ResolvedElement {
  /** Page the element is on. */
  target: PageTarget;
  /** `Runtime.RemoteObjectId` of the element, in the engine's isolated world. */
  objectId: string;
  /** `DOM.BackendNodeId` of the element. */
  backendNodeId: number;
  /** Summary of the element. */
  summary: ResolvedSummary;
  /** The resolved element. */
  resolved: Resolved;
  /** The page as collected for this resolution (blocked overlay, url, …). */
  page: SeeCollect;
}

const WORLD = "mapper-see";

interface World {
  frameId: string;
  contextId: number;
}

/** A CDP `Runtime.RemoteObject`, the fields the engine reads. */
export interface RemoteObject {
  /** Object type. */
  type: string;
  /** Object subtype. */
  subtype?: string;
  /** Value, for primitives. */
  value?: unknown;
  /** Id of the remote object. */
  objectId?: string;
  /** Description. */
  description?: string;
}

interface EvalResult {
  result: RemoteObject;
  exceptionDetails?: { text?: string; exception?: { description?: string } };
}

/**
 * Content tabs: pages that show something — not `about:blank`, nor the new-tab page a headed browser opens (a tab
 * nobody navigated yet is not a second page to choose from, though `tabs list` shows it). A tab listed without a URL
 * counts: the browser lists a new tab so while its first page commits, and a command that passed over it acted on
 * the other tab as if it were the only one.
 */
function isContent(t: PageTab): boolean {
  return t.url !== "about:blank" && !/^chrome:\/\/(newtab|new-tab-page)\/?$/.test(t.url);
}

/** One line per tab for error messages: `3B52829C  http://…  "title"` (`(opening)` for a tab without a URL yet). */
export function tabLines(tabs: readonly PageTab[]): string {
  return tabs.map((t) => `  ${t.id.slice(0, 8)}  ${shownTabUrl(t.url)}${t.title ? `  ${JSON.stringify(t.title)}` : ""}`)
    .join("\n");
}

/** The daemon's page engine. */
export class PageEngine {
  #deps: EngineDeps;
  #script: string;
  #worlds = new Map<string, Promise<World>>();
  /**
   * Per tab session, the next node id no document of it has handed out (from every collection's `nextId`): a new
   * document of the tab numbers from there, so an id is never reused for another element of the same tab.
   */
  #nextIds = new Map<string, number>();

  /** Creates the engine; the page script is built once here. */
  constructor(deps: EngineDeps, script: string = buildPageScript()) {
    this.#deps = deps;
    this.#script = script;
    // Every new document of a tab gets the page script as it commits, off any command's path: the first snapshot
    // then neither waits for the install nor for a quiet window measured from it (the script has watched the DOM
    // since the document began, so a page that went quiet long ago settles at once).
    deps.events.listen((ev) => {
      if (ev.method !== "Page.frameNavigated" || ev.sessionId === undefined) return;
      const frame = (ev.params as { frame?: { id?: string; parentId?: string; url?: string } }).frame;
      if (!frame?.id || frame.parentId !== undefined || !/^(https?|file):/.test(frame.url ?? "")) return;
      void this.#world(ev.sessionId, true, frame.id).catch(() => {});
    });
  }

  /** Page events (dialogs, navigation lifecycle) of the daemon's connection. */
  get events(): PageEvents {
    return this.#deps.events;
  }

  /** Sends a CDP command on a tab's session (the acting commands' real input goes through here). */
  send<M extends CdpMethod>(t: PageTarget, method: M, params?: CdpParams<M>, timeoutMs?: number): Promise<CdpResult<M>>;
  /** The untyped form (see {@linkcode CdpSessionSend}). */
  send<T = Record<string, unknown>, M extends string = string>(
    t: PageTarget,
    method: M & UnmappedMethod<M>,
    params?: object,
    timeoutMs?: number,
  ): Promise<T>;
  send(t: PageTarget, method: string, params: object = {}, timeoutMs?: number): Promise<unknown> {
    return this.#deps.send(method, params, t.session, timeoutMs);
  }

  /** {@linkcode send} bound to a tab's session. */
  sessionSend(t: PageTarget): CdpSessionSend {
    const deps = this.#deps;
    return ((method: string, params?: object, timeoutMs?: number) =>
      deps.send(method, params ?? {}, t.session, timeoutMs)) as CdpSessionSend;
  }

  /**
   * Closes a tab from the browser's side (`Target.closeTarget`): `Page.close` goes through the page's renderer and
   * fails ("Not attached") when the page is stuck in a busy loop, which is just when closing it is wanted. Answers
   * once the tab has left the browser's list; a tab still listed after `waitMs` is the `close_failed` error.
   */
  async closeTab(t: PageTarget, waitMs = 5_000, askEveryMs = 500): Promise<void> {
    const close = async () => {
      const { success } = await this.#deps.send("Target.closeTarget", { targetId: t.tab }, undefined, 10_000);
      if (!success) {
        throw new PageError("close_failed", `the browser refused to close tab ${t.tab.slice(0, 8)}`, {
          hint: "run 'mapper browser tabs list' to see whether it is still open",
        });
      }
    };
    await close();
    // The browser says yes before the tab has left its list: answered at once, a 'tabs list' (or a command without
    // --tab) right after this one still saw it. And a close asked while the page navigates itself is accepted and
    // then dropped: the tab stayed open on its new page (1 close in 3 right after a location.replace). So wait
    // until the tab is gone, asking again now and then.
    const deadline = Date.now() + waitMs;
    let askAt = Date.now() + askEveryMs;
    while ((await this.#deps.tabs()).some((tab) => tab.id === t.tab)) {
      if (Date.now() >= deadline) {
        throw new PageError(
          "close_failed",
          `tab ${t.tab.slice(0, 8)} is still open ${waitMs / 1000} s after closing it`,
          {
            hint: "run 'mapper browser tabs list' to see it, then close it again",
          },
        );
      }
      if (Date.now() >= askAt) {
        askAt = Date.now() + askEveryMs;
        // Gone since the list was read: the browser no longer knows the id, and the next list says so.
        await close().catch(() => {});
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Opens a background tab on `about:blank` for a command to work in and close (`probe --all`): the user's tab is
   * never moved.
   */
  async openScratchTab(): Promise<PageTarget> {
    const { targetId } = await this.#deps.send(
      "Target.createTarget",
      { url: "about:blank", background: true },
      undefined,
      10_000,
    );
    const session = await this.#deps.session(targetId);
    return { tab: targetId, session, url: "about:blank", title: "" };
  }

  /** The current tabs. */
  tabs(): Promise<PageTab[]> {
    return this.#deps.tabs();
  }

  /**
   * The tab a command acts on: `tab` (full id or unique prefix, case-insensitive); without it the only content
   * tab, else the only tab. Throws `no_tab`, `unknown_tab`, `ambiguous_tab` or `several_tabs`.
   */
  async target(tab?: string): Promise<PageTarget> {
    const tabs = await this.#deps.tabs();
    let pick: PageTab | undefined;
    if (tab !== undefined && tab !== "") {
      const want = tab.toUpperCase();
      const hits = tabs.filter((t) => t.id.toUpperCase().startsWith(want));
      if (hits.length === 0) {
        throw new PageError("unknown_tab", `no tab "${tab}"; open tabs:\n${tabLines(tabs)}`, {
          hint: "pass --tab with an id from the list",
          status: 404,
        });
      }
      if (hits.length > 1) {
        throw new PageError("ambiguous_tab", `tab "${tab}" names ${hits.length} tabs:\n${tabLines(hits)}`, {
          hint: "pass more characters of the id",
          status: 400,
        });
      }
      pick = hits[0];
    } else {
      const content = tabs.filter(isContent);
      if (content.length > 1) {
        throw new PageError("several_tabs", `${content.length} tabs are open:\n${tabLines(content)}`, {
          hint: "pass --tab ID with one of the ids above",
          status: 400,
        });
      }
      pick = content[0] ?? (tabs.length === 1 ? tabs[0] : undefined);
      if (pick === undefined) {
        throw new PageError("no_tab", tabs.length ? `${tabs.length} blank tabs are open` : "no tab is open", {
          hint: "open a page with 'mapper browser start --url URL'",
          status: 404,
        });
      }
    }
    const session = await this.#deps.session(pick!.id);
    return { tab: pick!.id, session, url: pick!.url, title: pick!.title };
  }

  /**
   * The isolated world of a tab's current document, created (and the page script installed) on first use — or as
   * soon as the document commits (see the constructor), so the first command on a page finds it ready.
   */
  #world(session: string, fresh = false, frameId?: string): Promise<World> {
    const previous = fresh ? undefined : this.#worlds.get(session);
    // A cached world is used as is: after a navigation its context is gone, the evaluation fails with "Cannot find
    // context", and the caller forgets it and asks again (one round trip saved on every call).
    if (previous) return previous;
    const make = async (): Promise<World> => {
      const frame = frameId ?? (await this.#deps.send("Page.getFrameTree", {}, session)).frameTree.frame.id;
      const { executionContextId } = await this.#deps.send("Page.createIsolatedWorld", {
        frameId: frame,
        worldName: WORLD,
        grantUniveralAccess: false,
      }, session);
      // Installed and told where this tab's ids go on, in one round trip.
      const installed = await this.#unlessDialog(
        session,
        this.#deps.send("Runtime.evaluate", {
          expression: `${this.#script};\n${SEE_GLOBAL}.idsFrom(${this.#nextIds.get(session) ?? 1})`,
          contextId: executionContextId,
          returnByValue: true,
        }, session),
      );
      if (installed.exceptionDetails) {
        throw new Error(`the page script failed to install: ${exceptionText(installed)}`);
      }
      return { frameId: frame, contextId: executionContextId };
    };
    const p = make();
    this.#worlds.set(session, p);
    p.catch(() => {
      if (this.#worlds.get(session) === p) this.#worlds.delete(session);
    });
    return p;
  }

  /**
   * Evaluates an expression in the tab's isolated world, where `__mapperSee` (the page API of `page.js`) exists.
   * By value by default; `byValue: false` answers the remote object (for element handles).
   */
  async evaluate<T>(
    t: PageTarget,
    expression: string,
    opts: { awaitPromise?: boolean; byValue?: boolean; timeoutMs?: number; objectGroup?: string } = {},
  ): Promise<{ value: T; object: RemoteObject }> {
    // A JavaScript dialog blocks the page: nothing evaluated there answers until it is closed. Say so at once.
    const open = this.#deps.events.dialog(t.session);
    if (open) throw dialogOpenError(open);
    for (let attempt = 0;; attempt++) {
      const pending = this.#world(t.session);
      const world = await pending;
      // The document went (navigation): forget its world unless a newer one took its place already.
      const forget = () => {
        if (this.#worlds.get(t.session) === pending) this.#worlds.delete(t.session);
      };
      let res: EvalResult;
      try {
        res = await this.#unlessDialog(
          t.session,
          this.#deps.send(
            "Runtime.evaluate",
            {
              expression,
              contextId: world.contextId,
              returnByValue: opts.byValue !== false,
              awaitPromise: opts.awaitPromise === true,
              ...(opts.objectGroup ? { objectGroup: opts.objectGroup } : {}),
            },
            t.session,
            opts.timeoutMs ?? 15_000,
          ),
        );
      } catch (err: unknown) {
        if (err instanceof PageError) throw err;
        // The document changed under us (navigation): the world went with it. Make a new one, once.
        if (attempt === 0 && /context|Execution context was destroyed/i.test(String(err))) {
          forget();
          continue;
        }
        throw err;
      }
      if (res.exceptionDetails) {
        const text = exceptionText(res);
        if (attempt === 0 && /context was destroyed|Cannot find context/i.test(text)) {
          forget();
          continue;
        }
        throw new Error(`page script error: ${text}`);
      }
      return { value: res.result.value as T, object: res.result };
    }
  }

  /**
   * The answer of `pending`, unless a dialog is open on the tab or opens first (then the `dialog` error: it would not
   * answer). One already open counts: it may have opened while the call was being made (a world looked up first).
   */
  async #unlessDialog<T>(session: string, pending: Promise<T>): Promise<T> {
    let sub: Disposable | undefined;
    const opened = new Promise<never>((_, reject) => {
      sub = this.#deps.events.listen((ev) => {
        if (ev.sessionId !== session || ev.method !== "Page.javascriptDialogOpening") return;
        const d = this.#deps.events.dialog(session);
        if (d) reject(dialogOpenError(d));
      });
      const open = this.#deps.events.dialog(session);
      if (open) reject(dialogOpenError(open));
    });
    try {
      return await Promise.race([pending, opened]);
    } finally {
      sub?.[Symbol.dispose]();
      pending.catch(() => {}); // answered (or failed) once the dialog closed: nobody waits for it any more
    }
  }

  /** Calls a method of the page API (`collect`, `settle`, …) with JSON arguments; awaits promises. */
  async call<T>(t: PageTarget, method: string, ...args: unknown[]): Promise<T> {
    const expr = `${SEE_GLOBAL}.${method}(${args.map((a) => JSON.stringify(a)).join(", ")})`;
    return (await this.evaluate<T>(t, expr, { awaitPromise: true })).value;
  }

  /**
   * Waits (at most {@linkcode FRESH_WAIT_MS}) until a corpus edit the daemon has seen is compiled, so that a command
   * run right after saving a file reads the corpus as saved; a corpus that keeps changing does not hold it longer.
   */
  async freshCorpus(): Promise<void> {
    const fresh = this.#deps.fresh?.();
    if (fresh === undefined) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([fresh, new Promise<void>((r) => (timer = setTimeout(r, FRESH_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /** The view and active components of a URL in the current corpus. */
  resolution(url: string): Resolution {
    return resolveUrl(this.#deps.corpus(), url);
  }

  /** Waits for load and a quiet DOM (bounded by `maxMs`); answers whether it settled. */
  async settle(t: PageTarget, maxMs = 3000, quietMs = 100): Promise<boolean> {
    const r = await this.call<{ settled: boolean }>(t, "settle", quietMs, maxMs);
    return r.settled;
  }

  /** Collects the annotated tree of the tab's current document with the components active at its URL. */
  async collect(
    t: PageTarget,
    opts: { includeHidden?: boolean; url?: string; tree?: boolean } = {},
  ): Promise<{ page: SeeCollect; resolution: Resolution }> {
    const url = opts.url ?? (await this.evaluate<string>(t, "location.href")).value;
    const resolution = this.resolution(url);
    const internals = await this.#internals(t);
    const page = await this.call<SeeCollect>(t, "collect", {
      components: resolution.components,
      includeHidden: opts.includeHidden === true,
      ...(internals.length ? { internals } : {}),
      ...(opts.tree ? { capture: treeRequest() } : {}),
    });
    if (page.nextId > (this.#nextIds.get(t.session) ?? 1)) this.#nextIds.set(t.session, page.nextId);
    return { page, resolution };
  }

  /**
   * The role, name and states Chromium's accessibility tree gives the shown custom elements that have no role in
   * their markup, by page id: a web component may set them on its `ElementInternals` (a Material radio's
   * `internals.role = "radio"` and `ariaChecked`), where no script can read them; and the choice a combobox that
   * only picks shows (a Material select's field). Only elements it gives a role.
   */
  async #internals(t: PageTarget): Promise<Array<[number, AxFacts]>> {
    const group = "mapper-internals";
    // `null` rather than an empty list: a page without such elements (most) costs this one round trip, no more.
    const { object } = await this.evaluate<unknown>(t, `((h) => h.length ? h : null)(${SEE_GLOBAL}.opaqueHosts())`, {
      byValue: false,
      objectGroup: group,
    });
    if (!object.objectId) return [];
    try {
      // Each call waits on the page: a dialog opening meanwhile ends the collection, as it ends an evaluation.
      const ids = await this.#unlessDialog(
        t.session,
        this.#deps.send("Runtime.callFunctionOn", {
          objectId: object.objectId,
          functionDeclaration: `function () { return this.map((el) => globalThis.${SEE_GLOBAL}.idOf(el)); }`,
          returnByValue: true,
        }, t.session) as Promise<{ result: { value?: number[] } }>,
      );
      const list = ids.result.value ?? [];
      if (list.length === 0) return [];
      const props = await this.#unlessDialog(
        t.session,
        this.#deps.send(
          "Runtime.getProperties",
          { objectId: object.objectId, ownProperties: true },
          t.session,
        ) as Promise<{ result: Array<{ name: string; value?: { objectId?: string } }> }>,
      );
      const handles = new Map<number, string>();
      for (const p of props.result) {
        if (/^\d+$/.test(p.name) && p.value?.objectId) handles.set(Number(p.name), p.value.objectId);
      }
      const answers = await this.#unlessDialog(
        t.session,
        Promise.all(list.map(async (id, i): Promise<[number, AxFacts] | undefined> => {
          const objectId = handles.get(i);
          if (objectId === undefined) return undefined;
          const ax = await this.#deps.send(
            "Accessibility.getPartialAXTree",
            { objectId, fetchRelatives: false },
            t.session,
          ) as { nodes?: AxNode[] };
          const facts = axFacts(ax.nodes?.[0]);
          return facts ? [id, facts] : undefined;
        })),
      );
      return answers.filter((a) => a !== undefined);
    } finally {
      this.release(t, group); // not waited for: a page held by a dialog would hold the answer too
    }
  }

  /** Navigates the tab to `url` unless it is already there (same URL without the fragment), then settles. */
  async goto(t: PageTarget, url: string, settleMs = 3000): Promise<boolean> {
    await this.#navigateIfElsewhere(t, url);
    return await this.settle(t, settleMs);
  }

  async #navigateIfElsewhere(t: PageTarget, url: string): Promise<void> {
    const here = (await this.evaluate<string>(t, "location.href")).value;
    const strip = (u: string) => u.replace(/#.*$/, "");
    if (strip(here) === strip(url)) return;
    const res = await this.#deps.send("Page.navigate", { url }, t.session, 30_000);
    if (res.errorText) {
      throw new PageError("navigation_failed", `cannot open "${url}": ${res.errorText}`, {
        hint: "check the URL and that the site is up",
      });
    }
  }

  /** A snapshot: settle (bounded), collect, and add what the daemon knows (view, corpus, unmatched components). */
  async snapshot(
    t: PageTarget,
    opts: { url?: string | undefined; includeHidden?: boolean; settleMs?: number; tree?: boolean },
  ): Promise<SnapshotPayload> {
    if (opts.url !== undefined) await this.#navigateIfElsewhere(t, opts.url);
    // One round trip settles and says where the page is, so the view is resolved for the settled URL.
    const here = await this.call<{ settled: boolean; url: string }>(t, "settle", 100, opts.settleMs ?? 3000);
    const settled = here.settled;
    const { page, resolution } = await this.collect(t, {
      includeHidden: opts.includeHidden === true,
      url: here.url,
      tree: opts.tree === true,
    });
    return {
      schema: 1,
      tab: t.tab,
      url: page.url,
      title: page.title,
      view: resolution.view,
      corpus: resolution.hasCorpus,
      viewConflicts: resolution.conflicts,
      settled,
      page,
      unmatched: resolution.components.filter((c) => !page.counts[c.name]).map((c) => ({
        name: c.name,
        view: c.view,
        ...(page.matched[c.name] ? { hidden: page.matched[c.name] } : {}),
      })),
    };
  }

  /**
   * A snapshot and the captured tree of the same pass (same ids, same DOM): what `snapshot --tree-out` and
   * `capture` write. Throws {@linkcode PageError} `too_large` for a page too large to capture.
   */
  async captureTree(
    t: PageTarget,
    opts: { url?: string | undefined; includeHidden?: boolean; settleMs?: number } = {},
  ): Promise<{ payload: SnapshotPayload; tree: MapperTree }> {
    const payload = await this.snapshot(t, { ...opts, tree: true });
    const extract = payload.page.capture;
    delete payload.page.capture;
    if (extract === undefined) throw new Error("the page script answered no tree");
    return { payload, tree: buildTree(payload, extract, new Date()) };
  }

  /**
   * Resolves a target (query text, parsed query or node id) on the live page in one pass — collect (extract →
   * match) then select — and returns CDP handles of the element. Throws {@linkcode PageError} (`no_match`,
   * `ambiguous`, `index_out_of_range`, `stale_id`, `bad_query`).
   */
  async resolve(t: PageTarget, target: string | Target, objectGroup?: string): Promise<ResolvedElement> {
    let parsed: Target;
    try {
      parsed = typeof target === "string" ? parseTarget(target) : target;
    } catch (err: unknown) {
      if (err instanceof QueryParseError) {
        throw new PageError("bad_query", err.message, { ...(err.hint ? { hint: err.hint } : {}), status: 400 });
      }
      throw err;
    }
    const { page, resolution } = await this.collect(t, { includeHidden: true });
    const resolved = resolveTarget(page, parsed, resolution.declared, {
      view: resolution.view?.name ?? null,
      components: resolution.components,
    });
    const handle = await this.handle(t, resolved.node.id, objectGroup);
    return { target: t, ...handle, summary: summarize(resolved), resolved, page };
  }

  /**
   * CDP handles of the element with a snapshot id; `stale_id` when it is gone. A handle keeps its element alive in the
   * page until it is released: give an `objectGroup` and {@linkcode release} it once done (handles made from it on
   * the page side join its group).
   */
  async handle(
    t: PageTarget,
    id: number,
    objectGroup?: string,
  ): Promise<{ objectId: string; backendNodeId: number }> {
    const { object } = await this.evaluate<unknown>(t, `${SEE_GLOBAL}.node(${Number(id)})`, {
      byValue: false,
      ...(objectGroup === undefined ? {} : { objectGroup }),
    });
    if (!object.objectId || object.subtype !== "node") {
      throw new PageError("stale_id", `id ${id} is no longer on the page`, {
        hint: "run 'mapper snapshot' again or use a component query",
        status: 404,
      });
    }
    const described = await this.#deps.send("DOM.describeNode", { objectId: object.objectId }, t.session);
    return { objectId: object.objectId, backendNodeId: described.node.backendNodeId };
  }

  /**
   * Lets the page forget every handle of `objectGroup` (see {@linkcode handle}). Not waited for: the page answers it,
   * and a busy one would hold up the answer it follows (later commands on the tab queue behind it anyway); a tab
   * already gone is no error.
   */
  release(t: PageTarget, objectGroup: string): void {
    this.#deps.send("Runtime.releaseObjectGroup", { objectGroup }, t.session, 5000).catch(() => {});
  }
}

function exceptionText(res: EvalResult): string {
  const d = res.exceptionDetails;
  return d?.exception?.description?.split("\n")[0] ?? d?.text ?? "unknown error";
}
