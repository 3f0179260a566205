/**
 * `mapper browser drag FROM TO` and `mapper browser tabs resize W H` in real Chromium (`tests/site/drag.html`): a
 * pointer slider below the fold moves (FROM scrolled in, the button held through every move), an HTML5 drop
 * reaches its zone, a drag that changes nothing exits 1 naming the mode; a resize is read back, holds across a
 * navigation, and out-of-range sizes are usage errors.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "./_helpers.ts";
import { startSite } from "./site/server.ts";
import { skipBrowserTests, startSession } from "./site/harness.ts";
import { firstOfEachAsSubprocess } from "./_in_process.ts";

Deno.test({
  name: "browser drag and tabs resize - real pointer input, verified; a size held until --reset",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using site = startSite();
    await using corpus = await tempDir("mapper-drag-");
    await Deno.writeTextFile(
      join(corpus.path, "drag.yaml"),
      [
        "version: 1",
        "components:",
        "  - name: Card",
        "    selector: '#card'",
        "  - name: Zone",
        "    selector: '#zone'",
        "  - name: Still",
        "    selector: '#still'",
        "  - name: Late",
        "    selector: '#late'",
        "  - name: LateZone",
        "    selector: '#late-zone'",
        "  - name: Track",
        "    selector: '#track'",
        "    children:",
        "      - name: Knob",
        "        selector: '#knob'",
        "",
      ].join("\n"),
    );
    await using s = await startSession(["--url", `${site.origin}/drag.html`], corpus.path);
    const sRun = firstOfEachAsSubprocess(s.run, { cwd: s.cwd, env: s.env });
    const value = async (js: string) => {
      const r = await sRun(["browser", "eval", js]);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.trim();
    };

    await t.step("a pointer slider below the fold follows the held pointer onto TO", async () => {
      const r = await sRun(["browser", "drag", "Knob", "Track"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^dragged Knob .* onto Track .*\(pointer: .*\): moved/);
      assert.equal(await value("document.getElementById('value').textContent"), '"190"');
    });

    await t.step("an HTML5 drag source is dropped on its zone by the browser's drag and drop", async () => {
      const r = await sRun(["browser", "drag", "Card", "Zone", "--json"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).mode, "html5");
      assert.equal(await value("document.getElementById('zone').textContent"), '"dropped card-1"');
    });

    await t.step("a drag that changes nothing is refused, naming the mode", async () => {
      const r = await sRun(["browser", "drag", "Still", "Zone"]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /\(pointer mode\) changed nothing: it did not move and the page did not change — /);
    });

    await t.step("one timeout for the whole drag: waiting for TO's cover leaves FROM only the rest", async () => {
      // TO's cover fades for 2 s and FROM's for 4.5 s, both from now; the drag has 3 s. Waiting 2 s for TO leaves about
      // 1 s for FROM, whose cover is still moving then: refused as covered, nothing pressed. Given 3 s of its own,
      // FROM's wait would have outlasted its cover and the drag run 5 s.
      assert.equal(await value("fadeBoth(2000, 4500), 1"), "1");
      const r = await sRun(["browser", "drag", "Late", "LateZone", "--timeout-ms", "3000"]);
      assert.equal(r.code, 1, r.stdout);
      assert.equal(r.stdout, "");
      assert.match(
        r.stderr,
        /^mapper browser drag: Late \(id \d+\) is covered by span\.fader\.out, still moving after 3000 ms; the drag would land on it — /,
      );
      assert.equal(await value("document.getElementById('late-log').textContent"), '""');
    });

    await t.step("tabs resize sets the window size, reads it back, holds it across navigations", async () => {
      const r = await sRun(["browser", "tabs", "resize", "800", "600"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^resized [0-9A-F]{8} to 800×600 \(was \d+×\d+\)\n$/);
      const nav = await sRun(["browser", "navigate", `${site.origin}/drag.html?again`]);
      assert.equal(nav.code, 0, nav.stderr);
      assert.equal(await value("innerWidth + 'x' + innerHeight"), '"800x600"');
      const reset = await sRun(["browser", "tabs", "resize", "--reset"]);
      assert.equal(reset.code, 0, reset.stderr);
      assert.match(reset.stdout, /^reset [0-9A-F]{8} to \d+×\d+ \(was 800×600\)/);
      for (const bad of [["100", "600"], ["800", "9000"], ["-5", "600"], ["800"]]) {
        const b = await sRun(["browser", "tabs", "resize", "--", ...bad]);
        assert.equal(b.code, 2, `${bad.join(" ")}: ${b.stderr}`);
        assert.match(b.stderr, /must be a whole number from 200 to 8192/);
      }
    });
  },
});
