/**
 * Selector normalisation: split a selector list on its top-level commas, and compose a child's selectors under its
 * parent's (descendant cross product).
 *
 * @module
 */

/**
 * Splits a CSS selector list on commas at depth 0. Depth counts `(`/`[` nesting; text inside `'…'` or `"…"` is
 * opaque; a backslash escapes the next character (kept verbatim). Pieces are trimmed, empty pieces dropped.
 *
 * `splitSelectors('a, b:is(.c, .d), e[x="1,2"]')` → `["a", "b:is(.c, .d)", 'e[x="1,2"]']`.
 */
export function splitSelectors(text: string): string[] {
  if (!text.includes(",")) return push([], text); // most selectors: nothing to split
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") {
      i++; // the escaped character is part of the current piece, whatever it is
      continue;
    }
    if (quote) {
      if (ch === quote) quote = "";
      continue;
    }
    switch (ch) {
      case "'":
      case '"':
        quote = ch;
        break;
      case "(":
      case "[":
        depth++;
        break;
      case ")":
      case "]":
        if (depth > 0) depth--;
        break;
      case ",":
        if (depth === 0) {
          push(out, text.slice(start, i));
          start = i + 1;
        }
        break;
    }
  }
  push(out, text.slice(start));
  return out;
}

function push(out: string[], piece: string): string[] {
  const trimmed = piece.trim();
  if (trimmed) out.push(trimmed);
  return out;
}

/**
 * The descendant cross product: every parent alternative (outer loop) × every child alternative, joined by one space.
 * With no parent alternatives the child's selectors are returned unchanged.
 */
export function composeSelectors(parent: readonly string[], child: readonly string[]): string[] {
  if (parent.length === 0) return [...child];
  const out: string[] = [];
  for (const p of parent) for (const c of child) out.push(`${p} ${c}`);
  return out;
}
