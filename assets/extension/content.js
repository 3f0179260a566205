// Content script (classic script: MV3 content scripts cannot be modules, so core.js comes in by dynamic import).
// Gets the corpus from the service worker (which alone talks to the mapper server), resolves the one active view
// of location.pathname with the shared resolver (resolver.js, re-exported by core.js), resolves hovered/clicked/typed-into elements to component paths, draws the hover
// overlay while a Mapper panel is open, and reports events to the worker.
// deno-lint-ignore-file no-console

(async () => {
  /** @type {typeof import("./core.js")} */
  const core = await import(chrome.runtime.getURL("core.js"));

  /** @type {import("./core.js").Corpus | null} */
  let corpus = null;
  let overlayVisible = false;
  /** @type {chrome.runtime.Port | null} */
  let port = null;
  /** @type {{ pathname: string, version: number, active: ReturnType<typeof core.activeComponents> } | null} */
  let activeCache = null;

  /** @type {import("./core.js").Dom<Element>} */
  const dom = {
    closest: (el, selector) => el.closest(selector),
    contains: (ancestor, el) => ancestor.contains(el),
    depth: (el) => {
      let n = 0;
      for (let p = el.parentElement; p; p = p.parentElement) n++;
      return n;
    },
    querySelector: deepQuery,
    text: (el) => el.textContent ?? "",
    attr: (el, name) => el.getAttribute(name),
    innerText: (el) => (el instanceof HTMLElement ? el.innerText : el.textContent ?? ""),
    textOnly: (el) => {
      const copy = el.cloneNode(true);
      if (!(copy instanceof Element)) return "";
      for (const skip of copy.querySelectorAll("img, svg, [alt]")) skip.remove();
      return copy.textContent ?? "";
    },
    innerHtml: (el) => el.innerHTML,
  };

  /**
   * The first element inside `el` matching `selector`, looking into open shadow roots when the light DOM has none
   * (authoring spec §6: `exists:` sees shadow DOM). Throws on an invalid selector, like `querySelector`.
   * @param {Element | ShadowRoot} el
   * @param {string} selector
   * @returns {Element | null}
   */
  function deepQuery(el, selector) {
    const found = el.querySelector(selector);
    if (found !== null) return found;
    for (const host of el.querySelectorAll("*")) {
      if (!host.shadowRoot) continue;
      const inner = deepQuery(host.shadowRoot, selector);
      if (inner !== null) return inner;
    }
    return null;
  }

  function active() {
    if (corpus === null) return { view: null, components: [] };
    const pathname = location.pathname;
    if (activeCache?.pathname !== pathname || activeCache.version !== corpus.version) {
      activeCache = { pathname, version: corpus.version, active: core.activeComponents(corpus, pathname) };
      reportPage();
    }
    return activeCache.active;
  }

  function reportPage() {
    if (corpus === null || activeCache === null) return;
    post({
      type: "page",
      url: location.href,
      view: activeCache.active.view,
      componentCount: activeCache.active.components.length,
    });
  }

  /** @param {unknown} message */
  function post(message) {
    try {
      port?.postMessage(message);
    } catch {
      port = null;
    }
  }

  /** @param {Element} target */
  function resolve(target) {
    return core.resolvePath(target, active().components, dom);
  }

  /** @param {Element} el */
  function describeElement(el) {
    const labelledBy = el.getAttribute("aria-labelledby");
    const labelled = labelledBy
      ? labelledBy.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? "").join(" ")
      : "";
    const name = el.getAttribute("aria-label") || labelled || el.textContent || el.getAttribute("placeholder") ||
      "";
    return {
      role: core.roleOf(el.tagName, {
        role: el.getAttribute("role"),
        type: el.getAttribute("type"),
        href: el.hasAttribute("href"),
      }),
      name: core.cleanValue(name).slice(0, 80),
    };
  }

  /** @param {{ path: import("./core.js").PathEntry<Element>[] }} resolved */
  function plainPath(resolved) {
    return resolved.path.map((e) => ({ name: e.name, view: e.component.view, properties: e.properties }));
  }

  // ---- Overlay (in a closed shadow root, so page styles and page mutation observers leave it alone) ------------

  /** @type {{ host: HTMLElement, boxes: HTMLElement, tip: HTMLElement } | null} */
  let overlay = null;
  const TIER_COLOURS = { 1: "#4CAF50", 2: "#2196F3", 3: "#F44336" };

  function ensureOverlay() {
    if (overlay?.host.isConnected) return overlay;
    const host = document.createElement("mapper-overlay");
    host.id = "__mapper-overlay";
    host.style.cssText = "all:initial;position:fixed;inset:0;pointer-events:none;z-index:2147483646;";
    const root = host.attachShadow({ mode: "closed" });
    root.innerHTML = `<style>
      .box{position:fixed;box-sizing:border-box;border:1px solid #2196F3;pointer-events:none}
      .tip{position:fixed;max-width:460px;padding:4px 7px;border-radius:4px;background:#1e1e1e;color:#eee;
        font:12px/1.4 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;word-break:break-word;
        box-shadow:0 2px 8px rgba(0,0,0,.35);pointer-events:none}
      .tip.orphan{color:#ff8a80}</style><div class="boxes"></div><div class="tip" hidden></div>`;
    document.documentElement.appendChild(host);
    overlay = {
      host,
      boxes: /** @type {HTMLElement} */ (root.querySelector(".boxes")),
      tip: /** @type {HTMLElement} */ (root.querySelector(".tip")),
    };
    return overlay;
  }

  function hideOverlay() {
    if (!overlay) return;
    overlay.boxes.replaceChildren();
    overlay.tip.hidden = true;
  }

  /** @type {Element | null} */
  let hovered = null;
  let lastHover = "";
  let frame = 0;

  function scheduleRender() {
    if (frame || !overlayVisible || hovered === null) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      render();
    });
  }

  function render() {
    if (!overlayVisible || corpus === null || hovered === null || !hovered.isConnected) return hideOverlay();
    const resolved = resolve(hovered);
    const o = ensureOverlay();
    const boxes = resolved.path.map((entry, i) => {
      const r = entry.element.getBoundingClientRect();
      const box = document.createElement("div");
      box.className = "box";
      const innermost = i === resolved.path.length - 1;
      const colour = innermost ? TIER_COLOURS[resolved.tier] : "#2196F3";
      box.style.cssText = `left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${r.height}px;` +
        (innermost ? `border:2px solid ${colour};background:${colour}1a;` : "");
      return box;
    });
    o.boxes.replaceChildren(...boxes);
    const formatted = core.formatPath(resolved.path);
    o.tip.textContent = formatted || "(no component)";
    o.tip.classList.toggle("orphan", formatted === "");
    o.tip.hidden = false;
    const anchor = (resolved.path[resolved.path.length - 1]?.element ?? hovered).getBoundingClientRect();
    const tipBox = o.tip.getBoundingClientRect();
    const top = anchor.top - tipBox.height - 6 >= 0 ? anchor.top - tipBox.height - 6 : anchor.bottom + 6;
    o.tip.style.left = `${Math.max(4, Math.min(anchor.left, innerWidth - tipBox.width - 4))}px`;
    o.tip.style.top = `${Math.max(4, Math.min(top, innerHeight - tipBox.height - 4))}px`;
    if (formatted !== lastHover) {
      lastHover = formatted;
      post({ type: "hover", url: location.href, path: plainPath(resolved), formatted, tier: resolved.tier });
    }
  }

  document.addEventListener("mousemove", (e) => {
    const target = e.target instanceof Element ? e.target : null;
    if (target === hovered) return;
    hovered = target;
    scheduleRender();
  }, { capture: true, passive: true });
  document.documentElement.addEventListener("mouseleave", () => {
    hovered = null;
    hideOverlay();
  });
  addEventListener("scroll", scheduleRender, { capture: true, passive: true });
  addEventListener("resize", scheduleRender, { passive: true });
  new MutationObserver((records) => {
    if (records.some((r) => r.target !== overlay?.host)) scheduleRender();
  }).observe(document.documentElement, { childList: true, subtree: true, attributes: true, characterData: true });

  // ---- Events ---------------------------------------------------------------------------------------------------

  /**
   * @param {string} type
   * @param {Element} target
   */
  function emit(type, target) {
    if (corpus === null) return;
    const resolved = resolve(target);
    const element = { ...describeElement(target), tier: resolved.tier };
    const path = plainPath(resolved);
    const formatted = core.formatEvent(type, resolved.path, element);
    console.log(`[mapper] ${formatted}`);
    post({ type: "event", event: { type, timestamp: Date.now(), url: location.href, path, formatted, element } });
  }

  document.addEventListener("click", (e) => {
    if (e.target instanceof Element) emit("click", e.target);
  }, { capture: true, passive: true });

  // One "input" event per field once typing pauses, not one per keystroke.
  /** @type {Map<Element, number>} */
  const pendingInput = new Map();
  document.addEventListener("input", (e) => {
    const target = e.target;
    if (!(target instanceof Element)) return;
    clearTimeout(pendingInput.get(target));
    pendingInput.set(
      target,
      setTimeout(() => {
        pendingInput.delete(target);
        emit("input", target);
      }, 400),
    );
  }, { capture: true, passive: true });

  // Single-page apps: re-evaluate the active view when the URL changes.
  const onNavigate = () => setTimeout(() => corpus && active(), 0);
  addEventListener("popstate", onNavigate);
  addEventListener("hashchange", onNavigate);
  // @ts-ignore: the Navigation API is not in every lib.dom
  globalThis.navigation?.addEventListener?.("currententrychange", onNavigate);

  // ---- Worker connection ----------------------------------------------------------------------------------------

  /** @param {any} message */
  function onMessage(message) {
    if (message?.type === "corpus" || message?.type === "state") {
      const next = message.corpus ? core.normalizeCorpus(message.corpus) : null;
      if (next && (next.version !== corpus?.version || next.site !== corpus.site)) {
        const previous = corpus;
        corpus = next;
        activeCache = null;
        const what = `${next.componentCount} component${next.componentCount === 1 ? "" : "s"}`;
        console.log(
          previous
            ? `[mapper] corpus updated v${previous.version} → v${next.version}: ${what} from ${next.site}`
            : `[mapper] loaded ${what} from ${next.site} v${next.version}`,
        );
        const { view } = active();
        console.log(`[mapper] active view on ${location.pathname}: ${view ? view.name : "(none)"}`);
      }
    }
    if (typeof message?.overlay === "boolean" && message.overlay !== overlayVisible) {
      overlayVisible = message.overlay;
      lastHover = "";
      if (overlayVisible) scheduleRender();
      else hideOverlay();
    }
  }

  function connect() {
    if (!chrome.runtime?.id) return; // the extension was reloaded or removed: this script is orphaned
    try {
      port = chrome.runtime.connect({ name: "content" });
    } catch {
      return;
    }
    port.onMessage.addListener(onMessage);
    port.onDisconnect.addListener(() => {
      port = null;
      setTimeout(connect, 1000); // the worker was stopped; reconnecting wakes it
    });
    reportPage();
  }
  connect();

  // DevTools panel and side panel ask for the live picture of this tab.
  chrome.runtime.onMessage.addListener((message, _sender, reply) => {
    if (message?.type !== "inspect") return false;
    const { view, components } = active();
    reply({
      url: location.href,
      loaded: corpus !== null,
      version: corpus?.version ?? null,
      view,
      components: core.countMatches(components, (s) => document.querySelectorAll(s).length),
    });
    return false;
  });
})();
