/**
 * The authoring kit on the ~2,000-element card page (`tests/site/cards.html`: 320 cards with generated classes and
 * test ids, a shadow-root widget, hook-less links), real Chromium headless: `mapper probe`, `gap`, `suggest` and
 * node-mode `explain` as whole CLI processes (goal: ≤ 300 ms each), each daemon route alone, and `mapper version`
 * as the process-start baseline. Note the machine load (`uptime`) with any figure.
 *
 *   deno bench -A bench/kit_bench.ts
 *
 * Skipped when no browser is found.
 */
import { join } from "node:path";
import { tempDir } from "../tests/_helpers.ts";
import { startSite } from "../tests/site/server.ts";
import { BROWSER, startSession, stopOnUnload } from "../tests/site/harness.ts";

const ignore = BROWSER === undefined;
const site = ignore ? undefined : startSite();
const corpus = ignore ? undefined : await tempDir("mapper-kit-bench-");
if (corpus) {
  await Deno.writeTextFile(
    join(corpus.path, "kit.yaml"),
    "version: 1\ncomponents:\n  - name: SiteHeader\n    selector: header.site-header\n",
  );
}
const session = ignore ? undefined : await startSession(["--url", `${site?.origin}/cards.html`], corpus!.path);
if (session) {
  const elements = (await (await fetch(`http://127.0.0.1:${session.port}/devtools/page/snapshot`, {
    headers: { authorization: `Bearer ${session.secret}` },
    method: "POST",
    body: "{}",
  })).json()).page.elements;
  // deno-lint-ignore no-console
  console.log(`cards page: ${elements} elements`);
  // The first call loads the offline engine into the daemon.
  const first = await session.run(["gap"]);
  if (first.code !== 0) throw new Error(first.stderr);
  stopOnUnload(session);
}

const COMMANDS: Array<[string, string[], string, Record<string, unknown>]> = [
  ["probe", ["probe", "li.card"], "probe", { selector: "li.card" }],
  ["gap", ["gap"], "gap", {}],
  ["suggest", ["suggest"], "suggest", {}],
  ["explain", ["explain", "--grep", "add to cart", "--max", "1"], "explain", { grep: "add to cart", max: 1 }],
];

for (const [name, args] of COMMANDS) {
  Deno.bench({ name: `mapper ${name} (whole process)`, group: "process", ignore, n: 8, warmup: 2 }, async () => {
    const out = await session!.run(args);
    if (out.code !== 0) throw new Error(out.stderr);
  });
}

Deno.bench({ name: "mapper version (process start baseline)", group: "process", ignore, n: 8, warmup: 2 }, async () => {
  await session!.run(["version"]);
});

// The engine pass every kit command starts with (snapshot + captured tree), for the share of the whole.
COMMANDS.push(["snapshot + tree", [], "snapshot", { tree: true }]);

for (const [name, , route, body] of COMMANDS) {
  Deno.bench(
    { name: `POST /devtools/page/${route} (daemon only)`, group: "daemon", ignore, n: 10, warmup: 2 },
    async () => {
      const res = await fetch(`http://127.0.0.1:${session!.port}/devtools/page/${route}`, {
        method: "POST",
        headers: { authorization: `Bearer ${session!.secret}` },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${name}: ${await res.text()}`);
      await res.arrayBuffer();
    },
  );
}
