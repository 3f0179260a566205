/**
 * The daemon side of the authoring kit: `POST /devtools/page/probe|probe-all|gap|suggest|draft|explain|inspect`. Each
 * takes one pass of the page engine (the captured tree, same ids as the snapshot), builds a {@linkcode KitPage}
 * (the offline engine over that tree, the shared claim with the components active at the URL) and counts what it
 * prints live in one more call (`querySelectorAll` per root, the selectors passed as data).
 *
 * @module
 */
import type { ClaimComponent, MapperTree, OfflineEngine } from "../offline/mod.ts";
import { loadEngine } from "../offline/mod.ts";
import { PageError, type SnapshotPayload } from "../see/page_api.ts";
import type { PageTarget } from "../see/daemon/engine.ts";
import { KitPage, type LiveAnswer } from "./page.ts";
import { probe } from "./probe.ts";
import { gap } from "./gap.ts";
import { KIND_GROUPS, suggest, type SuggestKindGroup } from "./suggest.ts";
import { explainNodes, type ExplainPick } from "./explain.ts";
import { inspect } from "./inspect.ts";
import { draft } from "./draft.ts";

/** What the kit needs of a URL's resolution: the view and the active components (`view: null` for a global). */
export interface KitResolution {
  /** The view, `null` when none. */
  view: { name: string } | null;
  /** Active components in declaration order. */
  components: ReadonlyArray<ClaimComponent & { view?: string | null }>;
}

/** What the kit needs of the page engine (the daemon's `PageEngine`). */
export interface KitEngine {
  /** The tab a command acts on. */
  target(tab?: string): Promise<PageTarget>;
  /** A snapshot and the captured tree of the same pass. */
  captureTree(
    t: PageTarget,
    opts?: { url?: string | undefined; includeHidden?: boolean; settleMs?: number },
  ): Promise<{ payload: SnapshotPayload; tree: MapperTree }>;
  /** Calls a method of the page script. */
  call<T>(t: PageTarget, method: string, ...args: unknown[]): Promise<T>;
  /** The view and active components of a URL. */
  resolution(url: string): KitResolution;
  /** Opens a background tab (`about:blank`) that a command uses and closes. */
  openScratchTab(): Promise<PageTarget>;
  /** Closes a tab. */
  closeTab(t: PageTarget): Promise<void>;
  /** Navigates (only when elsewhere), then settles. */
  goto(t: PageTarget, url: string, settleMs?: number): Promise<boolean>;
}

/** One kit route. */
export type KitRoute = (engine: KitEngine, body: Record<string, unknown>) => Promise<Record<string, unknown>>;

let offline: Promise<OfflineEngine> | undefined;

/** The offline engine, loaded once per daemon (it brings css-select). */
function offlineEngine(): Promise<OfflineEngine> {
  offline ??= loadEngine();
  offline.catch(() => (offline = undefined));
  return offline;
}

function str(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new PageError("bad_request", `"${key}" must be a string`, { status: 400 });
  return v;
}

function int(body: Record<string, unknown>, key: string): number | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) {
    throw new PageError("bad_request", `"${key}" must be a whole number`, { status: 400 });
  }
  return v;
}

/** One pass of the engine on a tab, made into a {@linkcode KitPage}. */
export async function kitPage(
  engine: KitEngine,
  t: PageTarget,
  url?: string,
): Promise<{ page: KitPage; resolution: KitResolution }> {
  const [{ payload, tree }, eng] = await Promise.all([engine.captureTree(t, { url }), offlineEngine()]);
  const resolution = engine.resolution(payload.url);
  const page = new KitPage({
    tree,
    tab: t.tab,
    components: resolution.components,
    live: (selectors) => engine.call<LiveAnswer[]>(t, "queryAll", selectors),
  }, eng);
  return { page, resolution };
}

async function onTab(engine: KitEngine, body: Record<string, unknown>) {
  return await kitPage(engine, await engine.target(str(body, "tab")), str(body, "url"));
}

/** The kit's routes, by command name. */
export const KIT_ROUTES: Record<string, KitRoute> = {
  probe: async (engine, body) => {
    const { page } = await onTab(engine, body);
    return { ...await probe(page, str(body, "selector") ?? "", { max: int(body, "max") ?? 10 }) };
  },
  "probe-all": async (engine, body) => {
    const selector = str(body, "selector") ?? "";
    const views = Array.isArray(body.views) ? body.views as Array<{ name?: unknown; url?: unknown }> : [];
    const rows: Array<Record<string, unknown>> = [];
    const scratch = await engine.openScratchTab();
    try {
      for (const v of views.slice(0, 50)) {
        const name = String(v.name ?? "");
        if (typeof v.url !== "string" || v.url === "") {
          rows.push({ view: name, url: null, skipped: "no url:" });
          continue;
        }
        try {
          await engine.goto(scratch, v.url);
          const [here] = await engine.call<Array<LiveAnswer>>(scratch, "queryAll", [selector]);
          const finalUrl = (await engine.call<{ url: string }>(scratch, "settle", 0, 0)).url;
          if (here === undefined || "error" in here) {
            throw new PageError("bad_selector", `the browser rejects the selector ${JSON.stringify(selector)}`, {
              hint: "fix the CSS and probe it again",
              status: 400,
            });
          }
          rows.push({
            view: name,
            url: v.url,
            finalUrl,
            resolved: engine.resolution(finalUrl).view?.name ?? null,
            count: here.ids.length,
          });
        } catch (err: unknown) {
          if (err instanceof PageError && err.status === 400) throw err;
          rows.push({ view: name, url: v.url, error: err instanceof Error ? err.message : String(err) });
        }
      }
    } finally {
      await engine.closeTab(scratch).catch(() => {});
    }
    return { selector, views: rows };
  },
  gap: async (engine, body) => {
    const { page, resolution } = await onTab(engine, body);
    const globals = new Set(resolution.components.filter((c) => c.view === null).map((c) => c.name));
    return {
      ...await gap(page, {
        scope: str(body, "scope"),
        includeHidden: body.includeHidden === true,
        maxClusters: int(body, "maxClusters") ?? 20,
        globals,
      }),
    };
  },
  suggest: async (engine, body) => {
    const { page } = await onTab(engine, body);
    const kind = str(body, "kind");
    if (kind !== undefined && !Object.hasOwn(KIND_GROUPS, kind)) {
      throw new PageError("bad_request", `unknown kind "${kind}"`, { status: 400 });
    }
    return {
      ...await suggest(page, {
        excludeKnown: body.excludeKnown === true,
        group: body.group === true,
        max: int(body, "max") ?? 20,
        minCount: int(body, "minCount") ?? 1,
        kind: kind as SuggestKindGroup | undefined,
        includeHidden: body.includeHidden === true,
      }),
    };
  },
  draft: async (engine, body) => {
    const { page } = await onTab(engine, body);
    const taken = Array.isArray(body.taken) ? body.taken.filter((n): n is string => typeof n === "string") : [];
    return { ...await draft(page, { view: str(body, "view"), route: str(body, "route"), taken }) };
  },
  explain: async (engine, body) => {
    const id = int(body, "id");
    const grep = str(body, "grep");
    const selector = str(body, "selector");
    const pick: ExplainPick | undefined = id !== undefined
      ? { id }
      : grep !== undefined
      ? { grep }
      : selector !== undefined
      ? { selector }
      : undefined;
    if (pick === undefined) throw new PageError("bad_request", "pass id, grep or selector", { status: 400 });
    const { page } = await onTab(engine, body);
    return { ...await explainNodes(page, pick, { max: int(body, "max") ?? 10 }) };
  },
  inspect: async (engine, body) => {
    const { page } = await onTab(engine, body);
    const id = int(body, "id");
    const selector = str(body, "selector");
    return { ...await inspect(page, { ...(id !== undefined ? { id } : {}), ...(selector ? { selector } : {}) }) };
  },
};
