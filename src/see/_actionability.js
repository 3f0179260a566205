// @ts-check
/// <reference lib="dom" />
/**
 * The page side of the action engine: functions the daemon sends with `Runtime.callFunctionOn` onto a resolved
 * element (in the page script's isolated world; same DOM, no page globals). Each is self-contained — its source
 * is shipped as text, so it may use nothing outside its own body.
 *
 * @module
 */

/**
 * Gets an element ready for pointer or keyboard input and says where to press, or why it cannot be acted on.
 *
 * Waits (up to `opts.timeoutMs`) until the element is attached, visible and stable (same box on two consecutive
 * frames), scrolling it into view when it is not; then checks AT ONCE — no waiting — that it is enabled, has a
 * size, and that the hit-test at the press point lands on it (else names what covers it). Coordinates returned are
 * CSS pixels in the top-level viewport (offsets of same-origin frames added).
 *
 * @this {Element}
 * @param {{ timeoutMs: number, action: string, editable?: boolean, scroll?: boolean, hitTest?: boolean }} opts
 * @returns {Promise<Record<string, unknown>>}
 */
export async function prepareElement(opts) {
  // Nested helpers need the element; `this` is only bound at the top of a callFunctionOn target.
  // deno-lint-ignore no-this-alias
  const el = this;
  const started = performance.now();
  const frame = () =>
    new Promise((resolve) => {
      // rAF does not run in a hidden tab; a timer keeps the wait bounded there.
      const t = setTimeout(resolve, 50);
      requestAnimationFrame(() => {
        clearTimeout(t);
        resolve(undefined);
      });
    });
  const parentOf = (/** @type {Node} */ n) =>
    n.parentNode instanceof ShadowRoot ? n.parentNode.host : n.parentNode instanceof Element ? n.parentNode : null;
  const composedContains = (/** @type {Element} */ outer, /** @type {Element | null} */ inner) => {
    for (let n = inner; n; n = parentOf(n)) if (n === outer) return true;
    return false;
  };
  // The page script's API (`__mapperSee`, same isolated world): node ids, so the daemon names a cover by the
  // component the snapshot gives it, and the one role and accessible-name implementation every surface uses.
  const see =
    /** @type {{ idOf?: (e: Element) => number, roleOf?: (e: Element) => string, nameOf?: (e: Element) => string } | undefined} */ (
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis))["__mapperSee"]
    );
  const roleOf = (/** @type {Element} */ e) => see?.roleOf?.(e) ?? e.tagName.toLowerCase();
  const nameOf = (/** @type {Element} */ e) => {
    const t = (see?.nameOf?.(e) ?? "").replace(/\s+/g, " ").trim();
    return t.length > 60 ? t.slice(0, 59) + "…" : t;
  };
  const describe = (/** @type {Element} */ e) => {
    const name = nameOf(e);
    return name ? `${roleOf(e)} ${JSON.stringify(name)}` : roleOf(e);
  };
  /** Ids of the hit element and its ancestors that do not contain the target, innermost first. */
  const chainIds = (/** @type {Element} */ hit, /** @type {Element} */ target) => {
    /** @type {number[]} */
    const out = [];
    for (
      let n = /** @type {Element | null} */ (hit);
      n && !composedContains(n, target) && out.length < 16;
      n = parentOf(n)
    ) {
      const id = see?.idOf?.(n);
      if (id !== undefined) out.push(id);
    }
    return out;
  };
  /** The element that covers `target` at the hit point, named the way an agent would look for it. */
  const coverOf = (/** @type {Element} */ hit, /** @type {Element} */ target) => {
    // Walk up from the hit node to the outermost ancestor that does not contain the target: the overlay itself
    // (its backdrop, its dialog) rather than a span inside it. A dialog on the way is named at once.
    /** @type {Element} */
    let cover = hit;
    for (let n = /** @type {Element | null} */ (hit); n && !composedContains(n, target); n = parentOf(n)) {
      cover = n;
      const role = n.getAttribute("role");
      if (n.tagName === "DIALOG" || role === "dialog" || role === "alertdialog") return n;
    }
    // The outermost container is often an unnamed full-page backdrop holding the dialog: name the dialog in it.
    const dialog = cover.querySelector("dialog,[role=dialog],[role=alertdialog],[aria-modal=true]");
    return dialog ?? cover;
  };
  /** The element's box in top-level viewport coordinates, and its own frame's viewport. */
  const geometry = () => {
    const r = el.getBoundingClientRect();
    let x = r.left;
    let y = r.top;
    const win = el.ownerDocument.defaultView;
    let vw = win?.innerWidth ?? 0;
    let vh = win?.innerHeight ?? 0;
    let left = Math.max(r.left, 0);
    let top = Math.max(r.top, 0);
    let right = Math.min(r.right, vw);
    let bottom = Math.min(r.bottom, vh);
    for (let w = /** @type {Window | null} */ (win); w && w.frameElement; w = w.parent) {
      const f = w.frameElement.getBoundingClientRect();
      const dx = f.left + w.frameElement.clientLeft;
      const dy = f.top + w.frameElement.clientTop;
      x += dx;
      y += dy;
      left += dx;
      right += dx;
      top += dy;
      bottom += dy;
      vw = w.parent.innerWidth;
      vh = w.parent.innerHeight;
      left = Math.max(left, f.left, 0);
      top = Math.max(top, f.top, 0);
      right = Math.min(right, f.right, vw);
      bottom = Math.min(bottom, f.bottom, vh);
    }
    return { x, y, width: r.width, height: r.height, visible: { left, top, right, bottom }, vw, vh };
  };
  const inView = (/** @type {ReturnType<typeof geometry>} */ g) =>
    g.visible.right - g.visible.left >= 1 && g.visible.bottom - g.visible.top >= 1;
  /** Whether an ancestor that clips (overflow other than visible) hides the element's box entirely. */
  const clippedBy = () => {
    const r = el.getBoundingClientRect();
    for (let n = parentOf(el); n; n = parentOf(n)) {
      const style = getComputedStyle(n);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      if (n === el.ownerDocument.documentElement || n === el.ownerDocument.body) continue;
      const c = n.getBoundingClientRect();
      if (r.right <= c.left || r.left >= c.right || r.bottom <= c.top || r.top >= c.bottom) return n;
    }
    return null;
  };
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (/** @type {string} */ reason, /** @type {Record<string, unknown>} */ extra = {}) => ({
    ok: false,
    reason,
    waitedMs: elapsed(),
    ...extra,
  });

  // 1. attached, visible, stable — waited for, bounded.
  let scrolled = false;
  /** @type {DOMRect | undefined} */
  let last;
  let stableFrames = 0;
  for (;;) {
    if (!el.isConnected) return fail("detached");
    const visible = el.checkVisibility({ visibilityProperty: true, opacityProperty: false });
    const r = el.getBoundingClientRect();
    if (visible && r.width > 0 && r.height > 0) {
      if (opts.scroll !== false && !inView(geometry()) && !scrolled) {
        el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
        scrolled = true;
        last = undefined;
      } else {
        const same = last !== undefined && last.x === r.x && last.y === r.y && last.width === r.width &&
          last.height === r.height;
        stableFrames = same ? stableFrames + 1 : 0;
        last = r;
        if (stableFrames >= 1) break;
      }
    } else if (visible && (r.width === 0 || r.height === 0) && el.getClientRects().length > 0) {
      // 3'. zero size is not something waiting fixes: refuse at once.
      return fail("zero-size", { target: describe(el) });
    } else {
      last = undefined;
      stableFrames = 0;
    }
    if (performance.now() - started > opts.timeoutMs) {
      if (!el.checkVisibility({ visibilityProperty: true })) return fail("hidden", { target: describe(el) });
      return fail("unstable", { target: describe(el) });
    }
    await frame();
  }

  // 2. enabled — checked at once.
  const aria = el.closest("[aria-disabled=true]");
  if (el.matches(":disabled") || aria) return fail("disabled", { target: describe(el) });
  if (opts.editable) {
    const input = /** @type {HTMLInputElement} */ (el);
    const editable = el.matches("input, textarea, select") || /** @type {HTMLElement} */ (el).isContentEditable;
    if (!editable) return fail("not-editable", { target: describe(el), tag: el.tagName.toLowerCase() });
    if (input.readOnly) return fail("readonly", { target: describe(el) });
  }

  // 3. in view (verified by geometry), then the hit-test at the press point.
  const g = geometry();
  if (!inView(g)) {
    const clipper = clippedBy();
    return fail("offscreen", {
      target: describe(el),
      container: clipper ? describe(clipper) : undefined,
      box: { x: Math.round(g.x), y: Math.round(g.y), width: Math.round(g.width), height: Math.round(g.height) },
      viewport: { width: g.vw, height: g.vh },
    });
  }
  const px = (g.visible.left + g.visible.right) / 2;
  const py = (g.visible.top + g.visible.bottom) / 2;
  if (opts.hitTest !== false) {
    // Hit-test in each document from the top down: the frame chain itself may be covered.
    /** @type {Element | null} */
    let hit = null;
    /** @type {Document | ShadowRoot} */
    let root = el.ownerDocument.defaultView?.top?.document ?? el.ownerDocument;
    let lx = px;
    let ly = py;
    for (let depth = 0; depth < 32; depth++) {
      /** @type {Element | null} */
      const found = root.elementFromPoint(lx, ly);
      if (!found) break;
      hit = found;
      if (found.shadowRoot && found !== el && found.shadowRoot.elementFromPoint(lx, ly) !== found) {
        root = found.shadowRoot;
        continue;
      }
      if ((found.tagName === "IFRAME" || found.tagName === "FRAME") && found !== el) {
        /** @type {Document | null} */
        const doc = /** @type {HTMLIFrameElement} */ (found).contentDocument;
        if (!doc) break;
        const f = found.getBoundingClientRect();
        lx -= f.left + found.clientLeft;
        ly -= f.top + found.clientTop;
        root = doc;
        continue;
      }
      break;
    }
    const labels = /** @type {HTMLInputElement} */ (el).labels;
    const onTarget = hit !== null &&
      (composedContains(el, hit) || (labels ? [...labels].some((l) => composedContains(l, hit)) : false));
    if (!onTarget) {
      if (hit && composedContains(hit, el)) {
        return fail("no-pointer-events", { target: describe(el), cover: describe(hit), x: px, y: py });
      }
      const cover = hit ? coverOf(hit, el) : null;
      return fail("covered", {
        target: describe(el),
        cover: cover ? describe(cover) : "nothing",
        coverIds: hit ? chainIds(hit, el) : [],
        x: px,
        y: py,
      });
    }
  }
  return {
    ok: true,
    x: Math.round(px * 100) / 100,
    y: Math.round(py * 100) / 100,
    box: { x: Math.round(g.x), y: Math.round(g.y), width: Math.round(g.width), height: Math.round(g.height) },
    scrolled,
    target: describe(el),
    waitedMs: elapsed(),
  };
}

/**
 * Prepares a form field for typing: refuses what typing cannot fill (checkbox, radio, file: use click), chooses an
 * option of a `<select>` by label or value, sets the value of pickers that take no typed text (date, color,
 * range…) through the native setter plus `input`/`change` events, and otherwise focuses the field and selects its
 * whole content, so the text the daemon then inserts replaces it (`append` puts the caret at the end instead).
 *
 * @this {Element}
 * @param {{ text: string, append: boolean }} opts
 * @returns {Record<string, unknown>}
 */
export function prepareFill(opts) {
  const el = /** @type {HTMLInputElement} */ (/** @type {unknown} */ (this));
  const fire = () => {
    el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  };
  if (el.tagName === "INPUT") {
    const type = (el.getAttribute("type") || "text").toLowerCase();
    if (type === "checkbox" || type === "radio" || type === "file" || type === "submit" || type === "button") {
      return { mode: "refuse", type };
    }
    if (["date", "time", "datetime-local", "month", "week", "color", "range"].includes(type)) {
      // The prototype's setter, not the element's own: frameworks that track the value (React) wrap the latter.
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
      el.focus();
      setter?.call(el, opts.text);
      fire();
      return { mode: "set" };
    }
  }
  if (el.tagName === "SELECT") {
    const select = /** @type {HTMLSelectElement} */ (/** @type {unknown} */ (el));
    const options = [...select.options];
    const want = opts.text.trim();
    const option = options.find((o) => o.label.trim() === want) ?? options.find((o) => o.value === opts.text) ??
      options.find((o) => o.label.trim().toLowerCase() === want.toLowerCase());
    if (!option) return { mode: "no-option", options: options.map((o) => o.label.trim()).slice(0, 30) };
    if (option.disabled) return { mode: "option-disabled", option: option.label.trim() };
    select.focus();
    // By index, not by value: options may share a value, and `select.value = v` takes the first of them.
    select.selectedIndex = option.index;
    fire();
    return { mode: "set", chosen: option.label.trim() };
  }
  el.focus();
  if (el.tagName === "INPUT" || el.tagName === "TEXTAREA") {
    if (opts.append) {
      try {
        el.setSelectionRange(el.value.length, el.value.length);
      } catch {
        // types without a caret (email, number) keep wherever the caret is: the end after focus
      }
    } else el.select();
  } else {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    if (opts.append) range.collapse(false);
    const sel = el.ownerDocument.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
  }
  const focused = el.ownerDocument.activeElement === el || el.contains(el.ownerDocument.activeElement);
  return {
    mode: "type",
    focused,
    empty: el.tagName === "INPUT" || el.tagName === "TEXTAREA" ? el.value === "" : false,
  };
}

/**
 * The value a field holds now: `value` of inputs, text areas and selects (the chosen option's label too),
 * `innerText` of an editable element.
 *
 * @this {Element}
 * @returns {{ value: string, label?: string }}
 */
export function readValue() {
  const el = /** @type {HTMLInputElement} */ (/** @type {unknown} */ (this));
  if (el.tagName === "SELECT") {
    const select = /** @type {HTMLSelectElement} */ (/** @type {unknown} */ (el));
    return { value: select.value, label: select.selectedOptions[0]?.label.trim() ?? "" };
  }
  if (el.tagName === "INPUT" || el.tagName === "TEXTAREA") return { value: el.value };
  return { value: /** @type {HTMLElement} */ (/** @type {unknown} */ (el)).innerText.replace(/\n$/, "") };
}

/**
 * Focuses an element for key input (`keypress --target`); a non-focusable one gets focus on its closest
 * focusable ancestor, the way a click would give it.
 *
 * @this {Element}
 * @returns {{ focused: boolean }}
 */
export function focusElement() {
  const el = /** @type {HTMLElement} */ (/** @type {unknown} */ (this));
  el.focus();
  const doc = el.ownerDocument;
  if (doc.activeElement !== el && !el.contains(doc.activeElement)) {
    const focusable = el.closest("[tabindex], a[href], button, input, select, textarea, [contenteditable]");
    if (focusable instanceof HTMLElement) focusable.focus();
  }
  return { focused: doc.activeElement === el || el.contains(doc.activeElement) };
}

/**
 * Scrolls an element's box (`--target` with deltas) or the document by a delta and reports where it ended. The
 * scroller is the element itself when it scrolls, else its nearest scrolling ancestor.
 *
 * @this {Element | null}
 * @param {{ dx: number, dy: number }} opts
 * @returns {Record<string, unknown>}
 */
export function scrollByDelta(opts) {
  // Called without an element (`this` is then the global object in sloppy mode, or null): the document scrolls.
  const self = this instanceof Element ? this : null;
  const doc = self?.ownerDocument ?? document;
  const root = doc.scrollingElement ?? doc.documentElement;
  /** @type {Element} */
  let scroller = root;
  for (let n = self; n; n = n.parentElement) {
    const s = getComputedStyle(n);
    const canY = /(auto|scroll|overlay)/.test(s.overflowY) && n.scrollHeight > n.clientHeight;
    const canX = /(auto|scroll|overlay)/.test(s.overflowX) && n.scrollWidth > n.clientWidth;
    if ((opts.dy !== 0 && canY) || (opts.dx !== 0 && canX)) {
      scroller = n;
      break;
    }
  }
  const before = { x: scroller.scrollLeft, y: scroller.scrollTop };
  scroller.scrollBy({ left: opts.dx, top: opts.dy, behavior: "instant" });
  const after = { x: Math.round(scroller.scrollLeft), y: Math.round(scroller.scrollTop) };
  return {
    document: scroller === root,
    before: { x: Math.round(before.x), y: Math.round(before.y) },
    after,
    max: {
      x: Math.max(0, scroller.scrollWidth - scroller.clientWidth),
      y: Math.max(0, scroller.scrollHeight - scroller.clientHeight),
    },
  };
}
