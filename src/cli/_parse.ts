/**
 * Argument parsing for the command builder: argv → what to do (run an action, print help, print the version) or a
 * {@linkcode ParseError}. The rules are commander's, so every command line that worked keeps working:
 *
 * - options may come before or after operands; `--` ends them; `--name=value` and `--name value` both work; a value
 *   option takes the next word even when it starts with `-`; a lone `-` and (in a leaf) `-1` are operands;
 * - a group reads its own options up to the subcommand name and hands the rest down; the first unknown option makes
 *   every later word "unknown", so `mapper atlas --help find` is the help of `atlas`;
 * - checks run in this order: help flag, required options, unknown options, missing/excess operands.
 *
 * Every failure is ONE line: `<what> — <fix>`; the caller prefixes `mapper <command>: `.
 *
 * @module
 */
import { type Command, InvalidArgumentError, type Option } from "./command.ts";
import { suggestSimilar } from "./_help.ts";
import { UsageError } from "../errors.ts";

// deno-lint-ignore no-explicit-any
type AnyCommand = Command<any, any>;

/** What a command line asks for. */
export type Outcome =
  | { readonly kind: "run"; readonly command: AnyCommand; readonly args: unknown[] }
  | { readonly kind: "help"; readonly command: AnyCommand; readonly error: boolean }
  | { readonly kind: "version"; readonly text: string };

/** A command line that cannot run: exit 2 with one line. `path` is where it failed, e.g. `atlas find`. */
export class ParseError extends UsageError {
  /** Creates the error for the command at `path` (empty for the program). */
  constructor(readonly path: string, message: string, hint: string) {
    super(message, { hint });
  }
}

/** The space-separated path of a command below the root, e.g. `atlas find` (empty for the root). */
export function commandPath(cmd: AnyCommand): string {
  const names: string[] = [];
  for (let c: AnyCommand | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** `mapper atlas find` / `mapper`: the program's name, then the command path. */
function display(cmd: AnyCommand): string {
  let root = cmd;
  while (root.parent) root = root.parent;
  const path = commandPath(cmd);
  return path ? `${root.name()} ${path}` : root.name();
}

function seeHelp(cmd: AnyCommand): string {
  return `see '${display(cmd)} --help'`;
}

function fail(cmd: AnyCommand, message: string, fix?: string): never {
  throw new ParseError(commandPath(cmd), message, fix ? `${fix}; ${seeHelp(cmd)}` : seeHelp(cmd));
}

const isHelpFlag = (arg: string) => arg === "-h" || arg === "--help";
const maybeOption = (arg: string) => arg.length > 1 && arg[0] === "-";
const negativeNumber = (arg: string) => /^-(\d+|\d*\.\d+)([eE][+-]?\d+)?$/.test(arg);

/** Parses user arguments (no program name) against the program. Sets each visited command's `args` and values. */
export function parse(program: AnyCommand, argv: readonly string[]): Outcome {
  return parseCommand(program, [], [...argv]);
}

function parseCommand(cmd: AnyCommand, inherited: string[], rest: string[]): Outcome {
  const parsed = parseOptions(cmd, rest);
  if ("version" in parsed) return { kind: "version", text: parsed.version };
  const operands = [...inherited, ...parsed.operands];
  const unknown = parsed.unknown;
  cmd.args = [...operands, ...unknown];

  const sub = cmd.findCommand(operands[0]);
  if (sub) return parseCommand(sub, operands.slice(1), unknown);
  const isGroup = cmd.commands.length > 0;
  if (isGroup && cmd.settings.helpCommand && operands[0] === "help") return helpTopic(cmd, operands[1]);
  if (isGroup && cmd.args.length === 0 && !cmd.actionHandler) return { kind: "help", command: cmd, error: true };
  if (unknown.some(isHelpFlag)) return { kind: "help", command: cmd, error: false };
  for (const option of cmd.options) {
    if (option.mandatory && cmd.opts()[option.attributeName()] === undefined) {
      fail(cmd, `required option '${option.flags}' not specified`, `add ${option.flags}`);
    }
  }
  const checkUnknown = () => {
    if (unknown[0] !== undefined) unknownOption(cmd, unknown[0]);
  };
  if (isGroup && !cmd.actionHandler) {
    if (operands[0] !== undefined) unknownCommand(cmd, operands[0]);
    checkUnknown();
    return { kind: "help", command: cmd, error: true };
  }
  checkUnknown();
  return { kind: "run", command: cmd, args: processArguments(cmd, operands) };
}

/** `mapper [group] help [topic]`: the topic's help on stdout, or one line when there is no such command. */
function helpTopic(cmd: AnyCommand, topic: string | undefined): Outcome {
  if (topic === undefined) return { kind: "help", command: cmd, error: false };
  const sub = cmd.findCommand(topic);
  if (sub) return { kind: "help", command: sub, error: false };
  const path = commandPath(cmd);
  throw new ParseError(path ? `${path} help` : "help", `unknown command '${topic}'`, seeHelp(cmd));
}

function unknownOption(cmd: AnyCommand, flag: string): never {
  let suggestion = "";
  if (flag.startsWith("--") && cmd.settings.showSuggestions) {
    const candidates: string[] = [];
    for (let c: AnyCommand | null = cmd; c; c = c.parent) {
      for (const o of c.options) if (!o.hidden && o.long) candidates.push(o.long);
      candidates.push("--help");
    }
    suggestion = suggestSimilar(flag, candidates);
  }
  fail(cmd, `unknown option '${flag}'${suggestion}`);
}

function unknownCommand(cmd: AnyCommand, name: string): never {
  let suggestion = "";
  if (cmd.settings.showSuggestions) {
    const candidates = cmd.commands.map((c) => c.name());
    if (cmd.settings.helpCommand) candidates.push(cmd.settings.helpCommand.term.split(" ")[0]!);
    suggestion = suggestSimilar(name, candidates);
  }
  fail(cmd, `unknown command '${name}'${suggestion}`);
}

/** Splits `args` into this command's options (stored), operands and the unknown rest (see the module doc). */
function parseOptions(
  cmd: AnyCommand,
  args: string[],
): { operands: string[]; unknown: string[] } | { version: string } {
  const operands: string[] = [];
  const unknown: string[] = [];
  let dest = operands;
  let group: string | undefined;
  let i = 0;
  while (i < args.length || group !== undefined) {
    const arg = group ?? args[i++]!;
    group = undefined;
    if (arg === "--") {
      if (dest === unknown) dest.push(arg);
      dest.push(...args.slice(i));
      break;
    }
    if (maybeOption(arg)) {
      const option = cmd.findOption(arg);
      if (option) {
        if (option.required) {
          const value = args[i++];
          if (value === undefined) missingValue(cmd, option);
          store(cmd, option, value);
        } else {
          const version = store(cmd, option, undefined);
          if (version !== undefined) return { version };
        }
        continue;
      }
    }
    if (arg.length > 2 && arg[0] === "-" && arg[1] !== "-") {
      // A cluster of short flags (`-Vh`) or a short flag with its value attached (`-p80`).
      const option = cmd.findOption(`-${arg[1]}`);
      if (option) {
        if (option.required) {
          store(cmd, option, arg.slice(2));
        } else {
          const version = store(cmd, option, undefined);
          if (version !== undefined) return { version };
          group = `-${arg.slice(2)}`;
        }
        continue;
      }
    }
    if (/^--[^=]+=/.test(arg)) {
      const at = arg.indexOf("=");
      const option = cmd.findOption(arg.slice(0, at));
      if (option?.required) {
        store(cmd, option, arg.slice(at + 1));
        continue;
      }
    }
    if (dest === operands && maybeOption(arg) && !(cmd.commands.length === 0 && negativeNumber(arg))) dest = unknown;
    dest.push(arg);
  }
  return { operands, unknown };
}

function missingValue(cmd: AnyCommand, option: Option): never {
  const flag = option.long ?? option.short ?? option.flags;
  fail(cmd, `option '${option.flags}' argument missing`, `give ${flag} a value`);
}

/** Stores one option occurrence; returns the version text when it was the version flag. */
function store(cmd: AnyCommand, option: Option, value: string | undefined): string | undefined {
  const version = cmd.versionInfo;
  if (version && version.option === option) return version.text;
  const key = option.attributeName();
  if (value === undefined) {
    cmd.setOptionValue(key, true);
    return undefined;
  }
  if (!option.parseArg) {
    cmd.setOptionValue(key, value);
    return undefined;
  }
  try {
    cmd.setOptionValue(key, option.parseArg(value, cmd.opts()[key]));
  } catch (err: unknown) {
    if (!(err instanceof InvalidArgumentError)) throw err;
    fail(cmd, `option '${option.flags}' argument '${value}' is invalid. ${err.message}`);
  }
  return undefined;
}

/** Checks the operand count and returns the action's positional values (a variadic argument gets an array). */
function processArguments(cmd: AnyCommand, operands: string[]): unknown[] {
  const declared = cmd.registeredArguments;
  declared.forEach((argument, index) => {
    if (argument.required && operands[index] === undefined) {
      const usage = `${display(cmd)} ${cmd.usage()}`;
      fail(cmd, `missing required argument '${argument.name}'`, `usage: ${usage}`);
    }
  });
  const variadic = declared.at(-1)?.variadic === true;
  if (!variadic && operands.length > declared.length && !cmd.excessAllowed) {
    const extra = operands[declared.length]!;
    const takes = declared.length === 0
      ? "takes no arguments"
      : `takes ${declared.length === 1 ? "one argument" : `${declared.length} arguments`} (${
        declared.map((a) => a.usage()).join(" ")
      })`;
    fail(cmd, `unexpected argument "${extra}"`, `'${display(cmd)}' ${takes}`);
  }
  return declared.map((argument, index) => argument.variadic ? operands.slice(index) : operands[index]);
}
