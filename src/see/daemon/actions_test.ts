import assert from "node:assert/strict";
import { type ActPage, drag } from "./actions.ts";
import type { PageEvents } from "./page_events.ts";

/** The budget below which the page-side check refuses a still element it must scroll in (measured: 1 ms does). */
const PAGE_CHECK_NEEDS_MS = 5;

/**
 * A tab where TO gets ready only as the drag's time runs out (its cover left at the last try; the check that saw it
 * still ended a frame past its budget) and FROM is still, but below the fold: the page-side check is refused as
 * "unstable" when given less than {@linkcode PAGE_CHECK_NEEDS_MS} to scroll it in and see it still.
 */
function lateDestinationPage(budgets: Record<string, number[]>): ActPage {
  const events = { dialog: () => undefined, listen: () => ({ [Symbol.dispose]() {} }) } as unknown as PageEvents;
  return {
    tabId: "T",
    sessionId: "S",
    events,
    resolve: (target) => Promise.resolve({ objectId: target, id: target === "to" ? 1 : 2, label: target }),
    send: (async (method: string, params: Record<string, unknown>) => {
      if (method !== "Runtime.callFunctionOn") return {};
      const fn = String(params.functionDeclaration);
      const arg = (params.arguments as Array<{ value?: { timeoutMs?: number } }>)[0]?.value;
      const el = String(params.objectId);
      if (fn.includes("prepareElement")) {
        const budget = arg!.timeoutMs!;
        (budgets[el] ??= []).push(budget);
        if (el === "to") await new Promise((r) => setTimeout(r, budget + 16));
        else if (budget < PAGE_CHECK_NEEDS_MS) return { result: { value: { ok: false, reason: "unstable" } } };
        return { result: { value: { ok: true, x: 10, y: 10 } } };
      }
      if (fn.includes("centreOf")) return { result: { value: { x: 10, y: el === "to" ? 10 : 300, draggable: false } } };
      if (fn.includes("dragSeen")) return { result: { value: { moved: true, changes: 0 } } };
      return { result: { value: undefined } };
    }) as unknown as ActPage["send"],
  };
}

Deno.test("drag - TO ready as the time runs out still leaves FROM a check it can pass", async () => {
  const budgets: Record<string, number[]> = {};
  const r = await drag(lateDestinationPage(budgets), "from", "to", { timeoutMs: 200 });
  assert.deepEqual(r.effects, ["moved"]);
  assert.equal(budgets.to?.length, 1);
  assert.ok(budgets.from!.every((ms) => ms >= PAGE_CHECK_NEEDS_MS), `FROM's budgets: ${budgets.from}`);
});
