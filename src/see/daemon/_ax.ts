/**
 * Chromium's accessibility tree, read for what no script in the page can see: the role, name and states a web
 * component sets on its `ElementInternals`. One node of `Accessibility.getPartialAXTree` becomes the facts the page
 * script's `collect` takes (`AxFacts`), or nothing when the browser gives the element no role of its own.
 *
 * @module
 */
import type { AxFacts } from "../page/page.js";

/** One node of `Accessibility.getPartialAXTree`, as far as it is read here. */
export interface AxNode {
  ignored?: boolean;
  role?: { value?: unknown };
  name?: { value?: unknown };
  value?: { value?: unknown };
  properties?: Array<{ name: string; value?: { value?: unknown } }>;
}

/** Roles that say the element has none of its own (and Chromium's internal ones, which are capitalised). */
const NO_ROLE = new Set(["generic", "none", "presentation"]);

/**
 * The facts of one node: its ARIA role, name and states in the snapshot's words; undefined when the browser
 * ignores the element or gives it no ARIA role (a layout wrapper, a host whose control is inside it).
 */
export function axFacts(node: AxNode | undefined): AxFacts | undefined {
  if (!node || node.ignored) return undefined;
  const role = node.role?.value;
  if (typeof role !== "string" || !/^[a-z]+$/.test(role) || NO_ROLE.has(role)) return undefined;
  const name = typeof node.name?.value === "string" ? node.name.value.replace(/\s+/g, " ").trim() : "";
  const prop = (key: string) => node.properties?.find((p) => p.name === key)?.value?.value;
  const states: string[] = [];
  const on = (key: string) => prop(key) === true || prop(key) === "true";
  if (on("disabled")) states.push("disabled");
  if (on("checked")) states.push("checked");
  if (prop("expanded") !== undefined) states.push(on("expanded") ? "expanded" : "collapsed");
  if (on("selected")) states.push("selected");
  if (on("required")) states.push("required");
  if (on("readonly")) states.push("readonly");
  const facts: AxFacts = { role, name, states };
  const value = node.value?.value;
  if (role === "combobox" && typeof value === "string") {
    // A combobox that only picks has all its text as its value, and a field that draws its label inside it (a
    // Material select) starts with that label: the choice is what follows it.
    const text = value.replace(/\s+/g, " ").trim();
    facts.value = !name ? text : text === name ? "" : text.startsWith(`${name} `) ? text.slice(name.length + 1) : text;
  }
  return facts;
}
