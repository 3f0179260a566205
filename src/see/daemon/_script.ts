/**
 * Builds the one script evaluated in a tab's isolated world from plain ES modules embedded as text: the
 * accessible-name library, the resolver, the live-DOM module (all three exactly the files the extension loads) and
 * `page.js`, linked by the one linker (`src/link.ts`, which also links the extension's content script). So the
 * claim, route matching, property extraction, roles and names exist once, for the extension and the page engine.
 *
 * @module
 */
import accnameSource from "../../../assets/extension/vendor/dom_accessibility_api.js" with { type: "text" };
import resolverSource from "../../../assets/extension/resolver.js" with { type: "text" };
import liveDomSource from "../../../assets/extension/live_dom.js" with { type: "text" };
import pageTreeSource from "../page/page_tree.js" with { type: "text" };
import pageSource from "../page/page.js" with { type: "text" };
import { linkModules, type ModuleText } from "../../link.ts";

/** The global the script installs in the isolated world (never visible to the page's own scripts). */
export const SEE_GLOBAL = "__mapperSee";

/** The page script's modules, in dependency order (a module imports only modules listed before it). */
export const PAGE_MODULES: readonly ModuleText[] = [
  {
    url: new URL("../../../assets/extension/vendor/dom_accessibility_api.js", import.meta.url).href,
    source: accnameSource,
  },
  { url: new URL("../../../assets/extension/resolver.js", import.meta.url).href, source: resolverSource },
  { url: new URL("../../../assets/extension/live_dom.js", import.meta.url).href, source: liveDomSource },
  { url: new URL("../page/page_tree.js", import.meta.url).href, source: pageTreeSource },
  { url: new URL("../page/page.js", import.meta.url).href, source: pageSource },
];

/**
 * The install script: defines `globalThis.__mapperSee` (what the last module's `createSee()` answers) in the world
 * it runs in unless it is already there, and evaluates to `true`. Built from the given modules (tests pass their
 * own); one build per daemon.
 */
export function buildPageScript(modules: readonly ModuleText[] = PAGE_MODULES): string {
  const { code, last } = linkModules(modules);
  return [
    "(() => {",
    `if (globalThis.${SEE_GLOBAL}) return true;`,
    code,
    `Object.defineProperty(globalThis, ${JSON.stringify(SEE_GLOBAL)}, { value: ${last}.createSee() });`,
    "return true;",
    "})()",
  ].join("\n");
}
