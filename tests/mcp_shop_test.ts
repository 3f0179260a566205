/**
 * The done test of `mapper mcp`: an MCP client drives the test shop (`tests/site/shop.js`, corpus
 * `tests/fixtures/shop`) in real Chromium through the page tools — snapshot, a click refused under the cookie
 * overlay, clicks by component query, a controlled input filled, a view waited for, a console message and a network
 * body read, a screenshot as an image block — with the server starting the session and stopping it afterwards.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, tempDir } from "./_helpers.ts";
import { startSite } from "./site/server.ts";
import { alive, reap, requireBrowser, skipBrowserTests, waitFor } from "./site/harness.ts";
import { startMcp } from "./_mcp.ts";

const BUY = 'ProductCard[name="Basalt Coffee Mug"] AddToCartButton';

Deno.test({
  name: "mcp shop - an agent sees, acts by component query and is refused under an overlay, through MCP tools",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const browser = requireBrowser();
    await using site = startSite();
    await using dir = await tempDir("mapper-mcp-shop-");
    const cwd = dir.join("site");
    await Deno.mkdir(join(cwd, ".mapper"), { recursive: true });
    await Deno.copyFile(join(ROOT, "tests", "fixtures", "shop", "shop.yaml"), join(cwd, ".mapper", "shop.yaml"));
    const args = ["--headless", "--browser", browser, "--port", "0", "--url", `${site.origin}/shop/`];
    let pids: number[] = [];
    try {
      await using mcp = await startMcp(args, { cwd, home: dir.join("home") });

      await t.step("wait_for a component, then snapshot names the view, its memory and the overlay", async () => {
        const waited = await mcp.call("wait_for", { component: "ProductCard", timeout_ms: 15_000 });
        assert.equal(waited.isError, false, waited.text);
        const info = JSON.parse(await Deno.readTextFile(join(cwd, ".mapper", ".session")));
        pids = [info.daemonPid, info.chromiumPid];
        const snap = await mcp.call("snapshot");
        assert.equal(snap.isError, false, snap.text);
        assert.match(snap.text, /^\[View: Catalog\]$/m);
        assert.match(snap.text, /wait for ProductCard before acting/);
        assert.match(snap.text, /^\[Blocked\] CookieConsent/m);
        assert.match(snap.text, /\[ProductCard [^\]]*name="Basalt Coffee Mug"/);
      });

      await t.step("a click under the cookie overlay is a tool error naming the overlay", async () => {
        const refused = await mcp.call("click", { target: BUY });
        assert.equal(refused.isError, true, refused.text);
        assert.match(refused.text, /covered by CookieConsent/);
        assert.match(refused.text, / — /, "the CLI's hint follows the message");
      });

      await t.step("clicks by component query; the console message and the request body are readable", async () => {
        const accept = await mcp.call("click", { target: "AcceptCookies" });
        assert.equal(accept.isError, false, accept.text);
        assert.match(accept.text, /^clicked .*AcceptCookies/);
        await mcp.call("wait_for", { selector: ".cookie-consent", gone: true });
        const bought = await mcp.call("click", { target: BUY });
        assert.equal(bought.isError, false, bought.text);
        assert.match(
          bought.text,
          /^clicked AddToCartButton "Add to cart" \(id \d+\) in ProductCard [^\n]*name="Basalt Coffee Mug"/,
        );
        const logged = await waitFor("the add-to-cart log line", async () => {
          const r = await mcp.call("console_list", { level: ["log"] });
          return /Added to cart: 2/.test(r.text) ? r : undefined;
        });
        assert.match(logged.text, /^\[\d+\] \[AddedToCart\] +log +Added to cart: 2/m);
        const list = await mcp.call("network_list", { url: "/api/cart" });
        const m = /^\[(\d+)\] \[AddToCart\] +POST \S+\/api\/cart → 200 OK \(Fetch\)/m.exec(list.text);
        assert.ok(m, list.text);
        const got = await mcp.call("network_get", { index: Number(m[1]) });
        assert.match(got.text, /"ok":true,"product_id":2/);
      });

      await t.step("navigate, wait for the view, fill a controlled input that the page's state sees", async () => {
        const nav = await mcp.call("navigate", { url: `${site.origin}/shop/login` });
        assert.equal(nav.isError, false, nav.text);
        const view = await mcp.call("wait_for", { view: "Login" });
        assert.equal(view.isError, false, view.text);
        for (const [field, text] of [["UsernameInput", "alice"], ["PasswordInput", "s3cret"]]) {
          const filled = await mcp.call("fill", { target: `LoginForm ${field}`, text });
          assert.equal(filled.isError, false, filled.text);
          assert.match(filled.text, new RegExp(`^filled .*${field}.* with "${text}"$`, "m"));
        }
        const submit = await mcp.call("press_key", { key: "Enter", target: "LoginForm PasswordInput" });
        assert.equal(submit.isError, false, submit.text);
        await mcp.call("wait_for", { text: "state: alice/s3cret" });
        const state = await mcp.call("evaluate", { script: "document.querySelector('.login-result').textContent" });
        assert.equal(state.text, '"state: alice/s3cret"\n');
      });

      await t.step("screenshot of a component is a PNG image block", async () => {
        const shot = await mcp.call("screenshot", { target: "LoginForm" });
        assert.equal(shot.isError, false, shot.text);
        const image = shot.content.find((c) => c.type === "image");
        assert.equal(image?.mimeType, "image/png");
        const bytes = Uint8Array.fromBase64(image!.data!);
        assert.deepEqual([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
        assert.match(shot.text, /^screenshot of LoginForm .*\(\d+×\d+ px\)$/m);
      });

      await t.step("tabs lists the page with its view; no open dialog is a tool error", async () => {
        const tabs = await mcp.call("tabs", { action: "list" });
        assert.match(tabs.text, /\/shop\/login/);
        assert.match(tabs.text, /Login/);
        const none = await mcp.call("handle_dialog", { action: "accept" });
        assert.equal(none.isError, true);
        // (The daemon answers this one with a 500 today, so the text is prefixed; the CLI prints the same.)
        assert.match(none.text, /no dialog is open on this tab/);
      });
    } finally {
      try {
        await waitFor("the session the server started to stop", () => pids.every((p) => !alive(p)), 15_000);
      } finally {
        pids.forEach(reap);
      }
    }
  },
});
