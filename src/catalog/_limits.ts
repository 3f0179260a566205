/**
 * The archive limits `mapper atlas add` enforces when it extracts an archive. The catalog withholds an entry whose
 * corpus breaks any of them, so nothing it publishes is refused at install time.
 *
 * Defined here in one place until the atlas client exports its own constants; both must stay equal
 * (catalog-api.md §5: 4 MiB per file, 32 MiB total, 512 members, names ≤100 bytes, regular files only).
 *
 * @module
 */

/** Largest single corpus file, in bytes. */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Largest total of all corpus files, in bytes. */
export const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
/** Most members an archive may hold. */
export const MAX_MEMBERS = 512;
/** Longest member name (ustar `name` field; the prefix field is never used), in UTF-8 bytes. */
export const MAX_NAME_BYTES = 100;
/** Largest compressed archive the client downloads, in bytes. */
export const MAX_ARCHIVE_BYTES = 8 * 1024 * 1024;
