/**
 * The bundled extension's manifest on its own: a command that needs only its `key` (which fixes the extension's
 * origin, the one Origin `serve-mapper`'s corpus health answers) loads this one text module instead of every asset
 * (`assets.ts` embeds ~28 files, each a module: ~6 ms of `serve-mapper`'s start). `assets.ts` lists it with the rest.
 *
 * @module
 */
import manifest from "../assets/extension/manifest.json" with { type: "text" };

/** `assets/extension/manifest.json` as bundled. */
export const EXTENSION_MANIFEST: string = manifest;
