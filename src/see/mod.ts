/**
 * Seeing (and, built on it, acting on) the live page through the map: the page engine the session daemon runs,
 * its HTTP routes, the component query language and its resolution. The CLI side of the page commands
 * (`commands.ts`, `client.ts`, `output.ts`) is loaded lazily by the command table and is not exported here, so the
 * daemon never loads CLI code.
 *
 * ## Layout: by where the code runs
 *
 * - `page/`: evaluated in the tab's isolated world, never by Deno (`page.js`, `page_tree.js`; `actionability.js`,
 *   whose functions the daemon ships one by one with `Runtime.callFunctionOn`). Plain `// @ts-check` ES modules.
 * - `daemon/`: run by the session daemon (`mapper browser start`): the engine, its routes, query parsing and
 *   resolution, the actions and the page-script linker.
 * - this folder: the CLI side (`commands.ts`, `act_commands.ts`, `client.ts`, `output.ts`, `_act_format.ts`, the
 *   snapshot text `snapshot.ts`) and what both processes share (`page_api.ts` the wire types and `PageError`,
 *   `input.ts` key chords, `capture_tree.ts` the captured tree). The CLI side stays here rather than in `src/cli/`
 *   because `kit` builds its page commands on it, and `src/cli/` (the command table) imports every area.
 *
 * ## API for the page commands (stable; the `act` and `mcp` work builds on it)
 *
 * Daemon side (`PageEngine`, one per daemon, built in `src/browser/daemon.ts`):
 * - `engine.target(tab?)` → {@linkcode PageTarget} `{tab, session, url, title}`: `--tab ID` (id or unique prefix);
 *   without it the only content tab (not `about:blank`), else the only tab. Errors (`PageError`, with code and
 *   hint): `several_tabs` (lists them), `unknown_tab`, `ambiguous_tab`, `no_tab`.
 * - `engine.resolve(target, "ProductCard[name=\"Cedar Cutting Board\"] AddToCartButton" | "42")` →
 *   {@linkcode ResolvedElement} `{objectId, backendNodeId, summary, resolved, page}`: one pass (collect = extract
 *   + match, then select). `objectId` lives in the engine's isolated world (use it with `DOM.*`,
 *   `Runtime.callFunctionOn`, `DOM.scrollIntoViewIfNeeded`, `DOM.getBoxModel`, …); `summary` says what the
 *   snapshot would say (`component`, `props`, matched `ancestors`, `role`, `name`, `states` e.g. `disabled`,
 *   `hidden`); `page.blocked` names a covering overlay. Errors: `bad_query` (400, position), `no_match` (names what
 *   is there / did-you-mean), `ambiguous` (candidates with distinguishing props), `index_out_of_range`, `stale_id`.
 * - `engine.handle(target, id)` → `{objectId, backendNodeId}` of a snapshot id (`stale_id` when gone).
 * - `engine.evaluate(target, expr, {awaitPromise, byValue})` / `engine.call(target, method, ...jsonArgs)`: run in
 *   the isolated world (`__mapperSee` = the page API of `page/page.js`: `collect`, `settle`, `node`, `idOf`, `idsFrom`,
 *   `roleOf`, `nameOf`).
 * - `engine.settle(target, maxMs)` (load + 100 ms quiet DOM, bounded), `engine.goto(target, url)` (navigate only
 *   when not already there, then settle), `engine.snapshot(target, opts)`, `engine.collect(target)`.
 * - `engine.resolution(url)` → the single most-specific view, its memory, the active components.
 *
 * HTTP: `POST /devtools/page/<command>` with a JSON body (`tab` optional), answered `{schema: 1, …}` or
 * `{schema, error, code, hint}`. Add a command with one line in `PAGE_ROUTES` (`daemon/routes.ts`), its handler in its
 * own file: `async (engine, body) => ({…})`. Helpers `str(body, key)`, `num(body, key)`.
 *
 * CLI side (`src/see/commands.ts` pattern): `pageCall<T>(dir, io, command, body)` from `client.ts` posts to the
 * daemon and turns error answers back into typed errors (400 → exit 2, else exit 1, hint kept);
 * `writeResult(io, {json, out}, text, payload)` from `output.ts` is the one `--json` / `--out` writer.
 *
 * Queries: `parseTarget(text)` → `{kind: "query", parts, index} | {kind: "id", id}` (`daemon/query.ts`); a bare number or
 * `#N` alone is a snapshot id; `Name#N` picks the N-th candidate (0-based).
 *
 * Node ids: numbered the first time the page script sees an element (a `WeakMap` in the isolated world) and kept
 * while the element lives in that document; a new document (navigation) starts a new world and new ids. Elements of
 * same-origin iframes and open shadow roots are numbered from the same counter, so ids are unique across frames
 * without a frame prefix (cross-origin iframes are not read).
 *
 * One implementation of ownership, role and name for the page engine, the actions and the extension: the claim
 * (`claimElements` in `assets/extension/resolver.js`: first declaration wins, a child only inside its parent's element,
 * open shadow roots included, pure over a small DOM adapter) and the role and accessible name
 * (`assets/extension/live_dom.js`, by dom-accessibility-api, `assets/extension/vendor/`), linked into the page
 * script by `daemon/_script.ts` from the very files the extension ships. Measured on the 2,000-element shop page against
 * Chromium's accessibility tree: about as fast as a hand-written approximation (~20–60 ms for the whole collect
 * under load), while `Accessibility.getFullAXTree` alone took 360–575 ms.
 *
 * Settling: the load event plus 500 ms (data often renders just after load), then 100 ms without DOM mutations
 * (watched from the world's creation on, so a quiet page settles at once), bounded by 3 s (`[Unsettled]`).
 *
 * Test app: `tests/site/shop.js` (served by `tests/site/server.ts` under `/shop/…`, see its header for the pages
 * and traps) with its corpus `tests/fixtures/shop/shop.yaml`; start a session with
 * `startSession([], "tests/fixtures/shop")` from `tests/site/harness.ts` and a site with `startSite()`.
 *
 * ## Acting (`daemon/`: `actions.ts`, `navigate.ts`, `evaluate.ts`, `screenshot.ts`, `tabs.ts`; routes in `act_routes.ts`)
 *
 * `actPage(engine, {tab?})` → {@linkcode ActPage} (CDP on the tab's session, the page events, the one resolver);
 * then `click|hover(page, "QUERY" | "ID" | {x, y}, {timeoutMs})`, `fill(page, target, text, {append})`,
 * `keypress(page, "Control+A", {target})`, `scroll(page, {target, deltaX, deltaY})`, `navigate(page, url)`,
 * `waitFor(page, probe, condition, {gone, timeoutMs})`, `evaluate(page, js)`, `screenshot(page, {element})`,
 * `handleDialog(page, accept, text)` — each answers a plain result object (`action` first) or throws a
 * {@linkcode PageError} with a code (`covered`, `disabled`, `hidden`, `offscreen`, `not_stuck`, `dialog`,
 * `timeout`, …) and a hint. `ACT_ROUTES[command](engine, body)` is the same over JSON bodies (what HTTP serves).
 *
 * @module
 */
export * from "./page_api.ts";
export { type DialogInfo, PageEvents } from "./daemon/page_events.ts";
export {
  type CdpSend,
  type EngineDeps,
  PageEngine,
  type PageTarget,
  type ResolvedElement,
  tabLines,
} from "./daemon/engine.ts";
export { num, PAGE_ROUTES, pageHandler, type PageRoute, str } from "./daemon/routes.ts";
export {
  formatPart,
  parseTarget,
  type Predicate,
  QueryParseError,
  type QueryPart,
  type Target,
  testPredicate,
} from "./daemon/query.ts";
export {
  candidateLines,
  editDistance,
  matchedNodes,
  type Resolved,
  resolveTarget,
  summarize,
} from "./daemon/resolve.ts";
export { ACT_ROUTES, actPage, targetLabel } from "./daemon/act_routes.ts";
export {
  ACTION_TIMEOUT_MS,
  type ActionOptions,
  type ActPage,
  click,
  drag,
  type DragOptions,
  type DragResult,
  fill,
  type FillOptions,
  type FillResult,
  hover,
  type KeyOptions,
  keypress,
  type KeyResult,
  type PointerResult,
  scroll,
  type ScrollOptions,
  type ScrollResult,
  type StateChange,
} from "./daemon/actions.ts";
export {
  navigate,
  type NavigateResult,
  type WaitCondition,
  waitFor,
  type WaitProbe,
  type WaitResult,
} from "./daemon/navigate.ts";
export { type EvalResult, evaluate } from "./daemon/evaluate.ts";
export { screenshot, type ScreenshotOptions, type ScreenshotResult } from "./daemon/screenshot.ts";
export { type DialogResult, handleDialog, type TabInfo } from "./daemon/tabs.ts";
export type { MatchedNode } from "./daemon/resolve.ts";
export type { Declared, Here, Tree } from "./daemon/resolve.ts";
export type { ResolvedElement as ActionElement, Target as ActionTarget } from "./daemon/actions.ts";
export type { RemoteObject } from "./daemon/engine.ts";
export type { Resolution } from "./daemon/engine.ts";
export type { MapperError, UsageError } from "../errors.ts";
