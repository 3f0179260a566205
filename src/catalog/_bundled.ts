/**
 * The example gallery embedded in the binary (`assets/gallery/`), written to a temporary directory so it is read
 * exactly like a gallery on disk (the corpus loader reads directories).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { assetsUnder } from "../assets.ts";

/** A temporary copy of the bundled gallery, removed on dispose. */
export interface BundledGallery extends AsyncDisposable {
  /** The gallery directory. */
  readonly dir: string;
}

/** Writes the bundled example gallery into a fresh temporary directory. */
export async function materializeBundledGallery(): Promise<BundledGallery> {
  const dir = await Deno.makeTempDir({ prefix: "mapper-gallery-" });
  for (const [rel, content] of assetsUnder("gallery/")) {
    const path = join(dir, ...rel.split("/"));
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, content);
  }
  return {
    dir,
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
