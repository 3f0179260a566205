/**
 * Real Chromium (headless, loopback) on the test shop (`tests/site/shop.js`, corpus `tests/fixtures/shop/`):
 * `mapper snapshot` (text, `--json`, `--interactive`, `--depth`, `--coverage`, `--include-hidden`, `--out`), stable
 * node ids, component queries through the daemon's page API (every form and both errors), `--tab` selection and
 * its errors, the no-interactive-node failure, and the `[Match]` slots of `console list` / `network list`.
 * One session per file (starting Chromium is the slow part); each step leaves the tab as it found it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./_helpers.ts";
import { startSite } from "./site/server.ts";
import { openTab, skipBrowserTests, startSession, waitFor } from "./site/harness.ts";
import { firstOfEachAsSubprocess } from "./_in_process.ts";

const SHOP_CORPUS = join(ROOT, "tests", "fixtures", "shop");

type Resolve = {
  schema: number;
  target?: {
    id: number;
    component: string | null;
    props: Array<[string, string]>;
    ancestors: Array<{ component: string; props: Array<[string, string]> }>;
    states: string[];
  };
  error?: string;
  code?: string;
  hint?: string;
};

Deno.test({
  name: "snapshot - sees the shop through the map and resolves component queries on the live page",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using site = startSite();
    const shop = `${site.origin}/shop/`;
    await using s = await startSession(["--url", shop], SHOP_CORPUS);
    const sRun = firstOfEachAsSubprocess(s.run, { cwd: s.cwd, env: s.env });
    const resolve = async (target: string, tab?: string): Promise<{ status: number; body: Resolve }> => {
      const r = await fetch(`http://127.0.0.1:${s.port}/devtools/page/resolve`, {
        method: "POST",
        headers: { authorization: `Bearer ${s.secret}` },
        body: JSON.stringify(tab ? { target, tab } : { target }),
      });
      return { status: r.status, body: await r.json() };
    };

    let first = "";
    await t.step(
      "right after 'browser start --detach --url' the snapshot names the view, overlay and components",
      async () => {
        // The grid appears 300 ms after load: the snapshot waits for the DOM to settle, so it is there.
        const res = await sRun(["snapshot"]);
        assert.equal(res.stderr, "");
        assert.equal(res.code, 0);
        first = res.stdout;
        const out = res.stdout;
        assert.match(
          out,
          /^\[View: Catalog\]\nroute: \/shop\nmemory:\n {2}- the grid loads about 300 ms after the page/,
        );
        assert.match(
          out,
          /\n\[Blocked\] CookieConsent \(dialog "We value your privacy"\) covers the page; accept or dismiss it first/,
        );
        // [Guide] says only what the tree does not: the name all 24 buttons share, said once.
        assert.match(out, /\n\[Guide\]\nAddToCartButton 24 "Add to cart"\n\n--- component tree ---\n/);
        // Every card carries its properties, so identical buttons are told apart by the map; the card's link is
        // named by the card's name, so its line does not repeat it.
        assert.match(
          out,
          /\n {2}\d+ \[ProductCard id="4" name="Cedar Cutting Board XL" price="18\.99"\]\n {3}\d+ link\n {3}\d+ \[AddToCartButton\]\n/,
        );
        // Sold out: the disabled state is printed (other tools omit it).
        assert.match(
          out,
          /\[ProductCard id="3" name="Cedar Cutting Board" price="15\.99" sold_out="true"\]\n {3}\d+ link\n {3}\d+ \[AddToCartButton disabled\]/,
        );
        // A filter's checkbox is named by its FilterCheckbox's label.
        assert.match(out, /\n {2}\d+ \[FilterCheckbox label="Filter 7"\]\n {3}\d+ checkbox\n/);
        // The cards sit in a `display: contents` wrapper: all 24 are in the tree, not only in the guide.
        assert.equal(out.match(/\[ProductCard /g)?.length, 24);
        // Unmatched interactive and landmark nodes: role and accessible name.
        assert.match(out, /\n \d+ navigation "Main"\n {2}\d+ link "Catalog"\n/);
        assert.match(out, /\n \d+ \[CartButton count="0" "Cart"\]\n/);
        // A heading inside a link is the link's name, not a line of its own.
        assert.doesNotMatch(out, /heading "Aurora Floor Lamp"/);
        // Hidden (display: none mega menu) is left out.
        assert.doesNotMatch(out, /Dept 0\.0/);
        assert.match(
          out,
          /\n\[Warnings\]\n {2}matched nothing: OrderSummary; global: NeverThere\n/,
        );
        assert.match(out, /\n\[Coverage\] \d+ interactive: \d+ T1 direct · \d+ T2 scoped · 3 T3 orphaned ✗\n$/);
      },
    );

    await t.step("node ids stay the same while the elements live", async () => {
      const again = await sRun(["snapshot"]);
      assert.equal(again.code, 0);
      assert.equal(again.stdout, first);
      const id = /(\d+) \[ProductCard id="4"/.exec(first)![1]!;
      const r = await resolve(id);
      assert.equal(r.status, 200);
      assert.equal(r.body.target?.component, "ProductCard");
      assert.deepEqual(r.body.target?.props.find(([k]) => k === "name"), ["name", "Cedar Cutting Board XL"]);
      const hash = await resolve(`#${id}`);
      assert.equal(hash.body.target?.id, Number(id));
      const gone = await resolve("99999");
      assert.equal(gone.status, 404);
      assert.equal(gone.body.code, "stale_id");
      assert.match(gone.body.error!, /^id 99999 is no longer on the page$/);
    });

    await t.step("--json is one object with the documented fields", async () => {
      const res = await sRun(["snapshot", "--json"]);
      assert.equal(res.code, 0);
      const j = JSON.parse(res.stdout);
      assert.deepEqual(Object.keys(j), [
        "schema",
        "tab",
        "url",
        "title",
        "view",
        "settled",
        "blocked",
        "guide",
        "tree",
        "coverage",
        "warnings",
        "conflicts",
      ]);
      assert.equal(j.schema, 1);
      assert.equal(j.url, shop);
      assert.deepEqual(j.view, {
        name: "Catalog",
        route: "/shop",
        memory: ["the grid loads about 300 ms after the page; wait for ProductCard before acting"],
      });
      assert.equal(j.blocked.component, "CookieConsent");
      assert.equal(j.guide.ProductCard, 24);
      type N = { id: number; component?: string; props?: Record<string, string>; states?: string[]; children?: N[] };
      const all: N[] = [];
      const walk = (ns: N[]) => ns.forEach((n) => (all.push(n), walk(n.children ?? [])));
      // One root: the page itself, named by its title; the top-level nodes are its children.
      assert.deepEqual([j.tree.role, j.tree.name, typeof j.tree.id], ["document", j.title, "number"]);
      assert.ok(j.tree.children.length > 0);
      walk([j.tree]);
      const xl = all.find((n) => n.component === "ProductCard" && n.props?.name === "Cedar Cutting Board XL")!;
      assert.deepEqual(xl.props, { id: "4", name: "Cedar Cutting Board XL", price: "18.99" });
      assert.ok(xl.children?.some((c) => c.component === "AddToCartButton"));
      const sold = all.find((n) => n.component === "ProductCard" && n.props?.id === "3")!;
      assert.deepEqual(sold.children?.find((c) => c.component === "AddToCartButton")?.states, ["disabled"]);
      assert.equal(j.coverage.t3, 3);
      assert.equal(j.coverage.orphans.length, 3);
      assert.ok(j.warnings.includes("OrderSummary: declared for this view, matched nothing"));
    });

    await t.step("--interactive, --depth, --coverage and --include-hidden cut or widen the tree", async () => {
      const inter = (await sRun(["snapshot", "--interactive"])).stdout;
      assert.doesNotMatch(inter, /heading "Catalog"|group "Filters"|region "Products"/);
      assert.match(inter, /\n\d+ \[ProductCard id="1" name="Aurora Floor Lamp" price="9\.99"\]\n \d+ link\n/);
      const shallow = (await sRun(["snapshot", "--depth", "0"])).stdout;
      assert.doesNotMatch(shallow, /ProductCard id=/);
      assert.match(shallow, /\n\d+ \[SiteHeader\]\n\d+ main\n/);
      // The cut tree shows no card: [Guide] counts what it leaves out.
      assert.match(shallow, /\n\[Guide\]\nFilterCheckbox +30\nAddToCartButton +24\nProductCard +24\n/);
      const cov = await sRun(["snapshot", "--coverage"]);
      assert.equal(cov.code, 0);
      assert.doesNotMatch(cov.stdout, /component tree|\[Guide\]/);
      assert.match(cov.stdout, /\[Blocked\] CookieConsent/);
      // A property that extracts nothing (no card has a rating) is said, not silently left off the line; an
      // exists: property's absence is its answer and is not listed.
      assert.match(
        cov.stdout,
        /\n\[Empty properties\] \(visible matches whose extract found nothing\)\n {2}ProductCard\.rating \(empty\) on 24 of 24 — extract "\.rating"\n\n\[Warnings\]/,
      );
      assert.doesNotMatch(cov.stdout, /sold_out \(empty\)/);
      assert.match(
        cov.stdout,
        /\n {2}2× button "Clear cart", "Checkout" → #main button\[type="button"\]\n {2}1× button "Add recommended" → div\.recommended-card button\[type="button"\]\n$/,
      );
      const hidden = (await sRun(["snapshot", "--include-hidden"])).stdout;
      assert.match(hidden, /link "Dept 0\.0" hidden/);
    });

    await t.step("--out writes the snapshot to a file and says so", async () => {
      const res = await sRun(["snapshot", "--out", "snap.txt"]);
      assert.equal(res.code, 0);
      const text = await Deno.readTextFile(join(s.cwd, "snap.txt"));
      assert.match(text, /^\[View: Catalog\]/);
      assert.equal(res.stdout, `saved snap.txt (${new TextEncoder().encode(text).length} bytes)\n`);
      const bad = await sRun(["snapshot", "--out", "no/such/dir/x.txt"]);
      assert.equal(bad.code, 1);
      assert.match(
        bad.stderr,
        /^mapper snapshot: cannot write "no\/such\/dir\/x\.txt": .* — pass --out with a file path/,
      );
    });

    await t.step("every query form resolves to the element it names", async () => {
      const cases: Array<[string, string, Array<[string, string]> | undefined]> = [
        ["SearchInput", "SearchInput", undefined],
        ['ProductCard[name="Cedar Cutting Board"]', "ProductCard", [["id", "3"]]],
        ["ProductCard[name=Cedar Cutting Board XL]", "", undefined], // bare values stop at whitespace: a parse error
        ['ProductCard[name^="Cedar"]#1', "ProductCard", [["id", "4"]]],
        ['ProductCard[name*="oak" i]', "ProductCard", [["id", "15"]]],
        ['ProductCard[name="cedar cutting board xl" i] AddToCartButton', "AddToCartButton", undefined],
        ["SiteHeader CartButton", "CartButton", undefined],
        ["ProductCard[id=4] AddToCartButton", "AddToCartButton", undefined],
        ["AddToCartButton#2", "AddToCartButton", undefined],
      ];
      for (const [q, component, props] of cases) {
        const r = await resolve(q);
        if (component === "") {
          assert.equal(r.status, 400, q);
          assert.equal(r.body.code, "bad_query");
          continue;
        }
        assert.equal(r.status, 200, `${q}: ${r.body.error}`);
        assert.equal(r.body.target?.component, component, q);
        for (const p of props ?? []) assert.ok(r.body.target?.props.some(([k, v]) => k === p[0] && v === p[1]), q);
      }
      const xl = await resolve('ProductCard[name="Cedar Cutting Board XL"] AddToCartButton');
      assert.deepEqual(xl.body.target?.ancestors, [{
        component: "ProductCard",
        props: [["id", "4"], ["name", "Cedar Cutting Board XL"], ["price", "18.99"]],
      }]);
      const third = await resolve("AddToCartButton#2");
      assert.deepEqual(third.body.target?.states, ["disabled"]);
      assert.deepEqual(third.body.target?.ancestors[0]?.props[0], ["id", "3"]);
    });

    await t.step("several matches list each candidate with the properties that tell them apart", async () => {
      const r = await resolve('ProductCard[name^="Cedar"] AddToCartButton');
      assert.equal(r.status, 409);
      assert.equal(r.body.code, "ambiguous");
      assert.equal(
        r.body.error,
        "query 'ProductCard[name^=\"Cedar\"] AddToCartButton' matched 2 elements:\n" +
          "  #0  id=" + /#0 {2}id=(\d+)/.exec(r.body.error!)![1] +
          '  ProductCard id="3" name="Cedar Cutting Board" price="15.99" sold_out="true" › AddToCartButton "Add to cart" disabled\n' +
          "  #1  id=" + /#1 {2}id=(\d+)/.exec(r.body.error!)![1] +
          '  ProductCard id="4" name="Cedar Cutting Board XL" price="18.99" › AddToCartButton "Add to cart"',
      );
      assert.match(r.body.hint!, /add \[prop=value\]/);
      const many = await resolve("AddToCartButton");
      assert.match(
        many.body.error!,
        /^query 'AddToCartButton' matched 24 elements:\n {2}#0 {2}id=\d+ {2}ProductCard id="1" name="Aurora Floor Lamp" price="9\.99" › AddToCartButton/,
      );
      assert.match(many.body.error!, /\n {2}… and 12 more \(add \[prop=value\] or #N\)$/);
    });

    await t.step("zero matches name what is on the page", async () => {
      const values = await resolve('ProductCard[name="Cedar Board"]');
      assert.equal(values.status, 409);
      assert.equal(values.body.code, "no_match");
      assert.match(
        values.body.error!,
        /^query 'ProductCard\[name="Cedar Board"\]' matched nothing; ProductCard is on the page 24 times; name values: "Aurora Floor Lamp", "Basalt Coffee Mug", "Cedar Cutting Board", "Cedar Cutting Board XL", /,
      );
      const typo = await resolve("ProductCrad");
      assert.equal(
        typo.body.error,
        "query 'ProductCrad' matched nothing; ProductCrad is not in the corpus; did you mean ProductCard?",
      );
      const elsewhere = await resolve("LoginForm UsernameInput");
      assert.match(elsewhere.body.error!, /UsernameInput is declared in view Login, not in this page's view Catalog/);
      // Declared for this very view: never "not on this page", but what is true.
      const here = await resolve("OrderSummary");
      assert.match(here.body.error!, /; OrderSummary \(declared in view Catalog\) matched nothing on this page/);
      const past = await resolve("ProductCard#24");
      assert.equal(past.body.code, "index_out_of_range");
      assert.match(past.body.error!, /#24 is past the end; 24 elements matched/);
      const parse = await resolve("ProductCard[name^=");
      assert.equal(parse.status, 400);
      assert.equal(parse.body.error, "query 'ProductCard[name^=': expected a value at position 18");
    });

    await t.step("console and network lines lead with the corpus match and trail its properties", async () => {
      // The page's own click handlers, through the session like any agent (no second DevTools client exists).
      const clicked = await sRun([
        "browser",
        "eval",
        "document.querySelectorAll('.add-to-cart')[1].click(); document.querySelector('.checkout').click()",
      ]);
      assert.equal(clicked.code, 0, clicked.stderr);
      const net = await waitFor("both requests listed with properties", async () => {
        const r = await sRun(["network", "list", "--url", "/api/"]);
        return /\{error=login required, ok=false\}/.test(r.stdout) && /product_id=2/.test(r.stdout) ? r : undefined;
      });
      assert.match(
        net.stdout,
        /^\[\d+\] \[AddToCart\] POST http:\/\/127\.0\.0\.1:\d+\/api\/cart → 200 OK \(Fetch\) \{ok=true, product_id=2\}$/m,
      );
      assert.match(
        net.stdout,
        /^\[\d+\] \[Checkout\] {2}POST http:\/\/127\.0\.0\.1:\d+\/api\/checkout → 401 Unauthorized \(Fetch\) \{error=login required, ok=false\}$/m,
      );
      const all = await sRun(["network", "list"]);
      assert.match(all.stdout, /^\[\d+\] \[--\] {8}GET http:\/\/127\.0\.0\.1:\d+\/shop\/ → 200 OK \(Document\)$/m);
      const con = await waitFor("the checkout error", async () => {
        const r = await sRun(["console", "list"]);
        return /Checkout failed/.test(r.stdout) ? r : undefined;
      });
      assert.match(
        con.stdout,
        /^\[\d+\] \[CheckoutFailed\] error {5}Checkout failed: 401 login required \{file=shop\.js\}$/m,
      );
      assert.match(con.stdout, /^\[\d+\] \[AddedToCart\] {4}log {7}Added to cart: 2$/m);
      const index = /^\[(\d+)\] \[CheckoutFailed\]/m.exec(con.stdout)![1]!;
      const get = await sRun(["console", "get", index]);
      assert.match(get.stdout, /\nMatches: CheckoutFailed\nProperties:\n {2}file = shop\.js\n$/);
      const json = JSON.parse((await sRun(["network", "list", "--url", "/api/checkout", "--json"])).stdout);
      assert.deepEqual(json.entries[0].properties, { ok: "false", error: "login required" });
    });

    await t.step(
      "several tabs: without --tab an error lists them; --tab picks one; a bad --tab is refused",
      async () => {
        const other = await openTab(s, `${site.origin}/shop/blank`);
        try {
          // In process, at once: the tab 'browser start' answered is one the next command counts (it used to be
          // listed without a URL while its page committed, passed over, and the other tab snapshotted: exit 0).
          const res = await sRun(["snapshot"]);
          assert.equal(res.code, 2);
          assert.equal(res.stdout, "");
          assert.match(res.stderr, /^mapper snapshot: 2 tabs are open:\n/);
          assert.match(res.stderr, new RegExp(`\\n {2}${other.slice(0, 8)} {2}http://127\\.0\\.0\\.1:\\d+/shop/blank`));
          assert.match(res.stderr, / — pass --tab ID with one of the ids above\n/);
          const picked = await sRun(["snapshot", "--tab", other.slice(0, 8).toLowerCase()]);
          // The blank page has no interactive node: printed, then exit 1 with the reason.
          assert.equal(picked.code, 1);
          assert.match(picked.stdout, /^\[No view matched\] http:\/\/127\.0\.0\.1:\d+\/shop\/blank\n/);
          assert.match(picked.stdout, /\n\[Coverage\] 0 interactive ∅\n$/);
          assert.match(
            picked.stderr,
            /^mapper snapshot: http:\/\/127\.0\.0\.1:\d+\/shop\/blank has no interactive node \(blank, or still loading\) — wait for the page to load and run 'mapper snapshot' again\n$/,
          );
          const unknown = await sRun(["snapshot", "--tab", "ZZZZ"]);
          assert.equal(unknown.code, 1);
          assert.match(unknown.stderr, /^mapper snapshot: no tab "ZZZZ"; open tabs:\n/);
        } finally {
          const closed = await sRun(["browser", "tabs", "close", other]);
          assert.equal(closed.code, 0, closed.stderr);
        }
      },
    );

    await t.step("--url opens the page only when the tab is elsewhere, and waits for it", async () => {
      const res = await sRun(["snapshot", "--url", `${site.origin}/shop/login`]);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /^\[View: Login\]\nroute: \/shop\/login\n/);
      assert.match(
        res.stdout,
        /\[LoginForm "Sign in"\]\n {2}\d+ \[UsernameInput "Username"\]\n {2}\d+ \[PasswordInput "Password"\]\n {2}\d+ textbox "Promo code" value="SPRING"\n/,
      );
      const product = await sRun(["snapshot", "--url", `${site.origin}/shop/product/4`]);
      assert.match(product.stdout, /^\[View: Product\]\nroute: \/shop\/product\/:id\n/);
      assert.match(product.stdout, /\[ProductDetail name="Cedar Cutting Board XL"\]/);
      assert.match(product.stdout, /\[QuantityInput "Quantity" value="1"\]/);
      const help = await sRun(["snapshot", "--url", `${site.origin}/shop/help`]);
      assert.equal(help.code, 0, help.stderr);
      // Components inside a same-origin iframe and an open shadow root are matched and printed.
      assert.match(
        help.stdout,
        /\n \d+ iframe "Help widget"\n {2}\d+ form "Ask a question"\n {3}\d+ textbox "Question"\n {3}\d+ \[AskButton "Ask"\]\n/,
      );
      assert.match(help.stdout, /\n \d+ \[ChatButton "Chat with us"\]\n/);
      const ask = await resolve("AskButton");
      assert.equal(ask.status, 200, ask.body.error);
      // A page that never stops changing is snapshotted after the bound, and says so.
      const ticker = await sRun(["snapshot", "--url", `${site.origin}/shop/ticker`]);
      assert.equal(ticker.code, 0, ticker.stderr);
      assert.match(
        ticker.stdout,
        /\n\[Unsettled\] the page was still changing after the wait; run 'mapper snapshot' again/,
      );
      assert.match(ticker.stdout, /\n \d+ button "Stop"\n/);
      const account = await sRun(["snapshot", "--url", `${site.origin}/shop/account/orders/recent`]);
      assert.match(account.stdout, /^\[View: Account\]\nroute: \/shop\/account\/\*\*\n/);
    });

    await t.step("an id from a document the tab has left is stale, never an element of the new page", async () => {
      const login = await sRun(["snapshot", "--url", `${site.origin}/shop/login`]);
      assert.equal(login.code, 0, login.stderr);
      const ids = [...login.stdout.matchAll(/^ *(\d+) /gm)].map((m) => m[1]!);
      assert.ok(ids.length > 3, login.stdout);
      const username = /(\d+) \[UsernameInput/.exec(login.stdout)![1]!;
      const product = await sRun(["snapshot", "--url", `${site.origin}/shop/product/4`]);
      assert.equal(product.code, 0, product.stderr);
      for (const id of ids) {
        const r = await resolve(id);
        assert.equal(r.body.code, "stale_id", `id ${id} of the login page resolved on the product page`);
      }
      // The ids the new page's snapshot shows are the ones that work there.
      const quantity = /(\d+) \[QuantityInput/.exec(product.stdout)![1]!;
      assert.equal((await resolve(quantity)).body.target?.component, "QuantityInput");
      const click = await sRun(["browser", "click", username]);
      assert.equal(click.code, 1);
      assert.equal(click.stdout, "");
      assert.match(click.stderr, new RegExp(`^mapper browser click: id ${username} is no longer on the page — `));
    });

    await t.step(
      "[Conflicts] names views as specific as the current one and elements two components claim",
      async () => {
        const extra = join(s.cwd, ".mapper", "zz_conflict.yaml");
        await Deno.writeTextFile(
          extra,
          "version: 1\ncomponents:\n  - name: AnyBuyButton\n    selector: button.add-to-cart\n" +
            "views:\n  - name: CatalogCopy\n    route: /shop/\n",
        );
        try {
          const out = await waitFor("the corpus to be recompiled", async () => {
            const r = await sRun(["snapshot", "--url", shop]);
            return r.stdout.includes("[Conflicts]") ? r.stdout : undefined;
          });
          assert.match(
            out,
            /\n\[Conflicts\]\n {2}view CatalogCopy is as specific as Catalog for this URL; Catalog wins\n {2}AnyBuyButton and AddToCartButton both match 24 elements; AnyBuyButton \(declared first\) wins\n/,
          );
          assert.match(out, /\n {2}matched nothing: (\w+, )*AddToCartButton[,\n]/);
        } finally {
          await Deno.remove(extra);
        }
      },
    );

    await t.step(
      "a snapshot while an alert is open names the dialog at once (exit 1), never waits it out",
      async () => {
        const opened = await sRun(["browser", "eval", "setTimeout(() => alert('Saved!'), 0); 1"]);
        assert.equal(opened.code, 0, opened.stderr);
        await waitFor("the alert to be known", async () => {
          const r = await sRun(["snapshot"]);
          return r.code === 1 ? r : undefined;
        }).then((r) => {
          assert.equal(r.stdout, "");
          assert.equal(
            r.stderr,
            'mapper snapshot: a alert dialog is open on the page "Saved!" — close it with ' +
              "'mapper browser dialog accept' or 'mapper browser dialog dismiss'\n",
          );
        });
        const json = await sRun(["snapshot", "--json"]);
        assert.equal(json.code, 1);
        assert.match(json.stderr, /a alert dialog is open on the page "Saved!"/);
        assert.equal((await sRun(["browser", "dialog", "accept"])).code, 0);
        assert.equal((await sRun(["snapshot"])).code, 0);
        // One that opens while the snapshot waits for a busy page to settle (up to 3 s) ends the wait with the same
        // answer. The page is seen busy first (a snapshot of a page quiet for 100 ms does not wait); then the alert is
        // set for 1 s later and the snapshot, in process, is waiting within milliseconds: the alert comes inside the
        // wait with 2 s to spare for a renderer slowed by a loaded machine.
        const busy = "window.__ticks = 0; window.__busy = setInterval(() => " +
          "{ document.title = String(Math.random()); window.__ticks++; }, 20); 1";
        assert.equal((await sRun(["browser", "eval", busy])).code, 0);
        await waitFor("the page to be busy", async () => {
          const r = await sRun(["browser", "eval", "window.__ticks"]);
          return r.code === 0 && Number(r.stdout.trim()) >= 2 ? true : undefined;
        });
        assert.equal((await sRun(["browser", "eval", "setTimeout(() => alert('Later'), 1000); 1"])).code, 0);
        const late = await sRun(["snapshot"]);
        assert.equal(late.code, 1);
        assert.match(late.stderr, /^mapper snapshot: a alert dialog is open on the page "Later" — /);
        assert.equal((await sRun(["browser", "dialog", "accept"])).code, 0);
        assert.equal((await sRun(["browser", "eval", "clearInterval(window.__busy); 1"])).code, 0);
      },
    );
  },
});
