/**
 * The action engine: click, hover, fill, keypress and scroll on a tab, by node id, component query or point. Each
 * function resolves its target in the page (one pass: the resolver's query → element), waits — bounded — for the
 * element to be attached, visible and stable, then checks AT ONCE that it is enabled and that the hit-test at the
 * press point lands on it (an overlay is named, never clicked through), and only then sends real input through CDP
 * (`Input.dispatchMouseEvent` / `dispatchKeyEvent` / `insertText`). Results are plain objects; failures are
 * {@linkcode PageError}s whose message names the target the way a snapshot does.
 *
 * Callable without the CLI: the daemon's routes and the MCP tools adapt these functions directly.
 *
 * @module
 */
import { CdpError, type CdpSessionSend } from "../../browser/mod.ts";
import { UsageError } from "../../errors.ts";
import { ACTION_TIMEOUT_MS } from "../../timeouts.ts";
import { EFFECT_WINDOW_MS, PageError } from "../page_api.ts";
import { chordEvents, clickEvents, moveEvents, parseChord, pressEvents } from "../input.ts";
import type { DialogInfo, PageEvents } from "./page_events.ts";
import {
  armPress,
  finishPress,
  focusElement,
  prepareElement,
  prepareFill,
  readValue,
  restate,
  scrollByDelta,
} from "../page/actionability.js";
import { axFacts, type AxNode } from "./_ax.ts";

/** A resolved element: a handle in the page script's world and how to name it in messages. */
export interface ResolvedElement {
  /** `Runtime.RemoteObjectId` of the element, in the page script's isolated world. */
  objectId: string;
  /** The stable node id the snapshot shows. */
  id: number;
  /** The element named as a snapshot line would (`ProductCard name="Basalt Coffee Mug" › AddToCartButton "Add to cart"`). */
  label: string;
}

/** What the engine needs of one tab: CDP on the tab's session, the event hub, and the one resolver. */
export interface ActPage {
  /** Sends a CDP command on the tab's session. */
  send: CdpSessionSend;
  /** Target id of the tab. */
  readonly tabId: string;
  /** Flattened CDP session of the tab. */
  readonly sessionId: string;
  /** Page events (dialogs and the like). */
  readonly events: PageEvents;
  /**
   * Resolves `ID` or a component query to exactly one element (the shared resolver's errors otherwise). With
   * `timeoutMs`, a query whose component is declared for the page but not on it yet is retried until then.
   */
  resolve(target: string, timeoutMs?: number): Promise<ResolvedElement>;
  /**
   * Names what covers a target, from the page script's ids of the hit element and its ancestors (innermost first),
   * the way the snapshot names it (`CookieConsent (dialog "We value your privacy")`); `undefined` leaves the
   * page-side description.
   */
  nameCover?(ids: readonly number[]): string | undefined;
  /** Names any element by its page-script id as its snapshot line does (`checkbox "I agree"`), if it was collected. */
  nameNode?(id: number): string | undefined;
}

/** A target: a node id or component query, or a viewport point (`click --x --y`). */
export type Target = string | { x: number; y: number };

/** Options shared by the pointer actions. */
export interface ActionOptions {
  /** Bound of the attached/visible/stable wait (default {@linkcode ACTION_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** Result of {@linkcode click} and {@linkcode hover}. */
export interface PointerResult {
  /** The action performed. */
  action: "click" | "hover";
  /** The target named as a snapshot would, or `point (x, y)`. */
  target: string;
  /** Node id, when the target was an element. */
  id?: number;
  /** Where the pointer went, CSS pixels in the viewport (after scrolling). */
  x: number;
  /** Y coordinate. */
  y: number;
  /** Whether the element had to be scrolled into view first. */
  scrolled: boolean;
  /**
   * The inner element pressed for a host that delegates (a web component whose centre is dead space), named as
   * a snapshot names an element: `checkbox "I agree to the terms"`.
   */
  via?: string;
  /** A click's effect on the pressed control's state (checkbox, radio, switch, aria-checked/pressed/expanded). */
  state?: StateChange;
  /**
   * What visibly changed after a click, within {@linkcode EFFECT_WINDOW_MS}: `state`, `dom` (a mutation of the
   * documents or their open shadow roots), `value` (a form field's value or checkedness), `focus` (an element took
   * focus), `url`, `scroll`, `request` (the page sent one), `navigation` (a document navigation started), `tab` (a
   * tab or popup opened), `dialog`. Empty: no visible effect. Absent for hover and for a click at a point.
   */
  effects?: string[];
  /** A dialog the click opened (the page waits for `browser dialog accept|dismiss`). */
  dialog?: DialogInfo;
}

/** A control's state before and after a click: `checked false → true`. */
export interface StateChange {
  /**
   * `checked` (checkbox, radio, switch, aria-checked), `pressed` (aria-pressed), `expanded` (aria-expanded) or
   * `selected` (a tab or option, aria-selected); the same states set on a web component's `ElementInternals`, as
   * the browser's accessibility tree gives them.
   */
  name: "checked" | "pressed" | "expanded" | "selected";
  /** Before the press. */
  before: boolean | "mixed";
  /** After it. */
  after: boolean | "mixed";
}

/** Result of {@linkcode fill}. */
export interface FillResult {
  /** The action performed. */
  action: "fill";
  /** Label of the element filled. */
  target: string;
  /** Snapshot node id of the element. */
  id: number;
  /** The inner field filled for a host that delegates (`<sl-input>`): `textbox "Full name"`. */
  via?: string;
  /** The value the field holds now (equal to the text asked for: verified). */
  value: string;
  /** For a `<select>`: the label of the chosen option. */
  option?: string;
}

/** Result of {@linkcode keypress}. */
export interface KeyResult {
  /** The action performed. */
  action: "keypress";
  /** The chord pressed, canonically written (`Control+A`). */
  key: string;
  /** The focused target, when one was given. */
  target?: string;
  /** Snapshot node id of the element, if any. */
  id?: number;
  /** Dialog that opened, if any. */
  dialog?: DialogInfo;
}

/** Result of {@linkcode scroll}. */
export interface ScrollResult {
  /** The action performed. */
  action: "scroll";
  /** Label of the element scrolled to or within, if any. */
  target?: string;
  /** Snapshot node id of the element, if any. */
  id?: number;
  /** Element box after scrolling (viewport CSS pixels), when a target was brought into view. */
  box?: { x: number; y: number; width: number; height: number };
  /** Scroll position after a delta scroll, of the document or of the element's scrolling container. */
  position?: { x: number; y: number };
  /** `document` or `container`, with deltas. */
  scroller?: "document" | "container";
  /** Whether a delta scroll hit the end (nothing moved). */
  atEnd?: boolean;
}

/** The error a page command gives while a dialog blocks the page. */
export function dialogOpenError(d: DialogInfo): PageError {
  const text = d.message ? ` ${JSON.stringify(d.message.slice(0, 120))}` : "";
  return new PageError("dialog", `a ${d.type} dialog is open on the page${text}`, {
    hint: d.type === "prompt"
      ? "answer it with 'mapper browser dialog accept --text T' or 'mapper browser dialog dismiss'"
      : "close it with 'mapper browser dialog accept' or 'mapper browser dialog dismiss'",
  });
}

/** Refuses at once when a dialog blocks the page (an evaluation would hang until it closed). */
export function assertNoDialog(page: ActPage): void {
  const d = page.events.dialog(page.sessionId);
  if (d) throw dialogOpenError(d);
}

/**
 * Sends a CDP command on the tab, but gives up (resolving `{ dialog }`) as soon as a dialog opens: the command's
 * own answer would only come once the dialog is closed.
 */
async function sendOrDialog<T>(
  page: ActPage,
  method: string,
  params: object,
  timeoutMs = 30_000,
): Promise<{ result: T } | { dialog: DialogInfo }> {
  const pending = page.send<T>(method, params, timeoutMs);
  let sub: Disposable | undefined;
  const opened = new Promise<DialogInfo>((resolve) => {
    sub = page.events.listen((ev) => {
      if (ev.sessionId !== page.sessionId || ev.method !== "Page.javascriptDialogOpening") return;
      const d = page.events.dialog(page.sessionId);
      if (d) resolve(d);
    });
  });
  try {
    return await Promise.race([pending.then((result) => ({ result })), opened.then((dialog) => ({ dialog }))]);
  } finally {
    sub?.[Symbol.dispose]();
    pending.catch(() => {}); // answered (or failed) after the dialog closed: nobody waits for it any more
  }
}

/** Calls a page-side function (from `page/actionability.js`) on a resolved element and returns its value. */
async function callOn<T>(page: ActPage, objectId: string | undefined, fn: string, arg?: unknown): Promise<T> {
  const params: Record<string, unknown> = {
    functionDeclaration: fn,
    arguments: arg === undefined ? [] : [{ value: arg }],
    returnByValue: true,
    awaitPromise: true,
  };
  if (objectId !== undefined) params.objectId = objectId;
  else params.executionContextId = undefined;
  let answer;
  try {
    answer = await sendOrDialog<
      { result: { value?: unknown }; exceptionDetails?: { exception?: { description?: string }; text?: string } }
    >(
      page,
      "Runtime.callFunctionOn",
      params,
    );
  } catch (err: unknown) {
    throw goneOr(err);
  }
  if ("dialog" in answer) throw dialogOpenError(answer.dialog);
  const { result, exceptionDetails } = answer.result;
  if (exceptionDetails) {
    const why = exceptionDetails.exception?.description?.split("\n")[0] ?? exceptionDetails.text ?? "unknown error";
    throw new PageError("page_error", `the page-side step failed: ${why}`, {
      hint: "run 'mapper snapshot' to see the page as it is now",
    });
  }
  return result.value as T;
}

/** A handle that stopped resolving means the element (or its document) went away between resolving and acting. */
function goneOr(err: unknown): unknown {
  if (
    err instanceof CdpError && /Cannot find context|Could not find object|No node|context.*destroyed/i.test(err.message)
  ) {
    return new PageError("gone", "the element left the page while acting on it (the page re-rendered or navigated)", {
      hint: "run the command again, or 'mapper browser wait-for --load' if the page is navigating",
    });
  }
  return err;
}

/** What `prepareElement` answers. */
interface Prepared {
  ok: boolean;
  reason?: string;
  x?: number;
  y?: number;
  box?: { x: number; y: number; width: number; height: number };
  scrolled?: boolean;
  target?: string;
  cover?: string;
  coverIds?: number[];
  /** `covered`: the cover (or an ancestor) is in a transition or animation, so it may be on its way out. */
  coverMoving?: boolean;
  container?: string;
  waitedMs?: number;
  tag?: string;
  /** The inner element a host delegates to (it is in `globalThis.__mapperAct.press`), and its page-script id. */
  via?: string;
  viaId?: number;
  /** `ambiguous-inner`: the inner candidates (snapshot id and description), and how many there were. */
  candidates?: Array<{ id?: number; what: string }>;
  count?: number;
}

/** Turns a refusal of `prepareElement` into the one-line error an agent can act on. */
export function refusal(label: string, p: Prepared, action: string, timeoutMs: number): PageError {
  switch (p.reason) {
    case "covered":
      return new PageError(
        "covered",
        `${label} is covered by ${p.cover ?? "another element"}${
          p.coverMoving ? `, still moving after ${timeoutMs} ms` : ""
        }; the ${action} would land on it`,
        {
          hint:
            "close or accept what covers it first (a dialog or banner is in 'mapper snapshot' under [Blocked]; Escape closes most menus)",
        },
      );
    case "no-pointer-events":
      return new PageError(
        "no_pointer_events",
        `${label} does not receive pointer events (pointer-events: none); the ${action} would land on ${p.cover}`,
        { hint: `${action} the element that handles it instead` },
      );
    case "disabled":
      return new PageError("disabled", `${label} is disabled`, {
        hint: "it cannot be used in this state; check the page (e.g. sold out, a required field empty)",
      });
    case "readonly":
      return new PageError("readonly", `${label} is read-only`, { hint: "it cannot be typed into" });
    case "not-editable":
      return new PageError("not_editable", `${label} is a <${p.tag ?? "element"}>, not a field that takes text`, {
        hint: "fill an input, a textarea, a select or an editable element; use 'mapper browser click' for others",
      });
    case "ambiguous-inner": {
      const list = (p.candidates ?? []).map((c, i) => `\n  #${i}  ${c.id === undefined ? "" : `id=${c.id}  `}${c.what}`)
        .join("");
      const more = (p.count ?? 0) > (p.candidates?.length ?? 0) ? `\n  … ${p.count} in all` : "";
      return new PageError(
        "ambiguous_inner",
        action === "fill"
          ? `${label} is not a field itself and holds ${p.count} fields:${list}${more}`
          : `${label}: its centre is not a control, and it holds ${p.count}:${list}${more}`,
        { hint: `${action} one of them by its id, or name it in the map as a child component` },
      );
    }
    case "hidden-from-sight":
      return new PageError(
        "hidden_from_sight",
        `${label} is hidden from sight: ${p.container ? `${p.container} clips it` : "it is clipped"} to 1 px or less${
          p.coverMoving ? `, still moving after ${timeoutMs} ms` : ""
        }; the ${action} would land on ${p.cover ?? "another element"}`,
        {
          hint: "open what holds it first (a collapsed panel, a menu); a control kept only for screen readers has " +
            "a visible one in its place (near it in 'mapper snapshot')",
        },
      );
    case "zero-size":
      return new PageError("zero_size", `${label} has no size (0×0 box) and cannot be pressed`, {
        hint: "act on the visible element around it",
      });
    case "detached":
      return new PageError("gone", `${label} is no longer on the page`, {
        hint: "run 'mapper snapshot' again or use a component query",
      });
    case "hidden":
      return new PageError("hidden", `${label} stayed hidden for ${timeoutMs} ms`, {
        hint: "make it visible first (open its menu or tab), or wait with 'mapper browser wait-for'",
      });
    case "unstable":
      return new PageError("unstable", `${label} kept moving for ${timeoutMs} ms`, {
        hint: "wait for the animation to end, then retry",
      });
    case "offscreen":
      return new PageError(
        "offscreen",
        `${label} could not be scrolled into view${p.container ? `: ${p.container} clips it and did not scroll` : ""}`,
        { hint: "scroll its container with 'mapper browser scroll --target … --delta-y N'" },
      );
    default:
      return new PageError(p.reason ?? "refused", `${label} cannot be acted on (${p.reason ?? "unknown reason"})`, {
        hint: "run 'mapper snapshot' to see the page as it is now",
      });
  }
}

/** A target got ready for input: the element, where to press, and the element the input goes to. */
interface Ready {
  el: ResolvedElement;
  at: Prepared & { x: number; y: number };
  /** The element pressed or typed into: `el`, or the inner element of a host that delegates (`at.via`). */
  press: { objectId: string };
}

/** A refusal of `prepareElement`, with the cover named by its component when the page script knows it. */
class Refused extends Error {
  constructor(readonly el: ResolvedElement, readonly p: Prepared) {
    super(p.reason ?? "refused");
  }
}

/**
 * Resolves a target and gets it ready for input; returns where to press. `delegate` lets a host act through its
 * inner element (see `prepareElement`). Throws {@linkcode Refused} for the caller to turn into its message.
 */
async function prepare(
  page: ActPage,
  target: string,
  action: string,
  opts: ActionOptions & { editable?: boolean; delegate?: "click" | "fill" },
): Promise<Ready> {
  assertNoDialog(page);
  const timeoutMs = opts.timeoutMs ?? ACTION_TIMEOUT_MS;
  const el = await page.resolve(target, timeoutMs);
  const p = await callOn<Prepared>(page, el.objectId, prepareElement.toString(), {
    timeoutMs,
    action,
    editable: opts.editable === true,
    ...(opts.delegate ? { delegate: opts.delegate } : {}),
  });
  if (!p.ok || p.x === undefined || p.y === undefined) {
    const named = p.reason === "covered" && p.coverIds ? page.nameCover?.(p.coverIds) : undefined;
    if (named !== undefined) p.cover = named;
    for (const c of p.candidates ?? []) c.what = (c.id === undefined ? undefined : page.nameNode?.(c.id)) ?? c.what;
    throw new Refused(el, p);
  }
  const via = p.viaId === undefined ? undefined : page.nameNode?.(p.viaId);
  if (via !== undefined) p.via = via;
  const press = p.via === undefined ? el : { objectId: await handleOn(page, el.objectId, PRESSED) };
  return { el, at: p as Prepared & { x: number; y: number }, press };
}

/**
 * Whether a refusal is a cover on its way out (in a transition or an animation: a dialog or a menu closing), or a
 * panel still moving that clips the target away, which is worth waiting for within the action's time. A cover that
 * stands still (a cookie banner) is refused at once: the agent must answer it.
 */
function passingCover(err: Refused): boolean {
  return (err.p.reason === "covered" || err.p.reason === "hidden-from-sight") && err.p.coverMoving === true;
}

/** Waits before the next try of an action (`attempt` ≥ 1); false when `deadline` comes first. */
async function backOff(attempt: number, deadline: number): Promise<boolean> {
  const wait = RETRY_BACKOFF_MS[Math.min(attempt - 1, RETRY_BACKOFF_MS.length - 1)]!;
  if (Date.now() + wait >= deadline) return false;
  await new Promise((r) => setTimeout(r, wait));
  return true;
}

/**
 * The least time the page-side check of a target is given when the action's time is nearly out: a scroll and a
 * couple of frames on a loaded machine (with 1 ms it refuses a still element below the fold as moving).
 */
const CHECK_FLOOR_MS = 100;

/**
 * Resolves a target and gets it ready for input, or throws the refusal an agent can act on. A cover on its way out
 * is waited for (within the action's time, or until `deadline` when the action readies several targets in its one
 * time); any other refusal is thrown at once.
 */
async function ready(
  page: ActPage,
  target: string,
  action: string,
  opts: ActionOptions & { editable?: boolean; delegate?: "click" | "fill" },
  until?: number,
): Promise<Ready> {
  const timeoutMs = opts.timeoutMs ?? ACTION_TIMEOUT_MS;
  const deadline = until ?? Date.now() + timeoutMs;
  for (let attempt = 0;; attempt++) {
    // Never less than a check needs to scroll an element in and see it still over a frame: a target readied as the
    // time runs out (a drag's FROM after a slow TO) would otherwise be refused as moving when it stands still.
    const budget = Math.min(timeoutMs, Math.max(CHECK_FLOOR_MS, deadline - Date.now()));
    try {
      return await prepare(page, target, action, { ...opts, timeoutMs: budget });
    } catch (err: unknown) {
      if (!(err instanceof Refused)) throw err;
      if (!passingCover(err) || !await backOff(attempt + 1, deadline)) {
        throw refusal(err.el.label, err.p, action, timeoutMs);
      }
    }
  }
}

/** The page-side function answering the inner element `prepareElement` chose (a handle, not a value). */
const PRESSED = "function () { return globalThis.__mapperAct?.press ?? null; }";

/** Calls a page-side function on an element and returns the element it answers, as a handle. */
async function handleOn(page: ActPage, objectId: string, fn: string): Promise<string> {
  let answer;
  try {
    answer = await page.send<{ result: { objectId?: string } }>("Runtime.callFunctionOn", {
      functionDeclaration: fn,
      objectId,
      returnByValue: false,
    });
  } catch (err: unknown) {
    throw goneOr(err);
  }
  if (!answer.result.objectId) {
    throw new PageError("gone", "the element left the page while acting on it (the page re-rendered)", {
      hint: "run the command again",
    });
  }
  return answer.result.objectId;
}

/** Sends mouse events in order; stops (reporting the dialog) when one opens a dialog. */
async function mouse(page: ActPage, events: Record<string, unknown>[]): Promise<DialogInfo | undefined> {
  for (const ev of events) {
    const answer = await sendOrDialog(page, "Input.dispatchMouseEvent", ev);
    if ("dialog" in answer) return answer.dialog;
  }
  return undefined;
}

function checkPoint(p: { x: number; y: number }): void {
  if (!Number.isFinite(p.x) || !Number.isFinite(p.y) || p.x < 0 || p.y < 0) {
    throw new UsageError(`--x ${p.x} --y ${p.y} is not a point in the viewport`, {
      hint: "give CSS pixels from the top-left corner of the viewport",
    });
  }
}

/** How long to wait before each new attempt after a press that something else would have taken. */
const RETRY_BACKOFF_MS = [20, 100, 100, 500];

/** Where a press went instead of the target, for the message of the last attempt. */
interface Miss {
  cover?: string;
  coverIds?: number[];
  x?: number;
  y?: number;
  reason?: string;
}

/**
 * Clicks a target: resolve → ready (refusing covered/disabled at once) → move the pointer to the centre of its
 * visible box → check that the element under the pointer is still the target and arm the hit-target check →
 * press and release → say what the press did. When the element under the pointer is something else by the time
 * of the press (a menu the move opened, a dropdown that came back), the press is stopped before the page sees it
 * and the click is tried again within the timeout, then refused naming what took it: a click is never reported
 * for an element it did not press. A host whose centre is dead space is clicked through its one inner control.
 */
export async function click(page: ActPage, target: Target, opts: ActionOptions = {}): Promise<PointerResult> {
  if (typeof target !== "string") {
    checkPoint(target);
    assertNoDialog(page);
    const dialog = await mouse(page, clickEvents(target.x, target.y));
    const r: PointerResult = {
      action: "click",
      target: `point (${target.x}, ${target.y})`,
      x: target.x,
      y: target.y,
      scrolled: false,
    };
    if (dialog) r.dialog = dialog;
    return r;
  }
  const timeoutMs = opts.timeoutMs ?? ACTION_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let miss: Miss | undefined;
  let label = "";
  /** The last refusal for a cover on its way out, while no press has been stopped yet (see below). */
  let passing: Refused | undefined;
  for (let attempt = 0;; attempt++) {
    if (attempt > 0 && !await backOff(attempt, deadline)) break;
    let r: Ready;
    try {
      r = await prepare(page, target, "click", { timeoutMs: Math.max(1, deadline - Date.now()), delegate: "click" });
    } catch (err: unknown) {
      if (!(err instanceof Refused)) throw err;
      // A cover found before anything was touched is refused at once (a cookie banner: the agent must act), unless
      // it is on its way out (a closing dialog): that one is waited for, and refused at once if it stops and stays.
      // Once a press was stopped, a cover is what the pointer brought up: try again until the time is up.
      const untouched = attempt === 0 || passing !== undefined;
      if (
        (untouched && !passingCover(err)) ||
        !["covered", "no-pointer-events", "hidden-from-sight"].includes(err.p.reason ?? "")
      ) {
        throw refusal(err.el.label, err.p, "click", timeoutMs);
      }
      if (untouched) passing = err;
      label = err.el.label;
      miss = err.p;
      continue;
    }
    const { el, at, press } = r;
    label = el.label;
    const moved = await mouse(page, moveEvents(at.x, at.y));
    if (moved) {
      // The page answered the pointer's arrival with a dialog: nothing was pressed, and the page now waits.
      const text = moved.message ? ` ${JSON.stringify(moved.message.slice(0, 120))}` : "";
      const hint = dialogOpenError(moved).hint;
      throw new PageError(
        "dialog",
        `${label} was not clicked: the pointer arriving on it opened ${
          moved.type === "alert" ? "an" : "a"
        } ${moved.type} dialog${text}`,
        hint === undefined ? {} : { hint },
      );
    }
    const arm = await callOn<Prepared>(page, press.objectId, armPress.toString(), { x: at.x, y: at.y });
    if (!arm.ok) {
      const named = arm.coverIds ? page.nameCover?.(arm.coverIds) : undefined;
      miss = { ...arm, ...(named === undefined ? {} : { cover: named }) };
      continue;
    }
    using watch = watchEffects(page);
    const dialog = await mouse(page, pressEvents(at.x, at.y));
    if (dialog) return pointerResult(r, { dialog, effects: ["dialog"] });
    const finishing = callOn<PressOutcome>(page, press.objectId, finishPress.toString(), {
      windowMs: EFFECT_WINDOW_MS,
    }).catch((err: unknown) => {
      if (watch.seen.includes("navigation")) return undefined; // the document went away under the call: it navigated
      throw err;
    });
    const first = await Promise.race([finishing.then((o) => ({ o })), watch.started.then(() => "started" as const)]);
    // The page sent a request, opened a tab or started navigating: that is the effect, no need to wait for the DOM.
    // A second call answers at once (and ends the first one's wait); the old document still answers until a new
    // one commits, and says whether the press reached the target. A document already gone means it did: only the
    // target's own handler ran.
    let done = first !== "started" ? first.o : await Promise.race([
      callOn<PressOutcome>(page, press.objectId, finishPress.toString(), { windowMs: 0 }).catch(() => undefined),
      delay(NAVIGATION_GRACE_MS).then(() => undefined),
    ]);
    if (done === undefined || done.armed === false) return pointerResult(r, { effects: watch.seen });
    if (done.intercepted || !done.reached) {
      const cover = done.intercepted?.cover ?? { cover: "something this page cannot see (a cross-origin frame?)" };
      const named = cover.coverIds ? page.nameCover?.(cover.coverIds) : undefined;
      miss = { ...cover, ...(named === undefined ? {} : { cover: named }) };
      passing = undefined;
      continue;
    }
    if (done.axHolder) done = await restated(page, press.objectId) ?? done;
    return pointerResult(r, {
      effects: [...(done.effects ?? []), ...watch.seen.filter((e) => !done.effects?.includes(e))],
      ...(done.state ? { state: done.state } : {}),
    });
  }
  // A cover that was there before the pointer moved and never left: refused as covered, not as one that came over.
  if (passing) throw refusal(passing.el.label, passing.p, "click", timeoutMs);
  const where = miss?.x !== undefined && miss.y !== undefined
    ? ` at (${Math.round(miss.x)}, ${Math.round(miss.y)})`
    : "";
  throw new PageError(
    "intercepted",
    `${label} was not clicked: ${
      miss?.cover ?? "another element"
    } came over it as the pointer went there and would have taken the click${where}; tried for ${timeoutMs} ms`,
    {
      hint:
        "close what came over it (Escape closes most menus: 'mapper browser keypress Escape'), or click that element if it is the one you want",
    },
  );
}

/** How long a click that started a navigation still waits for the old document's answer. */
const NAVIGATION_GRACE_MS = 1000;

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What `finishPress` answers. */
interface PressOutcome {
  armed?: false;
  intercepted?: { type: string; cover: Miss } | null;
  reached?: boolean;
  effects?: string[];
  state?: StateChange;
  /** The pressed control's state is the accessibility tree's (set on `ElementInternals`): read it again. */
  axHolder?: true;
}

/**
 * The outcome of a press whose control keeps its state in `ElementInternals`, its state after the press read from
 * the browser's accessibility tree, where the snapshot reads it; `undefined` when the page no longer has it.
 */
async function restated(page: ActPage, pressed: string): Promise<PressOutcome | undefined> {
  try {
    const holder = await handleOn(page, pressed, restate.toString());
    const ax = await page.send<{ nodes?: AxNode[] }>("Accessibility.getPartialAXTree", {
      objectId: holder,
      fetchRelatives: false,
    });
    return await callOn<PressOutcome | null>(page, pressed, restate.toString(), axFacts(ax.nodes?.[0]) ?? null) ??
      undefined;
  } catch (err: unknown) {
    if (err instanceof PageError && err.code === "gone") return undefined; // re-rendered away: the first answer stands
    throw err;
  }
}

/** The result line of a click that pressed its target. */
function pointerResult(
  r: Ready,
  extra: { dialog?: DialogInfo; effects: string[]; state?: StateChange },
): PointerResult {
  const out: PointerResult = {
    action: "click",
    target: r.el.label,
    id: r.el.id,
    x: r.at.x,
    y: r.at.y,
    scrolled: r.at.scrolled === true,
  };
  if (r.at.via !== undefined) out.via = r.at.via;
  if (extra.state) out.state = extra.state;
  out.effects = extra.effects;
  if (extra.dialog) out.dialog = extra.dialog;
  return out;
}

/**
 * Watches a tab for what a click may start outside the document: a navigation (of any frame, or within the
 * document), a request the page sends, a tab or popup it opens. `started` resolves at the first of them but a URL
 * change (which `finishPress` sees too).
 */
function watchEffects(page: ActPage): { seen: string[]; started: Promise<void> } & Disposable {
  const seen: string[] = [];
  let resolve = () => {};
  const started = new Promise<void>((r) => (resolve = r));
  const saw = (what: string, wake: boolean) => {
    if (!seen.includes(what)) seen.push(what);
    if (wake) resolve();
  };
  const sub = page.events.listen((ev) => {
    const p = ev.params as { targetInfo?: { openerId?: string } };
    if (ev.sessionId === page.sessionId) {
      if (ev.method === "Page.frameRequestedNavigation" || ev.method === "Page.frameStartedNavigating") {
        saw("navigation", true);
      } else if (ev.method === "Network.requestWillBeSent") saw("request", true);
      else if (ev.method === "Page.navigatedWithinDocument") saw("url", false);
    } else if (ev.method === "Target.targetCreated" && p.targetInfo?.openerId === page.tabId) saw("tab", true);
  });
  return { seen, started, [Symbol.dispose]: () => sub[Symbol.dispose]() };
}

/** Moves the pointer over a target, with the same checks as a click (a covered target is refused). */
export async function hover(page: ActPage, target: Target, opts: ActionOptions = {}): Promise<PointerResult> {
  if (typeof target !== "string") {
    checkPoint(target);
    assertNoDialog(page);
    await mouse(page, moveEvents(target.x, target.y));
    return { action: "hover", target: `point (${target.x}, ${target.y})`, x: target.x, y: target.y, scrolled: false };
  }
  const { el, at } = await ready(page, target, "hover", opts);
  await mouse(page, moveEvents(at.x, at.y));
  return { action: "hover", target: el.label, id: el.id, x: at.x, y: at.y, scrolled: at.scrolled === true };
}

/** Options of {@linkcode drag}. */
export interface DragOptions extends ActionOptions {
  /** Pointer moves between the press and the release (default 12). */
  steps?: number;
  /** `pointer`: press, move, release; `html5`: the browser's drag and drop; `auto`: html5 for draggable elements. */
  mode?: "auto" | "pointer" | "html5";
}

/** Result of {@linkcode drag}. */
export interface DragResult {
  /** The action performed. */
  action: "drag";
  /** FROM, named as a snapshot line would. */
  from: string;
  /** TO, named the same way. */
  to: string;
  /** The mode used. */
  mode: "pointer" | "html5";
  /** Where the press was and where the release was. */
  path: [[number, number], [number, number]];
  /** What it changed: `moved` (FROM's box moved), `dom` (the document changed). */
  effects: string[];
}

/** Page side: remembers FROM's box and counts DOM changes from now on (in FROM's document and root). */
function dragWatch(this: Element): boolean {
  const r = this.getBoundingClientRect();
  const w = { box: [r.x, r.y, r.width, r.height], changes: 0, observer: null as MutationObserver | null };
  w.observer = new MutationObserver((list) => (w.changes += list.length));
  const opts = { subtree: true, childList: true, attributes: true, characterData: true };
  w.observer.observe(this.ownerDocument, opts);
  const root = this.getRootNode();
  if (root !== this.ownerDocument) w.observer.observe(root, opts);
  (globalThis as unknown as { __mapperDrag?: typeof w }).__mapperDrag = w;
  return true;
}

/** Page side: what changed since {@linkcode dragWatch} (FROM's box moved, DOM changes), and stops watching. */
function dragSeen(this: Element): { moved: boolean; changes: number } {
  const w = (globalThis as unknown as {
    __mapperDrag?: { box: number[]; changes: number; observer: MutationObserver | null };
  }).__mapperDrag;
  if (!w) return { moved: false, changes: 0 };
  w.changes += w.observer?.takeRecords().length ?? 0;
  w.observer?.disconnect();
  const r = this.isConnected ? this.getBoundingClientRect() : null;
  const moved = r === null || Math.abs(r.x - w.box[0]!) > 1 || Math.abs(r.y - w.box[1]!) > 1;
  return { moved, changes: w.changes };
}

/** Page side: the centre of an element's visible box in the viewport (it was scrolled in before). */
function centreOf(this: Element): { x: number; y: number; draggable: boolean } {
  const r = this.getBoundingClientRect();
  const html = this as HTMLElement;
  const draggable = html.draggable === true || this.tagName === "IMG" ||
    (this.tagName === "A" && this.hasAttribute("href"));
  return { x: r.x + r.width / 2, y: r.y + r.height / 2, draggable };
}

/**
 * Drags FROM onto TO with real input: TO is scrolled into view, then FROM gets a click's checks (visible, stable,
 * enabled, uncovered, scrolled in); the pointer presses on FROM, moves in `steps` with the button held, and
 * releases on TO (`pointer`), or, for a draggable element, the browser's own drag and drop carries the data to TO
 * (`html5`: the drag the press started is intercepted and dropped on TO). Verified: FROM moved or the document
 * changed; otherwise refused (`no_effect`), naming the mode.
 */
export async function drag(page: ActPage, from: string, to: string, opts: DragOptions = {}): Promise<DragResult> {
  const steps = Math.max(1, Math.min(opts.steps ?? 12, 200));
  // One time for the whole drag: what waiting for TO takes, FROM does not get again.
  const deadline = Date.now() + (opts.timeoutMs ?? ACTION_TIMEOUT_MS);
  const dest = await ready(page, to, "drag onto", opts, deadline);
  const src = await ready(page, from, "drag", opts, deadline);
  const end = await callOn<{ x: number; y: number }>(page, dest.el.objectId, centreOf.toString());
  const start = await callOn<{ x: number; y: number; draggable: boolean }>(page, src.el.objectId, centreOf.toString());
  const mode = opts.mode === "pointer" || opts.mode === "html5" ? opts.mode : start.draggable ? "html5" : "pointer";
  await callOn(page, src.el.objectId, dragWatch.toString());
  const path = (i: number) => ({
    x: start.x + ((end.x - start.x) * i) / steps,
    y: start.y + ((end.y - start.y) * i) / steps,
  });
  const held = (p: { x: number; y: number }) => ({ type: "mouseMoved", ...p, button: "left", buttons: 1 });
  if (mode === "pointer") {
    await mouse(page, [
      ...moveEvents(start.x, start.y),
      { type: "mousePressed", ...start, button: "left", buttons: 1, clickCount: 1 },
    ]);
    for (let i = 1; i <= steps; i++) await mouse(page, [held(path(i))]);
    await mouse(page, [{ type: "mouseReleased", ...end, button: "left", buttons: 0, clickCount: 1 }]);
  } else {
    await page.send("Input.setInterceptDrags", { enabled: true });
    try {
      let data: unknown;
      const sub = page.events.listen((ev) => {
        if (ev.sessionId === page.sessionId && ev.method === "Input.dragIntercepted") {
          data = (ev.params as { data?: unknown }).data;
        }
      });
      try {
        await mouse(page, [
          ...moveEvents(start.x, start.y),
          { type: "mousePressed", ...start, button: "left", buttons: 1, clickCount: 1 },
        ]);
        for (let i = 1; i <= steps && data === undefined; i++) await mouse(page, [held(path(i))]);
        for (let waited = 0; data === undefined && waited < 500; waited += 20) await delay(20);
      } finally {
        sub[Symbol.dispose]();
      }
      if (data !== undefined) {
        for (const type of ["dragEnter", "dragOver", "drop"]) {
          await page.send("Input.dispatchDragEvent", {
            type: type as "dragEnter" | "dragOver" | "drop",
            x: end.x,
            y: end.y,
            data: data as { items: Array<{ mimeType: string; data: string }>; dragOperationsMask: number },
          });
        }
      }
      await mouse(page, [{ type: "mouseReleased", ...end, button: "left", buttons: 0, clickCount: 1 }]);
    } finally {
      await page.send("Input.setInterceptDrags", { enabled: false }).catch(() => {});
    }
  }
  const seen = await callOn<{ moved: boolean; changes: number }>(page, src.el.objectId, dragSeen.toString())
    .catch(() => ({ moved: true, changes: 1 }));
  const effects = [...(seen.moved ? ["moved"] : []), ...(seen.changes > 0 ? ["dom"] : [])];
  if (effects.length === 0) {
    throw new PageError(
      "no_effect",
      `dragging ${src.el.label} onto ${dest.el.label} (${mode} mode) changed nothing: it did not move and the page did not change`,
      {
        hint: mode === "pointer"
          ? "if the page uses HTML5 drag and drop, pass --mode html5"
          : "if the page follows the pointer instead, pass --mode pointer",
      },
    );
  }
  return {
    action: "drag",
    from: src.el.label,
    to: dest.el.label,
    mode,
    path: [[Math.round(start.x), Math.round(start.y)], [Math.round(end.x), Math.round(end.y)]],
    effects,
  };
}

/** Options of {@linkcode fill}. */
export interface FillOptions extends ActionOptions {
  /** Keep the current value and type after it (default: replace it). */
  append?: boolean;
}

/** How long a framework gets to settle the value after the input events before the read-back fails. */
const SETTLE_MS = 300;

/**
 * Fills a field: ready (refusing covered/disabled/read-only), select its whole value, insert the text through the
 * browser's input pipeline (trusted `beforeinput`/`input` events, so framework-controlled inputs see a real edit),
 * then read the value back and require it to equal the text.
 */
export async function fill(page: ActPage, target: string, text: string, opts: FillOptions = {}): Promise<FillResult> {
  const { el, at, press } = await ready(page, target, "fill", { ...opts, editable: true, delegate: "fill" });
  const prep = await callOn<
    { mode: string; type?: string; options?: string[]; option?: string; chosen?: string; empty?: boolean }
  >(
    page,
    press.objectId,
    prepareFill.toString(),
    { text, append: opts.append === true },
  );
  if (prep.mode === "refuse") {
    throw new PageError("not_fillable", `${el.label} is a ${prep.type} input: it is clicked, not filled`, {
      hint: `use 'mapper browser click ${target}'`,
    });
  }
  if (prep.mode === "no-option") {
    throw new PageError("no_option", `${el.label} has no option ${JSON.stringify(text)}`, {
      hint: `choose one of ${(prep.options ?? []).map((o) => JSON.stringify(o)).join(", ")}`,
    });
  }
  if (prep.mode === "option-disabled") {
    throw new PageError("disabled", `option ${JSON.stringify(prep.option)} of ${el.label} is disabled`, {
      hint: "choose an option that is enabled",
    });
  }
  if (prep.mode === "type") {
    if (text === "") {
      // Deleting the selection is the user's way to empty a field; insertText("") would be a no-op.
      if (!prep.empty) {
        for (const ev of chordEvents(parseChord("Delete"))) {
          await page.send("Input.dispatchKeyEvent", ev);
        }
      }
    } else {
      const answer = await sendOrDialog(page, "Input.insertText", { text });
      if ("dialog" in answer) throw dialogOpenError(answer.dialog);
    }
  }
  const want = opts.append === true ? undefined : text;
  let got = await callOn<{ value: string; label?: string }>(page, press.objectId, readValue.toString());
  // A select holds the option it was given (matched by label in any case, or by value): that option's label.
  const matches = (v: { value: string; label?: string }) =>
    prep.chosen !== undefined
      ? v.label === prep.chosen
      : want === undefined
      ? v.value.endsWith(text)
      : v.value === want || (prep.mode === "set" && v.label === want);
  const deadline = Date.now() + SETTLE_MS;
  while (!matches(got) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    got = await callOn<{ value: string; label?: string }>(page, press.objectId, readValue.toString());
  }
  if (!matches(got)) {
    throw new PageError(
      "not_stuck",
      `${el.label} holds ${JSON.stringify(got.value)} after filling ${JSON.stringify(text)}`,
      {
        hint:
          "the page changed or rejected the value (a mask, maxlength, or a framework reset); read it with 'mapper snapshot'",
      },
    );
  }
  const r: FillResult = { action: "fill", target: el.label, id: el.id, value: got.value };
  if (at.via !== undefined) r.via = at.via;
  if (got.label !== undefined) r.option = got.label;
  return r;
}

/** Options of {@linkcode keypress}. */
export interface KeyOptions extends ActionOptions {
  /** Focus this target first (refused when covered, like a click). */
  target?: string;
}

/** Presses a key or chord, on the focused element or on `opts.target` after focusing it. */
export async function keypress(page: ActPage, key: string, opts: KeyOptions = {}): Promise<KeyResult> {
  const chord = parseChord(key);
  const r: KeyResult = { action: "keypress", key: chord.label };
  if (opts.target !== undefined) {
    const { el } = await ready(page, opts.target, "keypress", opts);
    await callOn(page, el.objectId, focusElement.toString());
    r.target = el.label;
    r.id = el.id;
  } else assertNoDialog(page);
  for (const ev of chordEvents(chord)) {
    const answer = await sendOrDialog(page, "Input.dispatchKeyEvent", ev);
    if ("dialog" in answer) {
      r.dialog = answer.dialog;
      break;
    }
  }
  return r;
}

/** Options of {@linkcode scroll}. */
export interface ScrollOptions extends ActionOptions {
  /** Element to bring into view (no deltas) or whose scrolling container to scroll (with deltas). */
  target?: string;
  /** Pixels to scroll right (negative: left). */
  deltaX?: number;
  /** Pixels to scroll down (negative: up). */
  deltaY?: number;
}

/**
 * Scrolls: with a target and no deltas, brings it into view and verifies by geometry that its box intersects the
 * viewport (else names the container that clips it); with deltas, scrolls the document — or the target's scrolling
 * container — by them and reports the new position.
 */
export async function scroll(page: ActPage, opts: ScrollOptions): Promise<ScrollResult> {
  const dx = opts.deltaX ?? 0;
  const dy = opts.deltaY ?? 0;
  assertNoDialog(page);
  if (opts.target === undefined && dx === 0 && dy === 0) {
    throw new UsageError("nothing to scroll", { hint: "give --target ID|QUERY, or --delta-y N (and/or --delta-x N)" });
  }
  if (opts.target !== undefined && dx === 0 && dy === 0) {
    const timeoutMs = opts.timeoutMs ?? ACTION_TIMEOUT_MS;
    const el = await page.resolve(opts.target, timeoutMs);
    const p = await callOn<Prepared>(page, el.objectId, prepareElement.toString(), {
      timeoutMs,
      action: "scroll",
      hitTest: false,
    });
    if (!p.ok) throw refusal(el.label, p, "scroll", timeoutMs);
    const r: ScrollResult = { action: "scroll", target: el.label, id: el.id };
    if (p.box) r.box = p.box;
    return r;
  }
  let objectId: string | undefined;
  const r: ScrollResult = { action: "scroll" };
  if (opts.target !== undefined) {
    const el = await page.resolve(opts.target);
    objectId = el.objectId;
    r.target = el.label;
    r.id = el.id;
  }
  const fn = objectId === undefined
    ? `function (o) { return (${scrollByDelta.toString()}).call(null, o); }`
    : scrollByDelta.toString();
  const s =
    await (objectId === undefined
      ? evaluateIn<{ document: boolean; before: Point; after: Point }>(page, `(${fn})(${JSON.stringify({ dx, dy })})`)
      : callOn<{ document: boolean; before: Point; after: Point }>(page, objectId, fn, { dx, dy }));
  r.position = s.after;
  r.scroller = s.document ? "document" : "container";
  r.atEnd = s.before.x === s.after.x && s.before.y === s.after.y;
  return r;
}

interface Point {
  x: number;
  y: number;
}

/** Evaluates an expression in the tab's main frame (page world) and returns its JSON value. */
async function evaluateIn<T>(page: ActPage, expression: string): Promise<T> {
  const answer = await sendOrDialog<{ result: { value?: unknown }; exceptionDetails?: { text?: string } }>(
    page,
    "Runtime.evaluate",
    { expression, returnByValue: true, awaitPromise: true },
  );
  if ("dialog" in answer) throw dialogOpenError(answer.dialog);
  if (answer.result.exceptionDetails) {
    const d = answer.result.exceptionDetails as { text?: string; exception?: { description?: string } };
    throw new PageError(
      "page_error",
      `the page-side step failed: ${d.exception?.description?.split("\n")[0] ?? d.text ?? "error"}`,
      { hint: "run 'mapper snapshot' to see the page as it is now" },
    );
  }
  return answer.result.result.value as T;
}

export { ACTION_TIMEOUT_MS };
