/**
 * `eval` of the action engine: runs JavaScript in the tab's page world (the page's own globals), awaits a promise
 * result, and returns it as JSON. An expression is tried first; a body with top-level `return` runs as an async
 * function. Values JSON cannot carry faithfully — a DOM node, a function, a symbol, a bigint, a cyclic object,
 * `undefined` inside an array — are a clear error naming where in the value they sit, never a silent `{}`.
 *
 * @module
 */
import { type ActPage, assertNoDialog, dialogOpenError } from "./actions.ts";
import { PageError } from "../page_api.ts";
import { escapeControls } from "../../terminal.ts";
import type { DialogInfo } from "./page_events.ts";

/** Result of {@linkcode evaluate}. */
export interface EvalResult {
  /** The action performed. */
  action: "eval";
  /** The value as JSON text (`undefined` when the script returned nothing). */
  json: string | undefined;
  /** The parsed value (`undefined` when nothing was returned). */
  value: unknown;
}

interface RemoteObject {
  type: string;
  subtype?: string;
  className?: string;
  description?: string;
  objectId?: string;
  value?: unknown;
  unserializableValue?: string;
}

interface EvalAnswer {
  result: RemoteObject;
  exceptionDetails?: {
    text?: string;
    lineNumber?: number;
    columnNumber?: number;
    exception?: RemoteObject;
  };
}

/** The page-side serialiser: strict JSON with a path to the first value JSON cannot carry. */
const SERIALISE = `function () {
  const seen = new Set();
  const walk = (v, path) => {
    const t = typeof v;
    if (v === null || t === "string" || t === "boolean") return v;
    if (t === "number") { if (!Number.isFinite(v)) throw new Error(path + " is " + String(v) + " (not a JSON number)"); return v; }
    if (t === "undefined") throw new Error(path + " is undefined");
    if (t === "function") throw new Error(path + " is a function");
    if (t === "symbol") throw new Error(path + " is a symbol");
    if (t === "bigint") throw new Error(path + " is a bigint (" + String(v) + "n)");
    if (typeof Node !== "undefined" && v instanceof Node) throw new Error(path + " is a DOM node (<" + (v.nodeName || "").toLowerCase() + ">)");
    if (typeof Window !== "undefined" && v instanceof Window) throw new Error(path + " is a window");
    if (seen.has(v)) throw new Error(path + " refers back to itself (a cyclic value)");
    if (typeof v.toJSON === "function") return walk(v.toJSON(), path);
    seen.add(v);
    let out;
    if (Array.isArray(v)) out = v.map((x, i) => walk(x, path + "[" + i + "]"));
    else if (v instanceof Map || v instanceof Set || v instanceof WeakMap || v instanceof Promise || v instanceof RegExp) {
      throw new Error(path + " is a " + v.constructor.name + " (not JSON); convert it, e.g. Object.fromEntries(map) or [...set]");
    } else {
      out = {};
      for (const k of Object.keys(v)) { if (v[k] !== undefined) out[k] = walk(v[k], path + "." + k); }
    }
    seen.delete(v);
    return out;
  };
  return JSON.stringify(walk(this, "the result"));
}`;

function describeThrown(d: NonNullable<EvalAnswer["exceptionDetails"]>): string {
  const ex = d.exception;
  const message = ex?.description?.split("\n")[0] ?? (ex?.value !== undefined ? String(ex.value) : d.text ?? "error");
  // A rejected promise's position is where the rejection surfaced, not a line of the script: leave it out.
  const line = d.lineNumber !== undefined && !/in promise/.test(d.text ?? "")
    ? ` (line ${d.lineNumber + 1}, column ${(d.columnNumber ?? 0) + 1})`
    : "";
  // A thrown value is the page's text: one line, every invisible character shown (the error quotes it).
  return `${escapeControls(message)}${line}`;
}

async function run(page: ActPage, expression: string, replMode: boolean): Promise<EvalAnswer | { dialog: DialogInfo }> {
  const pending = page.send("Runtime.evaluate", {
    expression,
    awaitPromise: true,
    returnByValue: false,
    replMode,
    userGesture: true,
  });
  let sub: Disposable | undefined;
  const opened = new Promise<{ dialog: DialogInfo }>((resolve) => {
    sub = page.events.listen((ev) => {
      if (ev.sessionId !== page.sessionId || ev.method !== "Page.javascriptDialogOpening") return;
      const d = page.events.dialog(page.sessionId);
      if (d) resolve({ dialog: d });
    });
  });
  try {
    return await Promise.race([pending, opened]);
  } finally {
    sub?.[Symbol.dispose]();
    pending.catch(() => {});
  }
}

/** Evaluates JavaScript in the tab's main frame and returns the result as JSON. */
export async function evaluate(page: ActPage, js: string): Promise<EvalResult> {
  assertNoDialog(page);
  let answer = await run(page, js, false);
  if ("dialog" in answer) throw dialogOpenError(answer.dialog);
  let lineShift = 0;
  const syntax = answer.exceptionDetails?.exception?.className === "SyntaxError"
    ? answer.exceptionDetails.exception.description ?? ""
    : "";
  if (/Illegal return/.test(syntax) || (/await is only valid/.test(syntax) && /\breturn\b/.test(js))) {
    // A body with `return`: run it as an async function (its first line is the wrapper's second).
    answer = await run(page, `(async () => {\n${js}\n})()`, false);
    lineShift = 1;
  } else if (/await is only valid/.test(syntax)) {
    // Top-level `await` in an expression or statements: the console's REPL mode allows it.
    answer = await run(page, js, true);
  }
  if ("dialog" in answer) throw dialogOpenError(answer.dialog);
  if (answer.exceptionDetails?.lineNumber !== undefined) {
    answer.exceptionDetails.lineNumber = Math.max(0, answer.exceptionDetails.lineNumber - lineShift);
  }
  if (answer.exceptionDetails) {
    throw new PageError("script_error", `the script threw: ${describeThrown(answer.exceptionDetails)}`, {
      hint: "fix the script; it runs in the page's main frame with the page's globals",
    });
  }
  const r = answer.result;
  if (r.type === "undefined") return { action: "eval", json: undefined, value: undefined };
  if (r.unserializableValue !== undefined) {
    throw new PageError("not_json", `the result is ${r.unserializableValue}, which JSON cannot carry`, {
      hint: "return a string, e.g. String(value)",
    });
  }
  const kind = r.type === "function"
    ? "a function"
    : r.type === "symbol"
    ? "a symbol"
    : r.subtype === "node"
    ? `a DOM node (${r.description ?? "element"})`
    : r.subtype === "window"
    ? "a window"
    : undefined;
  if (kind !== undefined) {
    if (r.objectId) page.send("Runtime.releaseObject", { objectId: r.objectId }).catch(() => {});
    throw new PageError("not_json", `the result is ${kind}, which cannot be returned as JSON`, {
      hint: "return plain data: e.g. el.textContent or el.outerHTML instead of el",
    });
  }
  if (r.objectId === undefined) {
    return { action: "eval", json: JSON.stringify(r.value ?? null), value: r.value ?? null };
  }
  try {
    const s = await page.send("Runtime.callFunctionOn", {
      functionDeclaration: SERIALISE,
      objectId: r.objectId,
      returnByValue: true,
    });
    if (s.exceptionDetails) {
      const why = escapeControls(
        s.exceptionDetails.exception?.description?.split("\n")[0]?.replace(/^Error: /, "") ?? "not JSON",
      ); // it names the page's own keys
      throw new PageError("not_json", `the result cannot be returned as JSON: ${why}`, {
        hint: "return plain data: e.g. el.textContent instead of el, or JSON-friendly fields of an object",
      });
    }
    const json = String(s.result.value);
    return { action: "eval", json, value: JSON.parse(json) };
  } finally {
    page.send("Runtime.releaseObject", { objectId: r.objectId }).catch(() => {});
  }
}
