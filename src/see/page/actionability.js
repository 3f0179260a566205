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
 * What `prepareElement` leaves in the isolated world for the later steps of the same action (`armPress`,
 * `finishPress`): its hit-test and the elements it chose.
 * @typedef {object} ActKit
 * @property {(target: Element, x: number, y: number) => Element | null} hitAt the deepest element at a point
 * @property {(target: Element, hit: Element | null) => boolean} reaches whether a press on `hit` reaches `target`
 * @property {(target: Element, hit: Element | null, x: number, y: number) => Record<string, unknown>} missed what
 *   covers `target`, named
 * @property {(e: Element) => boolean} takesText whether an element is a field that takes typed text
 * @property {(outer: Element, inner: Element | null) => boolean} composedContains shadow-including containment
 * @property {(host: Element) => Element[]} inside every element of a subtree, open shadow roots included
 * @property {(e: Element) => boolean} shown whether an element is visible (opacity included) and not aria-hidden
 * @property {Element} host the element the action was asked for
 * @property {Element | null} press the element the input goes to (the host or its inner element)
 */

/**
 * Gets an element ready for pointer or keyboard input and says where to press, or why it cannot be acted on.
 *
 * Waits (up to `opts.timeoutMs`) until the element is attached, visible and stable (same box on two consecutive
 * frames), scrolling it into view when it is not; then checks AT ONCE — no waiting — that it is enabled, has a
 * size, and that the hit-test at the press point lands on it (else names what covers it). Coordinates returned are
 * CSS pixels in the top-level viewport (offsets of same-origin frames added).
 *
 * A host that delegates is acted on through its inner element (`opts.delegate`; the answer's `via` names it and
 * `globalThis.__mapperAct.press` holds it): for `fill`, an element that takes no text but holds exactly one text
 * field (in its light DOM or open shadow roots, e.g. `<sl-input>`); for `click`, an element whose centre is dead
 * space (no interactive element between the hit and the element itself) holding exactly one pressable control
 * (e.g. the 640 px `<sl-checkbox>` host whose label is 186 px wide), pressed at its label when the control itself
 * is invisible. Several candidates are refused (`ambiguous-inner`), listing them.
 *
 * The hit-test helpers are left in `globalThis.__mapperAct` (this isolated world only) for {@linkcode armPress}
 * and {@linkcode finishPress}, the later steps of the same action: one implementation of the hit-test.
 *
 * @this {Element}
 * @param {{ timeoutMs: number, action: string, editable?: boolean, scroll?: boolean, hitTest?: boolean,
 *   delegate?: "click" | "fill" }} opts
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
    /** @type {{ idOf?: (e: Element) => number, roleOf?: (e: Element) => string, nameOf?: (e: Element) => string, interactive?: (e: Element) => boolean } | undefined} */ (
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis))["__mapperSee"]
    );
  // A role that says nothing ("generic", "none") names the element by its tag instead: "div clips it" tells an
  // agent where to look, "generic clips it" does not.
  const roleOf = (/** @type {Element} */ e) => {
    const role = see?.roleOf?.(e);
    return !role || role === "generic" || role === "none" || role === "presentation" ? e.tagName.toLowerCase() : role;
  };
  const nameOf = (/** @type {Element} */ e) => {
    const t = (see?.nameOf?.(e) ?? "").replace(/\s+/g, " ").trim();
    return t.length > 60 ? t.slice(0, 59) + "…" : t;
  };
  const describe = (/** @type {Element} */ e) => {
    const name = nameOf(e);
    if (name) return `${roleOf(e)} ${JSON.stringify(name)}`;
    const role = roleOf(e);
    // A nameless element with no role of its own: its tag and first classes, what an author finds it by.
    if (role !== e.tagName.toLowerCase()) return role;
    const classes = [...e.classList].slice(0, 2).map((c) => `.${CSS.escape(c)}`).join("");
    return role + classes;
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
  /** An element's box in top-level viewport coordinates, and its own frame's viewport. */
  const geometry = (/** @type {Element} */ e) => {
    const r = e.getBoundingClientRect();
    let x = r.left;
    let y = r.top;
    const win = e.ownerDocument.defaultView;
    let vw = win?.innerWidth ?? 0;
    let vh = win?.innerHeight ?? 0;
    let left = Math.max(r.left, 0);
    let top = Math.max(r.top, 0);
    let right = Math.min(r.right, vw);
    let bottom = Math.min(r.bottom, vh);
    // What its clipping containers let show: a button wider than its card is pressed where it is seen.
    let clip = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
    for (let n = parentOf(e); n; n = parentOf(n)) {
      if (n === e.ownerDocument.documentElement || n === e.ownerDocument.body) continue;
      const style = getComputedStyle(n);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const c = n.getBoundingClientRect();
      clip = {
        left: Math.max(clip.left, c.left),
        top: Math.max(clip.top, c.top),
        right: Math.min(clip.right, c.right),
        bottom: Math.min(clip.bottom, c.bottom),
      };
    }
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
    const dx = x - r.left;
    const dy = y - r.top;
    const seen = {
      left: Math.max(left, clip.left + dx),
      top: Math.max(top, clip.top + dy),
      right: Math.min(right, clip.right + dx),
      bottom: Math.min(bottom, clip.bottom + dy),
    };
    // `seen`: the visible part its containers do not clip away, where it is pressed (the visible part when they
    // clip it all, for the refusal to name what covers that point).
    const shows = seen.right - seen.left >= 1 && seen.bottom - seen.top >= 1;
    return {
      x,
      y,
      width: r.width,
      height: r.height,
      visible: { left, top, right, bottom },
      seen: shows ? seen : { left, top, right, bottom },
      vw,
      vh,
    };
  };
  const inView = (/** @type {ReturnType<typeof geometry>} */ g) =>
    g.visible.right - g.visible.left >= 1 && g.visible.bottom - g.visible.top >= 1;
  /**
   * Whether an element or one of its ancestors (across shadow roots) is animating: a cover in a transition or an
   * animation is on its way somewhere (a dialog or menu closing), unlike a cookie banner that stays until answered.
   */
  const animating = (/** @type {Element} */ e) => {
    for (let at = /** @type {Element | null} */ (e); at;) {
      if (at.getAnimations().some((a) => a.playState === "running")) return true;
      const up = at.parentNode;
      at = up instanceof ShadowRoot ? up.host : up instanceof Element ? up : null;
    }
    return false;
  };
  /**
   * Whether a clipping container is changing shape: an animation that ends (a panel opening from height 0 or
   * closing, a grid row growing from 0fr) on it or an ancestor, and that moves more than paint. An endless one (a
   * background pulsing for ever, a shimmer) or a fade of colour never opens anything: waiting for it would only run
   * out the time, and then say the element kept moving when it stood still.
   */
  const reshaping = (/** @type {Element} */ e) => {
    const PAINT = /^(color|background.*|opacity|boxShadow|textShadow|filter|outline.*|border.*Color|fill|stroke)$/;
    for (let at = /** @type {Element | null} */ (e); at; at = parentOf(at)) {
      for (const a of at.getAnimations()) {
        if (a.playState !== "running" || a.effect?.getComputedTiming().endTime === Infinity) continue;
        const effect = /** @type {KeyframeEffect | null} */ (a.effect);
        const props = (effect?.getKeyframes?.() ?? []).flatMap((k) => Object.keys(k))
          .filter((k) => !["offset", "computedOffset", "easing", "composite"].includes(k));
        if (props.length === 0 || props.some((k) => !PAINT.test(k))) return true;
      }
    }
    return false;
  };
  /**
   * Whether a clipping ancestor that cuts into an element's box is changing shape ({@link reshaping}): a panel
   * opening from height 0 (or closing) over it. The element stands still inside it, but is not ready until the
   * panel is.
   */
  const revealing = (/** @type {Element} */ e) => {
    const r = e.getBoundingClientRect();
    for (let n = parentOf(e); n; n = parentOf(n)) {
      if (n === e.ownerDocument.documentElement || n === e.ownerDocument.body) continue;
      const style = getComputedStyle(n);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const c = n.getBoundingClientRect();
      const cut = r.left < c.left - 0.5 || r.top < c.top - 0.5 || r.right > c.right + 0.5 || r.bottom > c.bottom + 0.5;
      if (cut && reshaping(n)) return true;
    }
    return false;
  };
  /** The ancestor that clips (overflow other than visible) and hides an element's box entirely, if any. */
  const clippedBy = (/** @type {Element} */ e) => {
    const r = e.getBoundingClientRect();
    for (let n = parentOf(e); n; n = parentOf(n)) {
      const style = getComputedStyle(n);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      if (n === e.ownerDocument.documentElement || n === e.ownerDocument.body) continue;
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
  /** @type {CSSNumberish | null | undefined} */
  let lastTime;
  let stableFrames = 0;
  for (;;) {
    if (!el.isConnected) return fail("detached");
    const visible = el.checkVisibility({ visibilityProperty: true, opacityProperty: false });
    const r = el.getBoundingClientRect();
    if (visible && r.width > 0 && r.height > 0) {
      if (opts.scroll !== false && (!inView(geometry(el)) || clippedBy(el)) && !scrolled) {
        el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
        scrolled = true;
        last = undefined;
      } else {
        // Two reads prove stillness only across a rendered frame: a loaded machine can fire the fallback timer
        // before the next frame, and two reads in one frame see one animation time (a moving box looks still). A
        // hidden tab renders no frames and animates nothing, so there the timer's reads count.
        const now = document.timeline.currentTime;
        const advanced = document.visibilityState === "hidden" || lastTime === undefined || now !== lastTime;
        const same = last !== undefined && last.x === r.x && last.y === r.y && last.width === r.width &&
          last.height === r.height;
        if (!same) stableFrames = 0;
        else if (advanced) stableFrames += 1;
        if (!same || advanced) {
          last = r;
          lastTime = now;
        }
        if (stableFrames >= 1 && !revealing(el)) break;
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

  /** The deepest element at a top-level viewport point: hit-tested in each document from the top down (the frame
   * chain itself may be covered), into open shadow roots and same-origin frames. */
  const hitAt = (/** @type {Element} */ target, /** @type {number} */ px, /** @type {number} */ py) => {
    /** @type {Element | null} */
    let hit = null;
    /** @type {Document | ShadowRoot} */
    let root = target.ownerDocument.defaultView?.top?.document ?? target.ownerDocument;
    let lx = px;
    let ly = py;
    for (let depth = 0; depth < 32; depth++) {
      /** @type {Element | null} */
      const found = root.elementFromPoint(lx, ly);
      if (!found) break;
      hit = found;
      /** @type {ShadowRoot | null} */
      const shadow = found.shadowRoot;
      if (shadow) {
        if (shadow.elementFromPoint(lx, ly) !== found) {
          root = shadow;
          continue;
        }
        // The host's own text, slotted into its shadow tree (a button's label): the shadow root answers the host.
        // The press goes to the slot that shows it, inside the innermost shadow element around the point.
        hit = shadow.elementsFromPoint(lx, ly).find((/** @type {Element} */ e) => e !== found && shadow.contains(e)) ??
          found;
        break;
      }
      if ((found.tagName === "IFRAME" || found.tagName === "FRAME") && found !== target) {
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
    return hit;
  };
  /**
   * Whether a press on `hit` reaches `target`: inside it (shadow-including), on one of its labels, or — for a label
   * — on the control it labels (the click a label passes on to its control).
   */
  const reaches = (/** @type {Element} */ target, /** @type {Element | null} */ hit) => {
    if (hit === null) return false;
    const labels = /** @type {HTMLInputElement} */ (target).labels;
    if (target.tagName === "LABEL" && /** @type {HTMLLabelElement} */ (target).control === hit) return true;
    return composedContains(target, hit) || (labels ? [...labels].some((l) => composedContains(l, hit)) : false);
  };
  /**
   * What keeps an element out of sight, or `null`: `clip` or `clip-path: inset(50%)` on it or an ancestor (the way
   * pages keep a control for screen readers only while a visible one stands in for it: a custom select over its
   * native one), or the clipping ancestor that cuts its box to 1 px or less (a collapsed panel, a drawer opening
   * from height 0).
   */
  const clippedAway = (/** @type {Element} */ e) => {
    let { left, top, right, bottom } = e.getBoundingClientRect();
    for (let n = /** @type {Element | null} */ (e); n; n = parentOf(n)) {
      const style = getComputedStyle(n);
      if (style.clip === "rect(0px, 0px, 0px, 0px)" || /^inset\(50%/.test(style.clipPath)) return n;
      if (n === e || (style.overflowX === "visible" && style.overflowY === "visible")) continue;
      if (n === e.ownerDocument.documentElement || n === e.ownerDocument.body) continue;
      const c = n.getBoundingClientRect();
      left = Math.max(left, c.left);
      top = Math.max(top, c.top);
      right = Math.min(right, c.right);
      bottom = Math.min(bottom, c.bottom);
      if (right - left <= 1 || bottom - top <= 1) return n;
    }
    return null;
  };
  /** Why a press at a point would not reach `target`, for the answer: what covers it (named, with its chain of ids). */
  const missed = (
    /** @type {Element} */ target,
    /** @type {Element | null} */ hit,
    /** @type {number} */ px,
    /** @type {number} */ py,
  ) => {
    const clipper = clippedAway(target);
    if (clipper) {
      const cover = hit ? coverOf(hit, target) : null;
      return {
        reason: "hidden-from-sight",
        target: describe(target),
        container: clipper === target ? undefined : describe(clipper),
        cover: cover ? describe(cover) : "nothing",
        // A panel opening (or closing) is on its way somewhere: worth waiting for, like a cover leaving.
        coverMoving: reshaping(clipper),
        x: px,
        y: py,
      };
    }
    if (hit && composedContains(hit, target)) {
      return { reason: "no-pointer-events", target: describe(target), cover: describe(hit), x: px, y: py };
    }
    const cover = hit ? coverOf(hit, target) : null;
    return {
      reason: "covered",
      target: describe(target),
      cover: cover ? describe(cover) : "nothing",
      coverIds: hit ? chainIds(hit, target) : [],
      coverMoving: hit ? animating(hit) : false,
      x: px,
      y: py,
    };
  };
  /** The centre of an element's visible part, in top-level viewport coordinates. */
  const centre = (/** @type {Element} */ e) => {
    const g = geometry(e);
    return { x: (g.seen.left + g.seen.right) / 2, y: (g.seen.top + g.seen.bottom) / 2 };
  };
  /** Every element of `host`'s subtree, its open shadow roots included (nested hosts too), in tree order. */
  const inside = (/** @type {Element} */ host) => {
    /** @type {Element[]} */
    const out = [];
    const walk = (/** @type {Element | ShadowRoot} */ root) => {
      for (const c of root.querySelectorAll("*")) {
        out.push(c);
        if (c.shadowRoot) walk(c.shadowRoot);
      }
    };
    if (host.shadowRoot) walk(host.shadowRoot);
    walk(host);
    return out;
  };
  const shown = (/** @type {Element} */ e) =>
    e.checkVisibility({ visibilityProperty: true, opacityProperty: true }) && e.closest("[aria-hidden=true]") === null;
  const takesText = (/** @type {Element} */ e) => {
    if (e.tagName === "TEXTAREA" || e.tagName === "SELECT") return true;
    if (e.tagName === "INPUT") {
      const type = (e.getAttribute("type") || "text").toLowerCase();
      return !["checkbox", "radio", "file", "submit", "button", "reset", "image", "hidden"].includes(type);
    }
    return /** @type {HTMLElement} */ (e).isContentEditable && !parentOf(e)?.closest("[contenteditable]");
  };
  const interactive = (/** @type {Element} */ e) => see?.interactive?.(e) ?? false;
  /** Where a control is pressed: itself, or its first visible label when it is invisible (a styled checkbox). */
  const pressable = (/** @type {Element} */ e) => {
    const box = e.getBoundingClientRect();
    if (shown(e) && box.width > 0 && box.height > 0 && getComputedStyle(e).pointerEvents !== "none") return e;
    const labels = /** @type {HTMLInputElement} */ (e).labels;
    return labels ? [...labels].find((l) => shown(l) && l.getBoundingClientRect().width > 0) ?? null : null;
  };
  /** The later steps of this action (armPress, finishPress) use the same hit-test; the page cannot see this world. */
  /** @type {ActKit} */
  const kit = {
    hitAt,
    reaches,
    missed,
    takesText,
    composedContains,
    inside,
    shown,
    host: el,
    press: /** @type {Element | null} */ (null),
  };
  /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis))["__mapperAct"] = kit;

  /**
   * The inner element a host delegates to, `el` itself when it does not, or a refusal listing the candidates.
   * @returns {{ press: Element, control: Element } | { candidates: Element[] }}
   */
  const delegateOf = () => {
    if (opts.delegate === "fill") {
      if (el.matches("input, textarea, select") || /** @type {HTMLElement} */ (el).isContentEditable) {
        return { press: el, control: el };
      }
      const all = inside(el).filter((e) => takesText(e) && !e.matches("[readonly]"));
      let fields = all.filter(shown);
      // A shadow root that delegates focus names the field itself: the one a click on the host would focus, even
      // one drawn transparent until then (a Material text field shows its label in the field's place).
      if (fields.length !== 1 && el.shadowRoot?.delegatesFocus) {
        /** @type {HTMLElement} */ (el).focus();
        let active = el.ownerDocument.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        if (active && all.includes(active)) fields = [active];
      }
      const [only] = fields;
      if (fields.length === 1 && only) return { press: only, control: only };
      return fields.length > 1 ? { candidates: fields } : { press: el, control: el };
    }
    if (opts.delegate !== "click") return { press: el, control: el };
    if (interactive(el)) {
      // A native checkbox or radio kept for screen readers only (under a styled one) is pressed where a user presses
      // it: on its visible label, which toggles it the same. Not a label holding a link or another control: its
      // centre could be that instead.
      const labels = /** @type {HTMLInputElement} */ (el).labels;
      const alone = (/** @type {Element} */ l) =>
        [...l.querySelectorAll("a[href], button, input, select, textarea, [tabindex]")].every((c) => c === el);
      const label = labels && el.matches("input[type=checkbox], input[type=radio]") && clippedAway(el)
        ? [...labels].find((l) => shown(l) && !clippedAway(l) && l.getBoundingClientRect().width > 1 && alone(l))
        : undefined;
      return label ? { press: label, control: label } : { press: el, control: el };
    }
    // Dead space: nothing interactive between what the centre hits and the element itself, and no pointer cursor
    // there either (the mark of a card or row made clickable by a script).
    const c = centre(el);
    const hit = hitAt(el, c.x, c.y);
    if (!hit || !composedContains(el, hit)) return { press: el, control: el };
    for (let n = /** @type {Element | null} */ (hit); n; n = n === el ? null : parentOf(n)) {
      if (n !== el && (interactive(n) || n.tagName === "LABEL")) return { press: el, control: el };
      if (getComputedStyle(n).cursor === "pointer") return { press: el, control: el };
    }
    /** @type {Array<{ press: Element, control: Element }>} */
    const found = [];
    for (const e of inside(el)) {
      if (!interactive(e) || e.matches(":disabled") || e.closest("[aria-hidden=true]")) continue;
      const press = pressable(e);
      // A control inside another candidate (an input in its label, an icon button's inner span) is that one.
      if (!press || found.some((f) => composedContains(f.press, press) || composedContains(f.control, e))) continue;
      found.push({ press, control: e });
    }
    const [one] = found;
    if (found.length === 1 && one) return one;
    return found.length > 1 ? { candidates: found.map((f) => f.control) } : { press: el, control: el };
  };

  // 2. enabled — checked at once.
  const aria = el.closest("[aria-disabled=true]");
  if (el.matches(":disabled") || aria) return fail("disabled", { target: describe(el) });

  // 3. the element the input goes to: the target, or the inner element of a host that delegates.
  const inner = delegateOf();
  if ("candidates" in inner) {
    return fail("ambiguous-inner", {
      target: describe(el),
      candidates: inner.candidates.slice(0, 10).map((c) => ({ id: see?.idOf?.(c), what: describe(c) })),
      count: inner.candidates.length,
    });
  }
  const press = inner.press;
  kit.press = press;
  const via = press === el ? undefined : describe(inner.control);
  if (press !== el && (press.matches(":disabled") || press.closest("[aria-disabled=true]"))) {
    return fail("disabled", { target: describe(el), via });
  }
  if (opts.editable) {
    const input = /** @type {HTMLInputElement} */ (press);
    const editable = press.matches("input, textarea, select") || /** @type {HTMLElement} */ (press).isContentEditable;
    if (!editable) return fail("not-editable", { target: describe(el), tag: el.tagName.toLowerCase() });
    if (input.readOnly) return fail("readonly", { target: describe(el) });
  }

  // 4. in view (verified by geometry: in the viewport, not cut off by a container), then the hit-test.
  const g = geometry(press);
  const clipper = clippedBy(press);
  if (!inView(g) || clipper) {
    return fail("offscreen", {
      target: describe(el),
      container: clipper ? describe(clipper) : undefined,
      box: { x: Math.round(g.x), y: Math.round(g.y), width: Math.round(g.width), height: Math.round(g.height) },
      viewport: { width: g.vw, height: g.vh },
    });
  }
  const px = (g.seen.left + g.seen.right) / 2;
  const py = (g.seen.top + g.seen.bottom) / 2;
  if (opts.hitTest !== false) {
    const hit = hitAt(press, px, py);
    if (!reaches(press, hit)) {
      const m = missed(press, hit, px, py);
      return fail(m.reason, m);
    }
  }
  return {
    ok: true,
    x: Math.round(px * 100) / 100,
    y: Math.round(py * 100) / 100,
    box: { x: Math.round(g.x), y: Math.round(g.y), width: Math.round(g.width), height: Math.round(g.height) },
    scrolled,
    target: describe(el),
    ...(via === undefined ? {} : { via, viaId: see?.idOf?.(inner.control) }),
    waitedMs: elapsed(),
  };
}

/**
 * The moment of the press, step 1 (after the pointer moved to the press point, right before the button goes down):
 * checks that the element under the point is still this one — the move itself may have opened a menu over it
 * (`mouseenter`) — and arms the hit-target check for the press: capture listeners on every same-origin window from
 * the element's up to the top that let the press events (`pointerdown` … `click`) through only when they land on
 * the element, and stop them (`stopImmediatePropagation`, `preventDefault`) when something else would take them.
 * It also starts watching for the press's effects: mutations of the documents and their open shadow roots, the
 * state of the pressed control (checked, pressed, expanded), form values, focus, URL and scroll position.
 * Self-contained but for the hit-test `prepareElement` left in `globalThis.__mapperAct`.
 *
 * @this {Element}
 * @param {{ x: number, y: number }} opts
 * @returns {Record<string, unknown>}
 */
export function armPress(opts) {
  // deno-lint-ignore no-this-alias
  const el = this;
  const g = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
  const kit = /** @type {ActKit | undefined} */ (g["__mapperAct"]);
  if (!kit) return { ok: false, reason: "unprepared" };
  const previous = /** @type {{ stop?: () => void } | undefined} */ (g["__mapperPress"]);
  previous?.stop?.();
  const hit = kit.hitAt(el, opts.x, opts.y);
  if (!kit.reaches(el, hit)) return { ok: false, ...kit.missed(el, hit, opts.x, opts.y) };

  const top = el.ownerDocument.defaultView?.top ?? window;
  /** @type {Window[]} */
  const windows = [];
  for (let w = /** @type {Window | null} */ (el.ownerDocument.defaultView); w; w = w === w.parent ? null : w.parent) {
    try {
      void w.document;
      windows.push(w);
    } catch {
      break; // a cross-origin parent: its events are not ours to see
    }
  }
  /** Every root to watch: the documents and their open shadow roots (nested ones too). */
  /** @type {Array<Document | ShadowRoot>} */
  const roots = [];
  const addRoot = (/** @type {Document | ShadowRoot} */ root) => {
    roots.push(root);
    for (const e of root.querySelectorAll("*")) if (e.shadowRoot) addRoot(e.shadowRoot);
  };
  for (const w of windows) addRoot(w.document);

  // The page script's API: what the browser's accessibility tree says of an element whose states live in its
  // `ElementInternals` (read by the daemon before the press, and again after it: `restate`).
  const see = /** @type {{ axOf?: (e: Element) => { role: string, states: string[] } | undefined } | undefined} */ (
    g["__mapperSee"]
  );
  /** Roles whose state is `checked`, and those whose state is `selected`, as the accessibility tree gives them. */
  const CHECKS = ["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"];
  const SELECTS = ["tab", "option", "treeitem", "gridcell", "row"];
  /**
   * The state a press may toggle, of one element: native checked, else aria-checked/pressed/expanded/selected, else
   * the same from the accessibility tree (`fromAx`: a state set on `ElementInternals`, where no script reads it).
   */
  const ownState = (/** @type {Element} */ e) => {
    if (e.tagName === "INPUT") {
      const input = /** @type {HTMLInputElement} */ (e);
      if (input.type === "checkbox" || input.type === "radio") {
        return { name: "checked", value: input.indeterminate ? "mixed" : input.checked };
      }
    }
    for (const name of ["checked", "pressed", "expanded", "selected"]) {
      const v = e.getAttribute(`aria-${name}`);
      if (v === "true" || v === "false") return { name, value: v === "true" };
      if (v === "mixed") return { name, value: "mixed" };
    }
    const ax = see?.axOf?.(e);
    if (!ax) return null;
    if (CHECKS.includes(ax.role)) return { name: "checked", value: ax.states.includes("checked"), fromAx: true };
    if (ax.states.includes("expanded") || ax.states.includes("collapsed")) {
      return { name: "expanded", value: ax.states.includes("expanded"), fromAx: true };
    }
    if (SELECTS.includes(ax.role)) return { name: "selected", value: ax.states.includes("selected"), fromAx: true };
    return null;
  };
  /**
   * The element whose state the press shows: the pressed one, its label's control, the host's, else the one
   * visible element with a state inside the host (an `<sl-select>` pressed on its box: its combobox).
   */
  const stateful = () => {
    for (const e of [el, kit.host]) {
      if (ownState(e)) return e;
      const control = e.tagName === "LABEL" ? /** @type {HTMLLabelElement} */ (e).control : null;
      if (control && ownState(control)) return control;
    }
    const inner = kit.inside(kit.host).filter(ownState);
    const shown = inner.filter(kit.shown);
    if (shown.length === 1) return shown[0] ?? null;
    // None shown: a styled control's own input, transparent over the box drawn for it (a Material checkbox).
    const drawn = shown.length === 0 ? inner.filter((e) => e.checkVisibility({ visibilityProperty: true })) : [];
    return drawn.length === 1 ? drawn[0] ?? null : null;
  };
  const holder = stateful();
  const state = () => (holder ? ownState(holder) : null);
  const fields = () =>
    roots.flatMap((r) => [...r.querySelectorAll("input, textarea, select")]).map((f) => {
      const i = /** @type {HTMLInputElement} */ (f);
      return `${i.value}\u0000${i.checked}`;
    }).join("\u0001");
  const focused = () => {
    let a = el.ownerDocument.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return a;
  };
  const before = {
    state: state(),
    fields: fields(),
    focus: focused(),
    url: top.location.href,
    scroll: `${top.scrollX},${top.scrollY}`,
  };
  let mutated = false;
  const observer = new MutationObserver(() => (mutated = true));
  for (const r of roots) observer.observe(r, { subtree: true, childList: true, attributes: true, characterData: true });

  /** @type {{ type: string, cover: Record<string, unknown> } | null} */
  let intercepted = null;
  let reached = false;
  const guard = (/** @type {Event} */ e) => {
    // Only the real press: a page's own `el.click()` (a web component submitting its form) is not ours to stop.
    if (!e.isTrusted) return;
    // Not `instanceof Node`: nodes of a same-origin frame come from that window's constructors.
    const first = /** @type {Node | undefined} */ (/** @type {unknown} */ (e.composedPath()[0]));
    const target = typeof first?.nodeType !== "number"
      ? null
      : first.nodeType === 1
      ? /** @type {Element} */ (first)
      : first.parentElement;
    if (kit.reaches(el, target)) {
      reached = true;
      return;
    }
    e.stopImmediatePropagation();
    e.preventDefault();
    const m = /** @type {MouseEvent} */ (e);
    intercepted ??= { type: e.type, cover: kit.missed(el, target, m.clientX, m.clientY) };
  };
  const TYPES = ["pointerdown", "mousedown", "pointerup", "mouseup", "click"];
  let armed = true;
  const disarm = () => {
    if (!armed) return;
    armed = false;
    for (const w of windows) for (const t of TYPES) w.removeEventListener(t, guard, { capture: true });
  };
  const last = (/** @type {Event} */ e) => {
    if (e.type === "click") setTimeout(disarm, 0);
  };
  for (const w of windows) {
    for (const t of TYPES) w.addEventListener(t, guard, { capture: true });
    w.addEventListener("click", last, { capture: true, once: true });
  }
  // Never left armed: a press that opened a dialog never comes back for finishPress.
  const timer = setTimeout(disarm, 2000);

  g["__mapperPress"] = {
    el,
    holder,
    stopped: false,
    /** @this {{ stopped: boolean }} */
    stop() {
      this.stopped = true;
      disarm();
      clearTimeout(timer);
      observer.disconnect();
    },
    outcome() {
      if (observer.takeRecords().length > 0) mutated = true;
      /** @type {string[]} */
      const effects = [];
      const now = state();
      const changed = before.state !== null && now !== null && before.state.value !== now.value;
      if (changed) effects.push("state");
      if (mutated) effects.push("dom");
      if (fields() !== before.fields) effects.push("value");
      // Focus counts when it went to a field (a caret) or away from what was pressed (a dialog's first field); a
      // button taking focus because it was clicked is no visible effect.
      const f = focused();
      if (
        f !== before.focus && f !== null && f !== f.ownerDocument.body &&
        (kit.takesText(f) || !(kit.composedContains(el, f) || kit.composedContains(f, el)))
      ) {
        effects.push("focus");
      }
      if (top.location.href !== before.url) effects.push("url");
      if (`${top.scrollX},${top.scrollY}` !== before.scroll) effects.push("scroll");
      return {
        intercepted,
        reached,
        effects,
        ...(before.state && now
          ? { state: { name: before.state.name, before: before.state.value, after: now.value } }
          : {}),
        // The state after the press is the accessibility tree's: the daemon reads it again, then `restate`.
        ...(before.state?.fromAx ? { axHolder: true } : {}),
      };
    },
  };
  return { ok: true };
}

/**
 * The moment of the press, step 2 (after the button went up): disarms the hit-target check and says whether the
 * press reached the element (`intercepted`: what took it instead, stopped before the page saw it), then waits up
 * to `opts.windowMs` for a visible effect, answering as soon as one shows: the control's state before → after
 * and what changed (`state`, `dom`, `value`, `focus`, `url`, `scroll`; none is "no visible effect"). A second call
 * (`windowMs: 0`, when the daemon saw a request or a navigation start) answers at once and ends the first one's
 * wait.
 *
 * @this {Element}
 * @param {{ windowMs: number }} opts
 * @returns {Promise<Record<string, unknown>>}
 */
export async function finishPress(opts) {
  const g = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
  const p = /** @type {{ el: Element, stopped: boolean, stop: () => void, outcome: () => Record<string, unknown> }
    | undefined} */
    (g["__mapperPress"]);
  if (!p || p.el !== this) return { armed: false };
  const started = performance.now();
  let out = p.outcome();
  while (
    !p.stopped && !out.intercepted && /** @type {string[]} */ (out.effects).length === 0 &&
    performance.now() - started < opts.windowMs
  ) {
    await new Promise((resolve) => {
      const t = setTimeout(resolve, 50);
      requestAnimationFrame(() => {
        clearTimeout(t);
        resolve(undefined);
      });
    });
    out = p.outcome();
  }
  p.stop();
  // Only this press's record: a later click may have armed its own meanwhile.
  if (g["__mapperPress"] === p) {
    g["__mapperPress"] = undefined;
    // Kept for `restate` when the holder's state is the accessibility tree's.
    g["__mapperPressed"] = out.axHolder ? p : undefined;
  }
  return out;
}

/**
 * After a press whose control keeps its state in `ElementInternals` (`finishPress` answered `axHolder`): without
 * facts, the element whose state the press shows, for the daemon to read the accessibility tree of; given the facts
 * it read there (`null`: none), records them with the page script and answers the press's outcome again: the same
 * before → after as for a native control, the after now the browser's.
 *
 * @this {Element}
 * @param {Record<string, unknown> | null} [facts]
 * @returns {unknown}
 */
export function restate(facts) {
  const g = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
  const p = /** @type {{ el: Element, holder: Element | null, outcome: () => Record<string, unknown> } | undefined} */ (
    g["__mapperPressed"]
  );
  if (!p || p.el !== this || !p.holder) return null;
  if (facts === undefined) return p.holder;
  g["__mapperPressed"] = undefined;
  const see = /** @type {{ give?: (e: Element, facts: unknown) => void } | undefined} */ (g["__mapperSee"]);
  see?.give?.(p.holder, facts);
  return p.outcome();
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
