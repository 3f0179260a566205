import assert from "node:assert/strict";
import { formatFill, formatNavigate, formatPointer, formatScroll, formatTabs, formatWait } from "./_act_format.ts";
import { targetLabel } from "./daemon/act_routes.ts";

Deno.test("targetLabel - a matched element is named with its properties and its nearest matched ancestor", () => {
  assert.equal(
    targetLabel({
      id: 35,
      component: "AddToCartButton",
      props: [],
      ancestors: [{ component: "SiteMain", props: [] }, {
        component: "ProductCard",
        props: [["name", "Basalt Coffee Mug"]],
      }],
      role: "button",
      name: "Add to cart",
      states: [],
      hidden: false,
    }),
    'AddToCartButton "Add to cart" (id 35) in ProductCard name="Basalt Coffee Mug"',
  );
  assert.equal(
    targetLabel({
      id: 7,
      component: null,
      props: [],
      ancestors: [],
      role: "button",
      name: "Clear cart",
      states: [],
      hidden: false,
    }),
    'button "Clear cart" (id 7)',
  );
  // The accessible name is left out when a property already says it.
  assert.equal(
    targetLabel({
      id: 3,
      component: "FilterCheckbox",
      props: [["label", "Filter 1"]],
      ancestors: [],
      role: "checkbox",
      name: "Filter 1",
      states: [],
      hidden: false,
    }),
    'FilterCheckbox label="Filter 1" (id 3)',
  );
});

Deno.test("act lines - one confirmation line; a dialog the click opened gets a second line naming the command", () => {
  assert.equal(
    formatPointer({ action: "click", target: 'button "Go" (id 1)', x: 10.4, y: 20.6, scrolled: true }),
    'clicked button "Go" (id 1) at (10, 21) (scrolled into view)\n',
  );
  const withDialog = formatPointer({
    action: "click",
    target: "t",
    x: 1,
    y: 2,
    scrolled: false,
    dialog: { type: "prompt", message: "Name?", defaultPrompt: "", url: "" },
  });
  assert.match(
    withDialog,
    /\n {2}a prompt dialog opened: "Name\?" — the page waits; answer it with 'mapper browser dialog accept --text T'/,
  );
  // What a click did: the state it toggled (through the inner control it pressed), nothing at all, or other changes.
  const base = { action: "click" as const, target: "T (id 3)", x: 5, y: 6, scrolled: false };
  assert.equal(
    formatPointer({
      ...base,
      via: 'checkbox "I agree"',
      state: { name: "checked", before: false, after: true },
      effects: ["state", "dom"],
    }),
    'clicked T (id 3) through its checkbox "I agree" at (5, 6) — checked false → true\n',
  );
  assert.equal(
    formatPointer({ ...base, effects: [] }),
    "clicked T (id 3) at (5, 6) — no visible effect (nothing on the page changed within 500 ms, no request, no navigation)\n",
  );
  assert.equal(
    formatPointer({ ...base, state: { name: "expanded", before: true, after: true }, effects: [] }),
    "clicked T (id 3) at (5, 6) — no visible effect (nothing on the page changed within 500 ms, no request, no navigation; " +
      "it stayed expanded true)\n",
  );
  assert.equal(formatPointer({ ...base, effects: ["dom"] }), "clicked T (id 3) at (5, 6)\n");
  assert.equal(
    formatFill({ action: "fill", target: "X", id: 1, via: 'textbox "City"', value: "Lisbon" }),
    'filled X through its textbox "City" with "Lisbon"\n',
  );
  assert.equal(formatFill({ action: "fill", target: "X", id: 1, value: "bob" }), 'filled X with "bob"\n');
  assert.equal(
    formatFill({ action: "fill", target: "X", id: 1, value: "no", option: "Norway" }),
    'chose "Norway" in X\n',
  );
  assert.equal(
    formatScroll({ action: "scroll", scroller: "document", position: { x: 0, y: 900 }, atEnd: true }),
    "scrolled the document to (0, 900) — it did not move: already at the end\n",
  );
  assert.equal(
    formatWait({ action: "wait-for", condition: "--load", gone: false, waitedMs: 3, atOnce: true, url: "u" }),
    "--load holds (at once)\n",
  );
});

Deno.test("act lines - navigation says who redirected; page text is escaped", () => {
  assert.equal(
    formatNavigate({
      action: "navigate",
      requested: "http://a/old",
      url: "http://a/new",
      redirected: "client",
      loaded: true,
    }),
    "navigated to http://a/new (redirected from http://a/old by the page)\n",
  );
  assert.equal(
    formatTabs([{ id: "ABCDEF0123", url: "http://a/", title: "T\u001b[31m", view: null }]),
    'ABCDEF01  http://a/  "T\\u001b[31m"  [--]\n',
  );
  // A new tab whose first page is committing is listed without a URL: the line says so instead of leaving a gap.
  assert.equal(formatTabs([{ id: "ABCDEF0123", url: "", title: "", view: null }]), "ABCDEF01  (opening)  [--]\n");
});
