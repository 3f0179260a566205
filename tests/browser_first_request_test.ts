/**
 * No lost first request: `browser start --detach --url URL` on a page that fetches as soon as it starts, and the
 * fetch is in `mapper network list` every time. The navigation used to be sent before the collector's
 * `Network.enable` had answered on the tab, and the fetch was missing in 3 starts of 8. A few starts here (each is a
 * whole session); `bench/first_request_stress.ts` runs twenty.
 */
import assert from "node:assert/strict";
import { startSite } from "./site/server.ts";
import { firstFetchCaptured, skipBrowserTests } from "./site/harness.ts";
import { firstOfEachCommand } from "./_in_process.ts";

const STARTS = 4;

Deno.test({
  name: `browser start --url - the first page's first fetch is captured (${STARTS} starts of ${STARTS})`,
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using site = startSite();
    // The first listing is mapper's own process; the later ones (each start's own daemon) run in this process.
    const run = firstOfEachCommand();
    for (let i = 0; i < STARTS; i++) {
      const { captured, listing } = await firstFetchCaptured(
        site.origin,
        (s, args) => run(args, { cwd: s.cwd, env: s.env }),
      );
      assert.ok(captured, `start ${i + 1}: the page's fetch is missing from 'mapper network list':\n${listing}`);
    }
  },
});
