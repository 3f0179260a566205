/**
 * The offline selector engine: CSS selectors answered on a captured tree as the browser's `querySelectorAll` would
 * answer them on the page, one root at a time, by a maintained selector engine (`css-select`, the engine of
 * cheerio) through an adapter over the indexed tree (`dom.ts`), never a matcher of our own. Loaded lazily (see
 * `mod.ts` `loadEngine`): it brings two npm packages.
 *
 * What holds, as in Chromium (checked on a real page): type selectors and attribute names match case-insensitively,
 * SVG included; the attribute values HTML lists as case-insensitive (`type`, `dir`, `rel`, …) are compared that way
 * on HTML elements only; a shadow root's top elements have no parent and are siblings of each other; `:root` and
 * `:scope` are a document's element (nothing inside a shadow root); `:empty` counts whitespace text as content;
 * `:any-link` / `:link` are `a` and `area` with `href`; state pseudo-classes (`:checked`, `:disabled`, `:open`, …)
 * come from the flags the capture recorded with `Element.matches`, never from attributes.
 *
 * Anything else is "cannot evaluate", never a silent 0: invalid CSS (with its position), what `validate` calls
 * unsupported (`:hover`, pseudo-elements), pseudo-classes a capture cannot answer (`:lang()`, `:dir()`, `:host`,
 * `:target`, …), namespace prefixes, and — found while matching — a test on an attribute value the capture cut, a
 * state flag or text the file does not record.
 *
 * Each root's elements are also kept by tag, id and class name: on a capture that cannot raise a doubt (no cut
 * attribute value, states and text recorded) a selector is tested only on the elements its last compound could
 * match (`candidates`), the same answer as testing every element (a test compares them), for far fewer tests.
 *
 * Why css-select (fb55, BSD-2, ESM, cheerio's engine, v7): it takes an adapter over any tree, so the captured tree is
 * matched as it is, and its `pseudos` option lets the state pseudo-classes come from recorded flags; it supports the
 * whole static grammar (`+ ~`, `:nth-*` with `of S`, `:has`, `:is/:where/:not` with complex arguments, attribute
 * flags). Rejected: a matcher of our own (the other implementation's lacks `+ ~` and `:nth-*` and tests only the
 * last compound); rebuilding a DOM to query it (linkedom, happy-dom, jsdom: heavier, and another engine with its own
 * gaps); nwsapi (needs a real DOM). What css-select gets differently from Chromium (its jQuery extensions such as
 * `:contains`, `:empty` ignoring whitespace, `:any-link` on `<link>`, `:scope`/`:root` in shadow roots, HTML value
 * case for SVG) is refused before it compiles or overridden here, and checked against Chromium 156.
 *
 * @module
 */
import { _compileUnsafe, type Options } from "css-select";
import { parse, type Selector, stringify } from "css-what";
import { loadSelectorCheck, type SelectorProblem } from "../corpus/mod.ts";
import type { OfflineDocument, OfflineElement, OfflineNode, OfflineRoot } from "./dom.ts";
import { STATE_PSEUDOS } from "./tree.ts";
import { type TreeDom, treeDom } from "./tree_dom.ts";

/** The selector can never be answered offline (or is invalid CSS): why, and for invalid CSS where. */
export class SelectorNotEvaluable extends Error {
  /** Creates the refusal. `invalid`: the browser would refuse it too; `position`: 0-based, when known. */
  constructor(message: string, readonly invalid: boolean, readonly position?: number) {
    super(message);
    this.name = "SelectorNotEvaluable";
  }
}

/** This capture cannot answer the selector (a cut attribute value, a state or text it does not record). */
export class CaptureCannotAnswer extends Error {
  /** The class name, as errors carry it. */
  override name = "CaptureCannotAnswer";
}

/** A compiled selector, reusable on any number of trees. */
export interface CompiledSelector {
  /** The selector as given. */
  readonly selector: string;
  /** @internal The css-select query. */
  readonly query: (element: OfflineElement) => boolean;
  /**
   * @internal Per alternative, the keys its last compound requires (`t:li`, `#main`, `.card`; any one of them is
   * necessary for a match); `null` when some alternative requires none.
   */
  readonly keys: readonly (readonly string[])[] | null;
}

/** What one selector matched on one tree: per root, in document order. */
export interface TreeMatches {
  /** Each root of the tree with its matches (roots without any included, in the tree's root order). */
  readonly roots: ReadonlyArray<{ readonly root: OfflineRoot; readonly elements: readonly OfflineElement[] }>;
  /** Every match, in root order then document order. */
  readonly all: readonly OfflineElement[];
}

const STRUCTURAL = new Set([
  "first-child",
  "last-child",
  "only-child",
  "first-of-type",
  "last-of-type",
  "only-of-type",
  "nth-child",
  "nth-last-child",
  "nth-of-type",
  "nth-last-of-type",
  "empty",
  "root",
  "scope",
  "any-link",
  "link",
]);
const LOGICAL = new Set(["is", "where", "not", "has"]);
/** State pseudo-classes answered from recorded flags (two of them as the opposite of the flag recorded). */
const STATES = new Set([...STATE_PSEUDOS.filter((s) => s !== "not-defined"), "read-only", "defined"]);
const NTH = new Set(["nth-child", "nth-last-child"]);
const NTH_OF = /^(.+?)\s+of\s+(.+)$/is;

/**
 * Attributes whose values HTML compares case-insensitively in selectors (on HTML elements, unless the selector
 * says `i` or `s`), from the HTML standard's list.
 */
const HTML_CASE_INSENSITIVE = new Set(
  ("accept accept-charset align alink axis bgcolor charset checked clear codetype color compact declare defer dir " +
    "direction disabled enctype face frame hreflang http-equiv lang language link media method multiple nohref " +
    "noresize noshade nowrap readonly rel rev rules scope scrolling selected shape target text type valign " +
    "valuetype vlink").split(" "),
);

/**
 * Why a match in progress cannot be trusted: set by the adapter and the pseudo-classes while a query runs (a
 * query is synchronous, so one slot is enough), read and cleared after it.
 */
let doubt: string | undefined;

function describe(el: OfflineElement): string {
  return `<${el.node.tag}> #${el.node.id}`;
}

const has = (el: OfflineElement, name: string) => Object.hasOwn(el.attrs, name);

/**
 * Set while a case-insensitive attribute test runs: the adapter then answers values ASCII-lower-cased. Browsers fold
 * only ASCII letters in such tests (`[title="ämber" i]` does not match `Ämber`); css-select's own `i` folds every
 * letter, so those tests are compiled case-sensitively against an ASCII-lower-cased value instead (see `#compile`).
 */
let fold = false;

/** `s` with only the ASCII letters lower-cased. */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** css-select's adapter interface (not exported by name). */
type Adapter = NonNullable<Options<OfflineNode, OfflineElement>["adapter"]>;

/** The adapter css-select walks the tree with. */
const adapter: Adapter = {
  isTag: (node): node is OfflineElement => node.kind === "element",
  getName: (el) => el.name,
  getAttributeValue(el, name) {
    if (!Object.hasOwn(el.attrs, name)) return undefined;
    if (el.cut?.has(name)) doubt ??= `the value of "${name}" on ${describe(el)} was cut when it was captured`;
    return fold ? asciiLower(el.attrs[name]!) : el.attrs[name];
  },
  hasAttrib: has,
  getChildren: (node) => node.kind === "element" ? node.children : [],
  getParent: (el) => el.parent,
  getSiblings: (node) => node.siblings as OfflineNode[],
  getText(node) {
    if (node.kind === "text") return node.text;
    let out = "";
    for (const child of node.children) out += adapter.getText(child);
    return out;
  },
  removeSubsets(nodes) {
    const set = new Set(nodes);
    return [...set].filter((node) => {
      for (let p = node.parent; p !== null; p = p.parent) if (set.has(p)) return false;
      return true;
    });
  },
  prevElementSibling(node) {
    const siblings = node.siblings;
    let prev: OfflineElement | null = null;
    for (const s of siblings) {
      if (s === node) return prev;
      if (s.kind === "element") prev = s;
    }
    return null;
  },
};

/** A document's element (not a shadow tree's top): what `:root` and, on a document, `:scope` match. */
const isDocumentElement = (el: OfflineElement) => el.parent === null && el.root.kind !== "shadow";

function recordedStates(el: OfflineElement, flag: string): ReadonlySet<string> | undefined {
  if (docOf(el).tree.recorded.states) return el.states;
  const pseudo = flag === "read-write" ? ":read-only/:read-write" : flag === "not-defined" ? ":defined" : `:${flag}`;
  doubt ??= `this capture does not record element states (${pseudo}); capture the page with mapper`;
  return undefined;
}

/** The document an element belongs to, set on every element's root when a tree is queried. */
const documents = new WeakMap<OfflineRoot, OfflineDocument>();
const docOf = (el: OfflineElement) => documents.get(el.root)!;

/**
 * The pseudo-classes whose meaning differs from css-select's defaults (see the module documentation). css-select
 * looks its own aliases (`:checked`, `:disabled`, `:any-link`, …) up before a function given here, so those are
 * given as selectors naming a function pseudo-class of ours (`:mapper-state(checked)`), which it compiles with
 * these same options.
 */
function pseudos(attrTests: Array<[(el: OfflineElement) => boolean, (el: OfflineElement) => boolean]>) {
  const table: Record<string, string | ((el: OfflineElement, data?: string | null) => boolean)> = {
    root: isDocumentElement,
    "mapper-root": isDocumentElement,
    empty(el) {
      if (el.children.some((c) => c.kind === "element")) return false;
      if (!docOf(el).tree.recorded.text) {
        doubt ??= "this capture does not record text, which :empty depends on";
        return false;
      }
      return el.children.every((c) => c.kind === "text" && c.text === "");
    },
    "any-link": ":mapper-any-link",
    link: ":mapper-any-link",
    "mapper-any-link": anyLink,
    // Chromium: an SVG or MathML element is neither read-only nor read-write.
    "read-only": ":mapper-html:not(:mapper-state(read-write))",
    "mapper-html": (el) => el.html,
    defined: ":not(:mapper-state(not-defined))",
    "mapper-state": (el, data) => recordedStates(el, data ?? "")?.has(data ?? "") === true,
    "mapper-html-attr": (el, data) => {
      const [insensitive, sensitive] = attrTests[Number(data)]!;
      return el.html ? insensitive(el) : sensitive(el);
    },
    "mapper-attr-fold": (el, data) => attrTests[Number(data)]![0](el),
    "mapper-never": () => false,
  };
  for (const s of STATE_PSEUDOS) if (s !== "not-defined") table[s] = `:mapper-state(${s})`;
  return table;
}

function anyLink(el: OfflineElement): boolean {
  return (el.name === "a" || el.name === "area") && (has(el, "href") || (!el.html && has(el, "xlink:href")));
}

/**
 * Checks every token css-select would see (nested lists included) and rewrites the attribute tests HTML compares
 * case-insensitively into a pseudo-class that picks the comparison per element. Throws
 * {@linkcode SelectorNotEvaluable} for what a capture cannot answer.
 */
function prepare(tokens: Selector[][], attrTests: Selector[], inHas = false): void {
  for (const compound of tokens) {
    for (let i = 0; i < compound.length; i++) {
      const t = compound[i]!;
      switch (t.type) {
        case "tag":
        case "universal":
          if (t.namespace !== null) throw unsupported("namespace prefixes (svg|a, *|*)");
          break;
        case "attribute": {
          if (t.namespace !== null) throw unsupported("namespace prefixes on attributes ([xlink|href])");
          // Chromium refuses the `s` flag (a parse error there), though the CSS parser accepts it.
          if (t.ignoreCase === false) throw unsupported("the attribute flag s (Chromium refuses it)");
          // `[a~=""]` represents nothing (css-select would match an empty attribute).
          if (t.action === "element" && t.value === "") {
            compound[i] = { type: "pseudo" as Selector["type"], name: "mapper-never", data: null } as Selector;
            break;
          }
          const html = t.ignoreCase === null && HTML_CASE_INSENSITIVE.has(t.name.toLowerCase());
          if (html || t.ignoreCase === true) {
            attrTests.push(t);
            compound[i] = {
              type: "pseudo" as Selector["type"],
              name: html ? "mapper-html-attr" : "mapper-attr-fold",
              data: `${attrTests.length - 1}`,
            } as Selector;
          }
          break;
        }
        case "pseudo-element":
          throw unsupported(`the pseudo-element ::${t.name}`);
        case "column-combinator":
          throw unsupported("the column combinator ||");
        case "pseudo": {
          const name = t.name.toLowerCase();
          if (name === "scope") {
            // In a query on a document, `:scope` is its element; css-select's own `:scope` is the anchor of a
            // `:has()`, which it adds itself (an explicit one there is left to the browser: not evaluated).
            if (inHas) throw unsupported(":scope inside :has()");
            compound[i] = { type: "pseudo" as Selector["type"], name: "mapper-root", data: null } as Selector;
          } else if (LOGICAL.has(name) && Array.isArray(t.data)) prepare(t.data, attrTests, inHas || name === "has");
          else if (NTH.has(name) && typeof t.data === "string") {
            const of = NTH_OF.exec(t.data);
            if (of) {
              // css-select parses the `of S` part itself, with the same options: checked and rewritten here, then
              // written back as text.
              const inner = parse(of[2]!.trim());
              prepare(inner, attrTests, inHas);
              t.data = `${of[1]} of ${stringify(inner)}`;
            }
          } else if (!STRUCTURAL.has(name) && !STATES.has(name)) {
            throw unsupported(`:${name}`);
          }
          break;
        }
        default:
          break;
      }
    }
  }
}

function unsupported(what: string): SelectorNotEvaluable {
  return new SelectorNotEvaluable(`${what} cannot be answered from a capture`, false);
}

/** Compiles and answers selectors on indexed trees. */
export class OfflineEngine {
  readonly #check: (selector: string) => SelectorProblem | undefined;
  readonly #compiled = new Map<string, CompiledSelector | SelectorNotEvaluable>();
  readonly #answers = new WeakMap<OfflineDocument, Map<string, TreeMatches | CaptureCannotAnswer>>();

  /** Use {@linkcode createEngine}. */
  constructor(check: (selector: string) => SelectorProblem | undefined) {
    this.#check = check;
  }

  /**
   * Compiles a selector (or a list). Throws {@linkcode SelectorNotEvaluable}: `invalid` for CSS the browser would
   * refuse (with the parser's position), otherwise for what no capture can answer.
   */
  compile(selector: string): CompiledSelector {
    let compiled = this.#compiled.get(selector);
    if (compiled === undefined) {
      try {
        compiled = this.#compile(selector);
      } catch (err: unknown) {
        if (!(err instanceof SelectorNotEvaluable)) throw err;
        compiled = err;
      }
      if (this.#compiled.size >= 10_000) this.#compiled.clear();
      this.#compiled.set(selector, compiled);
    }
    if (compiled instanceof SelectorNotEvaluable) throw compiled;
    return compiled;
  }

  #compile(selector: string): CompiledSelector {
    const problem = this.#check(selector);
    if (problem?.severity === "error") {
      const position = /Pos: (\d+)/.exec(problem.message)?.[1];
      // The parser's words without the wrapping `validate` adds: `expected attribute name`.
      const message = problem.message.replace(/^selector parse error in "(?:[^"\\]|\\.)*": /, "")
        .replace(/; fix the CSS.*$/, "").replace(/\.? Pos: \d+$/, "").replace(/^\w/, (c) => c.toLowerCase());
      return throwInvalid(message, position === undefined ? undefined : Number(position));
    }
    if (problem) throw new SelectorNotEvaluable(problem.message, false);
    let tokens: Selector[][];
    try {
      tokens = parse(selector);
    } catch (err: unknown) {
      throw new SelectorNotEvaluable(`css-select cannot read it (${errorText(err)})`, false);
    }
    const attrTests: Selector[] = [];
    prepare(tokens, attrTests);
    const tests: Array<[(el: OfflineElement) => boolean, (el: OfflineElement) => boolean]> = [];
    const options: Options<OfflineNode, OfflineElement> = {
      adapter,
      xmlMode: false,
      quirksMode: false,
      pseudos: pseudos(tests),
    };
    try {
      for (const t of attrTests) {
        const exact = (value: string) =>
          _compileUnsafe<OfflineNode, OfflineElement>([[{ ...t, value, ignoreCase: false } as Selector]], options);
        const folded = exact(asciiLower((t as { value: string }).value));
        tests.push([(el) => {
          fold = true;
          try {
            return folded(el);
          } finally {
            fold = false;
          }
        }, exact((t as { value: string }).value)]);
      }
      const keys = requiredKeys(tokens);
      const query = _compileUnsafe<OfflineNode, OfflineElement>(tokens, options);
      return { selector, query, keys };
    } catch (err: unknown) {
      throw new SelectorNotEvaluable(`css-select cannot compile it (${errorText(err)})`, false);
    }
  }

  /**
   * The elements of one root that match, in document order, as `root.querySelectorAll` finds them. Throws
   * {@linkcode CaptureCannotAnswer} when the capture lacks what the answer depends on.
   */
  queryRoot(doc: OfflineDocument, root: OfflineRoot, compiled: CompiledSelector): OfflineElement[] {
    for (const r of doc.roots) documents.set(r, doc);
    doubt = undefined;
    // What css-select's `selectAll` does on a root's nodes — the compiled query tested on every element in document
    // order — over the list the index keeps, without its traversal stacks.
    const found: OfflineElement[] = [];
    const query = compiled.query;
    for (const el of candidates(doc, root, compiled)) if (query(el)) found.push(el);
    const why = doubt;
    doubt = undefined;
    if (why !== undefined) throw new CaptureCannotAnswer(why);
    return found;
  }

  /**
   * Every root's matches of `selector` on `doc` (memoized per tree and selector). Throws
   * {@linkcode SelectorNotEvaluable} or {@linkcode CaptureCannotAnswer}.
   */
  query(doc: OfflineDocument, selector: string): TreeMatches {
    let answers = this.#answers.get(doc);
    if (!answers) this.#answers.set(doc, answers = new Map());
    let answer = answers.get(selector);
    if (answer === undefined) {
      const compiled = this.compile(selector);
      try {
        const roots = doc.roots.map((root) => ({ root, elements: this.queryRoot(doc, root, compiled) }));
        answer = { roots, all: roots.flatMap((r) => r.elements) };
      } catch (err: unknown) {
        if (!(err instanceof CaptureCannotAnswer)) throw err;
        answer = err;
      }
      answers.set(selector, answer);
    }
    if (answer instanceof CaptureCannotAnswer) throw answer;
    return answer;
  }

  /**
   * The resolver's view of a tree (see `tree_dom.ts`): the claim's roots, per-root queries and parents across shadow
   * hosts, and property extraction's text, attributes and element queries, with doubts recorded.
   */
  claimDom(doc: OfflineDocument): TreeDom {
    return treeDom(doc, (selector) => this.query(doc, selector).roots);
  }
}

const TRAVERSAL = new Set(["adjacent", "child", "descendant", "parent", "sibling", "column-combinator"]);

/**
 * What an element must have to match a compound, as index keys: its tag (`t:li`), its id (`#main`), each of its
 * class names (`.card`). Only tests css-select compiles case-sensitively and exactly as these keys are built: tag
 * names are lower-cased (HTML, as css-select does), `#id` and `.class` keep their case (no quirks mode), a class
 * name containing whitespace is never indexed (css-select matches nothing for it anyway).
 */
function requiredKeys(tokens: Selector[][]): string[][] | null {
  const out: string[][] = [];
  for (const alternative of tokens) {
    const keys: string[] = [];
    for (let i = alternative.length - 1; i >= 0 && !TRAVERSAL.has(alternative[i]!.type); i--) {
      const t = alternative[i]!;
      if (t.type === "tag") keys.push(`t:${t.name.toLowerCase()}`);
      else if (t.type === "attribute" && t.ignoreCase !== true && t.ignoreCase !== false) {
        const name = t.name.toLowerCase();
        if (name === "id" && t.action === "equals") keys.push(`#${t.value}`);
        else if (name === "class" && t.action === "element" && t.value !== "" && !SPACE.test(t.value)) {
          keys.push(`.${t.value}`);
        }
      }
    }
    if (keys.length === 0) return null;
    out.push(keys);
  }
  return out;
}

/** A root's elements by tag (`t:`), id (`#`) and class name (`.`), each list in document order. */
interface KeyIndex {
  tags: Map<string, OfflineElement[]>;
  ids: Map<string, OfflineElement[]>;
  classes: Map<string, OfflineElement[]>;
}

/** Per root of a tree that can raise no doubt: its {@linkcode KeyIndex}, built on first use. */
const indexes = new WeakMap<OfflineRoot, KeyIndex>();
/** Whether a tree can raise no doubt while matching (see {@linkcode candidates}). */
const doubtFree = new WeakMap<OfflineDocument, boolean>();

function add(map: Map<string, OfflineElement[]>, key: string, el: OfflineElement): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [el]);
  else if (list[list.length - 1] !== el) list.push(el);
}

const SPACE = /\s/;
const SPACES = /\s+/;

function indexOf(root: OfflineRoot): KeyIndex {
  let index = indexes.get(root);
  if (index !== undefined) return index;
  index = { tags: new Map(), ids: new Map(), classes: new Map() };
  for (const el of root.elements) {
    add(index.tags, el.name, el);
    const attrs = el.attrs;
    const id = Object.hasOwn(attrs, "id") ? attrs["id"] : undefined;
    if (id !== undefined) add(index.ids, id, el);
    const cls = Object.hasOwn(attrs, "class") ? attrs["class"] : undefined;
    if (cls === undefined || cls === "") continue;
    if (!SPACE.test(cls)) add(index.classes, cls, el);
    else for (const name of cls.split(SPACES)) if (name !== "") add(index.classes, name, el);
  }
  indexes.set(root, index);
  return index;
}

function listOf(index: KeyIndex, key: string): OfflineElement[] | undefined {
  const map = key[0] === "t" ? index.tags : key[0] === "#" ? index.ids : index.classes;
  return map.get(key[0] === "t" ? key.slice(2) : key.slice(1));
}

/**
 * The elements of a root worth testing against a selector: all of them, or — on a tree where no test can raise a
 * doubt (no attribute value cut, states and text recorded) — only those holding a key every alternative's last
 * compound requires (the rarest of its keys here), in document order. The same answer either way: an element
 * left out fails its last compound's tag, id or class test, the first thing css-select would reject it on, and on
 * such a tree skipping a test cannot skip a doubt.
 */
function candidates(doc: OfflineDocument, root: OfflineRoot, compiled: CompiledSelector): readonly OfflineElement[] {
  const keys = compiled.keys;
  if (keys === null || root.elements.length < 64) return root.elements;
  let free = doubtFree.get(doc);
  if (free === undefined) {
    free = doc.tree.recorded.states && doc.tree.recorded.text && doc.elements.every((el) => el.cut === undefined);
    doubtFree.set(doc, free);
  }
  if (!free) return root.elements;
  const index = indexOf(root);
  const lists: OfflineElement[][] = [];
  for (const alternative of keys) {
    let best: OfflineElement[] | undefined;
    for (const key of alternative) {
      const list = listOf(index, key) ?? [];
      if (best === undefined || list.length < best.length) best = list;
    }
    if (best!.length > 0 && !lists.includes(best!)) lists.push(best!);
  }
  if (lists.length <= 1) return lists[0] ?? [];
  const wanted = new Set(lists.flat());
  return wanted.size * 2 > root.elements.length ? root.elements : root.elements.filter((el) => wanted.has(el));
}

function throwInvalid(message: string, position: number | undefined): never {
  throw new SelectorNotEvaluable(message, true, position);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Creates an engine (loads the CSS parser `validate` uses, so invalid selectors are refused the same way). */
export async function createEngine(): Promise<OfflineEngine> {
  return new OfflineEngine(await loadSelectorCheck());
}
