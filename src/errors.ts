/**
 * Typed errors. Every error a user can cause carries an exit code and, where there is one, a hint naming the fix.
 * The single top-level handler (`src/cli/run.ts`) prints `mapper <command>: <message> — <hint>` on stderr and exits
 * with the error's code. Anything that is not a {@linkcode MapperError} is a bug and keeps its stack.
 *
 * Exit codes (documented in the README):
 * - 0 success (also: a search that matched nothing)
 * - 1 the action failed (bad input data, refused by policy, not found, network, no session, problems found)
 * - 2 usage error (unknown command or flag, bad flag value, missing argument)
 * - 130 interrupted before finishing
 *
 * @module
 */

/** Exit code of a successful run. */
export const EXIT_OK = 0;
/** Exit code of a failed action. */
export const EXIT_FAILURE = 1;
/** Exit code of a usage error. */
export const EXIT_USAGE = 2;
/** Exit code when interrupted by a signal. */
export const EXIT_INTERRUPTED = 130;

/** Options shared by every mapper error. */
export interface MapperErrorOptions {
  /** One short clause naming what to do next, e.g. `run 'mapper atlas find <domain>'`. */
  hint?: string;
  /** The underlying error, kept for debugging. */
  cause?: unknown;
}

/** Base class of every expected error. */
export class MapperError extends Error {
  /** Process exit code for this error. */
  readonly exitCode: number = EXIT_FAILURE;
  /** What to do next, or `undefined`. */
  readonly hint: string | undefined;

  /** Creates an error with a message (sentence case, no trailing period, quoted values) and an optional hint. */
  constructor(message: string, options: MapperErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
  }
}

/** Bad command line: unknown flag, bad value, missing or extra argument. Printed with the command's usage line. */
export class UsageError extends MapperError {
  /** Exit code for usage errors. */
  override readonly exitCode: number = EXIT_USAGE;
}

/** Something asked for does not exist (a slug, an index, a file). */
export class NotFoundError extends MapperError {}

/** Refused by a safety rule (transport policy, archive rules, non-empty target). */
export class PolicyError extends MapperError {}

/** Input data is invalid (YAML, JSON, catalog, archive). */
export class DataError extends MapperError {}

/** No browser session, or the session is unusable. */
export class SessionError extends MapperError {}

/** A network operation failed (DNS, refused, timeout, HTTP status). */
export class NetworkError extends MapperError {}

/** A local file-system operation failed (unwritable target, missing directory). */
export class FileError extends MapperError {}

/** A check ran and found problems (e.g. `atlas validate`, `atlas verify`); the report itself is already printed. */
export class ProblemsFound extends MapperError {}

/**
 * The text of an expected error as every front end shows it: `<message> — <hint>` (just the message without a
 * hint). The CLI prefixes it with `mapper <command>: `; the MCP server returns it as the tool error's text.
 */
export function errorText(err: MapperError): string {
  return err.hint ? `${err.message} — ${err.hint}` : err.message;
}

/** Describes any thrown value in one line, for wrapping OS errors into messages. */
export function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
