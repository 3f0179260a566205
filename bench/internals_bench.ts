/**
 * What the accessibility-tree lookup costs a snapshot on a page of many custom elements with no role in their
 * markup (each is asked about: its role and states may live in its `ElementInternals`): the Material Web page of the
 * browser tests with COUNT more `md-checkbox` added, `mapper snapshot` timed for the whole CLI process and for the
 * daemon's part alone (`POST /devtools/page/snapshot`), with 0 and COUNT added. Note the machine load (`uptime`).
 *
 *   deno run -A bench/internals_bench.ts [COUNT] [ROUNDS]
 *
 * @module
 */
import { APP_PAGES, appCorpus, startApps } from "../tests/apps/server.ts";
import { startSession } from "../tests/site/harness.ts";
import { browserOrSkip, cliSnapshot, daemonSnapshot, timed } from "./_browser.ts";
import { sized } from "./_smoke.ts";

browserOrSkip();
const COUNT = Number(Deno.args[0] ?? sized(200, 5));
const ROUNDS = Number(Deno.args[1] ?? sized(10, 1));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await using apps = await startApps();
await using s = await startSession(["--url", apps.origin + APP_PAGES.material], appCorpus("material"));
const ready = await s.run(["browser", "wait-for", "--selector", "body[data-ready]", "--timeout-ms", "20000"]);
if (ready.code !== 0) throw new Error(ready.stderr);

for (const added of [0, COUNT]) {
  if (added > 0) {
    const js = `const box = document.createElement("div");
      box.innerHTML = Array.from({ length: ${added} }, (_, i) => \`<label><md-checkbox name="c\${i}"></md-checkbox> Item \${i}</label>\`).join("");
      document.querySelector("main").append(box);
      await Promise.all([...box.querySelectorAll("md-checkbox")].map((c) => c.updateComplete)); 1`;
    const r = await s.run(["browser", "eval", js]);
    if (r.code !== 0) throw new Error(r.stderr);
  }
  await cliSnapshot(s); // warm-up
  const process: number[] = [];
  const own: number[] = [];
  let elements = 0;
  for (let i = 0; i < ROUNDS; i++) {
    process.push(await timed(() => cliSnapshot(s)));
    own.push(await timed(async () => (elements = (await daemonSnapshot(s)).page.elements)));
  }
  // deno-lint-ignore no-console
  console.log(
    `${added} md-checkbox added (${elements} elements): process median ${median(process).toFixed(0)} ms, ` +
      `daemon median ${median(own).toFixed(0)} ms (${ROUNDS} rounds)`,
  );
}
