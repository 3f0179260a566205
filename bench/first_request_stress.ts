/**
 * Twenty sessions started on a page that fetches as soon as it starts (`tests/site/first-fetch.html`), counting
 * the starts whose `mapper network list` holds that fetch: every one must (the browser test runs a few).
 *
 *   deno run -A bench/first_request_stress.ts [STARTS]
 *
 * Exits 1 when one start lost it, naming the listing; prints the count and the time per start. Without a browser
 * it says so and exits 0, like the other browser benches.
 */
import { startSite } from "../tests/site/server.ts";
import { firstFetchCaptured } from "../tests/site/harness.ts";
import { browserOrSkip } from "./_browser.ts";

if (import.meta.main) {
  browserOrSkip();
  const starts = Number(Deno.args[0] ?? 20);
  await using site = startSite();
  let captured = 0;
  const began = performance.now();
  for (let i = 0; i < starts; i++) {
    const r = await firstFetchCaptured(site.origin);
    if (r.captured) captured++;
    // deno-lint-ignore no-console
    else console.error(`start ${i + 1}: the first fetch is missing:\n${r.listing}`);
  }
  const each = Math.round((performance.now() - began) / starts);
  // deno-lint-ignore no-console
  console.log(`${captured} of ${starts} starts captured the first fetch (${each} ms per start, session included)`);
  if (captured !== starts) Deno.exit(1);
}
