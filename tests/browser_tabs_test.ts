/**
 * Tab bookkeeping of the acting commands, as a user meets it: a tab on a `chrome://` page (opened with
 * `--allow-scheme chrome`, as the scheme policy asks) is still a tab, a tab
 * stuck in a busy loop can still be closed, and `browser dialog` with no dialog open is a plain exit-1 message
 * (it was a 500 from the daemon).
 */
import assert from "node:assert/strict";
import { startSite } from "./site/server.ts";
import { skipBrowserTests, startSession, waitFor } from "./site/harness.ts";
import { firstOfEachAsSubprocess } from "./_in_process.ts";

Deno.test({
  name: "browser tabs - chrome:// pages stay listed, a busy page closes, dialog with none open exits 1",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using site = startSite();
    await using s = await startSession(["--url", `${site.origin}/shop/`]);
    // Each action's first call runs as a subprocess, its later ones in process.
    const run = firstOfEachAsSubprocess(s.run, { cwd: s.cwd, env: s.env });
    const act = (...args: string[]) => run(["browser", ...args]);
    const list = async () => {
      const r = await act("tabs", "list");
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };

    await t.step("dialog accept with no dialog open names the problem and exits 1", async () => {
      for (const verb of ["accept", "dismiss"]) {
        const r = await act("dialog", verb);
        assert.equal(r.code, 1);
        assert.equal(r.stdout, "");
        assert.equal(
          r.stderr,
          "mapper browser dialog: no dialog is open on this tab — dialogs appear after an action; 'mapper browser click' reports the one it opened\n",
        );
      }
    });

    await t.step("a tab navigated to chrome://version is still listed, and still used without --tab", async () => {
      const id = (await list()).slice(0, 8);
      // The scheme policy: a browser page opens only when the user allows its scheme, and the refusal says how.
      const refused = await act("navigate", "chrome://version");
      assert.equal(refused.code, 1);
      assert.equal(refused.stdout, "");
      assert.match(
        refused.stderr,
        /^mapper browser navigate: refusing to open "chrome:\/\/version": [^\n]* — [^\n]*--allow-scheme chrome[^\n]*\n$/,
      );
      assert.match(await list(), new RegExp(`^${id}  ${site.origin}/shop/ `));
      const r = await act("navigate", "chrome://version", "--allow-scheme", "chrome");
      assert.equal(r.code, 0, r.stderr);
      assert.match(await list(), new RegExp(`^${id}  chrome://version/ `));
      const back = await act("navigate", `${site.origin}/shop/`);
      assert.equal(back.code, 0, back.stderr);
      assert.match(await list(), new RegExp(`^${id}  ${site.origin}/shop/ `));
    });

    await t.step("a tab stuck in a busy loop is closed", async () => {
      const opened = await act("tabs", "new", `${site.origin}/shop/login`);
      assert.equal(opened.code, 0, opened.stderr);
      const id = /^opened tab (\w{8})/.exec(opened.stdout)?.[1];
      assert.ok(id, opened.stdout);
      const spin = await act("eval", "setTimeout(() => { while (true) {} }, 0); true", "--tab", id);
      assert.equal(spin.code, 0, spin.stderr);
      const closed = await act("tabs", "close", id);
      assert.equal(closed.code, 0, closed.stderr);
      assert.match(closed.stdout, new RegExp(`^closed tab ${id} `));
      await waitFor("the busy tab to leave the list", async () => !(await list()).includes(id));
      assert.match(await list(), new RegExp(`^\\w{8}  ${site.origin}/shop/ `));
    });
  },
});
