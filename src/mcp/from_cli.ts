/**
 * MCP tool parameters derived from the command table: a tool names its CLI command, and every flag and argument of
 * that command becomes a parameter (snake_case, its type, bounds and default from the flag's value parser, its help
 * line as the description) — or is left out with a written reason. Nothing is restated by hand, so the two surfaces
 * cannot drift: a new flag without a parameter or a reason fails when the tool table is built (and in its tests).
 *
 * @module
 */
import { z } from "zod";
import { Command, type Option } from "../cli/command.ts";
import type { CliContext, ValueKind } from "../cli/context.ts";

/** A registration function of the command table (`registerBrowser`, `registerDevtools`, …). */
export type Register = (program: Command, ctx: CliContext) => void;

/** Why `--json` never becomes a parameter: the model reads the text layouts. */
export const JSON_REASON = "tools answer with the text layout the model reads; --json is for scripts";
/** Why `--dir` never becomes a parameter: the server is started on one corpus. */
export const DIR_REASON = "every call uses the corpus the server was started with (mapper mcp --dir)";

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

/** The command at `path` as `register` declares it (built once per registration, with no I/O). */
export function cliCommand(register: Register, path: string): Command<unknown[], object> {
  let program = programs.get(register);
  if (program === undefined) {
    program = new Command().name("mapper");
    register(program, { io: undefined as never, exitCode: 0 });
    programs.set(register, program);
  }
  let cmd: Command<unknown[], object> | undefined = program as Command<unknown[], object>;
  for (const word of path.split(" ")) cmd = cmd?.findCommand(word);
  if (cmd === undefined) throw new Error(`mcp: no command "${path}" in the command table`);
  return cmd;
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

/**
 * The input shape of a tool over `spec.command`: one parameter per flag and argument not omitted. `T` is the
 * argument type the tool's adapter reads (the shape is built at run time; `from_cli_test.ts` holds the two together).
 * Throws when a flag or argument has neither a parameter nor a reason, or when `omit`, `rename`, `schema` or
 * `describe` names something the command does not have.
 */
export function cliInput<T extends Record<string, unknown>>(spec: CliParams): { [K in keyof T]-?: z.ZodType<T[K]> } {
  const cmd = cliCommand(spec.register, spec.command);
  const omit: Record<string, string> = { "--json": JSON_REASON, "--dir": DIR_REASON, ...spec.omit };
  const used = new Set<string>();
  const shape: Record<string, z.ZodType> = {};
  const add = (key: string, name: string, base: z.ZodType, help: string, optional: boolean, fallback: unknown) => {
    used.add(key);
    if (key in omit) return;
    const param = spec.rename?.[key] ?? snake(name);
    let schema = spec.schema?.[param] ?? base;
    const own = spec.describe?.[param];
    const description = own ??
      sentence(help) + (fallback === undefined || fallback === false ? "" : ` Default ${JSON.stringify(fallback)}.`);
    if (optional) schema = schema.optional();
    shape[param] = schema.describe(description);
  };
  for (const a of cmd.registeredArguments) {
    const base = a.variadic ? z.array(z.string()) : z.string();
    add(`<${a.name}>`, a.name, base, a.description, !a.required, undefined);
  }
  for (const o of cmd.options) {
    if (o.hidden || o.long === undefined) continue;
    add(o.long, o.attributeName(), optionSchema(o), o.description, !o.mandatory, o.defaultValue);
  }
  for (
    const [what, names] of [
      ["omit", Object.keys(spec.omit ?? {})],
      ["rename", Object.keys(spec.rename ?? {})],
    ] as const
  ) {
    for (const key of names) {
      if (!used.has(key)) throw new Error(`mcp: ${what} names ${key}, which "${spec.command}" does not have`);
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
