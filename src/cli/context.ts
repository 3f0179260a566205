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
 * What a value parser accepts, for surfaces that take typed values instead of words (the MCP tool schemas are
 * derived from the command table through it): a whole number, any number, or a repeatable string.
 */
export type ValueKind =
  | { readonly type: "int"; readonly min?: number; readonly max?: number }
  | { readonly type: "number"; readonly min?: number }
  | { readonly type: "list" };

/** A value parser that says what it accepts (see {@linkcode ValueKind}). */
export type KindedParser<T> = ((value: string) => T) & { readonly valueKind: ValueKind };

/**
 * Parses a flag value as a whole number within `[min, max]`; used as an option's value parser so a bad value is a
 * usage error naming the flag.
 */
export function intArg(min: number, max = Number.MAX_SAFE_INTEGER): KindedParser<number> {
  const parse = (value: string) => {
    if (/^-\d+$/.test(value.trim())) throw new InvalidArgumentError(`must be ${min} or greater`);
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`expected a whole number, got "${value}"`);
    const n = Number(value.trim());
    if (n < min || n > max) throw new InvalidArgumentError(`expected a number from ${min} to ${max}, got ${n}`);
    return n;
  };
  const kind: ValueKind = max === Number.MAX_SAFE_INTEGER ? { type: "int", min } : { type: "int", min, max };
  return Object.assign(parse, { valueKind: kind });
}

/** Parses a flag value as a whole number that may be negative (a scroll delta). */
export const signedIntArg: KindedParser<number> = Object.assign((value: string): number => {
  if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`expected a whole number, got "${value}"`);
  return Number(value.trim());
}, { valueKind: { type: "int" } as const });

/** Parses a flag value as a CSS pixel coordinate: a number, 0 or more, fractions allowed. */
export const coordinateArg: KindedParser<number> = Object.assign((value: string): number => {
  const n = Number(value.trim());
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) {
    throw new InvalidArgumentError(`expected a number of CSS pixels, 0 or more, got "${value}"`);
  }
  return n;
}, { valueKind: { type: "number", min: 0 } as const });

/** Collects a repeatable string flag into an array. */
export const collect: ((value: string, previous: string[] | undefined) => string[]) & {
  readonly valueKind: ValueKind;
} = Object.assign(
  (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value],
  { valueKind: { type: "list" } as const },
);

/** The help of `--allow-scheme`, the same on every command that opens a URL. */
export const ALLOW_SCHEME_HELP =
  "also open URLs of this scheme (file, data, chrome, …; repeatable): only http, https and about:blank otherwise";

/** Help of every session command's `--dir`. */
export const SESSION_DIR_HELP =
  "corpus directory holding the session file (default: the nearest .mapper/ at or above the working directory that holds one)";
