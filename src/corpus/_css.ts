// Selector checks with a real CSS selector parser (css-selector-parser, "latest" syntax, strict): what the browser's
// `querySelectorAll` would refuse is `selector-invalid`; valid CSS that can never match an element of a page at
// rest (pseudo-elements, state that needs a pointer or focus, vendor extensions) is `selector-unsupported`.
// Loaded lazily (only `load(dir, { validate: true })` imports it): the parser costs ~8 ms of start-up.
import { createParser } from "css-selector-parser";
import type { Problem } from "./rules.ts";

const strict = createParser({ syntax: "latest", strict: true });
const lenient = createParser({ syntax: "progressive", strict: false });

/** Pseudo-classes that depend on user interaction or navigation state: a map of the page at rest never sees them. */
const STATEFUL = new Set([
  "hover",
  "active",
  "focus",
  "focus-visible",
  "focus-within",
  "visited",
  "target",
  "target-within",
  "current",
  "past",
  "future",
  "playing",
  "paused",
  "user-invalid",
  "user-valid",
]);

interface AstNode {
  type?: string;
  name?: string;
  [key: string]: unknown;
}

/** Every pseudo-class and pseudo-element in a parsed selector (depth-first). */
function pseudos(node: unknown, out: AstNode[] = []): AstNode[] {
  if (Array.isArray(node)) {
    for (const n of node) pseudos(n, out);
  } else if (node && typeof node === "object") {
    const n = node as AstNode;
    if (n.type === "PseudoClass" || n.type === "PseudoElement") out.push(n);
    for (const v of Object.values(n)) if (v && typeof v === "object") pseudos(v, out);
  }
  return out;
}

function message(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/^css-selector-parser parse error: /, "")
    .replace(/\.$/, "");
}

/** Verdicts so far (a corpus repeats selectors: every view's `button`, a shared header's). Problems are never mutated. */
const verdicts = new Map<string, Problem | undefined>();

/** Checks one selector alternative (no top-level commas). */
export function checkSelector(selector: string): Problem | undefined {
  if (verdicts.has(selector)) return verdicts.get(selector);
  const verdict = check(selector);
  if (verdicts.size >= 20_000) verdicts.clear();
  verdicts.set(selector, verdict);
  return verdict;
}

function check(selector: string): Problem | undefined {
  let ast: unknown;
  try {
    ast = strict(selector);
  } catch (err: unknown) {
    // Vendor-prefixed pseudos (`::-webkit-scrollbar`, `:-moz-focusring`) are real in one engine only.
    try {
      const loose = pseudos(lenient(selector));
      const vendor = loose.find((p) => p.name?.startsWith("-"));
      if (vendor) {
        return {
          code: "selector-unsupported",
          severity: "warning",
          message: `selector "${selector}" uses the vendor-specific ${
            vendor.type === "PseudoElement" ? "::" : ":"
          }${vendor.name}, which other browsers reject; use a standard selector`,
        };
      }
    } catch {
      // invalid either way: report the strict parser's reason
    }
    return {
      code: "selector-invalid",
      severity: "error",
      message: `selector parse error in "${selector}": ${message(err)}; fix the CSS (test it with ` +
        `document.querySelectorAll in the browser console)`,
    };
  }
  if (!selector.includes(":")) return undefined; // no pseudo-class or pseudo-element to look at
  for (const p of pseudos(ast)) {
    if (p.type === "PseudoElement") {
      return {
        code: "selector-unsupported",
        severity: "warning",
        message: `selector "${selector}" ends in the pseudo-element ::${p.name}, which never matches an element; ` +
          `select the element itself`,
      };
    }
    if (p.name !== undefined && STATEFUL.has(p.name)) {
      return {
        code: "selector-unsupported",
        severity: "warning",
        message: `selector "${selector}" uses :${p.name}, which only matches during user interaction; drop it so ` +
          `the component matches the page at rest`,
      };
    }
  }
  return undefined;
}

/** Whether a string is one valid CSS selector (list) for the browser (the strict parse succeeds). */
export function isSelector(selector: string): boolean {
  try {
    strict(selector);
    return true;
  } catch {
    return false;
  }
}
