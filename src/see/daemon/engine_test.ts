import assert from "node:assert/strict";
import { PageError } from "../page_api.ts";
import { PageEngine } from "./engine.ts";
import { PageEvents } from "./page_events.ts";
import type { CdpConnection, CdpEvent } from "../../browser/cdp.ts";

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

Deno.test("PageEngine.target - a tab listed without a URL counts: several tabs, never the other tab alone", async () => {
  // The browser lists a new tab with the URL "" while its first page commits. Passed over, the command acted on the
  // other tab as if it were the only one.
  await assert.rejects(
    engineOver(["http://x/", ""]).target(),
    (err: unknown) =>
      err instanceof PageError && err.code === "several_tabs" &&
      err.message === "2 tabs are open:\n  T1  http://x/\n  T2  (opening)",
  );
  // Beside a blank tab it is the page the command means; alone, it is the only tab.
  assert.equal((await engineOver(["about:blank", ""]).target()).tab, "T2");
  assert.equal((await engineOver([""]).target()).tab, "T1");
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
  // A tab that never leaves the list: the wait ends at its bound with an error, never "closed".
  listed = -1_000_000;
  await assert.rejects(
    engine.closeTab({ tab: "T2", session: "S-T2", url: "http://y/", title: "" }, 50),
    (err: unknown) =>
      err instanceof PageError && err.code === "close_failed" &&
      /^tab T2 is still open 0\.05 s after/.test(err.message),
  );
});

Deno.test("PageEngine.closeTab - a close the browser accepted and dropped is asked again until the tab is gone", async () => {
  // Chromium says yes to a close asked while the page navigates itself, then keeps the tab open on its new page.
  let asked = 0;
  const engine = new PageEngine({
    send: ((method: string) =>
      method === "Target.closeTarget"
        ? (asked++, Promise.resolve({ success: true }))
        : Promise.reject(new Error(`unexpected ${method}`))) as never,
    tabs: () =>
      Promise.resolve([
        { id: "T1", url: "http://x/", title: "" },
        ...(asked >= 2 ? [] : [{ id: "T2", url: "http://y/", title: "" }]),
      ]),
    session: (targetId) =>
      Promise.resolve(`S-${targetId}`),
    corpus: () => undefined,
    events: { listen: () => ({ [Symbol.dispose]: () => {} }) } as unknown as PageEvents,
  }, "");
  await engine.closeTab({ tab: "T2", session: "S-T2", url: "http://y/", title: "" }, 5_000, 20);
  assert.equal(asked, 2);
});

/**
 * An engine over one tab (`T1`, session `S1`) whose CDP answers come from `answer`; `openDialog` makes the page open
 * one, as its script would. An answer of `undefined` never comes (a page held by a dialog answers nothing).
 */
function tabWithDialogs(
  answer: (
    method: string,
    params: Record<string, unknown>,
    openDialog: (type: string, message: string) => void,
  ) => unknown,
): PageEngine {
  const cdp = { onEvent: (_: CdpEvent) => {}, send: () => Promise.resolve({}) } as unknown as CdpConnection;
  const openDialog = (type: string, message: string) =>
    cdp.onEvent({ method: "Page.javascriptDialogOpening", sessionId: "S1", params: { type, message } });
  const send = (method: string, params: Record<string, unknown> = {}): Promise<unknown> => {
    const value = answer(method, params, openDialog);
    return value === undefined ? new Promise(() => {}) : Promise.resolve(value);
  };
  return new PageEngine({
    send: send as never,
    tabs: () => Promise.resolve([{ id: "T1", url: "http://x/", title: "" }]),
    session: () => Promise.resolve("S1"),
    corpus: () => undefined,
    events: new PageEvents(cdp),
  }, "");
}

const TAB = { tab: "T1", session: "S1", url: "http://x/", title: "" };

Deno.test("PageEngine.collect - a dialog opening while the accessibility tree is asked ends it with the dialog error", async () => {
  // A tab with role-less custom elements (their facts come from the accessibility tree) whose script opens an alert
  // just as the first of those calls is made: nothing on the page answers any more, release included.
  const calls: string[] = [];
  const engine = tabWithDialogs((method, params, openDialog) => {
    calls.push(method);
    const expression = String(params["expression"] ?? "");
    if (method === "Page.getFrameTree") return { frameTree: { frame: { id: "F1" } } };
    if (method === "Page.createIsolatedWorld") return { executionContextId: 7 };
    if (method === "Runtime.evaluate" && expression === "location.href") return { result: { value: "http://x/" } };
    if (method === "Runtime.evaluate" && expression.includes("opaqueHosts")) {
      return { result: { type: "object", objectId: "HOSTS" } };
    }
    if (method === "Runtime.evaluate") return { result: { value: 1 } }; // the page script installed
    if (method === "Runtime.callFunctionOn") openDialog("alert", "hi");
    return undefined;
  });
  await assert.rejects(
    engine.collect(TAB),
    (err: unknown) =>
      err instanceof PageError && err.code === "dialog" && /alert dialog is open.*"hi"/.test(err.message),
  );
  assert.ok(calls.includes("Runtime.callFunctionOn"), calls.join(" "));
  // Asked again with the dialog still open: the dialog error at once, whatever call the page is waiting on.
  await assert.rejects(engine.collect(TAB), (err: unknown) => err instanceof PageError && err.code === "dialog");
});

Deno.test("PageEngine.evaluate - a dialog that opened while the page script was being installed is the dialog error", async () => {
  // The alert opens as the tab's isolated world is made: the install, and the evaluation after it, would never answer.
  const engine = tabWithDialogs((method, _params, openDialog) => {
    if (method === "Page.getFrameTree") return { frameTree: { frame: { id: "F1" } } };
    if (method !== "Page.createIsolatedWorld") return undefined;
    openDialog("confirm", "ok?");
    return { executionContextId: 7 };
  });
  await assert.rejects(
    engine.evaluate(TAB, "1"),
    (err: unknown) => err instanceof PageError && err.code === "dialog" && /confirm dialog is open/.test(err.message),
  );
});
