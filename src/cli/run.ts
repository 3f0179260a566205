/**
 * The one top-level handler: parse argv, run the chosen command, map every typed error to one message on stderr
 * and an exit code. Unknown errors are bugs: they keep their stack.
 *
 * @module
 */
import type { Command, CommanderError } from "@commander-js/extra-typings";
import type { Io } from "../io.ts";
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, MapperError, UsageError } from "../errors.ts";
import type { CliContext } from "./context.ts";
import { escapeControls } from "../terminal.ts";
import { buildProgram, commandPath } from "./program.ts";

// deno-lint-ignore no-explicit-any
type AnyCommand = Command<any, any, any>;

/** A commander parse failure tied to the command it happened in. */
class ParseFailure extends Error {
  constructor(readonly error: CommanderError, readonly command: AnyCommand) {
    super(error.message);
  }
}

const ONE_LINE_CODES = new Set(["commander.unknownCommand", "commander.unknownOption"]);

/** Formats the display name of a command path: `mapper` or `mapper atlas find`. */
function display(path: string): string {
  return path ? `mapper ${path}` : "mapper";
}

/** Strips commander's `error: ` prefix and trailing newline; echoed arguments are shown, never executed. */
function clean(message: string): string {
  return escapeControls(message.replace(/^error:\s*/, "").replace(/\s+$/, "").replace(/\n+/g, " "));
}

/** Walks every command so each reports parse failures with itself attached and writes through `io`. */
function configure(cmd: AnyCommand, io: Io): void {
  cmd.exitOverride((err) => {
    throw new ParseFailure(err, cmd);
  });
  cmd.configureOutput({
    writeOut: (s) => io.stdout.write(s),
    writeErr: (s) => io.stderr.write(s),
    outputError: () => {},
  });
  for (const sub of cmd.commands) configure(sub as AnyCommand, io);
}

/** Prints an expected error as `mapper <command>: <message> — <hint>` (one line), plus the usage line for usage errors. */
function report(io: Io, path: string, err: MapperError, usage: string | undefined): void {
  // Messages echo paths and values the user typed: show control characters, never let them reach the terminal.
  const safe = (text: string) => escapeControls(text, { keepNewlines: true });
  const hint = err.hint ? ` — ${safe(err.hint)}` : "";
  io.stderr.write(`${display(path)}: ${safe(err.message)}${hint}\n`);
  if (err instanceof UsageError && usage !== undefined) io.stderr.write(`usage: ${display(path)} ${usage}\n`);
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
  const program = buildProgram(ctx) as AnyCommand;
  const unknownHelp = unknownHelpTopic(program, argv);
  if (unknownHelp !== undefined) {
    io.stderr.write(`mapper help: unknown command '${escapeControls(unknownHelp)}' — see 'mapper --help'\n`);
    return EXIT_USAGE;
  }
  configure(program, io);
  let active: AnyCommand = program;
  program.hook("preAction", (_root: AnyCommand, actionCommand: AnyCommand) => {
    active = actionCommand;
    onCommand(commandPath(actionCommand));
    rejectEmptyOptions(actionCommand);
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return ctx.exitCode;
  } catch (err: unknown) {
    if (err instanceof ParseFailure) return parseFailure(io, err);
    const path = commandPath(active);
    if (err instanceof MapperError) {
      report(io, path, err, active.usage());
      return err.exitCode;
    }
    if (io.signal.aborted) {
      io.stderr.write(`${display(path)}: interrupted\n`);
      return EXIT_INTERRUPTED;
    }
    throw err;
  }
}

/** The topic of `mapper help <topic> …` when no such command exists (commander would print the whole root help). */
function unknownHelpTopic(program: AnyCommand, argv: readonly string[]): string | undefined {
  if (argv[0] !== "help" || argv[1] === undefined || argv[1].startsWith("-")) return undefined;
  return program.commands.some((c) => c.name() === argv[1] || c.aliases().includes(argv[1]!)) ? undefined : argv[1];
}

/** Maps a commander failure to output and an exit code. */
function parseFailure(io: Io, failure: ParseFailure): number {
  const { error, command } = failure;
  const path = commandPath(command);
  switch (error.code) {
    case "commander.helpDisplayed":
    case "commander.version":
      return EXIT_OK;
    case "commander.help":
      // `mapper help <command>` asked for help (exit code 0, on stdout); a group called without a subcommand got
      // its help on stderr as an error.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    case "commander.executeSubCommandAsync":
      return EXIT_USAGE;
  }
  const message = clean(error.message);
  if (ONE_LINE_CODES.has(error.code)) {
    io.stderr.write(`${display(path)}: ${message} — see '${display(path)} --help'\n`);
  } else {
    io.stderr.write(`${display(path)}: ${message}\n`);
    io.stderr.write(`usage: ${display(path)} ${command.usage()}\n`);
  }
  return EXIT_USAGE;
}
