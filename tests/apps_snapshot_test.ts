/**
 * `mapper snapshot` on pages of real front-end packages nobody here wrote (`tests/apps/`: Shoelace and Material web
 * components, a Tabulator grid, Tom Select, Swagger UI), in real Chromium, with corpora written the natural way
 * (`tests/apps/corpora/<page>/`: a component is the element the page author wrote, children for its inner parts):
 * children found inside their parent's open shadow root and only there, `[Blocked]` for an open `sl-dialog` (its
 * modal panel lives in the shadow root), `aria-disabled` shown, grid rows not named twice, roles and states a web
 * component keeps on its `ElementInternals`, and `wait-for --component` naming near matches when it times out. One
 * session, navigated from page to page, holds every page's corpus (each view serves its own page's route).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { APP_PAGES, appCorpus, startApps } from "./apps/server.ts";
import { skipBrowserTests, startSession, type TestSession, waitFor } from "./site/harness.ts";
import { inProcessAfterFirst } from "./_in_process.ts";

/** Waits until the page set `body[data-ready]` (its package rendered). */
async function ready(s: TestSession): Promise<void> {
  const r = await s.run(["browser", "wait-for", "--selector", "body[data-ready]", "--timeout-ms", "20000"]);
  assert.equal(r.code, 0, r.stderr);
}

/** Evaluates JS in the page (main world) through `mapper browser eval`. */
async function evalJs(s: TestSession, js: string): Promise<string> {
  const r = await s.run(["browser", "eval", js]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim();
}

type Json = {
  blocked: { component?: string; role: string; name: string } | null;
  guide: Record<string, number>;
  tree: Node;
};
type Node = { id: number; role: string; name: string; component?: string; states?: string[]; children?: Node[] };

function nodes(root: Node): Node[] {
  return [root, ...(root.children ?? []).flatMap(nodes)];
}

Deno.test({
  name: "apps snapshot - pages of real packages, one session with every page's corpus",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using apps = await startApps();
    // Each corpus serves its page's route only (the one top-level component, MainNav, is on the sign-up page alone),
    // so one session holds them all: a Chromium start costs seconds.
    await using session = await startSession(
      ["--url", apps.origin + APP_PAGES.signup],
      (["signup", "grid", "typeahead", "api-console", "material"] as const).map(appCorpus),
    );
    // Each command's first call runs as a user starts it, its later calls in this process.
    const s = inProcessAfterFirst(session);
    const goTo = async (page: string) => {
      const r = await s.run(["browser", "navigate", apps.origin + page]);
      assert.equal(r.code, 0, r.stderr);
      await ready(s);
    };

    await t.step(
      "Shoelace sign-up: children inside shadow roots, [Blocked] for an open sl-dialog, aria-disabled",
      async (ts) => {
        await ready(s);

        await ts.step(
          "a child component is matched in its parent's open shadow root, and only in its parent's",
          async () => {
            const r = await s.run(["snapshot"]);
            assert.equal(r.code, 0, r.stderr);
            const out = r.stdout;
            // Each sl-input's own <input> (in its shadow root) is a TextFieldInput inside that TextField (named by the
            // TextField's label, so not again).
            for (const [label, name] of [["Full name", "fullName"], ["Email", "email"], ["Phone", "phone"]]) {
              assert.match(
                out,
                new RegExp(
                  `\\n {2}\\d+ \\[TextField label="${label}" name="${name}"\\]\\n {3}\\d+ \\[TextFieldInput( required)?\\]\\n`,
                ),
              );
            }
            assert.equal(out.match(/\[TextFieldInput[\] ]/g)?.length, 3, out);
            assert.match(out, /\n {2}\d+ \[TermsCheckbox\]\n {3}\d+ \[TermsBox "I agree to the terms"\]\n/);
            // sl-switch keeps an input[type=checkbox] in its shadow root too: outside TermsCheckbox, it is no TermsBox.
            assert.match(out, /\n {2}\d+ \[NewsSwitch\]\n {3}\d+ switch "Send me news"\n/);
            assert.equal(out.match(/\[TermsBox[\] ]/g)?.length, 1, out);
            assert.doesNotMatch(out, /\[Guide\]/);
            // The closed dialog blocks nothing; its hidden parts are said to be hidden, not missing.
            assert.doesNotMatch(out, /\[Blocked\]/);
            assert.match(out, /\n {2}matched only hidden elements: PlanOption \(3\), CloseHelpButton \(1\)\n/);
            // A query reaches the inner field through its host's component.
            const res = await fetch(`http://127.0.0.1:${s.port}/devtools/page/resolve`, {
              method: "POST",
              headers: { authorization: `Bearer ${s.secret}` },
              body: JSON.stringify({ target: "TextField[name=email] TextFieldInput" }),
            });
            const body = await res.json();
            assert.equal(res.status, 200, JSON.stringify(body));
            assert.equal(body.target.component, "TextFieldInput");
            assert.deepEqual(body.target.ancestors.map((a: { component: string }) => a.component), [
              "SignupForm",
              "TextField",
            ]);
          },
        );

        await ts.step("wait-for --component names the near matches when the time runs out", async () => {
          const typo = await s.run(["browser", "wait-for", "--component", "TextFieldInpt", "--timeout-ms", "300"]);
          assert.equal(typo.code, 1);
          assert.match(
            typo.stderr,
            /^mapper browser wait-for: --component "TextFieldInpt" did not hold after 300 ms \(the tab is at [^ ]+\/signup\.html, 0 matches\); TextFieldInpt is not in the corpus; did you mean TextFieldInput/,
          );
          const value = await s.run([
            "browser",
            "wait-for",
            "--component",
            "TextField[name=zip]",
            "--timeout-ms",
            "300",
          ]);
          assert.match(
            value.stderr,
            /0 matches\); TextField is on the page 3 times; name values: "email", "fullName", "phone" — /,
          );
        });

        await ts.step("an open sl-dialog is [Blocked], named by its component; closed again, it is not", async () => {
          await evalJs(s, 'document.getElementById("help").show().then(() => 1)');
          const blocked = await waitFor("the [Blocked] line", async () => {
            const r = await s.run(["snapshot"]);
            return r.stdout.includes("[Blocked]") ? r.stdout : undefined;
          });
          assert.match(
            blocked,
            /\n\[Blocked\] HelpDialog \(dialog "How to sign up"\) covers the page; accept or dismiss it first \(id \d+\)\n/,
          );
          const json: Json = JSON.parse((await s.run(["snapshot", "--json"])).stdout);
          assert.deepEqual(
            { component: json.blocked?.component, role: json.blocked?.role, name: json.blocked?.name },
            { component: "HelpDialog", role: "dialog", name: "How to sign up" },
          );
          await evalJs(s, 'document.getElementById("help").hide().then(() => 1)');
          await waitFor("the dialog to close", async () => {
            const r = await s.run(["snapshot"]);
            return r.code === 0 && !r.stdout.includes("[Blocked]");
          });
        });

        await ts.step(
          "an overlay (found by a hit test through a shadow root) or a modal <dialog> in a shadow root is [Blocked] too",
          async () => {
            // No dialog semantics: only what covers the viewport centre says the page is blocked.
            await evalJs(
              s,
              `(() => { const host = document.createElement("x-busy"); host.id = "busy"; document.body.append(host);
            host.attachShadow({ mode: "open" }).innerHTML =
              '<div role="progressbar" aria-label="Saving" style="position:fixed;inset:0;background:#0004"></div>';
            return 1; })()`,
            );
            const out = (await s.run(["snapshot"])).stdout;
            assert.match(
              out,
              /\n\[Blocked\] progressbar "Saving" covers the page; accept or dismiss it first \(id \d+\)\n/,
            );
            await evalJs(s, 'document.getElementById("busy").remove(); 1');
            assert.doesNotMatch((await s.run(["snapshot"])).stdout, /\[Blocked\]/);
            // A native <dialog> opened with showModal() inside a shadow root.
            await evalJs(
              s,
              `(() => { const host = document.createElement("x-confirm"); host.id = "confirm"; document.body.append(host);
              host.attachShadow({ mode: "open" }).innerHTML =
                '<dialog aria-label="Leave the page?"><button>Stay</button></dialog>';
              host.shadowRoot.querySelector("dialog").showModal(); return 1; })()`,
            );
            assert.match(
              (await s.run(["snapshot"])).stdout,
              /\n\[Blocked\] dialog "Leave the page\?" covers the page; /,
            );
            await evalJs(s, 'document.getElementById("confirm").remove(); 1');
          },
        );

        await ts.step(
          "aria-disabled is shown as disabled, on the element and inside an aria-disabled one",
          async () => {
            await evalJs(
              s,
              'document.querySelector("nav a[href=\\"/grid.html\\"]").setAttribute("aria-disabled", "true"); 1',
            );
            let out = (await s.run(["snapshot"])).stdout;
            assert.match(out, /\n {2}\d+ link "Sign up"\n {2}\d+ link "People" disabled\n/);
            await evalJs(s, 'document.querySelector("nav").setAttribute("aria-disabled", "true"); 1');
            out = (await s.run(["snapshot"])).stdout;
            assert.match(out, /\n {2}\d+ link "Sign up" disabled\n {2}\d+ link "People" disabled\n/);
            await evalJs(
              s,
              'document.querySelectorAll("[aria-disabled]").forEach((e) => e.removeAttribute("aria-disabled")); 1',
            );
            out = (await s.run(["snapshot"])).stdout;
            assert.match(out, /\n {2}\d+ link "Sign up"\n {2}\d+ link "People"\n/);
          },
        );
      },
    );

    await t.step("Tabulator grid: rows carry their cells as properties and are not named again", async () => {
      await goTo(APP_PAGES.grid);
      const out = (await s.run(["snapshot"])).stdout;
      const rows = out.split("\n").filter((l) => l.includes("[PersonRow"));
      assert.ok(rows.length >= 10, out);
      for (const row of rows) assert.match(row, /^ {3}\d+ \[PersonRow age="\d+" city="[A-Za-z]+" name="[A-Za-z ]+"\]$/);
      assert.match(out, /\n {3}\d+ \[PersonRow age="20" city="London" name="Ada Lovelace"\]\n/);
      assert.match(out, /\n {2}\d+ \[ColumnHeader title="Name"\]\n/);
    });

    await t.step("Tom Select: each picker with its input; the options once the dropdown is open", async () => {
      await goTo(APP_PAGES.typeahead);
      let out = (await s.run(["snapshot"])).stdout;
      assert.match(out, /\n {2}\d+ \[CountryPicker\]\n {3}\d+ \[CountryInput "Country" collapsed\]\n/);
      assert.match(out, /\n {2}\d+ \[LanguagesPicker\]\n {3}\d+ \[LanguagesInput "Languages" collapsed\]\n/);
      assert.match(out, /\n {2}\d+ \[SaveButton "Save"\]\n/);
      await evalJs(s, 'document.getElementById("country").tomselect.open(); 1');
      out = await waitFor("the open dropdown", async () => {
        const r = (await s.run(["snapshot"])).stdout;
        return r.includes("[CountryOption") ? r : undefined;
      });
      assert.match(out, /\[CountryInput "Country" expanded\]/);
      assert.equal(out.match(/\[CountryOption value="[a-z]{2}" "[A-Za-z]+"/g)?.length, 6, out);
    });

    await t.step("Swagger UI: operations by method and path, each with its controls", async () => {
      await goTo(APP_PAGES.apiConsole);
      const out = (await s.run(["snapshot"])).stdout;
      assert.match(
        out,
        /\n \d+ \[OperationGroup tag="pets"\]\n {2}\d+ \[GroupToggle expanded\]\n {2}\d+ \[Operation method="GET" path="\/api\/pets" summary="List all pets"\]\n {3}\d+ \[OperationToggle collapsed\]\n {3}\d+ \[CopyPathButton\]\n/,
      );
      // The toggle's name is its operation's method, path and summary; the names all buttons share are said once.
      assert.equal(out.match(/\[Operation /g)?.length, 4, out);
      assert.match(
        out,
        /\n\[Guide\]\nCopyPathButton 4 "Copy path to clipboard"\nGroupToggle {4}2 "Collapse operation"\n/,
      );
      // The sign-up page's corpus is in this session too: its one top-level component is said apart.
      assert.match(out, /\n {2}matched nothing: TryItOutButton, ExecuteButton; global: MainNav\n/);
    });

    await t.step("Material Web: roles and states set on ElementInternals, the menu in the top layer", async () => {
      await goTo(APP_PAGES.material);
      const r = await s.run(["snapshot"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "");
      // md-tabs, md-primary-tab and md-radio have no role attribute: Chromium's accessibility tree gives them theirs.
      assert.match(
        r.stdout,
        /\n \d+ \[SectionTabs "Sections"\]\n {2}\d+ \[SectionTab panel="profile" "Profile" selected\]\n {2}\d+ \[SectionTab panel="privacy" "Privacy"\]\n/,
      );
      assert.match(
        r.stdout,
        /\n {2}\d+ \[ThemeRadio value="light" "Light" checked\]\n {2}\d+ \[ThemeRadio value="dark" "Dark"\]\n {2}\d+ \[ThemeRadio value="system" "System"\]\n/,
      );
      assert.match(
        r.stdout,
        /\n {2}matched only hidden elements: LanguageOption \(3\), MoreMenu \(1\), MenuItem \(2\), /,
      );
      const json: Json = JSON.parse((await s.run(["snapshot", "--json"])).stdout);
      const radios = nodes(json.tree).filter((n) => n.component === "ThemeRadio");
      assert.deepEqual(radios.map((n) => [n.role, n.name, n.states ?? []]), [
        ["radio", "Light", ["checked"]],
        ["radio", "Dark", []],
        ["radio", "System", []],
      ]);
      // The captured tree (`--tree-out`) gives each of them the role and name the snapshot shows (same ids, one pass).
      const saved = await s.run(["snapshot", "--json", "--tree-out", "material.json"]);
      assert.equal(saved.code, 0, saved.stderr);
      const shown: Json = JSON.parse(saved.stdout);
      type TreeEl = { id: number; tag: string; role: string; name: string; children: unknown[] };
      const elements = (n: TreeEl): TreeEl[] => [
        n,
        ...n.children.flatMap((c) =>
          typeof c === "string" ? [] : "tag" in (c as TreeEl) ? elements(c as TreeEl) : (c as { children: TreeEl[] })
            .children.flatMap((k) => typeof k === "string" ? [] : elements(k))
        ),
      ];
      const byId = new Map(
        elements(JSON.parse(await Deno.readTextFile(join(s.cwd, "material.json"))).root).map((n) => [n.id, n]),
      );
      const hosts = nodes(shown.tree).filter((n) => n.component === "ThemeRadio" || n.component === "SectionTab");
      assert.deepEqual(hosts.map((n) => [n.role, n.name]), [
        ["tab", "Profile"],
        ["tab", "Privacy"],
        ["radio", "Light"],
        ["radio", "Dark"],
        ["radio", "System"],
      ]);
      assert.deepEqual(hosts.map((n) => [byId.get(n.id)?.tag, byId.get(n.id)?.role, byId.get(n.id)?.name]), [
        ["md-primary-tab", "tab", "Profile"],
        ["md-primary-tab", "tab", "Privacy"],
        ["md-radio", "radio", "Light"],
        ["md-radio", "radio", "Dark"],
        ["md-radio", "radio", "System"],
      ]);
      // The menu opens as a popover (the top layer), its items named by the map.
      await evalJs(s, 'document.getElementById("more-menu").show(); 1');
      const open = await waitFor("the open menu", async () => {
        const out = (await s.run(["snapshot"])).stdout;
        return out.includes("[MenuItem") ? out : undefined;
      });
      assert.match(
        open,
        /\n \d+ \[MoreMenu\]\n {2}\d+ \[MenuItem id="export"\]\n {3}\d+ menuitem "Export"\n {2}\d+ \[MenuItem id="reset"\]\n {3}\d+ menuitem "Reset"\n/,
      );
    });
  },
});
