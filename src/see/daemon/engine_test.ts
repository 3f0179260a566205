import assert from "node:assert/strict";
import { PageError } from "../page_api.ts";
import { PageEngine } from "./engine.ts";
import type { PageEvents } from "./page_events.ts";

/** An engine over a fixed list of tabs; only tab selection is exercised. */
function engineOver(urls: string[]): PageEngine {
  return new PageEngine({
    send: (() => Promise.reject(new Error("no CDP here"))) as never,
    tabs: () => Promise.resolve(urls.map((url, i) => ({ id: `T${i + 1}`, url, title: "" }))),
    session: (targetId) => Promise.resolve(`S-${targetId}`),
    corpus: () => undefined,
    // Only what the constructor touches: it subscribes to navigations to install the page script.
    events: { listen: () => ({ [Symbol.dispose]: () => {} }) } as unknown as PageEvents,
  }, "");
}

Deno.test("PageEngine.target - without --tab: the one page that shows something; blank and new-tab pages do not count", async () => {
  assert.equal((await engineOver(["about:blank", "chrome://newtab/", "http://x/"]).target()).tab, "T3");
  assert.equal((await engineOver(["chrome://new-tab-page/", "http://x/"]).target()).tab, "T2");
  // A chrome:// page someone navigated to is a page like any other.
  assert.equal((await engineOver(["chrome://version/"]).target()).tab, "T1");
  await assert.rejects(
    engineOver(["chrome://version/", "http://x/"]).target(),
    (err: unknown) => err instanceof PageError && err.code === "several_tabs",
  );
});
