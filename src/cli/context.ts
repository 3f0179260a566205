/**
 * What every command registration receives: the process I/O and a place to put the exit code the action decided.
 *
 * @module
 */
import { InvalidArgumentError } from "./command.ts";
import type { Io } from "../io.ts";

/** Shared state of one CLI invocation. */
export interface CliContext {
  /** The process I/O handed to every `run(opts, io)`. */
  readonly io: Io;
  /** Exit code set by the action that ran (0 when it returned normally without setting one). */
  exitCode: number;
}

/**
 * Parses a flag value as a whole number within `[min, max]`; used as an option's value parser so a bad value is a
 * usage error naming the flag.
 */
export function intArg(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value: string) => {
    if (/^-\d+$/.test(value.trim())) throw new InvalidArgumentError(`must be ${min} or greater`);
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`expected a whole number, got "${value}"`);
    const n = Number(value.trim());
    if (n < min || n > max) throw new InvalidArgumentError(`expected a number from ${min} to ${max}, got ${n}`);
    return n;
  };
}

/** Parses a flag value as a whole number that may be negative (a scroll delta). */
export function signedIntArg(value: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`expected a whole number, got "${value}"`);
  return Number(value.trim());
}

/** Parses a flag value as a CSS pixel coordinate: a number, 0 or more, fractions allowed. */
export function coordinateArg(value: string): number {
  const n = Number(value.trim());
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) {
    throw new InvalidArgumentError(`expected a number of CSS pixels, 0 or more, got "${value}"`);
  }
  return n;
}

/** Collects a repeatable string flag into an array. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The help of `--allow-scheme`, the same on every command that opens a URL. */
export const ALLOW_SCHEME_HELP =
  "also open URLs of this scheme (file, data, chrome, …; repeatable): only http, https and about:blank otherwise";
