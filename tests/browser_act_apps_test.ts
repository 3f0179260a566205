/**
 * The acting commands on pages built from real npm packages (`tests/apps/`), with maps written the natural way (a
 * component is the element the page author wrote, e.g. `sl-input[name=fullName]`): Shoelace web components whose
 * controls live in open shadow roots, and a Tom Select form whose dropdown comes over the Save button. Each step
 * would have printed success for something that did not happen before the host delegation and the hit-target
 * check at the moment of the press. Material Web: a text field drawn transparent until focused, a checkbox whose
 * input is transparent over its drawn box, radios and tabs whose role and state live in their `ElementInternals`. One
 * session, navigated from page to page, holds every page's corpus (each view serves its own page's route).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./_helpers.ts";
import { startApps } from "./apps/server.ts";
import { skipBrowserTests, startSession, type TestSession, waitFor } from "./site/harness.ts";
import { firstOfEachAsSubprocess } from "./_in_process.ts";

const CORPORA = join(ROOT, "tests", "apps", "corpora");

/**
 * Runs `mapper …` and `mapper browser …` in a session (each command's first call as a subprocess, its later ones in
 * process) and parses `eval` answers.
 */
function actor(s: TestSession) {
  const run = firstOfEachAsSubprocess(s.run, { cwd: s.cwd, env: s.env });
  const act = (...args: string[]) => run(["browser", ...args]);
  const evalJs = async (js: string) => {
    const r = await act("eval", js);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  return { run, act, evalJs };
}

Deno.test({
  name: "browser acting on real packages' pages - Shoelace, Tom Select, Material Web, on one session",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using apps = await startApps();
    // Each page's corpus serves only its own route: one session holds them all (a Chromium start costs seconds).
    await using s = await startSession(
      ["--url", `${apps.origin}/signup.html`],
      ["signup-hosts", "typeahead-hosts", "material"].map((c) => join(CORPORA, c)),
    );
    const { run, act, evalJs } = actor(s);
    const goTo = async (path: string) => assert.equal((await act("navigate", apps.origin + path)).code, 0);

    await t.step(
      "Shoelace - fill and click through sl-input, sl-checkbox, sl-switch, sl-select, sl-dialog",
      async (ts) => {
        assert.equal((await act("wait-for", "--selector", "body[data-ready]")).code, 0);
        const host = (sel: string, prop: string) => evalJs(`document.querySelector(${JSON.stringify(sel)}).${prop}`);

        await ts.step(
          "fill on an sl-input host fills the text field in its shadow root, named in the line",
          async () => {
            const r = await act("fill", "TextField[name=fullName]", "Ada");
            assert.equal(r.code, 0, r.stderr);
            assert.match(
              r.stdout,
              /^filled TextField name="fullName" \(id \d+\) in SignupForm through its textbox "Full name" with "Ada"\n$/,
            );
            assert.equal(await host("sl-input[name=fullName]", "value"), "Ada");
          },
        );

        await ts.step("a maxlength the field enforces makes the read-back fail, showing what it kept", async () => {
          const r = await act("fill", "TextField[name=phone]", "1234567");
          assert.equal(r.code, 1);
          assert.equal(r.stdout, "");
          assert.match(
            r.stderr,
            /^mapper browser fill: TextField name="phone" \(id \d+\) in SignupForm holds "123456" after filling "1234567" — /,
          );
        });

        await ts.step(
          "the wide sl-checkbox and sl-switch hosts are clicked through their control, state before → after",
          async () => {
            const box = await act("click", "TermsCheckbox");
            assert.equal(box.code, 0, box.stderr);
            assert.match(
              box.stdout,
              /^clicked TermsCheckbox \(id \d+\) in SignupForm through its checkbox "I agree to the terms" at \(\d+, \d+\)( \(scrolled into view\))? — checked false → true\n$/,
            );
            assert.equal(await host("sl-checkbox[name=terms]", "checked"), true);
            const news = await act("click", "NewsSwitch");
            assert.equal(news.code, 0, news.stderr);
            assert.match(news.stdout, /through its switch "Send me news" at .* — checked false → true\n$/);
            assert.equal(await host("sl-switch[name=news]", "checked"), true);
          },
        );

        await ts.step(
          "sl-select takes no typed text (use click); a click opens it and an option is picked",
          async () => {
            try {
              const fill = await act("fill", "PlanSelect", "Pro");
              assert.equal(fill.code, 1);
              assert.match(
                fill.stderr,
                /PlanSelect \(id \d+\) in SignupForm is a <sl-select>, not a field that takes text — .*use 'mapper browser click'/,
              );
              const open = await act("click", "PlanSelect");
              assert.equal(open.code, 0, open.stderr);
              assert.match(
                open.stdout,
                /^clicked PlanSelect \(id \d+\) in SignupForm at \(\d+, \d+\) — expanded false → true\n$/,
              );
              const pick = await act("click", "PlanOption[value=pro]");
              assert.equal(pick.code, 0, pick.stderr);
              assert.equal(await host("sl-select[name=plan]", "value"), "pro");
            } finally {
              await act("keypress", "Escape"); // a list left open by a failure above would cover the rest of the form
            }
          },
        );

        await ts.step("sl-dialog opens from its button and closes from the button in its footer", async () => {
          const help = await act("click", "HelpButton");
          assert.equal(help.code, 0, help.stderr);
          assert.equal(await host("sl-dialog", "open"), true);
          const close = await act("click", "CloseHelpButton");
          assert.equal(close.code, 0, close.stderr);
          assert.equal(await host("sl-dialog", "open"), false);
          // The dialog covers the page until its hide animation ends (then Shoelace hides its base part): the next
          // click must not land on it.
          await waitFor(
            "the dialog's hide animation to end",
            () => evalJs('document.querySelector("sl-dialog").shadowRoot.querySelector("[part~=base]").hidden'),
          );
        });

        await ts.step("the form is submitted with every value the commands reported", async () => {
          const r = await act("click", "CreateAccountButton");
          assert.equal(r.code, 0, r.stderr);
          assert.deepEqual(JSON.parse(await evalJs('document.querySelector("#result").textContent')), {
            fullName: "Ada",
            email: "",
            phone: "123456",
            plan: "pro",
            terms: "on",
            news: "on",
          });
        });

        await ts.step(
          "a host holding several controls with dead space at its centre is refused, listing them",
          async () => {
            const r = await act("click", "SignupForm");
            assert.equal(r.code, 1);
            assert.equal(r.stdout, "");
            assert.match(
              r.stderr,
              /^mapper browser click: SignupForm \(id \d+\): its centre is not a control, and it holds 8:\n/,
            );
            assert.match(r.stderr, /\n {2}#0 {2}id=\d+ {2}textbox "Full name"\n/);
            assert.match(r.stderr, /\n {2}#4 {2}id=\d+ {2}checkbox "I agree to the terms"\n/);
            assert.match(r.stderr, / — click one of them by its id, or name it in the map as a child component\n$/);
          },
        );
      },
    );

    await t.step("Tom Select - an option is picked; a dropdown that comes over Save takes no click", async (ts) => {
      await goTo("/typeahead.html");
      assert.equal((await act("wait-for", "--selector", "body[data-ready]")).code, 0);

      await ts.step("a click opens the picker and a click on an option picks it", async () => {
        const open = await act("click", "CountryPicker");
        assert.equal(open.code, 0, open.stderr);
        const pick = await act("click", "CountryOption[label=France]");
        assert.equal(pick.code, 0, pick.stderr);
        assert.equal(await evalJs('document.querySelector("#country").value'), "fr");
      });

      await ts.step(
        "the dropdown coming back over Save as the pointer arrives takes no click; nothing is picked",
        async () => {
          // As Tom Select did on its own timer: the list opens again between the pointer's arrival and the press. The
          // press would have picked the option under it and the command would have said "clicked SaveButton".
          assert.equal(
            await evalJs(`(() => {
            const ts = document.querySelector("#country").tomselect;
            ts.blur();
            document.querySelector("#save").addEventListener("mousemove", () => ts.open(), { once: true });
            return true;
          })()`),
            true,
          );
          const r = await act("click", "SaveButton", "--timeout-ms", "1500");
          assert.equal(r.code, 1, r.stdout);
          assert.equal(r.stdout, "");
          assert.match(
            r.stderr,
            /^mapper browser click: SaveButton "Save" \(id \d+\) was not clicked: CountryPicker .* came over it as the pointer went there and would have taken the click at \(\d+, \d+\); tried for 1500 ms — /,
          );
          assert.equal(await evalJs('document.querySelector("#country").value'), "fr", "no option was picked");
          assert.equal(await evalJs('document.querySelector("#result").textContent'), "", "the form was not saved");
        },
      );
    });

    await t.step("Material Web - every control does what the line says, and the snapshot shows it", async (ts) => {
      await goTo("/material.html");
      assert.equal((await act("wait-for", "--selector", "body[data-ready]", "--timeout-ms", "20000")).code, 0);
      const host = (sel: string, prop: string) => evalJs(`document.querySelector(${JSON.stringify(sel)}).${prop}`);
      const snapshot = async () => {
        const r = await run(["snapshot"]);
        assert.equal(r.code, 0, r.stderr);
        return r.stdout;
      };
      const line = (out: string, component: string) => out.split("\n").find((l) => l.includes(`[${component}`)) ?? "";

      await ts.step("fill reaches a text field drawn transparent until focused, through its host", async () => {
        for (const [name, label, text] of [["name", "Name", "Ada"], ["email", "Email", "ada@example.com"]]) {
          const r = await act("fill", `TextField[name=${name}]`, text!);
          assert.equal(r.code, 0, r.stderr);
          assert.equal(r.stderr, "");
          assert.match(
            r.stdout,
            new RegExp(
              `^filled TextField name="${name}" \\(id \\d+\\) in SettingsForm through its textbox "${label}" with "${text}"\\n$`,
            ),
          );
          assert.equal(await host(`md-outlined-text-field[name=${name}]`, "value"), text);
        }
        const out = await snapshot();
        assert.match(out, /\n {2}\d+ \[TextField name="name"\]\n {3}\d+ textbox "Name" required value="Ada"\n/);
        assert.match(out, /\n {3}\d+ textbox "Email" value="ada@example\.com"\n/);
      });

      await ts.step("the select opens on a click and an option is picked", async () => {
        const open = await act("click", "LanguageSelect");
        assert.equal(open.code, 0, open.stderr);
        assert.match(
          open.stdout,
          /^clicked LanguageSelect \(id \d+\) in SettingsForm at \(\d+, \d+\)( \(scrolled into view\))? — expanded false → true\n$/,
        );
        assert.equal(await host("md-filled-select", "open"), true);
        const pick = await act("click", "LanguageOption[value=fr]");
        assert.equal(pick.code, 0, pick.stderr);
        assert.match(pick.stdout, /^clicked LanguageOption value="fr" \(id \d+\) in LanguageSelect at /);
        await waitFor("the value fr", async () => (await host("md-filled-select", "value")) === "fr");
        await waitFor("the list to close", async () => (await host("md-filled-select", "open")) === false);
        // The chosen option's label, as a native select's is shown: the one the select itself shows.
        assert.equal(await host("md-filled-select", "displayText"), "French");
        assert.match(
          await snapshot(),
          /\n {2}\d+ \[LanguageSelect\]\n {3}\d+ combobox "Language" collapsed value="French"\n/,
        );
      });

      await ts.step("the checkbox, its input transparent over the box drawn for it, reports checked", async () => {
        const r = await act("click", "TermsCheckbox");
        assert.equal(r.code, 0, r.stderr);
        assert.match(
          r.stdout,
          /^clicked TermsCheckbox \(id \d+\) in SettingsForm at \(\d+, \d+\)( \(scrolled into view\))? — checked false → true\n$/,
        );
        assert.equal(await host("md-checkbox", "checked"), true);
        assert.match(
          await snapshot(),
          /\n {2}\d+ \[TermsCheckbox\]\n {3}\d+ checkbox "I agree to the terms" checked\n/,
        );
      });

      await ts.step("the switch is toggled through its switch", async () => {
        const r = await act("click", "NotificationsSwitch");
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, / — checked false → true\n$/);
        assert.equal(await host("md-switch", "selected"), true);
        assert.match(await snapshot(), /\n {2}\d+ \[NotificationsSwitch\]\n {3}\d+ switch "Notifications" checked\n/);
      });

      await ts.step(
        "a radio whose role and state live in its ElementInternals is picked and shown checked",
        async () => {
          let out = await snapshot();
          assert.match(line(out, 'ThemeRadio value="light"'), /^ {2}\d+ \[ThemeRadio value="light" "Light" checked\]$/);
          const r = await act("click", "ThemeRadio[value=dark]");
          assert.equal(r.code, 0, r.stderr);
          // The line says what the browser's accessibility tree says changed (the state lives in ElementInternals).
          assert.match(
            r.stdout,
            /^clicked ThemeRadio value="dark" "Dark" \(id \d+\) in SettingsForm at \(\d+, \d+\)( \(scrolled into view\))? — checked false → true\n$/,
          );
          assert.deepEqual(
            await evalJs('[...document.querySelectorAll("md-radio")].map((r) => r.checked)'),
            [false, true, false],
          );
          out = await snapshot();
          assert.match(line(out, 'ThemeRadio value="light"'), /^ {2}\d+ \[ThemeRadio value="light" "Light"\]$/);
          assert.match(line(out, 'ThemeRadio value="dark"'), /^ {2}\d+ \[ThemeRadio value="dark" "Dark" checked\]$/);
        },
      );

      await ts.step("a tab (ElementInternals too) is switched to and shown selected", async () => {
        const r = await act("click", "SectionTab[panel=privacy]");
        assert.equal(r.code, 0, r.stderr);
        assert.match(
          r.stdout,
          /^clicked SectionTab panel="privacy" "Privacy" \(id \d+\) in SectionTabs at \(\d+, \d+\)( \(scrolled into view\))? — selected false → true\n$/,
        );
        assert.equal(await host("md-tabs", "activeTabIndex"), 1);
        assert.deepEqual(await evalJs('[...document.querySelectorAll("md-primary-tab")].map((t) => t.selected)'), [
          false,
          true,
        ]);
        const out = await snapshot();
        assert.match(
          out,
          /\n {2}\d+ \[SectionTab panel="profile" "Profile"\]\n {2}\d+ \[SectionTab panel="privacy" "Privacy" selected\]\n/,
        );
      });

      await ts.step("the dialog opens from its button, blocks the page, and closes from its own button", async () => {
        const open = await act("click", "AboutButton");
        assert.equal(open.code, 0, open.stderr);
        assert.match(open.stdout, /^clicked AboutButton \(id \d+\) in SettingsForm at /);
        // md-dialog opens and closes asynchronously (its animation runs first): the page's state follows the click.
        await waitFor("the dialog to open", async () => (await host("md-dialog", "open")) === true);
        const blocked = await waitFor("the [Blocked] line", async () => {
          const out = await snapshot();
          return out.includes("[Blocked]") ? out : undefined;
        });
        assert.match(blocked, /\n\[Blocked\] AboutDialog \(dialog "About these settings"\) covers the page; /);
        const close = await act("click", "CloseAboutButton");
        assert.equal(close.code, 0, close.stderr);
        assert.match(close.stdout, /^clicked CloseAboutButton \(id \d+\) in AboutDialog /);
        await waitFor("the dialog to close", async () => (await host("md-dialog", "open")) === false);
        await waitFor("the dialog to be gone", async () => !(await snapshot()).includes("[Blocked]"));
      });

      await ts.step("the menu opens in the top layer from its button and an item is picked", async () => {
        const open = await act("click", "MoreButton");
        assert.equal(open.code, 0, open.stderr);
        assert.equal(await host("md-menu", "open"), true);
        const out = await waitFor("the open menu", async () => {
          const o = await snapshot();
          return o.includes('[MenuItem id="reset"]') ? o : undefined;
        });
        assert.match(out, /\n {2}\d+ \[MenuItem id="reset"\]\n {3}\d+ menuitem "Reset"\n/);
        const pick = await act("click", "MenuItem[id=reset]");
        assert.equal(pick.code, 0, pick.stderr);
        assert.match(pick.stdout, /^clicked MenuItem id="reset" \(id \d+\) in MoreMenu /);
        await waitFor(
          "the picked item",
          async () => (await evalJs('document.querySelector("#picked").textContent')) === "reset",
        );
        assert.equal(await host("md-menu", "open"), false);
        // Its closing animation still covers the form (a click there is refused, naming MoreMenu): until it is gone.
        await waitFor("the menu to be gone", async () => !(await snapshot()).includes("[MenuItem"));
      });

      await ts.step("the form is submitted with every value the commands reported", async () => {
        const r = await act("click", "SaveButton");
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /^clicked SaveButton \(id \d+\) in SettingsForm at /);
        const sent = await waitFor("the submitted values", async () => {
          const text = await evalJs('document.querySelector("#result").textContent');
          return text ? JSON.parse(text) : undefined;
        });
        assert.deepEqual(sent, {
          name: "Ada",
          email: "ada@example.com",
          language: "fr",
          terms: "on",
          notifications: "on",
          theme: "dark",
        });
      });
    });
  },
});
