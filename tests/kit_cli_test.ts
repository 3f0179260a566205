/**
 * The authoring kit as a user runs it, in real Chromium: `mapper probe`, `gap`, `suggest`, `inspect` and node-mode
 * `explain` on two pages of our own — a long list of 320 product cards with generated classes (css-…, sc-…,
 * jsx-…) beside data-testid hooks, a shadow-root widget and hook-less links (`tests/site/cards.html`), and the
 * Shoelace sign-up page (`tests/apps/signup.html`, web components from npm). Every candidate the commands print is
 * probed: it matches exactly the count it states; no candidate uses a generated class; probe agrees with snapshot
 * on who owns what.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type CliResult, tempDir } from "./_helpers.ts";
import { startSite } from "./site/server.ts";
import { APP_PAGES, startApps } from "./apps/server.ts";
import { skipBrowserTests, startSession } from "./site/harness.ts";
import { firstOfEachAsSubprocess } from "./_in_process.ts";

const GENERATED = /(^|[\s.[])(css-|sc-|jsx-)/;

interface Candidate {
  selector: string;
  live: number | null;
  covers: number;
  extra: number;
  verified: boolean;
}

/** Runs mapper in the session: each command's first call as a subprocess, its later ones in this process. */
type Run = (args: string[]) => Promise<CliResult>;

async function json<T>(run: Run, args: string[]): Promise<T> {
  const r = await run([...args, "--json"]);
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
  const out = JSON.parse(r.stdout);
  assert.equal(out.schema, 1);
  return out as T;
}

/** Probes a selector and answers its live count (and the probe's own live/offline agreement). */
async function probeCount(run: Run, selector: string): Promise<number> {
  const res = await run(["probe", "--json", "--max", "0", "--", selector]);
  assert.equal(res.code, 0, `probe ${selector}: ${res.stderr}`);
  const r = JSON.parse(res.stdout) as { live: number; agrees: boolean };
  assert.equal(r.agrees, true, `live and offline agree on ${selector}`);
  return r.live;
}

Deno.test({
  name: "kit - probe, gap, suggest, explain and inspect on the live page, every printed count probed",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using site = startSite();
    await using apps = await startApps();
    await using corpus = await tempDir("mapper-kit-");
    await Deno.writeTextFile(
      join(corpus.path, "kit.yaml"),
      [
        "version: 1",
        "components:",
        "  - name: SiteHeader",
        "    selector: header.site-header",
        "views:",
        "  - name: Cards",
        "    route: /cards.html",
        `    url: ${site.origin}/cards.html`,
        "  - name: Signup",
        "    route: /signup.html",
        `    url: ${apps.origin}${APP_PAGES.signup}`,
        "    components:",
        "      - name: SignupForm",
        "        selector: form#signup",
        "  - name: Later",
        "    route: /later",
        "",
      ].join("\n"),
    );
    await using s = await startSession(["--url", `${site.origin}/cards.html`], corpus.path);
    // Every printed candidate is probed (hundreds of calls): a Deno start each was most of this file's time.
    const run = firstOfEachAsSubprocess(s.run, { cwd: s.cwd, env: s.env });

    await t.step("gap clusters the orphans; every candidate it prints matches live what it says", async () => {
      const gap = await json<
        { orphans: number; clusters: Array<{ count: number; role: string; candidates: Candidate[] }> }
      >(
        run,
        ["gap"],
      );
      assert.ok(gap.orphans >= 648, `${gap.orphans} orphans`);
      const add = gap.clusters.find((c) => c.count === 320 && c.role === "button")!;
      assert.equal(add.candidates[0]!.selector, '[data-testid="add-to-cart"]');
      for (const c of gap.clusters) {
        assert.ok(c.candidates.length > 0, `cluster ${c.role} ×${c.count} has a candidate`);
        assert.equal(c.candidates[0]!.covers, c.count);
        for (const cand of c.candidates) {
          assert.doesNotMatch(cand.selector, GENERATED);
          assert.equal(cand.verified, true);
          assert.equal(await probeCount(run, cand.selector), cand.live, cand.selector);
          assert.equal(cand.live, cand.covers + cand.extra);
        }
      }
      const text = await run(["gap"]);
      assert.equal(text.code, 0);
      assert.match(text.stdout, /3× button "★1", "★2", "★3" in x-rating \(shadow root\)/);
      assert.match(text.stdout, /→ footer a {3}covers 2\/2 · live 2 ✓/);
    });

    await t.step("suggest proposes the cards with a discriminator and their controls, each count probed", async () => {
      const r = await json<{
        candidates: Array<{
          kind: string;
          name: string;
          selector: string;
          count: number;
          instances: number;
          verified: boolean;
          properties: Array<{ extract: string; distinct: number }>;
        }>;
      }>(run, ["suggest"]);
      const card = r.candidates.find((c) => c.kind === "repeated" && c.instances === 320)!;
      assert.equal(card.name, "ProductCard");
      assert.equal(card.properties[0]?.extract, "attr=data-sku");
      assert.equal(card.properties[0]?.distinct, 320);
      assert.ok(r.candidates.some((c) => c.kind === "control" && c.name === "AddToCartButton"));
      for (const c of r.candidates) {
        assert.doesNotMatch(c.selector, GENERATED);
        assert.equal(c.verified, true, c.name);
        assert.equal(await probeCount(run, c.selector), c.count, c.selector);
      }
      const yaml = await run(["suggest", "--yaml", "--kind", "repeated"]);
      assert.equal(yaml.code, 0);
      assert.match(yaml.stdout, /^components:\n {2}- name: ProductCard\n/);
    });

    await t.step(
      "explain --grep gives the node's owner and candidates, each probed; NAME with a flag is usage",
      async () => {
        const r = await json<{ nodes: Array<{ tier: number; candidates: Candidate[] }> }>(run, [
          "explain",
          "--grep",
          "add to cart",
          "--max",
          "1",
        ]);
        assert.equal(r.nodes.length, 1);
        assert.equal(r.nodes[0]!.tier, 3);
        for (const c of r.nodes[0]!.candidates) {
          assert.doesNotMatch(c.selector, GENERATED);
          assert.equal(await probeCount(run, c.selector), c.live, c.selector);
        }
        const both = await run(["explain", "SiteHeader", "--grep", "x"]);
        assert.equal(both.code, 2);
        assert.match(both.stderr, /a name and --id\/--grep\/--selector do not go together/);
        const corpus = await run(["explain", "SiteHeader"]);
        assert.equal(corpus.code, 0, corpus.stderr);
      },
    );

    await t.step("probe agrees with snapshot on ownership", async () => {
      const snap = await json<{ tree: SnapNode }>(run, ["snapshot"]);
      const owners = new Map<number, string>();
      const walk = (n: SnapNode) => {
        if (n.component) owners.set(n.id, n.component);
        n.children?.forEach(walk);
      };
      walk(snap.tree);
      const r = await json<{ matches: Array<{ id: number; owner: string }> }>(run, [
        "probe",
        "--max",
        "50",
        "header, header *",
      ]);
      assert.ok(r.matches.length >= 5);
      for (const m of r.matches) {
        if (m.owner.startsWith("T1 ")) assert.equal(owners.get(m.id), m.owner.slice(3), `id ${m.id}`);
        else assert.equal(m.owner, "T2 SiteHeader", `id ${m.id}`);
      }
      assert.equal(r.matches[0]!.owner, "T1 SiteHeader");
    });

    await t.step("a selector the browser rejects is a usage error naming where", async () => {
      const r = await run(["probe", "li[data-sku="]);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /^mapper probe: the browser rejects the selector "li\[data-sku=" \(position \d+/);
      const quote = await run(["probe", `li[data-sku="x'); alert(1); ('"]`]);
      assert.equal(quote.code, 0, quote.stderr);
      assert.match(quote.stdout, /live 0/);
    });

    await t.step(
      "probe --expect fails on a wrong count; --all counts in each view's url: in a scratch tab",
      async () => {
        const wrong = await run(["probe", "--expect", "3", "li.card"]);
        assert.equal(wrong.code, 1);
        assert.match(wrong.stderr, /expected 3 live matches, found 320/);
        const before = await json<{ tabs: Array<{ id: string; url: string }> }>(run, ["browser", "tabs", "list"]);
        const all = await json<{ views: Array<{ view: string; count?: number; skipped?: string }> }>(run, [
          "probe",
          "--all",
          "li.card",
        ]);
        assert.deepEqual(all.views.map((v) => [v.view, v.count ?? v.skipped]), [
          ["Cards", 320],
          ["Signup", 0],
          ["Later", "no url:"],
        ]);
        const after = await json<{ tabs: Array<{ id: string; url: string }> }>(run, ["browser", "tabs", "list"]);
        assert.deepEqual(after.tabs, before.tabs, "the user's tab neither moved nor did a scratch tab stay");
      },
    );

    await t.step("inspect shows shadow roots and owners; --json is the captured tree", async () => {
      const text = await run(["inspect", "--selector", "x-rating"]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^\d+ x-rating[^\n]*\n {2}#shadow-root \(open\)\n {4}\d+ button\.star\[data-v="1"\]/);
      const head = await run(["inspect", "--selector", "header", "--depth", "0"]);
      assert.match(head.stdout, /header\.site-header\.css-1q2w3e4~.*⟨SiteHeader⟩/);
      const tree = await json<{ kind: string; root: { tag: string } }>(run, ["inspect"]);
      assert.equal(tree.kind, "mapper-tree");
      assert.equal(tree.root.tag, "html");
      const gone = await run(["inspect", "--id", "999999"]);
      assert.equal(gone.code, 1);
      assert.match(gone.stderr, /id 999999 is not on the page/);
    });

    await t.step("gap --scope: an unknown component is refused with a suggestion", async () => {
      const r = await run(["gap", "--scope", "SiteHeadr"]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /no component "SiteHeadr" is active on this page — did you mean SiteHeader\?/);
    });

    await t.step("on the Shoelace sign-up page every printed candidate is probed too", async () => {
      const nav = await run(["browser", "navigate", `${apps.origin}${APP_PAGES.signup}`]);
      assert.equal(nav.code, 0, nav.stderr);
      // The page marks itself ready once Shoelace has rendered; a quiet DOM alone is not that on a loaded machine
      // (the modules may still be loading), and the inputs its components render would be counted half-drawn.
      const ready = await run(["browser", "wait-for", "--selector", "body[data-ready]", "--timeout-ms", "20000"]);
      assert.equal(ready.code, 0, ready.stderr);
      const gap = await json<{ clusters: Array<{ count: number; candidates: Candidate[] }> }>(run, [
        "gap",
        "--scope",
        "SignupForm",
      ]);
      assert.ok(gap.clusters.length > 0);
      const suggest = await json<{ candidates: Array<{ selector: string; count: number }> }>(run, ["suggest"]);
      assert.ok(suggest.candidates.some((c) => c.selector.startsWith("sl-")), JSON.stringify(suggest.candidates));
      const all = [
        ...gap.clusters.flatMap((c) => c.candidates.map((x) => [x.selector, x.live] as const)),
        ...suggest.candidates.map((c) => [c.selector, c.count] as const),
      ];
      for (const [selector, count] of all) assert.equal(await probeCount(run, selector), count, selector);
    });
  },
});

interface SnapNode {
  id: number;
  component?: string;
  children?: SnapNode[];
}
