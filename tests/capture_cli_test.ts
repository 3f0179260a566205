/**
 * `mapper capture`, `capture-novelty`, `capture-prune` as a user runs them, in real Chromium on the test site's
 * trap page (`tests/site/tree.html`) with the corpus `tests/fixtures/captures/`: the files and their names, the
 * novelty rule, `--force`, the `∅` refusal, no view, `--all` in scratch tabs (the user's tab stays), a view name
 * with path characters, a folder planted as a link, pruning; `discover` and its catch-all warning.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./_helpers.ts";
import { runInProcess } from "./_in_process.ts";
import { startSite } from "./site/server.ts";
import { skipBrowserTests, startSession } from "./site/harness.ts";

const CORPUS = join(ROOT, "tests", "fixtures", "captures");
const STAMP = String.raw`\d{8}T\d{6}Z(?:-\d+)?`;

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) out.push(e.name);
  } catch {
    return [];
  }
  return out.sort();
}

Deno.test({
  name: "capture - keeps a view's pages by the novelty rule, files them by view name, and prunes",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using site = startSite();
    await using s = await startSession(["--url", `${site.origin}/tree.html`], CORPUS);
    const snaps = join(s.cwd, ".mapper", "snapshots");
    // Each command's first run here is a subprocess, as a user starts it; the later cases run in this process.
    const runIn = (args: string[]) => runInProcess(args, { cwd: s.cwd, env: s.env });

    await t.step("the first capture of a view is kept: snapshot text and tree, private files", async () => {
      const r = await s.run(["capture"]);
      assert.equal(r.stderr, "");
      assert.equal(r.code, 0);
      assert.match(
        r.stdout,
        new RegExp(
          `^saved snapshots/TreePage/${STAMP} \\(\\d+ interactive · T1 \\d+% · T2 \\d+% · T3 \\d+ ✗\\)\\nnote: captures hold the page's text`,
        ),
      );
      const names = await files(join(snaps, "TreePage"));
      assert.equal(names.length, 2);
      assert.match(names[0]!, new RegExp(`^${STAMP}\\.snap$`));
      assert.match(names[1]!, new RegExp(`^${STAMP}\\.snap\\.tree\\.json$`));
      const snap = await Deno.readTextFile(join(snaps, "TreePage", names[0]!));
      assert.match(
        snap,
        new RegExp(
          `^url: ${site.origin}/tree\\.html\\ncaptured: \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\n\\n\\[View: TreePage\\]`,
        ),
      );
      for (const n of names) assert.equal((await Deno.stat(join(snaps, "TreePage", n))).mode! & 0o777, 0o600);
    });

    await t.step("the same page again adds nothing: not saved, exit 0; --force keeps it", async () => {
      const r = await runIn(["capture"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "not saved: adds nothing to the 1 capture of TreePage (--force keeps it)\n");
      assert.equal((await files(join(snaps, "TreePage"))).length, 2);
      const forced = await runIn(["capture", "--force", "--json"]);
      assert.equal(forced.code, 0, forced.stderr);
      const j = JSON.parse(forced.stdout);
      assert.equal(j.schema, 1);
      assert.equal(j.captures[0].view, "TreePage");
      assert.match(j.captures[0].saved, new RegExp(`^snapshots/TreePage/${STAMP}$`));
      assert.equal((await files(join(snaps, "TreePage"))).length, 4);
    });

    await t.step("capture-novelty says what a capture adds to the rest of its set", async () => {
      const tree = (await files(join(snaps, "TreePage"))).filter((f) => f.endsWith(".tree.json"))[0]!;
      const r = await s.run(["capture-novelty", join(".mapper", "snapshots", "TreePage", tree)]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /— view TreePage — against 1 other capture\nadds nothing\n$/);
    });

    await t.step("capture-prune drops what the rest covers, never the last; --dry-run removes nothing", async () => {
      const dry = await s.run(["capture-prune", "TreePage", "--dry-run"]);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, new RegExp(`^TreePage: would prune 1 of 2 \\(${STAMP}\\)\\n$`));
      assert.equal((await files(join(snaps, "TreePage"))).length, 4);
      const real = await runIn(["capture-prune", "TreePage", "--json"]);
      assert.equal(real.code, 0, real.stderr);
      const j = JSON.parse(real.stdout);
      assert.equal(j.views[0].pruned.length, 1);
      assert.equal(j.views[0].kept.length, 1);
      assert.equal((await files(join(snaps, "TreePage"))).length, 2);
      const again = await runIn(["capture-prune", "--all"]);
      assert.equal(again.stdout, "TreePage: pruned 0 of 1\n");
      const bad = await runIn(["capture-prune", "Nope"]);
      assert.equal(bad.code, 2);
      assert.match(
        bad.stderr,
        /^mapper capture-prune: no view "Nope" in the corpus — name one of: TreePage, \.\.\/Help Frame/,
      );
      const both = await runIn(["capture-prune"]);
      assert.equal(both.code, 2);
      assert.match(both.stderr, /name a view or pass --all/);
    });

    await t.step("a view name with path characters is filed under a slug and its hash, inside snapshots/", async () => {
      const r = await runIn(["capture", "--url", `${site.origin}/tree-frame.html`]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^saved snapshots/Help-Frame-[0-9a-f]{8}/${STAMP} `));
      assert.deepEqual((await files(snaps)).filter((d) => !/^(TreePage|Help-Frame-[0-9a-f]{8})$/.test(d)), []);
      assert.deepEqual(await files(join(s.cwd, "Help Frame")), []);
    });

    await t.step("no view for the URL, or no interactive node: refused, exit 1, naming the fix", async () => {
      const none = await runIn(["capture", "--url", `${site.origin}/index.html`]);
      assert.equal(none.code, 1);
      assert.match(
        none.stderr,
        /^mapper capture: no view matches http:\/\/127\.0\.0\.1:\d+\/index\.html — add a view whose route: matches it/,
      );
      const blank = await runIn(["capture", "--url", `${site.origin}/blank.html`]);
      assert.equal(blank.code, 1);
      assert.match(blank.stdout, /^✗ Blank: ∅ no interactive node: never kept as a baseline/);
      assert.deepEqual(await files(join(snaps, "Blank")), []);
      const forced = await runIn(["capture", "--url", `${site.origin}/blank.html`, "--force"]);
      assert.equal(forced.code, 0, forced.stderr);
      assert.equal((await files(join(snaps, "Blank"))).length, 2);
    });

    await t.step("a captures folder planted as a link is refused, nothing written through it", async () => {
      const elsewhere = join(s.tmp.path, "elsewhere");
      await Deno.mkdir(elsewhere);
      await Deno.symlink(elsewhere, join(snaps, "Misfiled"));
      await Deno.remove(join(snaps, "TreePage"), { recursive: true });
      await Deno.symlink(elsewhere, join(snaps, "TreePage"));
      const r = await runIn(["capture", "--url", `${site.origin}/tree.html`]);
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        /^mapper capture: ".*snapshots\/TreePage" is not a directory \(a link or a file is in its place\) — move it away/,
      );
      assert.deepEqual(await files(elsewhere), []);
      await Deno.remove(join(snaps, "TreePage"));
      await Deno.remove(join(snaps, "Misfiled"));
    });

    await t.step("--all captures every view's url: in scratch tabs; the user's tab stays where it was", async () => {
      await runIn(["browser", "navigate", `${site.origin}/tree-frame.html`]);
      const r = await runIn(["capture", "--all"]);
      assert.equal(r.code, 1, r.stderr);
      const out = r.stdout;
      assert.match(out, new RegExp(`^saved snapshots/TreePage/${STAMP} `, "m"));
      assert.match(out, /^not saved: adds nothing to the 1 capture of \.\.\/Help Frame \(--force keeps it\)$/m);
      assert.match(out, /^✗ Misfiled: Misfiled's url: opens a page of view TreePage \(fix its url: or route:\)$/m);
      assert.match(out, /^✗ Blank: ∅ no interactive node/m);
      assert.match(out, /^skipped \(no url:\): NoUrl$/m);
      const tabs = JSON.parse((await runIn(["browser", "tabs", "list", "--json"])).stdout);
      assert.equal(tabs.tabs.length, 1);
      assert.equal(tabs.tabs[0].url, `${site.origin}/tree-frame.html`);
      const conflict = await runIn(["capture", "--all", "--url", site.origin]);
      assert.equal(conflict.code, 2);
      assert.match(conflict.stderr, /--all conflicts with --url and --tab/);
    });

    await t.step("coverage, report and multi-coverage read the browser's captures offline", async () => {
      const cov = await s.run(["coverage", "--trace", "--json"]);
      assert.equal(cov.code, 1, cov.stderr); // the trap page has orphans
      const j = JSON.parse(cov.stdout);
      const tree = j.captures.find((c: { view: string }) => c.view === "TreePage");
      assert.ok(tree.t1 > 0 && tree.t3 > 0);
      assert.ok(tree.clusters.some((c: { ancestor: string; boundary: string }) => c.boundary === "frame"));
      assert.deepEqual(tree.claimed.Star, 2);
      const rep = await runIn(["report"]);
      assert.equal(rep.code, 1, rep.stderr);
      assert.match(rep.stdout, /^ TreePage +\/tree\.html +✓ +1 /m);
      assert.match(rep.stdout, /^ NoUrl +\/no-url +- +- /m);
      const multi = await runIn(["multi-coverage", "--json"]);
      assert.equal(multi.code, 0, multi.stderr);
      assert.equal(JSON.parse(multi.stdout).matrix.Card.TreePage, 4);
    });

    await t.step("discover folds the page's links in every root into patterns, each marked", async () => {
      await runIn(["browser", "navigate", `${site.origin}/tree.html`]);
      const r = await s.run(["discover"]);
      assert.equal(r.code, 0, r.stderr);
      // /p/1 and /p/3 fold; the shadow root's /r and the frame's /faq are found; /hidden is marked.
      assert.match(r.stdout, /^\? {2}\/p\/:id +unseen · 2 links$/m);
      assert.match(r.stdout, /^\? {2}\/r +unseen · 1 link$/m);
      assert.match(r.stdout, /^\? {2}\/faq +unseen · 1 link$/m);
      assert.match(r.stdout, /^\? {2}\/hidden +unseen · 1 link \(hidden\)$/m);
      const j = JSON.parse((await runIn(["discover", "--all", "--json"])).stdout);
      assert.equal(j.schema, 1);
      assert.ok(j.patterns.some((p: { pattern: string }) => p.pattern === "/account"));
      // A catch-all view swallows every other pattern: each is marked, and one line warns about it.
      await Deno.writeTextFile(
        join(s.cwd, ".mapper", "zz-everything.yaml"),
        "version: 1\nviews:\n  - name: Everything\n    route: /**\n",
      );
      const wide = await runIn(["discover"]);
      assert.equal(wide.code, 0, wide.stderr);
      assert.match(wide.stdout, /^~ {2}\/p\/:id +only catch-all Everything \(\/\*\*\) · 2 links$/m);
      assert.match(
        wide.stdout,
        /^⚠ \d+ patterns are mapped only by a catch-all route; give them a view of its own \(a catch-all swallows/m,
      );
    });
  },
});
