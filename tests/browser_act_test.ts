/**
 * The acting commands (`mapper browser navigate|click|fill|hover|keypress|scroll|wait-for|eval|screenshot|tabs|
 * dialog`) run as a user runs them, in real Chromium, on the test shop and its traps: a cookie overlay, a delayed
 * product grid, React-style controlled inputs, prefilled fields, disabled sold-out buttons, 24 identical "Add to
 * cart" buttons, a card far below the fold, a box that scrolls on its own, a confirm(), a client redirect, a
 * second tab. Each step guards one failure another tool showed (see the issue).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, tempDir } from "./_helpers.ts";
import { startSite } from "./site/server.ts";
import { firstAsSubprocess, firstOfEachAsSubprocess } from "./_in_process.ts";
import { skipBrowserTests, startSession, waitFor } from "./site/harness.ts";

const SHOP = join(ROOT, "tests", "fixtures", "shop");
const BASALT = 'ProductCard[name="Basalt Coffee Mug"] AddToCartButton';

/** The id of the first snapshot node (in `--json` output) whose accessible name is `name`. */
function idByName(snapshot: unknown, name: string): number {
  const walk = (n: unknown): number | undefined => {
    if (!n || typeof n !== "object") return undefined;
    const o = n as { id?: number; name?: string; children?: unknown[]; tree?: unknown };
    if (o.name === name && typeof o.id === "number") return o.id;
    for (const c of [...(o.tree ? [o.tree] : []), ...(o.children ?? [])]) {
      const hit = walk(c);
      if (hit !== undefined) return hit;
    }
    return undefined;
  };
  const id = walk(snapshot);
  if (id === undefined) throw new Error(`no node named "${name}" in the snapshot`);
  return id;
}

Deno.test({
  name: "browser acting commands - act by query on the test shop and refuse what a user could not do",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using site = startSite();
    await using s = await startSession(["--url", `${site.origin}/shop/`], SHOP);
    const run = firstOfEachAsSubprocess(s.run, { cwd: s.cwd, env: s.env });
    const act = (...args: string[]) => run(["browser", ...args]);
    const evalJs = async (js: string) => {
      const r = await act("eval", js);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    const snapshotId = async (name: string) => {
      const r = await run(["snapshot", "--json"]);
      assert.equal(r.code, 0, r.stderr);
      return String(idByName(JSON.parse(r.stdout), name));
    };

    await t.step(
      "the first commands after 'browser start --detach --url' work; wait-for --load then holds at once",
      async () => {
        const grid = await act("wait-for", "--component", "ProductCard");
        assert.equal(grid.code, 0, grid.stderr);
        assert.match(grid.stdout, /^--component "ProductCard" holds /);
        const load = await act("wait-for", "--load");
        assert.equal(load.code, 0, load.stderr);
        assert.equal(load.stdout, "--load holds (at once)\n");
        assert.equal(load.stderr, "");
      },
    );

    await t.step(
      "a click under the cookie overlay is refused at once, naming the overlay; nothing is clicked",
      async () => {
        // A long bound: a refusal that waited it out would take a minute instead of answering at once.
        const r = await act("click", BASALT, "--timeout-ms", "60000");
        assert.equal(r.code, 1);
        assert.equal(r.stdout, "");
        assert.match(
          r.stderr,
          /^mapper browser click: AddToCartButton "Add to cart" \(id \d+\) in ProductCard .*name="Basalt Coffee Mug".* is covered by CookieConsent \(dialog "We value your privacy"\); the click would land on it — /,
        );
        assert.equal(await evalJs('document.querySelector(".cart-count").textContent'), "0");
      },
    );

    await t.step("typing under the overlay is refused too, and the field stays empty", async () => {
      const r = await act("fill", "SearchInput", "lamp");
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^mapper browser fill: SearchInput .* is covered by CookieConsent /);
      assert.equal(await evalJs('document.querySelector(".search-input").value'), "");
      const key = await act("keypress", "a", "--target", "SearchInput");
      assert.equal(key.code, 1);
      assert.match(key.stderr, /is covered by CookieConsent/);
    });

    await t.step("accepting the overlay by query clears the way", async () => {
      const r = await act("click", "AcceptCookies");
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^clicked AcceptCookies "Accept all" \(id \d+\) in CookieConsent at \(\d+, \d+\)\n$/);
      assert.equal(await evalJs('document.querySelector(".cookie-consent") === null'), true);
    });

    await t.step("a click on a disabled (sold-out) button is an error, not 'clicked'", async () => {
      const r = await act("click", 'ProductCard[name="Cedar Cutting Board"] AddToCartButton');
      assert.equal(r.code, 1);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /^mapper browser click: AddToCartButton .*name="Cedar Cutting Board".* is disabled — /);
    });

    await t.step("24 identical buttons: a bare query is ambiguous; the card's name picks one", async () => {
      const many = await act("click", "AddToCartButton");
      assert.notEqual(many.code, 0);
      assert.match(many.stderr, /matched 24/);
      const r = await act("click", BASALT);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stdout,
        /^clicked AddToCartButton "Add to cart" \(id \d+\) in ProductCard .*name="Basalt Coffee Mug"/,
      );
      await waitFor(
        "the cart count to reach 1",
        async () => (await evalJs('document.querySelector(".cart-count").textContent')) === "1",
      );
    });

    await t.step(
      "a click right after a navigation waits for the delayed product grid; a misspelt name fails at once",
      async () => {
        const nav = await act("navigate", `${site.origin}/shop/?consent=1&delay=1500`);
        assert.equal(nav.code, 0, nav.stderr);
        const r = await act("click", 'ProductCard[name="Aurora Floor Lamp"] AddToCartButton');
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /^clicked AddToCartButton .*name="Aurora Floor Lamp"/);
        const typo = await act("click", "AddToCartButon", "--timeout-ms", "60000");
        assert.equal(typo.code, 1);
        assert.match(typo.stderr, /AddToCartButton/);
      },
    );

    await t.step("hover moves the pointer onto the element", async () => {
      await evalJs(
        'document.querySelector("[data-id=\\"1\\"]").addEventListener("mouseover", () => document.body.dataset.hovered = "yes"), true',
      );
      const r = await act("hover", 'ProductCard[name="Aurora Floor Lamp"]');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^hovered ProductCard /);
      assert.equal(await evalJs("document.body.dataset.hovered"), "yes");
    });

    const inView = (sel: string) =>
      `(() => { const r = document.querySelector(${JSON.stringify(sel)}).getBoundingClientRect(); ` +
      `return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth; })()`;

    await t.step("scroll --target brings a card far below the fold into view (checked by geometry)", async () => {
      await evalJs("scrollTo(0, 0)");
      assert.equal(await evalJs(inView('[data-id="24"]')), false);
      const r = await act("scroll", "--target", 'ProductCard[name="Willow Wall Hook"]');
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stdout,
        /^scrolled ProductCard .*name="Willow Wall Hook".* into view \(box at \(\d+, \d+\), \d+×\d+\)\n$/,
      );
      assert.equal(await evalJs(inView('[data-id="24"]')), true);
    });

    await t.step("scroll --target reaches into a box that scrolls on its own", async () => {
      await evalJs("scrollTo(0, 0)");
      const id = await snapshotId("Add recommended");
      const inBox = '(() => { const b = document.querySelector(".rec-add").getBoundingClientRect(); ' +
        'const c = document.querySelector(".scroller").getBoundingClientRect(); ' +
        "return b.bottom > c.top && b.top < c.bottom && b.bottom > 0 && b.top < innerHeight; })()";
      assert.equal(await evalJs(inBox), false);
      const r = await act("scroll", "--target", id);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await evalJs(inBox), true);
    });

    await t.step("scroll by a delta reports where the document ended", async () => {
      await evalJs("scrollTo(0, 0)");
      const r = await act("scroll", "--delta-y", "300");
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "scrolled the document to (0, 300)\n");
      assert.equal(await evalJs("scrollY"), 300);
    });

    await t.step("screenshot --component scrolls the card into view and clips the image to its box", async () => {
      await evalJs("scrollTo(0, 0)");
      await using tmp = await tempDir("mapper-shot-");
      const out = tmp.join("card.png");
      const r = await act("screenshot", "--component", 'ProductCard[name="Willow Wall Hook"]', "--out", out, "--json");
      assert.equal(r.code, 0, r.stderr);
      const json = JSON.parse(r.stdout);
      assert.equal(json.schema, 1);
      assert.equal(json.path, out);
      assert.equal(json.data, undefined);
      const bytes = await Deno.readFile(out);
      assert.deepEqual([...bytes.slice(1, 4)], [0x50, 0x4e, 0x47]);
      const view = new DataView(bytes.buffer);
      const box = await evalJs(
        '(() => { const r = document.querySelector("[data-id=\\"24\\"]").getBoundingClientRect(); return [r.width, r.height]; })()',
      );
      assert.ok(Math.abs(view.getUint32(16) - box[0]) <= 2, `width ${view.getUint32(16)} vs box ${box[0]}`);
      assert.ok(Math.abs(view.getUint32(20) - box[1]) <= 2, `height ${view.getUint32(20)} vs box ${box[1]}`);
      assert.equal(await evalJs(inView('[data-id="24"]')), true);
    });

    await t.step("a confirm() opened by a click is reported; other commands say so instead of hanging", async () => {
      const id = await snapshotId("Clear cart");
      const r = await act("click", id);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stdout,
        /^clicked button "Clear cart" \(id \d+\) at .*\n {2}a confirm dialog opened: "Really clear the cart\?" — /,
      );
      const blocked = await act("eval", "1");
      assert.equal(blocked.code, 1);
      assert.match(
        blocked.stderr,
        /a confirm dialog is open on the page "Really clear the cart\?" — close it with 'mapper browser dialog accept'/,
      );
      const tabs = await act("tabs", "list");
      assert.match(tabs.stdout, /\(confirm dialog open\)/);
      const accepted = await act("dialog", "accept");
      assert.equal(accepted.code, 0, accepted.stderr);
      assert.equal(accepted.stdout, 'accepted the confirm dialog "Really clear the cart?"\n');
      assert.equal(await evalJs('document.querySelector(".cart-count").textContent'), "0");
      const none = await act("dialog", "dismiss");
      assert.equal(none.code, 1);
      assert.match(none.stderr, /no dialog is open/);
    });

    await t.step(
      "navigate prints the final URL and its view, and says when a page or the server redirected",
      async () => {
        const r = await act("navigate", `${site.origin}/shop/login`);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, `navigated to ${site.origin}/shop/login\n  view: Login\n`);
        const client = await act("navigate", `${site.origin}/shop/old-sale`);
        assert.equal(client.code, 0, client.stderr);
        assert.match(
          client.stdout,
          new RegExp(
            `^navigated to ${site.origin}/shop/\\?consent=1 \\(redirected from ${site.origin}/shop/old-sale by the page\\)\n`,
          ),
        );
        const server = await act("navigate", `${site.origin}/api/redirect`, "--json");
        assert.equal(server.code, 0, server.stderr);
        const json = JSON.parse(server.stdout);
        assert.equal(json.url, `${site.origin}/api/data?via=redirect`);
        assert.equal(json.redirected, "server");
        const bad = await act("navigate", "http://127.0.0.1:9/");
        assert.equal(bad.code, 1);
        assert.match(bad.stderr, /^mapper browser navigate: cannot open "http:\/\/127\.0\.0\.1:9\/": net::ERR_/);
      },
    );

    await t.step(
      "navigate to an empty (204) answer or a download fails and names the page the tab stayed on",
      async () => {
        await act("navigate", `${site.origin}/shop/login`);
        for (const path of ["/api/empty", "/api/download"]) {
          const r = await act("navigate", `${site.origin}${path}`, "--timeout-ms", "5000");
          assert.equal(r.code, 1, r.stdout);
          assert.equal(r.stdout, "");
          assert.match(
            r.stderr,
            new RegExp(
              `^mapper browser navigate: cannot open "${site.origin}${path}": net::ERR_ABORTED \\(.+\\) — the tab stays on ${site.origin}/shop/login;`,
            ),
          );
        }
        assert.equal(await evalJs("location.pathname"), "/shop/login");
      },
    );

    await t.step(
      "fill replaces controlled and prefilled values and verifies them; the framework sees real typing",
      async () => {
        await act("navigate", `${site.origin}/shop/login`);
        for (const text of ["alice", "bob"]) {
          const r = await act("fill", "UsernameInput", text);
          assert.equal(r.code, 0, r.stderr);
          assert.equal(
            r.stdout,
            `filled UsernameInput "Username" (id ${/\(id (\d+)\)/.exec(r.stdout)?.[1]}) in LoginForm with "${text}"\n`,
          );
        }
        assert.equal((await act("fill", "--clear", "PasswordInput", "s3cret")).code, 0);
        const promo = await snapshotId("Promo code");
        assert.equal(await evalJs('document.querySelector(".promo").value'), "SPRING");
        const p = await act("fill", promo, "bob");
        assert.equal(p.code, 0, p.stderr);
        assert.equal(await evalJs('document.querySelector(".promo").value'), "bob");
        // A chord with its modifier held: Control+A selects all, Backspace then empties the field.
        assert.equal((await act("keypress", "Control+A", "--target", promo)).code, 0);
        const back = await act("keypress", "Backspace");
        assert.equal(back.stdout, "pressed Backspace\n");
        assert.equal(await evalJs('document.querySelector(".promo").value'), "");
        const enter = await act("keypress", "Enter", "--target", "PasswordInput");
        assert.equal(enter.code, 0, enter.stderr);
        assert.match(enter.stdout, /^pressed Enter on PasswordInput /);
        // The form reports the framework's state, which only real input events update.
        assert.equal(await evalJs('document.querySelector(".login-result").textContent'), "state: bob/s3cret");
      },
    );

    await t.step("fill on a number field replaces 1 with 3; a button is not fillable", async () => {
      await act("navigate", `${site.origin}/shop/product/2`);
      const r = await act("fill", "QuantityInput", "3");
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await evalJs('document.querySelector(".quantity").value'), "3");
      const button = await act("fill", "ProductDetail AddToCartButton", "x");
      assert.equal(button.code, 1);
      assert.match(button.stderr, /is a <button>, not a field that takes text/);
    });

    await t.step(
      "fill on a select chooses the option by label (any case) or value, the very option named; checkboxes, read-only fields and disabled options are refused",
      async () => {
        await evalJs(`(() => {
          document.body.insertAdjacentHTML("beforeend", '<select aria-label="Size"><option value="s">Small</option>' +
            '<option value="m">Medium</option><option value="m">Medium (tall)</option>' +
            '<option value="xl" disabled>XL</option></select>' +
            '<input type="checkbox" aria-label="Gift wrap"><input readonly aria-label="Order code" value="A1">');
          return true;
        })()`);
        const size = await snapshotId("Size");
        const chosen = async () => await evalJs('document.querySelector("select").selectedOptions[0].label');
        for (
          const [text, label] of [["medium", "Medium"], ["Medium (tall)", "Medium (tall)"], ["s", "Small"]] as const
        ) {
          const r = await act("fill", size, text);
          assert.equal(r.code, 0, r.stderr);
          assert.equal(r.stdout, `chose "${label}" in combobox "Size" (id ${size})\n`);
          assert.equal(await chosen(), label);
        }
        const disabled = await act("fill", size, "XL");
        assert.equal(disabled.code, 1);
        assert.match(disabled.stderr, /: option "XL" of combobox "Size" \(id \d+\) is disabled — /);
        const none = await act("fill", size, "Huge");
        assert.equal(none.code, 1);
        assert.match(none.stderr, /has no option "Huge" — choose one of "Small", "Medium", "Medium \(tall\)", "XL"\n$/);
        assert.equal(await chosen(), "Small");
        const box = await act("fill", await snapshotId("Gift wrap"), "yes");
        assert.equal(box.code, 1);
        assert.match(box.stderr, /is a checkbox input: it is clicked, not filled — use 'mapper browser click \d+'/);
        const code = await act("fill", await snapshotId("Order code"), "B2");
        assert.equal(code.code, 1);
        assert.match(code.stderr, /textbox "Order code" \(id \d+\) is read-only — /);
        assert.equal(await evalJs('document.querySelector("input[readonly]").value'), "A1");
      },
    );

    await t.step(
      "wait-for says what it waited for and what it saw when the time ran out; --gone holds at once",
      async () => {
        const r = await act("wait-for", "--component", "OrderSummary", "--timeout-ms", "300");
        assert.equal(r.code, 1);
        assert.match(
          r.stderr,
          /^mapper browser wait-for: --component "OrderSummary" did not hold after 300 ms \(the tab is at http:\/\/[^ ]+\/shop\/product\/2, 0 matches\); OrderSummary is declared in view Catalog, not in this page's view Product; on the page: [^—]+ — /,
        );
        // Near matches, as a click by the same query names them.
        const typo = await act("wait-for", "--component", "ProductDetial", "--timeout-ms", "300");
        assert.match(typo.stderr, /0 matches\); ProductDetial is not in the corpus; did you mean ProductDetail\? — /);
        const gone = await act("wait-for", "--selector", ".never-there", "--gone");
        assert.equal(gone.code, 0, gone.stderr);
        assert.equal(gone.stdout, '--selector ".never-there" is gone (at once)\n');
        const bad = await act("wait-for", "--selector", "a[");
        assert.equal(bad.code, 2);
        assert.match(bad.stderr, /is not a valid CSS selector/);
      },
    );

    await t.step(
      "screenshot --out refuses a directory and an unwritable place, and leaves nothing behind",
      async () => {
        await using tmp = await tempDir("mapper-shot-");
        const dir = await act("screenshot", "--out", tmp.path);
        assert.equal(dir.code, 1);
        assert.match(dir.stderr, /is a directory/);
        const missing = await act("screenshot", "--out", tmp.join("no", "such", "dir", "x.png"));
        assert.equal(missing.code, 1);
        assert.match(missing.stderr, /^mapper browser screenshot: cannot write /);
        assert.deepEqual(await Array.fromAsync(Deno.readDir(tmp.path)), []);
        const ok = await act("screenshot", "--out", tmp.join("page.png"));
        assert.equal(ok.code, 0, ok.stderr);
        assert.match(ok.stdout, /^saved .*page\.png \(\d+×\d+ px\)\n$/);
        assert.deepEqual((await Array.fromAsync(Deno.readDir(tmp.path))).map((e) => e.name), ["page.png"]);
      },
    );

    await t.step("eval awaits promises, returns JSON, and refuses values JSON cannot carry", async () => {
      assert.equal((await act("eval", "1 + 1")).stdout, "2\n");
      assert.equal((await act("eval", "Promise.resolve({ a: [1, 'x'] })")).stdout, '{"a":[1,"x"]}\n');
      assert.equal((await act("eval", "const n = await Promise.resolve(2);\nreturn n * 3")).stdout, "6\n");
      assert.equal((await act("eval", "undefined")).stdout, "undefined\n");
      const node = await act("eval", "document.body");
      assert.equal(node.code, 1);
      assert.match(node.stderr, /the result is a DOM node \(body\), which cannot be returned as JSON/);
      const cyclic = await act("eval", "const a = {}; a.self = a; a");
      assert.equal(cyclic.code, 1);
      assert.match(cyclic.stderr, /the result\.self refers back to itself \(a cyclic value\)/);
      const thrown = await act("eval", "\nthrow new Error('boom')");
      assert.equal(thrown.code, 1);
      assert.match(thrown.stderr, /the script threw: Error: boom \(line 2, column 1\)/);
    });

    await t.step("a click by query lands inside a same-origin iframe and inside an open shadow root", async () => {
      const nav = await act("navigate", `${site.origin}/shop/help`);
      assert.equal(nav.code, 0, nav.stderr);
      // Which element each click reaches, seen from the page world (the frame is same-origin).
      assert.equal(
        await evalJs(`(() => {
          const hits = (window.__hits = []);
          document.querySelector("iframe").contentDocument
            .addEventListener("click", (e) => hits.push("frame " + e.target.className));
          document.addEventListener("click", (e) => hits.push("top " + e.composedPath()[0].className));
          return true;
        })()`),
        true,
      );
      const ask = await act("click", "AskButton");
      assert.equal(ask.code, 0, ask.stderr);
      assert.match(ask.stdout, /^clicked AskButton "Ask" \(id \d+\) at \(\d+, \d+\)/);
      const chat = await act("click", "ChatButton");
      assert.equal(chat.code, 0, chat.stderr);
      assert.match(chat.stdout, /^clicked ChatButton "Chat with us" \(id \d+\) at /);
      assert.deepEqual(await evalJs("window.__hits"), ["frame ask", "top chat-open"]);
    });

    await t.step("a second tab: commands without --tab list both; --tab picks one; tabs close closes it", async () => {
      const opened = await act("tabs", "new", `${site.origin}/shop/product/5`);
      assert.equal(opened.code, 0, opened.stderr);
      const id = /^opened tab (\w{8})/.exec(opened.stdout)?.[1];
      assert.ok(id, opened.stdout);
      const list = await act("tabs", "list");
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, new RegExp(`^${id}  ${site.origin}/shop/product/5  .*\\[Product\\]$`, "m"));
      const none = await act("click", "AddToCartButton");
      assert.equal(none.code, 2);
      assert.match(none.stderr, /2 tabs are open/);
      const picked = await act("click", "AddToCartButton", "--tab", id);
      assert.equal(picked.code, 0, picked.stderr);
      const closed = await act("tabs", "close", id);
      assert.equal(closed.code, 0, closed.stderr);
      assert.match(closed.stdout, new RegExp(`^closed tab ${id} `));
    });

    await t.step(
      "navigate never says 'navigated' to a page it did not open: a server that never answers, a page that never yields",
      async () => {
        const before = await evalJs("location.href");
        const hang = await act("navigate", `${site.origin}/api/hang`, "--timeout-ms", "1500");
        assert.equal(hang.code, 1, hang.stdout);
        assert.equal(hang.stdout, "");
        assert.equal(
          hang.stderr,
          `mapper browser navigate: no answer from "${site.origin}/api/hang" within 1.5 s; the tab stays on ${before} — ` +
            "check that the site is up, or pass a longer --timeout-ms\n",
        );
        // The navigation was stopped, not left pending (the tab would leave once the server answered): the browser
        // gave the request up.
        await waitFor("the browser to give up /api/hang", () => site.hangsAbandoned() === 1);
        assert.equal(await evalJs("location.href"), before);

        // Another site, so the endless loop has a renderer of its own.
        const opened = await act("tabs", "new", `${site.altOrigin}/busy.html`);
        assert.equal(opened.code, 0, opened.stderr);
        const id = /^opened tab (\w{8})/.exec(opened.stdout)?.[1];
        assert.ok(id, opened.stdout);
        const stuck = await act("navigate", `${site.altOrigin}/blank.html`, "--tab", id, "--timeout-ms", "2000");
        assert.equal(stuck.code, 1, stuck.stdout);
        assert.equal(stuck.stdout, "");
        assert.equal(
          stuck.stderr,
          `mapper browser navigate: "${site.altOrigin}/blank.html" did not replace the page within 2 s: the tab stays ` +
            `on ${site.altOrigin}/busy.html, which is not answering (its script may be busy) — close the tab ` +
            `('mapper browser tabs close ${id}') and open the URL in a new one ('mapper browser tabs new URL')\n`,
        );
        // The way out it names works.
        const closed = await act("tabs", "close", id);
        assert.equal(closed.code, 0, closed.stderr);
        assert.equal(await evalJs("location.href"), before);
      },
    );

    await t.step("a command run right after a corpus file is saved reads the corpus as saved", async () => {
      const file = join(s.cwd, ".mapper", "fresh.yaml");
      // As a user runs it, a process of its own: by the time it asks, the session has seen the file change.
      const snapshotText = async () => {
        const r = await s.run(["snapshot"]);
        assert.equal(r.code, 0, r.stderr);
        return r.stdout;
      };
      assert.doesNotMatch(await snapshotText(), /\[FreshHeader\]/);
      // No wait for the session's watcher and its quiet period: the command itself must.
      await Deno.writeTextFile(
        file,
        "version: 1\ncomponents:\n  - name: FreshHeader\n    selector: header.site-header\n",
      );
      assert.match(await snapshotText(), /\[FreshHeader\]/);
      await Deno.remove(file);
      assert.doesNotMatch(await snapshotText(), /\[FreshHeader\]/);
    });
  },
});

Deno.test("browser acting commands - usage mistakes are caught before any session is needed", async () => {
  await using tmp = await tempDir();
  const env = { HOME: tmp.join("home") };
  const once = firstAsSubprocess();
  const run = (...args: string[]) => once(["browser", ...args], { cwd: tmp.path, env });
  const cases: Array<[string[], RegExp]> = [
    [["click"], /nothing to point at/],
    [["click", "Foo", "--x", "1", "--y", "2"], /give a target or --x\/--y, not both/],
    [["wait-for"], /nothing to wait for/],
    [["wait-for", "--load", "--url", "x"], /one condition at a time/],
    [["keypress", "Entr"], /unknown key "Entr"/],
    [["scroll"], /nothing to scroll/],
    [["screenshot", "--expand-pct", "10"], /--expand-pct widens an element's box/],
    [["navigate", "example.com"], /is not an absolute URL/],
    [["fill", "--clear", "--append", "X", "y"], /contradict/],
    [["tabs", "open"], /unknown tabs action "open"/],
    [["dialog", "dismiss", "--text", "x"], /--text answers a prompt/],
  ];
  for (const [args, message] of cases) {
    const r = await run(...args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(" "));
    assert.equal(r.stdout, "");
  }
  const none = await run("click", "AddToCartButton");
  assert.equal(none.code, 1);
  // The session is looked for walking up from the working directory; none there, so the hint says where to start one.
  assert.match(
    none.stderr,
    /^mapper browser click: no running session here or in any parent of \S+ — run 'mapper browser start' in your project folder, or pass --dir <project>\/\.mapper\n$/,
  );
});
