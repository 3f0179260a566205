/**
 * The one top-level handler: parse argv, run the chosen command, map every typed error to one line on stderr
 * (`mapper <command>: <what happened> — <what to do>`) and an exit code. Unknown errors are bugs: they keep their
 * stack.
 *
 * @module
 */
import type { Command } from "./command.ts";
import type { Io } from "../io.ts";
import { errorText, EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, MapperError, UsageError } from "../errors.ts";
import type { CliContext } from "./context.ts";
import { escapeControls, toJson } from "../terminal.ts";
import { buildProgram } from "./program.ts";
import { commandPath, parse, ParseError } from "./_parse.ts";
import { formatHelp } from "./_help.ts";
import { lazy } from "../lazy.ts";

// deno-lint-ignore no-explicit-any
type AnyCommand = Command<any, any>;

/** Formats the display name of a command path: `mapper` or `mapper atlas find`. */
function display(path: string): string {
  return path ? `mapper ${path}` : "mapper";
}

/**
 * Prints an expected error as ONE line: `mapper <command>: <message> — <hint>`. A usage error without a hint of its
 * own points at the command's help.
 */
function report(io: Io, path: string, err: MapperError): void {
  // Messages echo paths and values the user typed: show control characters, never let them reach the terminal.
  // Parse errors quote raw argv words, which may hold newlines: escape those too so the error stays one line.
  const safe = (text: string) => escapeControls(text, { keepNewlines: !(err instanceof ParseError) });
  const text = err.hint === undefined && err instanceof UsageError
    ? `${err.message} — see '${display(path)} --help'`
    : errorText(err);
  io.stderr.write(`${display(path)}: ${safe(text)}\n`);
}

/** Commands whose `--json` output is the authoring envelope, which a usage error must still print. */
const ENVELOPE_COMMANDS = new Set(["validate", "lint", "fmt", "stats", "match", "explain", "init"]);

/** Whether the arguments ask for JSON output (`--json`, `--format json`, `--format=json`). */
function wantsJson(argv: readonly string[]): boolean {
  return argv.some((a, i) => a === "--json" || a === "--format=json" || (a === "--format" && argv[i + 1] === "json"));
}

/** An empty option value (`--dir ""`, an unset `$VAR`) never means the default: it is a usage error, not the cwd. */
function rejectEmptyOptions(cmd: AnyCommand): void {
  const values = cmd.opts() as Record<string, unknown>;
  for (const option of cmd.options) {
    if (values[option.attributeName()] !== "") continue;
    const flag = option.long ?? option.short ?? option.attributeName();
    throw new UsageError(`${flag} is empty`, { hint: `give ${flag} a value, or leave it out for its default` });
  }
}

/**
 * Runs the CLI with user arguments (no `deno`/script prefix) and returns the exit code. Never calls `Deno.exit`.
 */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  let path = "";
  const code = await runCommand(argv, io, (p) => (path = p));
  return outputFailed(io, path, code);
}

/**
 * Standard output could not be written (a full disk, an I/O error): one line on stderr and exit 1 for every
 * command, instead of an uncaught error. A reader that went away (EPIPE) is not reported.
 */
function outputFailed(io: Io, path: string, code: number): number {
  const failure = io.stdout.failure?.();
  if (failure === undefined) return code;
  const reason = escapeControls(failure.message.replace(/\s+/g, " ").trim());
  io.stderr.write(
    `${
      display(path)
    }: cannot write to standard output: ${reason} — free some disk space or send the output elsewhere\n`,
  );
  return code === EXIT_OK ? EXIT_FAILURE : code;
}

/** Parses and runs one command; `onCommand` learns its path (`atlas add`) once it is known. */
async function runCommand(argv: readonly string[], io: Io, onCommand: (path: string) => void): Promise<number> {
  const ctx: CliContext = { io, exitCode: EXIT_OK };
  const program = (await buildProgram(ctx, argv[0])) as AnyCommand;
  let active: AnyCommand = program;
  try {
    const outcome = parse(program, argv);
    if (outcome.kind === "version") {
      io.stdout.write(`${outcome.text}\n`);
      return EXIT_OK;
    }
    if (outcome.kind === "help") {
      // Asked-for help goes to stdout (exit 0); a group called without a subcommand gets its help as an error.
      (outcome.error ? io.stderr : io.stdout).write(formatHelp(outcome.command));
      return outcome.error ? EXIT_USAGE : EXIT_OK;
    }
    active = outcome.command;
    onCommand(commandPath(active));
    rejectEmptyOptions(active);
    await active.actionHandler!(...outcome.args, active.opts(), active);
    return ctx.exitCode;
  } catch (err: unknown) {
    const path = err instanceof ParseError ? err.path : commandPath(active);
    onCommand(path);
    if (err instanceof UsageError && ENVELOPE_COMMANDS.has(path) && wantsJson(argv)) {
      // Scripts reading an authoring command's `--json` get the envelope even for a usage error.
      const { usageEnvelope } = await lazy<typeof import("../authoring/envelope.ts")>(
        new URL("../authoring/envelope.ts", import.meta.url),
      );
      io.stdout.write(toJson(usageEnvelope("usage", err.message)));
    }
    if (err instanceof MapperError) {
      report(io, path, err);
      return err.exitCode;
    }
    if (io.signal.aborted) {
      io.stderr.write(`${display(path)}: interrupted\n`);
      return EXIT_INTERRUPTED;
    }
    throw err;
  }
}
