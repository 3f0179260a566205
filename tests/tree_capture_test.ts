/**
 * Real Chromium on a page of our own with every trap (`tests/site/tree.html`: a shadow-root widget, a same-origin
 * frame, a `display: contents` wrapper, SVG, Unicode and quoted values, a disabled fieldset, a password field,
 * token-bearing URLs, a cut attribute): `mapper snapshot --tree-out` writes the captured tree, and selectors answer
 * on it offline exactly as the live page answers them — for a written list of selectors, for seeded random ones
 * built from the page's own tags, classes and attributes, and after a click changed a state. The snapshot's
 * id → component map equals the claim re-run offline on the tree. Then, in the same session, the same on the
 * Shoelace sign-up page (`tests/apps/signup.html`), whose components keep their inputs in shadow roots.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./_helpers.ts";
import { compile, load } from "../src/corpus/mod.ts";
import { activeComponents, normalizeCorpus } from "../assets/extension/resolver.js";
import { seeded } from "./_random.ts";
import { startSite } from "./site/server.ts";
import { APP_PAGES, appCorpus, startApps } from "./apps/server.ts";
import { skipBrowserTests, startSession, type TestSession, waitFor } from "./site/harness.ts";
import {
  type CapturedTree,
  claimElements,
  indexTree,
  isFrame,
  isNode,
  isShadow,
  loadEngine,
  type OfflineDocument,
  type OfflineEngine,
  readTreeFile,
  type TreeChild,
  type TreeNode,
} from "../src/offline/mod.ts";

const CORPUS = join(ROOT, "tests", "fixtures", "tree-page");

/** Selectors written to hit every combinator, pseudo-class and trap of the page. */
export const WRITTEN: readonly string[] = [
  "*",
  "html",
  "body",
  "head > title",
  "li",
  "li.card",
  "ul > li",
  "ul li",
  "div.contents > li",
  "ul > div > li",
  ".card + .card",
  ".card ~ .card",
  "li + li + li",
  "h3 + a",
  "h3 ~ button",
  "a + button",
  "label + input",
  "input + input",
  "legend ~ input",
  "nav > a:first-child",
  "nav > a:last-child",
  "nav a:nth-child(2)",
  "nav a:nth-child(odd)",
  "nav a:nth-child(2n+1)",
  "nav a:nth-last-child(1)",
  "nav a:nth-of-type(3)",
  "li:nth-child(2 of .x)",
  "li:nth-child(1 of .card)",
  "a:nth-child(2 of .x)",
  "li:nth-last-child(2 of .card)",
  ":nth-child(2 of .x)",
  "a:only-child",
  "li:first-of-type",
  "li:last-of-type",
  "b:only-of-type",
  "li:has(> a)",
  "li:has(a)",
  "li:has(> h3 + a)",
  "li:has(button:disabled)",
  "main:has(x-rating)",
  "div:has(> li)",
  ":has(> .star)",
  "li:not(.x)",
  "li:not(:has(a))",
  "a:not([href])",
  "a:not(.nav-link):not(.x)",
  "button:not(.buy, .go)",
  "*:not(li):not(div) > button",
  ":is(header, footer) a",
  ":where(nav, footer) > a.x",
  ":is(li, p).x > :is(a, b)",
  '[data-sku="a1" i]',
  '[data-sku="a1"]',
  '[data-sku="A1"]',
  '[data-sku="A1" s]',
  "[data-sku^=A]",
  "[data-sku^=a i]",
  "[data-sku$='1']",
  "[data-sku*='\\'']",
  '[data-sku="d\'4\\""]',
  '[data-note*="quoted"]',
  '[data-note~="value"]',
  '[lang|="de"]',
  "[class~=x]",
  '[type="email"]',
  '[type="EMAIL"]',
  '[type="email" s]',
  "[type=checkbox]",
  "[type=CHECKBOX]",
  "input[type=radio][value=b]",
  "[title='Ämber']",
  "[title='ämber' i]",
  '[href$="/p/3"]',
  "[href^='/']",
  "[href*=privacy]",
  "a[href]",
  ":any-link",
  ":link",
  "a:any-link.x",
  "[data-v]",
  "[data-v='2']",
  "#site-header",
  "#site-header a",
  "#site-header > nav > a",
  "header a.nav-link.x",
  "#signup input",
  "#G1",
  "#g1",
  "svg",
  "svg circle",
  "svg > g > circle",
  "circle.dot",
  "foreignObject",
  "foreignobject",
  "FOREIGNOBJECT div",
  "svg a",
  "svg text",
  "g > *",
  "x-rating",
  "x-rating button",
  "x-rating > b",
  "x-rating span",
  "button.star",
  ".star + .star",
  "span + button",
  "slot",
  ".inner a",
  "div.inner > a",
  "button",
  "button.x",
  "#ask",
  "main > button",
  "body.x button",
  "iframe",
  "iframe#help",
  "h2 + button",
  ":checked",
  "input:checked",
  "option:checked",
  ":disabled",
  "input:disabled",
  "button:disabled",
  ":enabled",
  "button:enabled",
  ":required",
  ":optional",
  "input:read-only",
  "input:read-write",
  "textarea:read-write",
  ":placeholder-shown",
  ":indeterminate",
  ":default",
  ":valid",
  ":invalid",
  "input:invalid",
  "details:open",
  ":defined",
  ":not(:defined)",
  "not-upgraded",
  "p :empty",
  "span:empty",
  "em:empty",
  "li:empty",
  ":root",
  ":scope",
  ":scope > body",
  "html > body > main",
  "main > *",
  "main > * > *",
  "footer > :nth-child(3)",
  "footer > a ~ button",
  "footer a + a",
  "p > span ~ i",
  "p > b + i",
  "template",
  "template button",
  ".in-template",
  "script",
  "style",
  "head *",
  "[aria-hidden] a",
  "[aria-label]",
  ".gone button",
  ".ghost button",
  "section[aria-label='Ghost']",
  "section[aria-label='ghost' i]",
  "summary",
  "details > p",
  "fieldset input",
  "fieldset:disabled",
  "select > option:nth-child(2)",
  "h1",
  "h1.arrow",
  "[id]",
  "[class]",
  "[class='']",
  "[data-blob]",
  "div#long",
  "ul.grid[data-kind=cards] li.card.x[data-sku]",
  "nav[aria-label=Main] > a.nav-link:not(#account)",
];

/** Live matches per selector (by id), through the daemon's `query-all`. */
async function liveIds(s: TestSession, selectors: readonly string[]): Promise<Array<number[] | string>> {
  const r = await fetch(`http://127.0.0.1:${s.port}/devtools/page/query-all`, {
    method: "POST",
    headers: { authorization: `Bearer ${s.secret}` },
    body: JSON.stringify({ selectors }),
  });
  const body = await r.json() as { results: Array<{ ids: number[] } | { error: string }> };
  assert.equal(r.status, 200, JSON.stringify(body));
  return body.results.map((x) => ("ids" in x ? x.ids : x.error));
}

/** The offline answer: ids, `invalid: …` for what the browser refuses too, `?` for what a capture cannot answer. */
function offlineIds(engine: OfflineEngine, doc: OfflineDocument, selector: string): number[] | string {
  try {
    return engine.query(doc, selector).all.map((e) => e.node.id as number);
  } catch (err: unknown) {
    const name = err instanceof Error ? err.name : "";
    if (name === "SelectorNotEvaluable" && (err as { invalid: boolean }).invalid) return "invalid";
    return `? ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** Every element of a tree, with the path of roots it lies in. */
function* elements(children: readonly TreeChild[]): Generator<TreeNode> {
  for (const c of children) {
    if (typeof c === "string") continue;
    if (isNode(c)) yield c;
    yield* elements(c.children);
  }
}

/**
 * Random selectors from the page's own vocabulary: compounds of a tag, a class, an attribute test, a structural
 * pseudo-class, joined by the four combinators, sometimes inside `:not`, `:is`, `:has`.
 */
function randomSelectors(tree: CapturedTree, n: number, rnd: ReturnType<typeof seeded>): string[] {
  const tags = new Set<string>();
  const classes = new Set<string>();
  const attrs: Array<[string, string]> = [];
  for (const el of elements([tree.tree.root])) {
    tags.add(el.tag);
    for (const [k, v] of Object.entries(el.attrs)) {
      if (k === "class") {
        for (const c of v.split(/\s+/)) if (c) classes.add(c);
      } else if (v.length < 40 && !(el.cut ?? []).includes(k)) attrs.push([k, v]);
    }
  }
  const tagList = [...tags];
  const classList = [...classes];
  const str = (v: string) => `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  const compound = (): string => {
    const parts: string[] = [];
    const r = rnd.int(10);
    if (r < 5) parts.push(CSS_ident(rnd.pick(tagList)));
    if (r >= 3 || parts.length === 0) {
      const k = rnd.int(6);
      if (k < 3) parts.push(`.${CSS_ident(rnd.pick(classList))}`);
      else {
        const [name, value] = rnd.pick(attrs);
        const op = rnd.pick(["=", "^=", "$=", "*=", "~=", "|=", ""]);
        const cut = value.slice(0, 1 + rnd.int(Math.max(1, value.length)));
        parts.push(
          op === ""
            ? `[${name}]`
            : `[${name}${op}${str(op === "=" || op === "~=" ? value : cut)}${rnd.int(4) === 0 ? " i" : ""}]`,
        );
      }
    }
    const p = rnd.int(12);
    if (p === 0) parts.push(":first-child");
    else if (p === 1) parts.push(`:nth-child(${rnd.int(3) + 1})`);
    else if (p === 2) parts.push(`:nth-child(${rnd.int(2) + 1} of .${CSS_ident(rnd.pick(classList))})`);
    else if (p === 3) parts.push(":last-of-type");
    else if (p === 4) parts.push(`:not(.${CSS_ident(rnd.pick(classList))})`);
    else if (p === 5) parts.push(`:has(> ${CSS_ident(rnd.pick(tagList))})`);
    else if (p === 6) parts.push(`:is(${CSS_ident(rnd.pick(tagList))}, .${CSS_ident(rnd.pick(classList))})`);
    return parts.join("");
  };
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let sel = compound();
    for (let k = rnd.int(3); k > 0; k--) sel = `${sel}${rnd.pick([" ", " > ", " + ", " ~ "])}${compound()}`;
    out.push(sel);
  }
  return out;
}

/** An identifier as CSS writes it (enough for the page's names: letters, digits, `-`, `_`). */
function CSS_ident(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]/g, (c) => `\\${c.codePointAt(0)!.toString(16)} `).replace(/^(\d)/, "\\3$1 ");
}

/** `snapshot --json --tree-out NAME` in the session: the snapshot's JSON and the tree as read back, indexed. */
async function capture(s: TestSession, name: string) {
  const res = await s.run(["snapshot", "--json", "--tree-out", name]);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stderr, new RegExp(`^saved tree ${name} \\(\\d+ bytes\\)\\n$`));
  const tree = await readTreeFile(join(s.cwd, name));
  return { snapshot: JSON.parse(res.stdout), tree, doc: indexTree(tree) };
}

/**
 * Compares the live and the offline answer of every selector (live: the tab's current document; offline: `doc`).
 * Fails listing every difference; answers the selectors the offline engine said it cannot answer.
 */
async function compare(
  s: TestSession,
  engine: OfflineEngine,
  doc: OfflineDocument,
  selectors: readonly string[],
  replay = "",
): Promise<string[]> {
  const live = await liveIds(s, selectors);
  const diffs: string[] = [];
  const unanswered: string[] = [];
  selectors.forEach((sel, i) => {
    const off = offlineIds(engine, doc, sel);
    const on = live[i]!;
    if (typeof off === "string" && off.startsWith("?")) {
      // It says it cannot answer: never a wrong count.
      unanswered.push(sel);
      return;
    }
    if (typeof on === "string") {
      if (off !== "invalid") diffs.push(`${sel}: live refuses it (${on}), offline ${JSON.stringify(off)}`);
      return;
    }
    if (JSON.stringify(on) !== JSON.stringify(off)) {
      diffs.push(`${sel}: live ${JSON.stringify(on)} offline ${JSON.stringify(off)}`);
    }
  });
  assert.deepEqual(diffs, [], replay);
  return unanswered;
}

/** The snapshot's visible id → component map, and the claim re-run offline on the tree with the same components. */
function claimMaps(
  engine: OfflineEngine,
  snapshot: { tree: SnapNode },
  doc: OfflineDocument,
  components: Parameters<typeof claimElements>[0],
): { live: Array<[number, string]>; offline: Array<[number, string]> } {
  const live: Array<[number, string]> = [];
  const walk = (nodes: SnapNode[]) => {
    for (const n of nodes) {
      if (n.component !== undefined && !n.hidden) live.push([n.id, n.component]);
      walk(n.children ?? []);
    }
  };
  walk([snapshot.tree]);
  const { owner } = claimElements(components, engine.claimDom(doc));
  const offline: Array<[number, string]> = [];
  for (const [el, index] of owner) {
    if (el.node.visible !== false) offline.push([el.node.id as number, components[index]!.name]);
  }
  const order = (a: [number, string], b: [number, string]) => a[0] - b[0];
  return { live: live.sort(order), offline: offline.sort(order) };
}

type SnapNode = { id: number; component?: string; hidden?: true; children?: SnapNode[] };

Deno.test({
  name:
    "tree capture - the offline answer equals the live one on a page with every trap, then on Shoelace web components",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using site = startSite();
    await using s = await startSession(["--url", `${site.origin}/tree.html`], CORPUS);
    const engine = await loadEngine();
    const first = await capture(s, "first.snap.tree.json");
    const { tree, doc } = first;

    await t.step("the tree holds every root, the traps and no secrets", async () => {
      assert.equal(tree.format, "mapper");
      assert.equal(tree.tree.view?.name, "TreePage");
      assert.equal(tree.tree.url, `${site.origin}/tree.html`);
      assert.equal(tree.tree.settled, true);
      assert.ok(tree.tree.coverage && tree.tree.coverage.interactive > 10);
      const info = await Deno.stat(join(s.cwd, "first.snap.tree.json"));
      assert.equal(info.mode! & 0o777, 0o600);
      const all = [...elements([tree.tree.root])];
      const byTag = (tag: string) => all.filter((e) => e.tag === tag);
      // Shadow root first among the host's children; the slotted light child after it.
      const rating = all.find((e) => e.attrs.id === "rating")!;
      assert.ok(isShadow(rating.children[0]!));
      assert.equal((rating.children[1] as TreeNode).tag, "b");
      // The same-origin frame's document, with its button.
      const frame = all.find((e) => e.attrs.id === "help")!.children.find(isFrame)!;
      assert.equal(frame.frame, "same-origin");
      assert.equal(frame.url, `${site.origin}/tree-frame.html`);
      assert.ok([...elements(frame.children)].some((e) => e.attrs.id === "ask" && e.role === "button"));
      // Visibility: boxless wrapper, hidden subtree, visibility:hidden section with a visible child.
      assert.equal(all.find((e) => e.attrs.class === "contents wrap")!.visible, "boxless");
      assert.equal(all.find((e) => e.attrs.class === "never")!.visible, false);
      assert.equal(all.find((e) => e.attrs.href === "/hidden")!.visible, false);
      assert.equal(all.find((e) => e.attrs.class === "ghost")!.visible, false);
      assert.equal(all.find((e) => e.attrs.class === "peek")!.visible, true);
      // SVG: namespace, and the tag as written.
      assert.equal(byTag("circle")[0]!.ns, "http://www.w3.org/2000/svg");
      assert.equal(byTag("foreignObject").length, 1);
      // Secrets: token query values, the password's value; both listed as cut.
      const account = all.find((e) => e.attrs.id === "account")!;
      assert.equal(account.attrs.href, "/account?token=REDACTED&tab=2");
      assert.deepEqual(account.cut, ["href"]);
      const pw = all.find((e) => e.attrs.name === "pw")!;
      assert.equal(pw.attrs.value, "");
      assert.deepEqual(pw.cut, ["value"]);
      assert.equal(all.find((e) => e.tag === "form")!.attrs.action, "/join?sig=REDACTED");
      const text = await Deno.readTextFile(join(s.cwd, "first.snap.tree.json"));
      assert.doesNotMatch(text, /hunter2|s3cr3t|abc123/);
      // No script text, no comment, no template content; the long attribute cut at 2 KiB.
      assert.doesNotMatch(text, /customElements|a comment is never|in-template/);
      const long = all.find((e) => e.attrs.id === "long")!;
      assert.equal(long.attrs["data-blob"]!.length, 2048);
      assert.deepEqual(long.cut, ["data-blob"]);
      // States from the live element: the checked box, the fieldset-disabled input, the unupgraded element.
      assert.ok(all.find((e) => e.attrs.name === "news")!.states?.includes("checked"));
      assert.ok(all.find((e) => e.attrs.name === "old")!.states?.includes("disabled"));
      assert.ok(byTag("not-upgraded")[0]!.states?.includes("not-defined"));
      assert.ok(!byTag("x-rating")[0]!.states?.includes("not-defined"));
      // Role, name and the snapshot's interactive rule.
      const email = all.find((e) => e.attrs.id === "email")!;
      assert.equal(email.role, "textbox");
      assert.equal(email.name, "Email");
      assert.equal(email.interactive, true);
      assert.equal(byTag("h1")[0]!.pseudo?.before, "→ ");
    });

    await t.step("the snapshot's ids and components are the tree's: the claim re-run offline agrees", async () => {
      const maps = claimMaps(engine, first.snapshot, doc, await activeAt(CORPUS, tree.tree.url));
      assert.deepEqual(maps.offline, maps.live);
      assert.ok(maps.live.length >= 8);
    });

    await t.step("the written selectors answer offline as live", async () => {
      assert.ok(WRITTEN.length >= 150);
      const unanswered = await compare(s, engine, doc, WRITTEN);
      // Only what a capture cannot hold (a cut value) is left unanswered.
      // Left unanswered, said so: the flag Chromium refuses, and value tests reaching an attribute whose value the
      // capture redacted (the account link's token, the password) — never a wrong count.
      assert.deepEqual(unanswered, [
        '[data-sku="A1" s]',
        '[type="email" s]',
        "input[type=radio][value=b]",
        '[href$="/p/3"]',
        "[href^='/']",
        "[href*=privacy]",
      ]);
    });

    await t.step("seeded random selectors from the page's vocabulary answer offline as live", async () => {
      const rnd = seeded();
      await compare(s, engine, doc, randomSelectors(tree, 400, rnd), rnd.replay);
    });

    await t.step(
      "--tree-out replaces a planted link instead of writing through it; a bad path is one line",
      async () => {
        const outside = join(s.tmp.path, "outside.txt");
        await Deno.writeTextFile(outside, "keep me\n");
        await Deno.symlink(outside, join(s.cwd, "planted.json"));
        const res = await s.run(["snapshot", "--tree-out", "planted.json"]);
        assert.equal(res.code, 0, res.stderr);
        assert.equal(await Deno.readTextFile(outside), "keep me\n");
        assert.ok((await Deno.lstat(join(s.cwd, "planted.json"))).isFile);
        const bad = await s.run(["snapshot", "--tree-out", "no/such/dir/t.json"]);
        assert.equal(bad.code, 1);
        assert.equal(bad.stdout, "");
        assert.match(
          bad.stderr,
          /^mapper snapshot: cannot write "no\/such\/dir\/t\.json": .* — give a file path in an existing directory you can write to\n$/,
        );
      },
    );

    await t.step(":checked follows a click, offline as live", async () => {
      const agree = [...elements([tree.tree.root])].find((e) => e.attrs.id === "agree")!;
      const click = await s.run(["browser", "click", String(agree.id)]);
      assert.equal(click.code, 0, click.stderr);
      const after = await capture(s, "after.snap.tree.json");
      assert.deepEqual(offlineIds(engine, doc, "#agree:checked"), []);
      const ids = offlineIds(engine, after.doc, "#agree:checked");
      assert.equal((ids as number[]).length, 1);
      await compare(s, engine, after.doc, [
        ":checked",
        "input:checked",
        "#agree:checked",
        "label:has(:checked)",
        ":not(:checked)",
      ]);
    });

    // The Shoelace page in this session (a Chromium start saved): its corpus replaces the tree page's, and the page
    // is captured once the session serves it.
    await using apps = await startApps();
    await Deno.remove(join(s.cwd, ".mapper", "tree.yaml"));
    await Deno.copyFile(join(appCorpus("signup"), "signup.yaml"), join(s.cwd, ".mapper", "signup.yaml"));
    await waitFor("the session to serve the sign-up corpus alone", async () => {
      const res = await fetch(`http://127.0.0.1:${s.port}/mapper`);
      const views = ((await res.json()).views ?? []) as Array<{ name: string }>;
      return views.map((v) => v.name).join() === "Signup";
    });
    const nav = await s.run(["browser", "navigate", apps.origin + APP_PAGES.signup]);
    assert.equal(nav.code, 0, nav.stderr);
    await t.step(
      "on Shoelace web components the offline answer equals the live one, shadow roots per root",
      async (shoelace) => {
        const ready = await s.run(["browser", "wait-for", "--selector", "body[data-ready]", "--timeout-ms", "20000"]);
        assert.equal(ready.code, 0, ready.stderr);
        const { snapshot, tree, doc } = await capture(s, "signup.snap.tree.json");
        const components = await activeAt(appCorpus("signup"), tree.tree.url);

        await shoelace.step("the tree has the components' shadow roots as roots of their own", () => {
          assert.ok(doc.roots.filter((r) => r.kind === "shadow").length >= 10);
        });

        await shoelace.step("the snapshot's id → component map equals the claim re-run offline", () => {
          const maps = claimMaps(engine, snapshot, doc, components);
          assert.deepEqual(maps.offline, maps.live);
          assert.ok(maps.live.some(([, c]) => c === "TextFieldInput"));
        });

        await shoelace.step(
          "the corpus's selectors, written ones and seeded random ones answer offline as live",
          async () => {
            const corpus = components.flatMap((c) => [c.selector, ...(c.ownSelector ? [c.ownSelector] : [])]);
            const rnd = seeded();
            const unanswered = await compare(s, engine, doc, [...corpus, ...SIGNUP, ...WRITTEN], rnd.replay);
            assert.deepEqual(unanswered.filter((u) => !u.endsWith(" s]")), []);
            await compare(s, engine, doc, randomSelectors(tree, 400, rnd), rnd.replay);
          },
        );
      },
    );
  },
});

/** The components active at `url` in the test corpus, in the claim's order (the resolver's, as the daemon has them). */
async function activeAt(corpus: string, url: string) {
  const loaded = await load(corpus, { validate: false, sources: false });
  const wire = compile(loaded.corpus, { site: "test", version: 1 });
  return activeComponents(normalizeCorpus(wire)!, url).components;
}

/** Selectors for the Shoelace page: its components' hosts, their shadow parts, slots, and what crosses neither. */
const SIGNUP: readonly string[] = [
  "sl-input",
  "sl-input[name=email]",
  "sl-input[type=email]",
  "sl-input[required]",
  "sl-input + sl-input",
  "sl-input ~ sl-select",
  "sl-input:nth-child(2)",
  "sl-input:nth-child(2 of [label])",
  "form > sl-input:first-child",
  "form#signup > *",
  "form :is(sl-checkbox, sl-switch)",
  "sl-select > sl-option",
  "sl-option[value=pro] + sl-option",
  "sl-option:last-child",
  "sl-select:has(> sl-option[value=team])",
  "sl-input input",
  "input",
  "input.input__control",
  "input[type=checkbox]",
  "input[type=email]",
  "input:required",
  "input:optional",
  "input:placeholder-shown",
  "input:read-write",
  "input:enabled",
  "input:invalid",
  "input:valid",
  "input:checked",
  ":checked",
  "label",
  "label[part~=form-control-label]",
  "[part]",
  "[part~=base]",
  "[part='base']",
  "[part|=form]",
  "[part^=form-control]",
  "div[part=form-control] > label + div",
  "slot",
  "slot[name]",
  "slot:not([name])",
  "slot[name=prefix] ~ input",
  ".input",
  ".input--medium",
  "span.input__prefix",
  "div.checkbox, label.checkbox",
  "button",
  "button[part~=base]",
  "sl-button button",
  "sl-button[variant=primary]",
  "sl-button#open-help",
  "sl-dialog",
  "sl-dialog sl-button",
  "sl-dialog > sl-button[slot=footer]",
  "dialog",
  "[role=dialog]",
  "[aria-hidden=true]",
  "[aria-label]",
  "svg",
  "svg path",
  "sl-icon",
  "sl-popup",
  "sl-popup [part~=popup]",
  ":defined",
  ":not(:defined)",
  "*:empty",
  "div:empty",
  "nav a",
  "nav > a + a",
  "header nav[aria-label=Main] a[href$=grid\\.html]",
  "main > h1",
  "h1 ~ form",
  ":root",
  "body *",
  "div.actions > :nth-child(2)",
  "div.actions > sl-button:only-child",
];
