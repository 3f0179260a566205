/**
 * MCP tools derived from the command table: a tool names its CLI command, and every flag and argument of that
 * command becomes a parameter (snake_case, its type, bounds and default from the flag's value parser, its help line
 * as the description) — or is left out with a written reason. A call runs the command's own action on those
 * parameters, as if a user had typed the same flags (`cliTool`, `runAsCli`). Nothing is restated by hand, so the two
 * surfaces cannot drift: a new flag is a new parameter (or an omission with its reason) and reaches the command.
 *
 * @module
 */
import { z } from "zod";
import { type Argument, Command, type Option } from "../cli/command.ts";
import type { CliContext, ValueKind } from "../cli/context.ts";
import { type Annotations, defineTool, type ToolContext, type ToolSpec } from "./registry.ts";

/** A registration function of the command table (`registerBrowser`, `registerDevtools`, …). */
export type Register = (program: Command, ctx: CliContext) => void;

/** Why `--json` never becomes a parameter: the model reads the text layouts. */
export const JSON_REASON = "tools answer with the text layout the model reads; --json is for scripts";
/** Why `--dir` never becomes a parameter: the server is started on one corpus. */
export const DIR_REASON = "every call uses the corpus the server was started with (mapper mcp --dir)";
/**
 * Why `--allow-scheme` never becomes a parameter: which schemes open is the user's choice when starting the server
 * (`mapper mcp --allow-scheme`), never an agent's, which a page may have talked into opening `file:` URLs.
 */
export const ALLOW_SCHEME_REASON =
  "the user allows schemes when starting the server (mapper mcp --allow-scheme), never an agent";

/** How one tool's parameters come from its command. */
export interface CliParams {
  /** The registration that declares the command. */
  readonly register: Register;
  /** The command path under the program, e.g. `"browser fill"`. */
  readonly command: string;
  /**
   * Flags (`--clear`) and arguments (`<js>`) with no parameter, each with the reason. `--json` and `--dir` are left
   * out with {@linkcode JSON_REASON} and {@linkcode DIR_REASON} unless listed.
   */
  readonly omit?: Readonly<Record<string, string>>;
  /** A parameter name other than the snake_case of the flag or argument, keyed by flag or `<argument>`. */
  readonly rename?: Readonly<Record<string, string>>;
  /**
   * The tool's own schema for a parameter (keyed by parameter name), where a typed value serves a model better
   * than the CLI's word (a list of levels for `--level error,exception`, a number for an index).
   */
  readonly schema?: Readonly<Record<string, z.ZodType>>;
  /** A description written for an agent, replacing the flag's help line (keyed by parameter name). */
  readonly describe?: Readonly<Record<string, string>>;
  /** Parameters the command has no flag for (each with its own description), e.g. one flag split in two. */
  readonly extra?: Readonly<Record<string, z.ZodType>>;
}

/** Set on every shape {@linkcode cliInput} builds: the {@linkcode CliParams} it came from (tests hold every tool to one). */
export const FROM_CLI: unique symbol = Symbol("mapper.fromCli");

const programs = new Map<Register, Command>();

/** A fresh program holding what `register` declares, its actions bound to `ctx`. */
function program(register: Register, ctx: CliContext): Command {
  const root = new Command().name("mapper");
  register(root, ctx);
  return root;
}

function find(root: Command, path: string): Command<unknown[], object> {
  let cmd: Command<unknown[], object> | undefined = root as Command<unknown[], object>;
  for (const word of path.split(" ")) cmd = cmd?.findCommand(word);
  if (cmd === undefined) throw new Error(`mcp: no command "${path}" in the command table`);
  return cmd;
}

/** The command at `path` as `register` declares it (built once per registration, with no I/O). */
export function cliCommand(register: Register, path: string): Command<unknown[], object> {
  let root = programs.get(register);
  if (root === undefined) {
    root = program(register, { io: undefined as never, exitCode: 0 });
    programs.set(register, root);
  }
  return find(root, path);
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/-/g, "_");

/**
 * A help line as an agent reads it: `"viewport x (with --y, instead of a target)"` → `"Viewport x (with y, instead
 * of a target)."` — a sentence, with flags named as the parameters they became.
 */
function sentence(help: string): string {
  const t = help.trim().replace(/--([a-z][a-z0-9-]*)/g, (_, flag: string) => snake(flag));
  if (t === "") return t;
  return t[0]!.toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".");
}

function optionSchema(option: Option): z.ZodType {
  if (!option.required) return z.boolean();
  const kind = (option.parseArg as { valueKind?: ValueKind } | undefined)?.valueKind;
  if (kind === undefined) return z.string().min(1);
  if (kind.type === "list") return z.array(z.string().min(1)).min(1);
  let n = kind.type === "int" ? z.number().int() : z.number();
  if (kind.min !== undefined) n = n.min(kind.min);
  if (kind.type === "int" && kind.max !== undefined) n = n.max(kind.max);
  return n;
}

/** One flag or argument of the command: its key (`--flag`, `<argument>`) and the parameter it became, if any. */
interface Slot {
  readonly key: string;
  /** The parameter's name; `undefined` when the flag is omitted. */
  readonly param: string | undefined;
  readonly argument?: Argument;
  readonly option?: Option;
}

/** Every flag and argument of `spec.command`, in declaration order (arguments first), with its parameter. */
function slots(spec: CliParams): { cmd: Command<unknown[], object>; slots: Slot[]; omit: Record<string, string> } {
  const cmd = cliCommand(spec.register, spec.command);
  const omit: Record<string, string> = { "--json": JSON_REASON, "--dir": DIR_REASON, ...spec.omit };
  const param = (key: string, name: string) => key in omit ? undefined : spec.rename?.[key] ?? snake(name);
  const list: Slot[] = [];
  for (const a of cmd.registeredArguments) {
    list.push({ key: `<${a.name}>`, param: param(`<${a.name}>`, a.name), argument: a });
  }
  for (const o of cmd.options) {
    if (o.hidden || o.long === undefined) continue;
    list.push({ key: o.long, param: param(o.long, o.attributeName()), option: o });
  }
  return { cmd, slots: list, omit };
}

/**
 * The input shape of a tool over `spec.command`: one parameter per flag and argument not omitted. `T` is the
 * argument type the tool's adapter reads (the shape is built at run time; `from_cli_test.ts` holds the two together).
 * Throws when a flag or argument has neither a parameter nor a reason, or when `omit`, `rename`, `schema` or
 * `describe` names something the command does not have.
 */
export function cliInput<T extends Record<string, unknown>>(spec: CliParams): { [K in keyof T]-?: z.ZodType<T[K]> } {
  const { slots: list } = slots(spec);
  const shape: Record<string, z.ZodType> = {};
  for (const { param, argument, option } of list) {
    if (param === undefined) continue;
    let schema: z.ZodType, help: string, optional: boolean, fallback: unknown;
    if (argument !== undefined) {
      schema = argument.variadic ? z.array(z.string()) : z.string();
      [help, optional, fallback] = [argument.description, !argument.required, undefined];
    } else {
      schema = optionSchema(option!);
      [help, optional, fallback] = [option!.description, !option!.mandatory, option!.defaultValue];
    }
    schema = spec.schema?.[param] ?? schema;
    const description = spec.describe?.[param] ??
      sentence(help) + (fallback === undefined || fallback === false ? "" : ` Default ${JSON.stringify(fallback)}.`);
    if (optional) schema = schema.optional();
    shape[param] = schema.describe(description);
  }
  const keys = new Set(list.map((s) => s.key));
  for (
    const [what, names] of [
      ["omit", Object.keys(spec.omit ?? {})],
      ["rename", Object.keys(spec.rename ?? {})],
    ] as const
  ) {
    for (const key of names) {
      if (!keys.has(key)) throw new Error(`mcp: ${what} names ${key}, which "${spec.command}" does not have`);
    }
  }
  for (
    const [what, names] of [
      ["schema", Object.keys(spec.schema ?? {})],
      ["describe", Object.keys(spec.describe ?? {})],
    ] as const
  ) {
    for (const name of names) {
      if (!(name in shape)) throw new Error(`mcp: ${what} names parameter ${name}, which "${spec.command}" lacks`);
    }
  }
  for (const [name, schema] of Object.entries(spec.extra ?? {})) {
    if (name in shape) throw new Error(`mcp: extra parameter ${name} of "${spec.command}" is already a flag's`);
    shape[name] = schema;
  }
  Object.defineProperty(shape, FROM_CLI, { value: spec, enumerable: false });
  return shape as { [K in keyof T]-?: z.ZodType<T[K]> };
}

/**
 * Values for flags and arguments a tool has no parameter for (or sets itself), keyed like `omit`: `--out`, `<arg>`.
 * A key given with `undefined` leaves that flag out even when the tool has a parameter for it.
 */
export type Given = Readonly<Record<string, unknown>>;

/** What the command's action receives for a tool call: its arguments in order, then its option values. */
export interface CliCall {
  /** One value per declared argument (a variadic one: an array, empty when none was given). */
  readonly args: unknown[];
  /** Option values by attribute name, defaults included (what `opts()` returns after a parse). */
  readonly opts: Record<string, unknown>;
}

/**
 * The value the command line would give the action: a word for an argument or a plain option (numbers written
 * out, a list as the CLI's comma list, e.g. `--level error,exception`), the words of a variadic argument, `true`
 * for a flag, the typed value for an option with a value parser (zod already held it to that parser's bounds).
 */
function cliValue(slot: Slot, value: unknown): unknown {
  if (value === undefined || value === false) return undefined;
  const word = (v: unknown) => typeof v === "string" ? v : String(v);
  if (slot.argument !== undefined) {
    if (!slot.argument.variadic) return word(value);
    // One string for a variadic argument is one operand: a model passes a phrase where a shell splits words.
    return Array.isArray(value) ? value.map(word) : [word(value)];
  }
  const option = slot.option!;
  if (!option.required || option.parseArg !== undefined) return value;
  return Array.isArray(value) ? value.map(word).join(",") : word(value);
}

/**
 * Turns a tool's arguments into what `spec.command`'s action receives when a user types the same flags: `given`
 * first, then the tool's parameters, then what the server supplies for a flag left out for its reason — `--dir` ({@linkcode DIR_REASON}) is the server's corpus directory, `--allow-scheme`
 * ({@linkcode ALLOW_SCHEME_REASON}) the schemes the user allowed when starting it.
 */
export function cliCall(
  spec: CliParams,
  args: Readonly<Record<string, unknown>>,
  server: { readonly dir: string; readonly allowSchemes: readonly string[] },
  given: Given = {},
): CliCall {
  const { cmd, slots: list, omit } = slots(spec);
  const opts: Record<string, unknown> = cmd.opts() as Record<string, unknown>;
  const positional: unknown[] = [];
  for (const slot of list) {
    let value: unknown;
    if (slot.key in given) value = given[slot.key];
    else if (slot.param !== undefined) value = args[slot.param];
    else if (omit[slot.key] === DIR_REASON) value = server.dir;
    else if (omit[slot.key] === ALLOW_SCHEME_REASON) value = server.allowSchemes;
    const cli = cliValue(slot, value);
    if (slot.argument !== undefined) {
      positional.push(cli ?? (slot.argument.variadic ? [] : undefined));
    } else if (cli !== undefined) {
      opts[slot.option!.attributeName()] = cli;
    }
  }
  return { args: positional, opts };
}

/**
 * Runs `spec.command` as the CLI does (its own action: flags → the command's options → its `run(opts, io)`) on a
 * tool's arguments, with output captured: the tool's answer is what the command printed, a non-zero exit a tool
 * error with that text (see {@linkcode ToolContext.capture}).
 */
export async function runAsCli(
  spec: CliParams,
  args: Readonly<Record<string, unknown>>,
  ctx: ToolContext,
  given: Given = {},
): Promise<string> {
  const call = cliCall(spec, args, ctx, given);
  return await ctx.capture(async (io) => {
    // A fresh program per call: each action writes the exit code into the context it was registered with.
    const cli: CliContext = { io, exitCode: 0 };
    const cmd = find(program(spec.register, cli), spec.command);
    await cmd.actionHandler!(...call.args, { ...call.opts }, cmd);
    return cli.exitCode;
  });
}

/** Set on every tool {@linkcode cliTool} declares: its declaration (tests check that every parameter arrives). */
export const CLI_TOOL: unique symbol = Symbol("mapper.cliTool");

/**
 * Declares a tool that IS a CLI command: its parameters come from the command's flags ({@linkcode cliInput}) and a
 * call runs the command's own action on them ({@linkcode runAsCli}). `prepare` checks or rewrites the arguments
 * first (a refusal meant for a model, e.g. a local catalog path); `given` sets flags the tool has no parameter for.
 */
export function cliTool<T extends Record<string, unknown>>(spec: {
  name: string;
  title: string;
  description: string;
  cli: CliParams;
  annotations: Annotations;
  browser: boolean;
  prepare?: (args: T, ctx: ToolContext) => T | Promise<T>;
  given?: (args: T) => Given;
}): ToolSpec {
  const input = cliInput<T>(spec.cli);
  const tool = defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input,
    annotations: spec.annotations,
    browser: spec.browser,
    async call(a, ctx) {
      const args = spec.prepare ? await spec.prepare(a as T, ctx) : a as T;
      return await runAsCli(spec.cli, args, ctx, spec.given?.(args));
    },
  });
  return Object.assign(tool, { [CLI_TOOL]: spec });
}
