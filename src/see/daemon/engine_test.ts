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

Deno.test("PageEngine.closeTab - answers once the closed tab has left the browser's list", async () => {
  // The browser accepts the close at once and drops the tab from its list three list calls later.
  let listed = 0;
  let closed = false;
  const engine = new PageEngine({
    send: ((method: string) =>
      method === "Target.closeTarget"
        ? (closed = true, Promise.resolve({ success: true }))
        : Promise.reject(new Error(`unexpected ${method}`))) as never,
    tabs: () => {
      if (closed) {
        listed++;
      }
      const gone = closed && listed > 3;
      return Promise.resolve([
        { id: "T1", url: "http://x/", title: "" },
        ...(gone ? [] : [{ id: "T2", url: "http://y/", title: "" }]),
      ]);
    },
    session: (targetId) =>
      Promise.resolve(`S-${targetId}`),
    corpus: () => undefined,
    events: { listen: () => ({ [Symbol.dispose]: () => {} }) } as unknown as PageEvents,
  }, "");
  await engine.closeTab({ tab: "T2", session: "S-T2", url: "http://y/", title: "" });
  assert.equal(listed, 4, "closeTab asked until the tab was gone");
  // A tab that never leaves the list: the wait ends at its bound, without an error.
  listed = -1_000_000;
  const started = Date.now();
  await engine.closeTab({ tab: "T2", session: "S-T2", url: "http://y/", title: "" }, 50);
  assert.ok(Date.now() - started >= 50);
});
