/**
 * The catalog: the read-only atlas HTTP API (`mapper atlas serve`) and its static export (`mapper atlas build`),
 * both from one immutable snapshot of a gallery directory.
 *
 * @module
 */
export {
  assembleSnapshot,
  buildSnapshot,
  CACHE_API,
  CACHE_ERROR,
  CACHE_REVALIDATE,
  CorpusChangedError,
  type EntryWarning,
  type GalleryRead,
  loaderStats,
  readCatalogGallery,
  type Resource,
  type Snapshot,
  type SnapshotOptions,
  type StatsFn,
  warningLine,
} from "./snapshot.ts";
export { ALLOW, handle } from "./handler.ts";
export { type CatalogServer, type CatalogServerOptions, startCatalogServer } from "./server.ts";
export { headersFile, redirectsFile, writeSnapshot } from "./export.ts";
export { type BuildOptions, runBuild, runServe, type ServeOptions } from "./run.ts";
export { MAX_ARCHIVE_BYTES, MAX_FILE_BYTES, MAX_MEMBERS, MAX_NAME_BYTES, MAX_TOTAL_BYTES } from "./_limits.ts";
export type { GalleryEntry, Screenshot, Tombstone } from "./_gallery.ts";
export type { FrontMatter } from "./_schema.ts";
export type { ArchiveFile } from "./_tar.ts";
export type { Io, Sink } from "../io.ts";
