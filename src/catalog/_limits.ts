/**
 * The archive limits the catalog enforces before it publishes an archive. They are the very constants
 * `mapper atlas add` enforces when it downloads and extracts one (imported from the atlas client), so nothing the
 * catalog publishes is refused at install time.
 *
 * @module
 */
export { MAX_FILE_BYTES, MAX_MEMBERS, MAX_TOTAL_BYTES } from "../atlas/mod.ts";
import { MAX_BODY_BYTES } from "../atlas/mod.ts";

/** Longest member name (ustar `name` field; the prefix field is never used), in UTF-8 bytes. */
export const MAX_NAME_BYTES = 100;
/** Largest compressed archive: the client's download cap. */
export const MAX_ARCHIVE_BYTES: number = MAX_BODY_BYTES;
