/**
 * The files mapper itself writes at the root of a corpus directory. Defined once here: `atlas add` refuses an
 * archive that would plant one (a planted `.session` would point `browser stop` at other processes), and
 * `atlas verify` never reports one as drift.
 *
 * @module
 */

/** The running browser session's record (`<corpus dir>/.session`, mode 0600). */
export const SESSION_FILE = ".session";
/** What `atlas add` installed (`<corpus dir>/atlas-lock.json`). */
export const LOCK_FILE = "atlas-lock.json";

/** Every file mapper owns at a corpus root, with what it is (for messages). */
export const OWNED_FILES: ReadonlyMap<string, string> = new Map([
  [SESSION_FILE, "the running browser session's record"],
  [LOCK_FILE, "the record of what atlas add installed"],
]);

/**
 * What the corpus-root entry `name` is when mapper owns that name, else `undefined`. Compared case- and
 * Unicode-folded, as a case-insensitive or normalising file system would land it on the owned file.
 */
export function ownedFile(name: string): { name: string; what: string } | undefined {
  const key = name.normalize("NFC").toLowerCase().normalize("NFC");
  for (const [owned, what] of OWNED_FILES) if (key === owned) return { name: owned, what };
  return undefined;
}
