// Selector checks with a real CSS selector parser (css-selector-parser, "latest" syntax, strict): what the browser's
// `querySelectorAll` would refuse is `selector-invalid`; valid CSS that can never match an element of a page at
// rest (pseudo-elements, state that needs a pointer or focus, vendor extensions) is `selector-unsupported`.
// Loaded lazily (only `load(dir, { validate: true })` imports it): the parser costs ~8 ms of start-up.
import { createParser } from "css-selector-parser";
import type { Problem } from "./rules.ts";

// `:open` (a `<details>`, `<dialog>` or `<select>` that is open) is in Chromium and the HTML standard but not yet in
// the parser's "latest" syntax.
const strict = createParser({
  syntax: { baseSyntax: "latest", pseudoClasses: { definitions: { NoArgument: ["open"] } } },
  strict: true,
});
const lenient = createParser({ syntax: "progressive", strict: false });

// Most selectors of a corpus are plain: types, ids, classes, attributes and combinators, no pseudo-class. Those are
// recognised by one regular expression (tested against the parser: what it accepts, the parser accepts too), which
// is much cheaper than a parse; everything else goes to the parser.
const IDENT = String.raw`-?[_a-zA-Z][_a-zA-Z0-9-]*`;
const ATTR = String.raw`\[\s*${IDENT}\s*(?:[~|^$*]?=\s*(?:${IDENT}|"[^"\\\n]*"|'[^'\\\n]*')\s*)?\]`;
const COMPOUND = String.raw`(?:(?:${IDENT}|\*)(?:[#.]${IDENT}|${ATTR})*|(?:[#.]${IDENT}|${ATTR})+)`;
const COMPLEX = String.raw`${COMPOUND}(?:\s*[>+~]\s*${COMPOUND}|\s+${COMPOUND})*`;
/** A plain selector list: valid CSS without pseudo-classes or pseudo-elements (see above). */
export const PLAIN_SELECTOR: RegExp = new RegExp(String.raw`^\s*${COMPLEX}(?:\s*,\s*${COMPLEX})*\s*$`);

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
  if (PLAIN_SELECTOR.test(selector)) return undefined;
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
  if (PLAIN_SELECTOR.test(selector)) return true;
  try {
    strict(selector);
    return true;
  } catch {
    return false;
  }
}
