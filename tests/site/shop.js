// deno-lint-ignore-file no-console
// The test shop: a small single-page app with the traps the snapshot/act tests need. Pages by path:
//   /shop/                  catalog: cookie overlay (unless ?consent=1), product grid after a delay (?delay=MS,
//                           default 300), 24 ProductCards in a `display: contents` wrapper, 30 filters, a far-below
//                           card in a scrolling box, a confirm() button, a ~2,000-element page
//   /shop/product/:id       one product (quantity input prefilled with 1)
//   /shop/login             LoginForm with React-style controlled inputs (direct value assignment is ignored)
//   /shop/account/**        account pages
//   /shop/old-sale          client-side redirect to /shop/ after 100 ms (well inside navigate's 400 ms window)
//   /shop/help              a same-origin iframe (shop-help-frame.html) and an open shadow root with a button
//   /shop/ticker            a clock that changes every 10 ms forever (never settles, even on a loaded machine)
//   /shop/blank             no interactive node at all
//   /shop/loading           a loading placeholder that never resolves
"use strict";

const NAMES = [
  "Aurora Floor Lamp",
  "Basalt Coffee Mug",
  "Cedar Cutting Board",
  "Cedar Cutting Board XL",
  "Dune Linen Throw",
  "Ember Tea Kettle",
  "Fjord Wool Blanket",
  "Grove Plant Pot",
  "Harbor Rope Basket",
  "Iris Glass Vase",
  "Juniper Candle",
  "Kiln Stoneware Bowl",
  "Lumen Desk Lamp",
  "Meadow Napkin Set",
  "Nordic Oak Stool",
  "Orchard Fruit Bowl",
  "Pebble Soap Dish",
  "Quarry Marble Tray",
  "Reed Diffuser",
  "Slate Serving Board",
  "Tundra Wool Rug",
  "Umber Clay Planter",
  "Vale Cotton Towel",
  "Willow Wall Hook",
];
/** Products whose "Add to cart" button is disabled. */
const SOLD_OUT = new Set([3, 13]);

const params = new URLSearchParams(location.search);
const main = document.getElementById("main");

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, "");
    else if (v !== false && v !== undefined) e.setAttribute(k, String(v));
  }
  for (const c of children) e.append(c);
  return e;
}

function footer() {
  const f = document.querySelector(".site-footer");
  for (let i = 1; i <= 35; i++) f.append(el("a", { href: `/shop/page/${i}`, text: `Footer link ${i}` }), " ");
}

function setCartCount(n) {
  document.querySelector(".cart-count").textContent = String(n);
}

async function addToCart(id) {
  const res = await fetch("/api/cart", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ product_id: id }),
  });
  const body = await res.json();
  setCartCount(body.count);
  console.log(`Added to cart: ${id}`);
}

function cookieOverlay() {
  if (params.get("consent") === "1") return;
  const close = () => overlay.remove();
  const overlay = el(
    "div",
    { class: "cookie-consent", role: "dialog", "aria-modal": "true", "aria-label": "We value your privacy" },
    el(
      "div",
      { class: "panel" },
      el("p", { text: "We use cookies to make the shop work." }),
      el("button", { class: "cookie-accept", type: "button", text: "Accept all", onclick: close }),
      el("button", { class: "cookie-dismiss", type: "button", text: "Dismiss", onclick: close }),
    ),
  );
  document.body.append(overlay);
}

function productCard(i) {
  const id = i + 1;
  const name = NAMES[i];
  const soldOut = SOLD_OUT.has(id);
  const price = (9.99 + i * 3).toFixed(2);
  const stars = el("div", { class: "stars", "aria-label": `${4 - (i % 3)} of 5 stars` });
  for (let s = 0; s < 5; s++) stars.append(el("span", { class: "star", "aria-hidden": "true", text: "★" }));
  const details = el("ul", { class: "details" });
  for (const d of ["Hand made", "Ships in 2 days", "Free returns"]) details.append(el("li", { text: d }));
  return el(
    "article",
    { class: "product-card", "data-id": id },
    el("a", { class: "product-link", href: `/shop/product/${id}` }, el("h3", { class: "name", text: name })),
    el("span", { class: "price", text: price }),
    soldOut ? el("span", { class: "sold-out", "aria-label": "Sold out", text: "Sold out" }) : "",
    stars,
    details,
    el("button", {
      class: "add-to-cart",
      type: "button",
      disabled: soldOut,
      text: "Add to cart",
      onclick: () => addToCart(id),
    }),
  );
}

function catalog() {
  cookieOverlay();
  main.append(el("h1", { text: "Catalog" }));
  const filters = el("fieldset", { class: "filters" }, el("legend", { text: "Filters" }));
  for (let i = 1; i <= 30; i++) {
    filters.append(
      el(
        "label",
        { class: "filter" },
        el("input", { type: "checkbox", name: "filter", value: `f${i}` }),
        ` Filter ${i}`,
      ),
    );
  }
  main.append(filters);
  const grid = el(
    "section",
    { class: "grid", "aria-label": "Products" },
    el("p", { class: "loading", text: "Loading products…" }),
  );
  main.append(grid);
  const delay = Number(params.get("delay") ?? "300");
  setTimeout(() => {
    grid.textContent = "";
    const rows = el("div", { class: "rows" });
    for (let i = 0; i < NAMES.length; i++) rows.append(productCard(i));
    grid.append(rows);
  }, delay);
  const scroller = el(
    "div",
    { class: "scroller", "aria-label": "Recommended" },
    el("div", { class: "spacer" }),
    el(
      "div",
      { class: "recommended-card" },
      el("span", { class: "name", text: "Hidden Gem Lantern" }),
      el("button", { type: "button", class: "rec-add", text: "Add recommended" }),
    ),
  );
  main.append(scroller);
  main.append(el("button", {
    type: "button",
    class: "clear-cart",
    text: "Clear cart",
    onclick: () => {
      if (confirm("Really clear the cart?")) setCartCount(0);
    },
  }));
  main.append(el("button", {
    type: "button",
    class: "checkout",
    text: "Checkout",
    onclick: async () => {
      const res = await fetch("/api/checkout", { method: "POST", body: "{}" });
      const body = await res.json();
      if (!body.ok) console.error(`Checkout failed: ${res.status} ${body.error}`);
    },
  }));
  // Reviews and a hidden mega menu bring the page to about 2,000 elements, as a real shop page has.
  const reviews = el("section", { class: "reviews", "aria-label": "Reviews" }, el("h2", { text: "Reviews" }));
  for (let r = 0; r < 110; r++) {
    reviews.append(
      el(
        "div",
        { class: "review" },
        el(
          "div",
          { class: "meta" },
          el("span", { class: "who", text: `Reviewer ${r}` }),
          el("time", { text: "2026-01-01" }),
        ),
        el("p", {}, el("span", { text: "Lovely product, " }), el("em", { text: "would buy again" }), "."),
        el("div", { class: "votes" }, el("span", { text: `${r} found this helpful` })),
      ),
    );
  }
  main.append(reviews);
  const mega = el("nav", { class: "mega-menu", "aria-label": "All departments" });
  for (let d = 0; d < 40; d++) {
    const list = el("ul", {});
    for (let k = 0; k < 5; k++) {
      list.append(el("li", {}, el("a", { href: `/shop/d/${d}/${k}`, text: `Dept ${d}.${k}` })));
    }
    mega.append(el("div", {}, el("h4", { text: `Department ${d}` }), list));
  }
  document.body.append(mega);
}

function product(id) {
  const name = NAMES[Number(id) - 1] ?? "Unknown";
  main.append(
    el(
      "article",
      { class: "product-detail", "data-id": id },
      el("h1", { class: "name", text: name }),
      el("label", {}, "Quantity ", el("input", { class: "quantity", type: "number", name: "quantity", value: "1" })),
      el("button", { class: "add-to-cart", type: "button", text: "Add to cart", onclick: () => addToCart(Number(id)) }),
    ),
  );
}

/** An input whose value is owned by "framework state", as React's controlled inputs are. */
function controlledInput(attrs, state, key) {
  const input = el("input", attrs);
  const proto = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value");
  let tracked = "";
  // React's value tracker: a programmatic assignment updates the tracker, so the next input event looks like
  // "no change" and is ignored; only real typing (which bypasses this setter) changes state.
  Object.defineProperty(input, "value", {
    configurable: true,
    get() {
      return proto.get.call(this);
    },
    set(v) {
      tracked = String(v);
      proto.set.call(this, v);
    },
  });
  input.addEventListener("input", () => {
    const now = proto.get.call(input);
    if (now === tracked) return;
    tracked = now;
    state[key] = now;
  });
  // Re-render from state on blur: a value the framework never saw disappears.
  input.addEventListener("blur", () => {
    proto.set.call(input, state[key]);
    tracked = state[key];
  });
  return input;
}

function login() {
  const state = { username: "", password: "" };
  const result = el("p", { class: "login-result", role: "status" });
  const form = el(
    "form",
    { class: "login-form", "aria-label": "Sign in" },
    el("label", {}, "Username ", controlledInput({ class: "username", name: "username" }, state, "username")),
    el(
      "label",
      {},
      "Password ",
      controlledInput({ class: "password", name: "password", type: "password" }, state, "password"),
    ),
    el("label", {}, "Promo code ", el("input", { class: "promo", name: "promo", value: "SPRING" })),
    el("button", { type: "submit", class: "login-submit", text: "Sign in" }),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    result.textContent = `state: ${state.username}/${state.password}`;
  });
  main.append(el("h1", { text: "Sign in" }), form, result);
}

function account(rest) {
  main.append(
    el("h1", { text: "Your account" }),
    el("p", { text: rest }),
    el("a", { href: "/shop/", text: "Back to the shop" }),
  );
}

function help() {
  main.append(el("h1", { text: "Help" }), el("iframe", { src: "/shop-help-frame.html", title: "Help widget" }));
  const host = el("chat-launcher", {});
  host.attachShadow({ mode: "open" }).append(
    el("button", { type: "button", class: "chat-open", text: "Chat with us" }),
  );
  main.append(host);
}

function route() {
  const path = location.pathname.replace(/\/+$/, "") || "/";
  footer();
  if (path === "/shop") return catalog();
  if (path.startsWith("/shop/product/")) return product(path.slice("/shop/product/".length));
  if (path === "/shop/login") return login();
  if (path === "/shop/help") return help();
  if (path === "/shop/ticker") {
    const clock = el("p", { class: "clock", role: "timer", text: "0" });
    main.append(clock, el("button", { type: "button", text: "Stop" }));
    setInterval(() => (clock.textContent = String(Date.now())), 10);
    return;
  }
  if (path.startsWith("/shop/account/")) return account(path.slice("/shop/account/".length));
  if (path === "/shop/old-sale") {
    main.append(el("p", { text: "The sale moved…" }));
    setTimeout(() => location.replace("/shop/?consent=1"), 100);
    return;
  }
  if (path === "/shop/blank") {
    document.body.textContent = "";
    return;
  }
  if (path === "/shop/loading") {
    document.body.textContent = "";
    document.body.append(el("p", { class: "loading", text: "Loading…" }));
    return;
  }
  main.append(el("h1", { text: "Not found" }));
}

route();
