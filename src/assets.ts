/**
 * Every bundled asset, embedded through text imports so `deno run`, the tests and `deno compile` see the same
 * bytes. This is the only module that knows where assets live (the extension manifest, which `serve-mapper` reads
 * alone, is embedded by `extension_manifest.ts`); a test proves every file under `assets/` is listed here.
 *
 * @module
 */
import { EXTENSION_MANIFEST } from "./extension_manifest.ts";
import skillAuthoring from "../assets/skills/mapper-authoring/SKILL.md" with { type: "text" };
import skillBrowser from "../assets/skills/mapper-browser/SKILL.md" with { type: "text" };
import extensionBackgroundJs from "../assets/extension/background.js" with { type: "text" };
import extensionContentJs from "../assets/extension/content.js" with { type: "text" };
import extensionCoreJs from "../assets/extension/core.js" with { type: "text" };
import extensionDiagnosticsJs from "../assets/extension/diagnostics.js" with { type: "text" };
import extensionResolverJs from "../assets/extension/resolver.js" with { type: "text" };
import extensionLiveDomJs from "../assets/extension/live_dom.js" with { type: "text" };
import extensionAccnameJs from "../assets/extension/vendor/dom_accessibility_api.js" with { type: "text" };
import extensionDevtoolsHtml from "../assets/extension/devtools.html" with { type: "text" };
import extensionDevtoolsJs from "../assets/extension/devtools.js" with { type: "text" };
import extensionPanelCss from "../assets/extension/panel.css" with { type: "text" };
import extensionPanelHtml from "../assets/extension/panel.html" with { type: "text" };
import extensionPanelJs from "../assets/extension/panel.js" with { type: "text" };
import extensionSidePanelHtml from "../assets/extension/side-panel.html" with { type: "text" };
import extensionSidePanelJs from "../assets/extension/side-panel.js" with { type: "text" };
import extensionUiJs from "../assets/extension/ui.js" with { type: "text" };
import galleryRemoved from "../assets/gallery/removed.yaml" with { type: "text" };
import compiledCorpusSchema from "../assets/schema/compiled-corpus.schema.json" with { type: "text" };
import galleryDocsReadme from "../assets/gallery/entries/demo-docs/README.md" with { type: "text" };
import galleryDocsConfig from "../assets/gallery/entries/demo-docs/.mapper/config.yaml" with { type: "text" };
import galleryDocsDocs from "../assets/gallery/entries/demo-docs/.mapper/docs.yaml" with { type: "text" };
import galleryShopReadme from "../assets/gallery/entries/demo-shop/README.md" with { type: "text" };
import galleryShopCatalogue from "../assets/gallery/entries/demo-shop/.mapper/catalogue.yaml" with { type: "text" };
import galleryShopConfig from "../assets/gallery/entries/demo-shop/.mapper/config.yaml" with { type: "text" };
import galleryShopProduct from "../assets/gallery/entries/demo-shop/.mapper/product.yaml" with { type: "text" };
import galleryShopShared from "../assets/gallery/entries/demo-shop/.mapper/shared.yaml" with { type: "text" };

/** Every asset, keyed by its path relative to `assets/` (forward slashes). */
export const ASSETS: Readonly<Record<string, string>> = Object.freeze({
  "gallery/removed.yaml": galleryRemoved,
  "gallery/entries/demo-docs/README.md": galleryDocsReadme,
  "gallery/entries/demo-docs/.mapper/config.yaml": galleryDocsConfig,
  "gallery/entries/demo-docs/.mapper/docs.yaml": galleryDocsDocs,
  "gallery/entries/demo-shop/README.md": galleryShopReadme,
  "gallery/entries/demo-shop/.mapper/catalogue.yaml": galleryShopCatalogue,
  "gallery/entries/demo-shop/.mapper/config.yaml": galleryShopConfig,
  "gallery/entries/demo-shop/.mapper/product.yaml": galleryShopProduct,
  "gallery/entries/demo-shop/.mapper/shared.yaml": galleryShopShared,
  "skills/mapper-authoring/SKILL.md": skillAuthoring,
  "skills/mapper-browser/SKILL.md": skillBrowser,
  "extension/manifest.json": EXTENSION_MANIFEST,
  "extension/background.js": extensionBackgroundJs,
  "extension/content.js": extensionContentJs,
  "extension/core.js": extensionCoreJs,
  "extension/diagnostics.js": extensionDiagnosticsJs,
  "extension/resolver.js": extensionResolverJs,
  "extension/live_dom.js": extensionLiveDomJs,
  "extension/vendor/dom_accessibility_api.js": extensionAccnameJs,
  "extension/devtools.html": extensionDevtoolsHtml,
  "extension/devtools.js": extensionDevtoolsJs,
  "extension/panel.css": extensionPanelCss,
  "extension/panel.html": extensionPanelHtml,
  "extension/panel.js": extensionPanelJs,
  "extension/side-panel.html": extensionSidePanelHtml,
  "extension/side-panel.js": extensionSidePanelJs,
  "extension/ui.js": extensionUiJs,
  "schema/compiled-corpus.schema.json": compiledCorpusSchema,
});

/** The assets below a folder (e.g. `skills/mapper-browser/`), keyed by path relative to that folder, sorted. */
export function assetsUnder(prefix: string): Array<[relativePath: string, content: string]> {
  const dir = prefix.endsWith("/") ? prefix : `${prefix}/`;
  return Object.entries(ASSETS)
    .filter(([path]) => path.startsWith(dir))
    .map(([path, content]): [string, string] => [path.slice(dir.length), content])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The names of the bundled skills, in name order (`mapper-authoring`, `mapper-browser`). */
export function skillNames(): string[] {
  const names = new Set<string>();
  for (const path of Object.keys(ASSETS)) {
    const m = /^skills\/([^/]+)\//.exec(path);
    if (m?.[1]) names.add(m[1]);
  }
  return [...names].sort();
}

/** One asset's content; throws if the path is not bundled (a programming error). */
export function asset(path: string): string {
  const content = ASSETS[path];
  if (content === undefined) throw new Error(`asset not bundled: "${path}"`);
  return content;
}
