/**
 * The lint rules (the Sightmap format's, plus mapper's own): style problems that do not make a corpus wrong
 * but make it brittle or confusing. Each is a warning whose code is the rule name. Pure: corpus in, diagnostics out.
 *
 * @module
 */
import type { Corpus, CorpusComponent, Diagnostic, SourceLocation } from "../corpus/mod.ts";
import { splitSelectors } from "../corpus/mod.ts";

/** The rule names, in the order they are documented. */
export const LINT_RULES: readonly string[] = [
  "name-case",
  "broad-tag-selector",
  "id-hash-selector",
  "generated-class-selector",
  "deep-nesting",
  "positional-selector",
  "comma-in-selector",
  "child-repeats-parent",
  "child-never-matches",
  "multi-instance-no-property",
  "message-level-unknown",
];

const MESSAGE_LEVELS = ["log", "debug", "info", "warn", "error", "exception"];
/** Names that say "there is one of me per page" (multi-instance-no-property does not apply). */
const SINGLETON_NAME = /Header|Footer|Nav|Sidebar|Main|Site|Page|Layout|Modal|Dialog/;
/** Deep-nesting threshold: compound parts in one declared selector alternative. */
const DEEP = 4;

/**
 * The compound parts of one selector alternative: split on combinators (whitespace, `>`, `+`, `~`) outside
 * brackets, parentheses and quotes. `ul.nav > li a` → `["ul.nav", "li", "a"]`.
 */
export function compoundParts(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = "";
  let current = "";
  const flush = () => {
    if (current.trim()) parts.push(current.trim());
    current = "";
  };
  for (let i = 0; i < selector.length; i++) {
    const ch = selector[i]!;
    if (ch === "\\") {
      current += ch + (selector[i + 1] ?? "");
      i++;
      continue;
    }
    if (quote) {
      if (ch === quote) quote = "";
      current += ch;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "(" || ch === "[") depth++;
    else if ((ch === ")" || ch === "]") && depth > 0) depth--;
    if (depth === 0 && (/\s/.test(ch) || ch === ">" || ch === "+" || ch === "~")) {
      flush();
      continue;
    }
    current += ch;
  }
  flush();
  return parts;
}

/** Class names of one compound part (outside brackets and parentheses). */
function classes(part: string): string[] {
  const bare = part.replace(/\[[^\]]*\]/g, "").replace(/\([^)]*\)/g, "");
  return [...bare.matchAll(/\.((?:\\.|[\w-])+)/g)].map((m) => m[1]!);
}

/** Ids of one compound part. */
function ids(part: string): string[] {
  const bare = part.replace(/\[[^\]]*\]/g, "").replace(/\([^)]*\)/g, "");
  return [...bare.matchAll(/#((?:\\.|[\w-])+)/g)].map((m) => m[1]!);
}

/** An id that looks generated: a run of ≥4 digits, or ≥5 hex characters mixing digits and letters. */
export function hashLikeId(id: string): boolean {
  if (/\d{4,}/.test(id)) return true;
  return [...id.matchAll(/[0-9a-f]{5,}/g)].some((m) => /\d/.test(m[0]) && /[a-f]/.test(m[0]));
}

/**
 * A class name a CSS-in-JS library or CSS modules generated: `css-1x2y3z` (emotion), `sc-…` (styled-components),
 * `jsx-123456` (styled-jsx), `Button_root__a1B2c` / `_3xKz9` (CSS modules), `makeStyles-root-12`. They change with
 * every build.
 */
export function generatedClass(name: string): boolean {
  return /^css-[a-z0-9]{4,}$/i.test(name) ||
    /^sc-[a-zA-Z0-9]+$/.test(name) ||
    /^jsx-\d+$/.test(name) ||
    /^[A-Za-z][\w-]*__[A-Za-z0-9_-]{5,}$/.test(name) && /\d/.test(name.split("__").pop()!) ||
    /^_[A-Za-z0-9]{5,}$/.test(name) && /\d/.test(name) && /[A-Za-z]/.test(name.slice(1)) ||
    /^[a-z]+-[a-z]+-\d+$/i.test(name) && /^(makeStyles|jss|mui|Mui)/.test(name);
}

const BROAD_TAGS = new Set(["button", "input", "a", "div", "span"]);

function broadSelector(selector: string): boolean {
  if (/#|\[data-testid=|\[aria-labelledby|\[id=/.test(selector)) return false;
  if (/\[data-component/.test(selector)) return true;
  const m = /^([a-z]+)((?:\.[\w-]+)*)$/.exec(selector.trim());
  if (!m || !BROAD_TAGS.has(m[1]!)) return false;
  return m[2] === "" || /\.(?:[\w-]*?)(btn|button|card|link|item)/i.test(m[2]!);
}

/** Pseudo-classes that pick an element by its place among its siblings (a browser's "Copy selector" writes them). */
const POSITIONAL = /:(?:nth-child|nth-last-child|nth-of-type|nth-last-of-type)\(/i;
/** Attributes that are there to be selected by (test ids, ARIA, roles, form names). */
const HOOK_ATTRIBUTE = /\[\s*(?:data-testid|data-test|data-qa|data-cy|aria-[\w-]+|role|name)\s*(?:[~|^$*]?=|\])/i;

/**
 * A compound part written as a stable hook (a test id, ARIA attribute, role or form name, an id or class that does
 * not look generated), without its positional pseudo-classes; `undefined` when it has none.
 */
function hookOf(part: string): string | undefined {
  const bare = part.replace(/:(?:nth-child|nth-last-child|nth-of-type|nth-last-of-type)\([^)]*\)/gi, "");
  if (HOOK_ATTRIBUTE.test(bare)) return bare;
  if (ids(bare).some((id) => !hashLikeId(id)) || classes(bare).some((c) => !generatedClass(c))) return bare;
  return undefined;
}

/** Tags that are never inside any component (the document's root and head). */
const ROOT_TAGS = /^(html|head|body|:root)(?![\w-])/i;

interface Finding {
  code: string;
  message: string;
  location: SourceLocation;
  component?: string;
  selector?: string;
}

/** Every lint finding of a loaded corpus, unsorted (the caller merges and sorts). */
export function lintCorpus(corpus: Corpus): Diagnostic[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  const add = (f: Finding) => {
    const key = `${f.code}\0${f.location.file}\0${f.location.line}\0${f.location.column}\0${f.selector ?? ""}`;
    if (seen.has(key)) return; // a definition reached through several $refs or views is reported once
    seen.add(key);
    out.push(f);
  };
  const lists: Array<{ list: CorpusComponent[]; global: boolean }> = [
    { list: corpus.globals, global: true },
    ...corpus.views.map((v) => ({ list: v.components, global: false })),
  ];
  for (const { list, global } of lists) {
    const byName = new Map<string, CorpusComponent>();
    for (const c of list) {
      lintComponent(c, global, add, c.parentChain.length > 0 ? byName.get(c.parentChain.at(-1)!) : undefined);
      byName.set(c.name, c);
    }
  }
  for (const m of corpus.messages) {
    if (m.level !== undefined && !MESSAGE_LEVELS.includes(m.level.toLowerCase())) {
      add({
        code: "message-level-unknown",
        message: `message "${m.name}" has level "${m.level}", which no console record has; use one of ${
          MESSAGE_LEVELS.join(", ")
        }`,
        location: m.location,
        component: m.name,
      });
    }
  }
  return out.map((f) => ({ ...f, severity: "warning" as const }));
}

function lintComponent(
  c: CorpusComponent,
  global: boolean,
  add: (f: Finding) => void,
  parent: CorpusComponent | undefined,
): void {
  const at = c.selectorLocation ?? c.location;
  const own = (c.selectorText ?? []).flatMap((t) => splitSelectors(t));
  const name = c.name;
  if (!/^[A-Z]/.test(name)) {
    add({
      code: "name-case",
      message: `component name "${name}" should start with an upper-case letter (PascalCase), e.g. "${
        name.charAt(0).toUpperCase()
      }${name.slice(1)}"`,
      location: c.location,
      component: name,
    });
  }
  for (const text of c.selectorText ?? []) {
    if (splitSelectors(text).length > 1) {
      add({
        code: "comma-in-selector",
        message: `selector "${text}" of "${name}" lists alternatives with a comma; write them as a YAML list ` +
          `(selector: [a, b]) so each can be read and changed on its own`,
        location: at,
        component: name,
        selector: text,
      });
    }
  }
  for (const sel of own) {
    const parts = compoundParts(sel);
    if (global && c.parentChain.length === 0 && /^[a-z][a-z0-9-]*$/i.test(sel.trim())) {
      add({
        code: "broad-tag-selector",
        message: `global component "${name}" uses the bare tag selector "${sel}", which matches every such ` +
          `element on every page; add a class, attribute or a parent`,
        location: at,
        component: name,
        selector: sel,
      });
    }
    for (const id of parts.flatMap(ids)) {
      if (hashLikeId(id)) {
        add({
          code: "id-hash-selector",
          message: `selector "${sel}" of "${name}" uses #${id}, which looks generated and changes between ` +
            `builds; use a stable attribute (data-testid, aria-label) or a semantic class`,
          location: at,
          component: name,
          selector: sel,
        });
      }
    }
    for (const cls of parts.flatMap(classes)) {
      if (generatedClass(cls)) {
        add({
          code: "generated-class-selector",
          message: `selector "${sel}" of "${name}" uses the generated class .${cls}, which changes with every ` +
            `build; use a stable attribute (data-testid, aria-*, role) or a semantic class`,
          location: at,
          component: name,
          selector: sel,
        });
      }
    }
    if (parts.length >= DEEP) {
      add({
        code: "deep-nesting",
        message: `selector "${sel}" of "${name}" has ${parts.length} compound parts; anchor it on a closer ` +
          `stable ancestor, or make the ancestor a parent component with children`,
        location: at,
        component: name,
        selector: sel,
      });
    }
    const fromRoot = ROOT_TAGS.test(parts[0] ?? "") && sel.includes(">");
    if (POSITIONAL.test(sel) || fromRoot) {
      const hook = [...parts].reverse().map(hookOf).find((h) => h !== undefined);
      add({
        code: "positional-selector",
        message:
          `selector "${sel}" of "${name}" picks elements by ${
            POSITIONAL.test(sel) ? "their position among siblings" : "a chain of child steps from the document root"
          }, as a browser's "Copy selector" writes it: one element added to the page breaks it; select by a hook ` +
          `instead — a data-testid, an aria-* attribute or role, an id or a stable class (mapper snapshot ` +
          `--coverage suggests one for each element the map misses)${
            hook === undefined ? "" : `, e.g. start from "${hook}", the hook it already has`
          }`,
        location: at,
        component: name,
        selector: sel,
      });
    }
    for (let i = 1; i < parts.length; i++) {
      const repeated = classes(parts[i - 1]!).find((k) => classes(parts[i]!).includes(k));
      if (repeated) {
        add({
          code: "child-repeats-parent",
          message: `selector "${sel}" of "${name}" repeats .${repeated} in a descendant part; drop the ` +
            `repetition or use ">" if a direct child is meant`,
          location: at,
          component: name,
          selector: sel,
        });
      }
    }
    if (c.parentChain.length > 0) {
      const first = parts[0] ?? "";
      const parentIds = (parent?.selectorText ?? []).flatMap((t) => splitSelectors(t)).map((p) =>
        ids(compoundParts(p).at(-1) ?? "")
      );
      const sameId = ids(first).find((id) => parentIds.length > 0 && parentIds.every((list) => list.includes(id)));
      if (ROOT_TAGS.test(first) || sameId) {
        add({
          code: "child-never-matches",
          message: `"${name}" can never match under its parent chain ${c.parentChain.join(" > ")}: "${first}" ${
            sameId ? `is the parent's own #${sameId}` : "is never inside another element"
          }; move it to the top level or fix the selector`,
          location: at,
          component: name,
          selector: sel,
        });
      } else if (parent) {
        for (const p of (parent.selectorText ?? []).flatMap((t) => splitSelectors(t))) {
          const last = compoundParts(p).at(-1) ?? "";
          const repeated = classes(last).find((k) => classes(first).includes(k));
          if (repeated) {
            add({
              code: "child-repeats-parent",
              message: `"${name}" starts with .${repeated}, which its parent "${parent.name}" already selects; ` +
                `children are matched inside the parent, so drop the repeated part`,
              location: at,
              component: name,
              selector: sel,
            });
          }
        }
      }
    }
  }
  if (
    c.parentChain.length === 0 && c.properties.length === 0 && c.stability !== "unstable" &&
    !SINGLETON_NAME.test(name) && own.length > 0 && own.some(broadSelector)
  ) {
    add({
      code: "multi-instance-no-property",
      message: `"${name}" has a broad selector that likely matches many elements, and no properties to tell ` +
        `them apart; add a property (e.g. name: label, extract: text) or a more specific selector`,
      location: c.location,
      component: name,
    });
  }
}
