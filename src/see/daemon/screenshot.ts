/**
 * `screenshot` of the action engine: the viewport, the full page, or one element — a component query or a CSS
 * selector — scrolled into view first (waited for like a click's target, without the hit-test: a screenshot of a
 * covered card is still a screenshot) and clipped to its box plus `expandPct` percent on each side.
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { ACTION_TIMEOUT_MS, type ActPage, assertNoDialog, refusal, type ResolvedElement } from "./actions.ts";
import { PageError } from "../page_api.ts";
import { prepareElement } from "../page/actionability.js";

/** Options of {@linkcode screenshot}. */
export interface ScreenshotOptions {
  /** Element to capture, resolved by the page plumbing (a component query or a CSS selector). */
  element?: ResolvedElement;
  /** Capture the whole scrollable page instead of the viewport. */
  fullPage?: boolean;
  /** Margin around an element, in percent of its width/height on each side. */
  expandPct?: number;
  /** `png` (default) or `jpeg`. */
  format?: "png" | "jpeg";
  /** JPEG quality 0–100. */
  quality?: number;
  /** How long to wait for the element, in ms (default `ACTION_TIMEOUT_MS`). */
  timeoutMs?: number;
}

/** Result of {@linkcode screenshot}. */
export interface ScreenshotResult {
  /** The action performed. */
  action: "screenshot";
  /** Image format. */
  format: "png" | "jpeg";
  /** The image, base64. */
  data: string;
  /** Pixel size of the image (device pixels). */
  width: number;
  /** Height in pixels. */
  height: number;
  /** The element captured, named as a snapshot would. */
  target?: string;
  /** Snapshot node id of the element, if any. */
  id?: number;
  /** Whether the element had to be scrolled into view. */
  scrolled?: boolean;
}

/** Width and height from a PNG's IHDR chunk or a JPEG's SOF marker; `[0, 0]` when unreadable. */
export function imageSize(bytes: Uint8Array): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50) return [view.getUint32(16), view.getUint32(20)];
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) return [0, 0];
      const marker = bytes[i + 1]!;
      const len = view.getUint16(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return [view.getUint16(i + 7), view.getUint16(i + 5)];
      }
      i += 2 + len;
    }
  }
  return [0, 0];
}

function decode(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

interface Metrics {
  cssVisualViewport: { pageX: number; pageY: number; clientWidth: number; clientHeight: number };
  cssContentSize: { width: number; height: number };
}

/** Captures the viewport, the full page or one element. */
export async function screenshot(page: ActPage, opts: ScreenshotOptions = {}): Promise<ScreenshotResult> {
  assertNoDialog(page);
  const format = opts.format ?? "png";
  const expand = opts.expandPct ?? 0;
  if (!Number.isFinite(expand) || expand < 0 || expand > 1000) {
    throw new UsageError(`--expand-pct ${expand} is out of range`, { hint: "give a percentage from 0 to 1000" });
  }
  const params: Record<string, unknown> = { format, captureBeyondViewport: false };
  if (format === "jpeg") params.quality = opts.quality ?? 80;
  const r: Partial<ScreenshotResult> = {};
  if (opts.element) {
    const el = opts.element;
    const timeoutMs = opts.timeoutMs ?? ACTION_TIMEOUT_MS;
    const answer = await page.send("Runtime.callFunctionOn", {
      functionDeclaration: prepareElement.toString(),
      objectId: el.objectId,
      arguments: [{ value: { timeoutMs, action: "screenshot", hitTest: false } }],
      returnByValue: true,
      awaitPromise: true,
    });
    const p = (answer.result.value ?? { ok: false, reason: "gone" }) as {
      ok: boolean;
      box?: { x: number; y: number; width: number; height: number };
      scrolled?: boolean;
    };
    if (!p.ok || !p.box) throw refusal(el.label, p, "screenshot", timeoutMs);
    const m = await page.send("Page.getLayoutMetrics", {});
    const mx = (p.box.width * expand) / 100;
    const my = (p.box.height * expand) / 100;
    const x = Math.max(0, p.box.x + m.cssVisualViewport.pageX - mx);
    const y = Math.max(0, p.box.y + m.cssVisualViewport.pageY - my);
    const right = Math.min(m.cssContentSize.width, p.box.x + m.cssVisualViewport.pageX + p.box.width + mx);
    const bottom = Math.min(m.cssContentSize.height, p.box.y + m.cssVisualViewport.pageY + p.box.height + my);
    if (right - x < 1 || bottom - y < 1) {
      throw new PageError("zero_size", `${el.label} has no visible area to capture`, {
        hint: "capture the element around it, or the page with --full-page",
      });
    }
    params.clip = { x, y, width: right - x, height: bottom - y, scale: 1 };
    // Capturing beyond the viewport resizes it for the shot, which can re-lay the page out (the element moves or
    // changes width under the clip): only an element taller or wider than the viewport needs it.
    const vv = m.cssVisualViewport;
    params.captureBeyondViewport = x < vv.pageX || y < vv.pageY || right > vv.pageX + vv.clientWidth ||
      bottom > vv.pageY + vv.clientHeight;
    r.target = el.label;
    r.id = el.id;
    r.scrolled = p.scrolled === true;
  } else if (opts.fullPage) {
    const m = await page.send("Page.getLayoutMetrics", {});
    params.clip = { x: 0, y: 0, width: m.cssContentSize.width, height: m.cssContentSize.height, scale: 1 };
    params.captureBeyondViewport = true;
  }
  const shot = await page.send("Page.captureScreenshot", params, 30_000);
  const [width, height] = imageSize(decode(shot.data));
  return { action: "screenshot", format, data: shot.data, width, height, ...r };
}
