/**
 * The acting commands on a page of traps (`tests/site/acting.html`), run as a user runs them in real Chromium: a
 * menu that the pointer itself opens over the button, controls whose state a click toggles (and one that does
 * nothing), an aria-disabled button, an input mask, a contenteditable, a `<select>`, a web component of our own,
 * a prompt, a same-origin frame, and the elements no click can reach (clipped, hidden, moving, zero-size,
 * `pointer-events: none`). Each step guards one promise: an action never says it did what it did not do.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./_helpers.ts";
import { startSite } from "./site/server.ts";
import { skipBrowserTests, startSession } from "./site/harness.ts";
import { firstOfEachAsSubprocess } from "./_in_process.ts";

const CORPUS = join(ROOT, "tests", "fixtures", "acting");

Deno.test({
  name: "browser acting traps - no action reports what it did not do, and every click says what it changed",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using site = startSite();
    // `gc()` in the page: what an action leaves alive is checked by collecting garbage.
    await using s = await startSession(
      ["--url", `${site.origin}/acting.html`, "--browser-flag=--js-flags=--expose-gc"],
      CORPUS,
    );
    // Each action's first call runs as a subprocess, its later ones in process.
    const run = firstOfEachAsSubprocess(s.run, { cwd: s.cwd, env: s.env });
    const act = (...args: string[]) => run(["browser", ...args]);
    const evalJs = async (js: string) => {
      const r = await act("eval", js);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    const log = () => evalJs('document.querySelector(".log").textContent');
    assert.equal((await act("wait-for", "--selector", "body[data-ready]")).code, 0);

    await t.step(
      "a menu the pointer opens over the button takes no click: refused, naming it; nothing pressed",
      async () => {
        try {
          const r = await act("click", "SaveButton", "--timeout-ms", "1000");
          assert.equal(r.code, 1);
          assert.equal(r.stdout, "");
          assert.match(
            r.stderr,
            /^mapper browser click: SaveButton "Save" \(id \d+\) was not clicked: MoreMenu \(menu "More"\) came over it as the pointer went there and would have taken the click at \(\d+, \d+\); tried for 1000 ms — /,
          );
          // Not even the page's own first capture listener saw a press: the menu was found before the button went down.
          assert.equal(await log(), "", "neither Save nor the menu item under the pointer was pressed");
        } finally {
          // The pointer leaves first: with it still over Save, hiding the menu would bring Save a new mouseenter.
          assert.equal((await act("hover", "--x", "5", "--y", "5")).code, 0);
          await evalJs(
            'document.querySelector(".menu").hidden = true; document.querySelector(".log").textContent = ""',
          );
        }
      },
    );

    await t.step(
      "a sheet that comes over the page as the button goes down gets no release: refused, retried",
      async () => {
        try {
          const r = await act("click", "PayButton", "--timeout-ms", "1000");
          assert.equal(r.code, 1, r.stdout);
          assert.equal(r.stdout, "");
          assert.match(
            r.stderr,
            /^mapper browser click: PayButton "Pay" \(id \d+\) was not clicked: OrderSheet .* came over it as the pointer went there and would have taken the click at \(\d+, \d+\); tried for 1000 ms — /,
          );
          assert.equal(await log(), "", "the release was stopped before the page saw it");
        } finally {
          await evalJs(
            'document.querySelector(".sheet").hidden = true; document.querySelector(".log").textContent = ""',
          );
        }
      },
    );

    await t.step("a checkbox (through its label), aria-pressed and aria-expanded report before → after", async () => {
      const box = await act("click", "AgreeCheckbox");
      assert.equal(box.code, 0, box.stderr);
      assert.match(
        box.stdout,
        /^clicked AgreeCheckbox \(id \d+\) through its checkbox "I agree" at \(\d+, \d+\) — checked false → true\n$/,
      );
      const again = await act("click", "AgreeCheckbox", "--json");
      assert.equal(again.code, 0, again.stderr);
      const json = JSON.parse(again.stdout);
      assert.deepEqual(json.state, { name: "checked", before: true, after: false });
      assert.ok(json.effects.includes("state"), again.stdout);
      assert.equal(json.via, 'checkbox "I agree"');
      // A label apart from its checkbox: the click it passes on to the checkbox is part of the press.
      const news = await act("click", "NewsLabel");
      assert.equal(news.code, 0, news.stderr);
      assert.match(news.stdout, / — checked false → true\n$/);
      // A styled checkbox: its native input is clipped to 1 px over other text, so its visible label is pressed.
      const remember = await act("click", "RememberBox");
      assert.equal(remember.code, 0, remember.stderr);
      assert.match(
        remember.stdout,
        /^clicked RememberBox "Remember me" \(id \d+\) through its label at \(\d+, \d+\) — checked false → true\n$/,
      );
      assert.equal(await evalJs('document.querySelector("#remember").checked'), true);
      const bold = await act("click", "BoldToggle");
      assert.match(bold.stdout, /^clicked BoldToggle "Bold" \(id \d+\) at \(\d+, \d+\) — pressed false → true\n$/);
      const details = await act("click", "DetailsToggle");
      assert.match(details.stdout, / — expanded false → true\n$/);
    });

    await t.step("a control in a form-associated element's shadow root is named by the element's label", async () => {
      // `<label><x-facebox></x-facebox> Face box</label>`: no accessibility tree passes the label on to the checkbox
      // inside; the snapshot does. A host that is not form-associated is not labelled by it, so its box has no name.
      const r = await run(["snapshot"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /\n( +)\d+ checkbox "Face box"\n\1\d+ checkbox\n/);
    });

    await t.step("a status region shows what it says; an empty one is bare", async () => {
      // A form's result or an error is read in a status region, not in any name (the page's notice: no component).
      assert.match((await run(["snapshot"])).stdout, /\n +\d+ status\n/);
      await evalJs('document.querySelector(".notice").textContent = "Saved: 2 items"; 1');
      assert.match((await run(["snapshot"])).stdout, /\n +\d+ status "Saved: 2 items"\n/);
      // What it keeps hidden is not what it says; its lines read as one.
      await evalJs(
        `document.querySelector(".notice").innerHTML = '<span hidden>Saving…</span><span>Saved</span>\\n<b>2 items</b>'; 1`,
      );
      assert.match((await run(["snapshot"])).stdout, /\n +\d+ status "Saved 2 items"\n/);
      await evalJs('document.querySelector(".notice").textContent = ""; 1');
    });

    await t.step("a click that changes nothing says so (exit 0, but unmistakable)", async () => {
      const r = await act("click", "IdleButton");
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stdout,
        /^clicked IdleButton "Does nothing" \(id \d+\) at \(\d+, \d+\) — no visible effect \(nothing on the page changed within 500 ms, no request, no navigation\)\n$/,
      );
      const json = JSON.parse((await act("click", "IdleButton", "--json")).stdout);
      assert.deepEqual(json.effects, []);
      // A request the page sends is an effect, though nothing shows (yet).
      const ping = await act("click", "PingButton", "--json");
      assert.equal(ping.code, 0, ping.stderr);
      assert.deepEqual(JSON.parse(ping.stdout).effects, ["request"]);
    });

    await t.step("an aria-disabled button is refused as disabled; its handler never runs", async () => {
      const r = await act("click", "ArchiveButton");
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^mapper browser click: ArchiveButton "Archive" \(id \d+\) is disabled — /);
      assert.equal(await log(), "");
    });

    await t.step("fill reads the value back: an input mask that rewrites the text fails honestly", async () => {
      const r = await act("fill", "DateInput", "12252024");
      assert.equal(r.code, 1);
      assert.equal(r.stdout, "");
      assert.match(
        r.stderr,
        /^mapper browser fill: DateInput "Date" \(id \d+\) holds "12\/25\/2024" after filling "12252024" — the page changed or rejected the value/,
      );
      const letters = await act("fill", "DateInput", "soon");
      assert.equal(letters.code, 1);
      assert.match(letters.stderr, /holds "" after filling "soon"/);
      const ok = await act("fill", "DateInput", "12/25/2024");
      assert.equal(ok.code, 0, ok.stderr);
    });

    await t.step("fill --append types after the value; a contenteditable and a <select> are filled", async () => {
      const note = await act("fill", "NoteInput", ", world", "--append");
      assert.equal(note.code, 0, note.stderr);
      assert.match(note.stdout, /^filled NoteInput "Note" \(id \d+\) with "Hello, world"\n$/);
      assert.equal(await evalJs('document.querySelector(".note").value'), "Hello, world");
      const editor = await act("fill", "Editor", "Dear diary");
      assert.equal(editor.code, 0, editor.stderr);
      assert.equal(await evalJs('document.querySelector(".editor").textContent'), "Dear diary");
      const size = await act("fill", "SizeSelect", "large");
      assert.equal(size.code, 0, size.stderr);
      assert.match(size.stdout, /^chose "Large" in SizeSelect "Size" \(id \d+\)\n$/);
    });

    await t.step("fill on a web component fills the one text field in its open shadow root, and says so", async () => {
      const r = await act("fill", "CityField", "Lisbon");
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^filled CityField \(id \d+\) through its textbox "City" with "Lisbon"\n$/);
      assert.equal(await evalJs('document.querySelector("x-field").shadowRoot.querySelector("input").value'), "Lisbon");
    });

    await t.step("a field inside a same-origin frame is filled and read back", async () => {
      const r = await act("fill", "FrameField", "inside");
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        await evalJs('document.querySelector("iframe").contentDocument.querySelector("input").value'),
        "inside",
      );
    });

    await t.step("a card with a pointer cursor is clicked where it is, not through one of its buttons", async () => {
      const r = await act("click", "ProductCard");
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^clicked ProductCard "Lamp" \(id \d+\) at \(\d+, \d+\)( \(scrolled into view\))?\n$/);
      assert.equal(await log(), "card;");
      await evalJs('document.querySelector(".log").textContent = ""');
    });

    await t.step("an alert the pointer's arrival opens is no click: refused, naming the dialog", async () => {
      try {
        const r = await act("click", "GreetButton");
        assert.equal(r.code, 1, r.stdout);
        assert.match(
          r.stderr,
          /^mapper browser click: GreetButton "Greet me" \(id \d+\) was not clicked: the pointer arriving on it opened an alert dialog "Hello" — close it with 'mapper browser dialog accept'/,
        );
      } finally {
        await act("dialog", "accept");
      }
    });

    await t.step("a prompt opened by a click is reported and answered with --text", async () => {
      try {
        const r = await act("click", "AskButton");
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /\n {2}a prompt dialog opened: "Your name\?" — the page waits; answer it with /);
        const blocked = await act("click", "IdleButton");
        assert.equal(blocked.code, 1);
        assert.match(blocked.stderr, /a prompt dialog is open on the page "Your name\?"/);
        const answered = await act("dialog", "accept", "--text", "Ada");
        assert.equal(answered.code, 0, answered.stderr);
        assert.equal(await log(), "name=Ada;");
      } finally {
        await act("dialog", "dismiss"); // only when a failure above left it open
      }
    });

    await t.step("what no click can reach is refused, each with its own reason", async () => {
      const cases: Array<[string[], RegExp]> = [
        [
          ["ClippedButton"],
          /ClippedButton "Clipped away" \(id \d+\) could not be scrolled into view: div\.clip clips it/,
        ],
        [["GoneButton", "--timeout-ms", "300"], /GoneButton \(id \d+\) stayed hidden for 300 ms — /],
        [["MovingButton", "--timeout-ms", "500"], /MovingButton "Catch me" \(id \d+\) kept moving for 500 ms — /],
        [["ZeroButton"], /ZeroButton "Zero" \(id \d+\) has no size \(0×0 box\) and cannot be pressed — /],
        // A native select kept for screen readers under a visible stand-in, and a button in a shut drawer: not
        // "covered" (nothing to close) nor "pointer-events: none".
        [
          ["KeptOption"],
          /KeptOption "Tiny" \(id \d+\) in KeptSelect is hidden from sight: listbox "Kept size" clips it to 1 px or less; the click would land on \w+ — open what holds it first/,
        ],
        [
          ["KeptSelect"],
          /KeptSelect "Kept size" \(id \d+\) is hidden from sight: it is clipped to 1 px or less; the click /,
        ],
        // Its label holds a link, which a press on the label could follow: refused, never pressed there.
        [
          ["ConsentBox"],
          /ConsentBox "I accept the terms" \(id \d+\) is hidden from sight: it is clipped to 1 px or less; /,
        ],
        [
          ["ShutBuy"],
          /ShutBuy "Buy hidden" \(id \d+\) is hidden from sight: div\.drawer\.shut clips it to 1 px or less; /,
        ],
        [
          ["GhostButton"],
          /GhostButton "Ghost" \(id \d+\) does not receive pointer events \(pointer-events: none\); the click would land on div/,
        ],
      ];
      for (const [args, message] of cases) {
        const r = await act("click", ...args);
        assert.equal(r.code, 1, `${args[0]}: ${r.stdout}`);
        assert.equal(r.stdout, "");
        assert.match(r.stderr, message, `${args[0]}: ${r.stderr}`);
      }
    });

    await t.step(
      "a container pulsing for ever opens nothing: its cut button is pressed, its shut one refused",
      async () => {
        await evalJs('document.querySelector(".log").textContent = ""; 1');
        // The banner's background pulses without end; the card in it cuts more than half of a still button away
        // (pressed in the part it shows).
        const wide = await act("click", "WideOffer", "--timeout-ms", "1500");
        assert.equal(wide.code, 0, wide.stderr);
        assert.match(wide.stdout, /^clicked WideOffer "Wide offer" \(id \d+\) at /);
        assert.equal(await log(), "wide;");
        await evalJs('document.querySelector(".log").textContent = ""; 1');
        // A drawer shut in it is shut for good: hidden from sight, not a panel still moving.
        const shut = await act("click", "GlowShutBuy", "--timeout-ms", "1500");
        assert.equal(shut.code, 1);
        assert.match(
          shut.stderr,
          /^mapper browser click: GlowShutBuy "Buy later" \(id \d+\) is hidden from sight: div\.drawer clips it to 1 px or less; the click would land on [^;]+ — open what holds it first/,
        );
        assert.equal(await log(), "");
      },
    );

    await t.step("a button in a drawer still opening is waited for, then pressed fully shown", async () => {
      await evalJs('document.querySelector(".log").textContent = ""; 1');
      // The drawer takes 2.5 s to open from height 0; its button sits at the bottom, clipped until the end.
      assert.equal((await act("click", "OffersButton")).code, 0);
      const r = await act("click", "DrawerBuy");
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^clicked DrawerBuy "Buy offer" \(id \d+\) at /);
      assert.equal(await log(), "bought shown;");
      await evalJs('document.querySelector(".log").textContent = ""; 1');
    });

    await t.step("a cover on its way out is waited for; one that keeps moving is refused as covered", async () => {
      // Covers in a 600 ms fade: the click and the fill start at once and land once the covers are gone.
      await evalJs(
        'document.querySelector(".log").textContent = ""; fadeAway(".fade-button"); fadeAway(".fade-field"); 1',
      );
      const clicked = await act("click", "UnderButton");
      assert.equal(clicked.code, 0, clicked.stderr);
      assert.match(clicked.stdout, /^clicked UnderButton "Under" \(id \d+\) at \(\d+, \d+\)/);
      assert.equal(clicked.stderr, "");
      assert.equal(await log(), "under;");
      const filled = await act("fill", "UnderField", "late");
      assert.equal(filled.code, 0, filled.stderr);
      assert.equal(await evalJs('document.querySelector(".under-field").value'), "late");
      // A cover animating for ever is never out of the way: refused as covered once the time is up, nothing pressed.
      const stuck = await act("click", "StuckButton", "--timeout-ms", "800");
      assert.equal(stuck.code, 1);
      assert.equal(stuck.stdout, "");
      assert.match(
        stuck.stderr,
        /^mapper browser click: StuckButton "Stuck" \(id \d+\) is covered by span\.spinner, still moving after 800 ms; the click would land on it — /,
      );
      assert.equal(await log(), "under;", "the covered button was never pressed");
      await evalJs('document.querySelector(".log").textContent = ""; 1');
    });

    await t.step(
      "an action lets go of what it acted on: the buttons a re-render replaced can be collected",
      async () => {
        for (let i = 0; i < 3; i++) {
          const r = await act("click", "SwapButton");
          assert.equal(r.code, 0, r.stderr);
        }
        // A snapshot makes the page script's own registry of ids hold the current page only. The page script keeps
        // the last action's element until the next action (one element, not one per action): the others must be gone.
        // The collection runs in a task of its own (`execution: "async"`): no stack is scanned for pointers then, so
        // a stale one left by the evaluation cannot keep an element alive (a flake seen under load).
        assert.equal((await run(["snapshot"])).code, 0);
        const gone = await evalJs(
          '(async () => { await gc({ type: "major", execution: "async" }); ' +
            "return swapped.slice(0, -1).map((ref) => ref.deref() === undefined); })()",
        );
        assert.deepEqual(gone, [true, true]);
      },
    );

    await t.step(
      "a click that changes the URL or opens the next page says so in --json; the line stays plain",
      async () => {
        const route = await act("click", "RouteButton", "--json");
        assert.equal(route.code, 0, route.stderr);
        assert.ok(JSON.parse(route.stdout).effects.includes("url"), route.stdout);
        const next = await act("click", "NextLink");
        assert.equal(next.code, 0, next.stderr);
        assert.match(next.stdout, /^clicked NextLink "Next page" \(id \d+\) at \(\d+, \d+\)\n$/);
        assert.equal((await act("wait-for", "--url", "page=2")).code, 0);
      },
    );
  },
});
