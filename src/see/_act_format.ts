/**
 * The text lines of the acting commands: one confirmation line naming the target the way a snapshot would (plus
 * a second line when a dialog opened). Text that came from the page is escaped.
 *
 * @module
 */
import { escapeControls } from "../terminal.ts";
import type { FillResult, KeyResult, PointerResult, ScrollResult } from "./daemon/actions.ts";
import { EFFECT_WINDOW_MS, shownTabUrl } from "./page_api.ts";
import type { EvalResult } from "./daemon/evaluate.ts";
import type { NavigateResult, WaitResult } from "./daemon/navigate.ts";
import type { DialogInfo } from "./daemon/page_events.ts";
import type { DialogResult, TabInfo } from "./daemon/tabs.ts";

const safe = (s: string) => escapeControls(s);
const q = (s: string) => safe(JSON.stringify(s));
const at = (x: number, y: number) => `(${Math.round(x)}, ${Math.round(y)})`;

function dialogLine(d: DialogInfo): string {
  const how = d.type === "prompt"
    ? "'mapper browser dialog accept --text T' or 'dismiss'"
    : "'mapper browser dialog accept' or 'dismiss'";
  return `  a ${d.type} dialog opened${d.message ? `: ${q(d.message)}` : ""} — the page waits; answer it with ${how}\n`;
}

/** What a click did, after its line: the control's state before → after, or that nothing visibly happened. */
function effectText(r: PointerResult): string {
  if (r.state && r.state.before !== r.state.after) {
    return ` — ${safe(`${r.state.name} ${r.state.before} → ${r.state.after}`)}`;
  }
  if (r.effects?.length === 0) {
    const state = r.state ? `; it stayed ${safe(`${r.state.name} ${r.state.after}`)}` : "";
    return ` — no visible effect (nothing on the page changed within ${EFFECT_WINDOW_MS} ms, no request, no navigation${state})`;
  }
  return "";
}

/** `clicked … [through its …] at (x, y)[ — checked false → true | — no visible effect …]` / `hovered …`. */
export function formatPointer(r: PointerResult): string {
  const verb = r.action === "click" ? "clicked" : "hovered";
  const via = r.via ? ` through its ${safe(r.via)}` : "";
  const scrolled = r.scrolled ? " (scrolled into view)" : "";
  return `${verb} ${safe(r.target)}${via} at ${at(r.x, r.y)}${scrolled}${effectText(r)}\n${
    r.dialog ? dialogLine(r.dialog) : ""
  }`;
}

/** `filled … with "text"` / `chose "label" in …`. */
export function formatFill(r: FillResult): string {
  if (r.option !== undefined) return `chose ${q(r.option)} in ${safe(r.target)}\n`;
  return `filled ${safe(r.target)}${r.via ? ` through its ${safe(r.via)}` : ""} with ${q(r.value)}\n`;
}

/** `pressed Control+A [on …]`. */
export function formatKey(r: KeyResult): string {
  return `pressed ${r.key}${r.target ? ` on ${safe(r.target)}` : ""}\n${r.dialog ? dialogLine(r.dialog) : ""}`;
}

/** `scrolled … into view (box …)` / `scrolled the document to (x, y)`. */
export function formatScroll(r: ScrollResult): string {
  if (r.box) {
    const b = r.box;
    return `scrolled ${safe(r.target ?? "the target")} into view (box at ${at(b.x, b.y)}, ${b.width}×${b.height})\n`;
  }
  const where = r.scroller === "container" ? `the container of ${safe(r.target ?? "the target")}` : "the document";
  const p = r.position ?? { x: 0, y: 0 };
  return `scrolled ${where} to ${at(p.x, p.y)}${r.atEnd ? " — it did not move: already at the end" : ""}\n`;
}

/** `navigated to URL [(redirected from URL by the server|page)]`. */
export function formatNavigate(r: NavigateResult): string {
  const redirect = r.redirected
    ? ` (redirected from ${safe(r.requested)} by the ${r.redirected === "server" ? "server" : "page"})`
    : "";
  const loading = r.loaded ? "" : " — still loading when the timeout ran out";
  return `navigated to ${safe(r.url)}${redirect}${loading}\n`;
}

/** `--load holds (at once)` / `… holds after N ms`. */
export function formatWait(r: WaitResult): string {
  const verb = r.gone ? "is gone" : "holds";
  return `${safe(r.condition)} ${verb} ${r.atOnce ? "(at once)" : `after ${r.waitedMs} ms`}\n`;
}

/** The JSON value, or `undefined`. */
export function formatEval(r: EvalResult): string {
  return `${r.json === undefined ? "undefined" : safe(r.json)}\n`;
}

/** `saved FILE (W×H px) — TARGET`. */
export function formatScreenshot(r: { path: string; width: number; height: number; target?: string }): string {
  return `saved ${safe(r.path)} (${r.width}×${r.height} px)${r.target ? ` — ${safe(r.target)}` : ""}\n`;
}

/** One line per tab: 8-character id, URL, title, the view it resolves to, an open dialog. */
export function formatTabs(tabs: readonly TabInfo[]): string {
  if (tabs.length === 0) return "No tabs are open.\n";
  return tabs.map((t) => {
    const view = t.view ? `  [${safe(t.view)}]` : "  [--]";
    const dialog = t.dialog ? `  (${t.dialog.type} dialog open)` : "";
    return `${t.id.slice(0, 8)}  ${safe(shownTabUrl(t.url))}${t.title ? `  ${q(t.title)}` : ""}${view}${dialog}\n`;
  }).join("");
}

/** `accepted the confirm dialog "…"`. */
export function formatDialog(r: DialogResult): string {
  const verb = r.accepted ? "accepted" : "dismissed";
  const text = r.text !== undefined ? ` with ${q(r.text)}` : "";
  return `${verb} the ${r.dialog.type} dialog${r.dialog.message ? ` ${q(r.dialog.message)}` : ""}${text}\n`;
}
