/**
 * mapper's own command builder: the subset of commander's API the registration files in `src/cli/` use
 * (`.command() .description() .argument() .option() .requiredOption() .addOption() .action()
 * .allowExcessArguments() .addHelpText() .version() .helpCommand() .configureHelp() .opts()
 * .args .usage() .name() .parent .commands .options`), with option and argument types inferred from the flag strings
 * the way `@commander-js/extra-typings` does.
 *
 * Why not commander: it is CommonJS, and any CommonJS or `node:` import makes Deno boot its Node compatibility layer
 * (about 25 ms here) before the first flag is read; this module and its two helpers import nothing at all. Not
 * `@cliffy/command` or `@std/cli` either: both ship only on JSR, which the build machines cannot reach, and
 * `@std/cli`'s `parseArgs` has no subcommands, typed actions or help layout. Parsing lives in `_parse.ts`
 * (commander's rules: options anywhere, `--` ends them, `--flag=value`, a value flag takes the next word even when
 * it starts with `-`), help text in `_help.ts` (commander's layout, byte for byte).
 *
 * @module
 */

/** Thrown by an option's value parser (e.g. `intArg`) to reject a value; reported as a usage error naming the flag. */
export class InvalidArgumentError extends Error {
  /** Creates the error; `message` says what was expected, e.g. `must be 0 or greater`. */
  constructor(message: string) {
    super(message);
    this.name = "InvalidArgumentError";
  }
}

// ---- type inference from flag strings (what extra-typings does, for the forms mapper uses) ----------------------

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
/** `"-p, --port <n>"` → `"-p, --port"`. */
type FlagsHead<F extends string> = F extends `${infer Head} <${string}` ? Head
  : F extends `${infer Head} [${string}` ? Head
  : F;
/** The option's attribute name: `--expect-sha256 <hex>` → `expectSha256`. */
type OptionKey<F extends string> = FlagsHead<F> extends `${string}--${infer Long}` ? CamelCase<Long>
  : FlagsHead<F> extends `-${infer Short}` ? Short
  : never;
type TakesValue<F extends string> = F extends `${string}<${string}>${string}` ? true : false;
/** What an option without a default contributes to `opts()`: an optional flag or value. */
type OptionalOpt<F extends string, T> = { [K in OptionKey<F>]?: T | undefined };
/** What an option with a default (or a required option) contributes: always present. */
type PresentOpt<F extends string, T> = { [K in OptionKey<F>]: T };
/** The value a plain option (no parser) yields. */
type PlainValue<F extends string> = TakesValue<F> extends true ? string : true;
/** The value of a positional argument declared as `<name>`, `[name]`, `<name...>` or `[name...]`. */
type ArgValue<S extends string> = S extends `${string}...${string}` ? string[]
  : S extends `<${string}>` ? string
  : string | undefined;
/** Flattens an intersection so hovers and errors read as one object type. */
type Flat<T> = { [K in keyof T]: T[K] } & unknown;

/** A command's option values by attribute name (what `opts()` returns when nothing is known about them). */
export type OptionValues = Record<string, unknown>;

// ---- options and arguments ---------------------------------------------------------------------------------------

/** One option of a command: its flags, help text, default, value parser and visibility. */
export class Option<F extends string = string> {
  /** The flags exactly as declared, e.g. `--limit <n>` (shown in help). */
  readonly flags: F;
  /** Help text. */
  readonly description: string;
  /** The long flag, e.g. `--limit`. */
  readonly long: string | undefined;
  /** The short flag, e.g. `-h`. */
  readonly short: string | undefined;
  /** True when the option takes a value (`<value>` in its flags). */
  readonly required: boolean;
  /** True when the option must be given (`requiredOption`). */
  mandatory = false;
  /** Value before any flag is seen (`undefined`: absent). */
  defaultValue: unknown = undefined;
  /** Turns each given value into the stored one; may throw {@linkcode InvalidArgumentError}. */
  parseArg: ((value: string, previous: unknown) => unknown) | undefined = undefined;
  /** Hidden options parse normally but are left out of help. */
  hidden = false;

  /** Declares an option from its flags (`-s, --long <value>`, `--flag`) and help text. */
  constructor(flags: F, description = "") {
    this.flags = flags;
    this.description = description;
    this.required = flags.includes("<");
    let long: string | undefined;
    let short: string | undefined;
    for (const word of flags.split(/[ ,|]+/)) {
      if (word.startsWith("--")) long ??= word;
      else if (/^-[^-]/.test(word)) short ??= word;
    }
    this.long = long;
    this.short = short;
  }

  /** Leaves the option out of help (it still parses). */
  hideHelp(hide = true): this {
    this.hidden = hide;
    return this;
  }

  /** The name without dashes: `expect-sha256`. */
  name(): string {
    return (this.long ?? this.short ?? "").replace(/^--?/, "");
  }

  /** The key in `opts()`: `expectSha256`. */
  attributeName(): string {
    return this.name().replace(/-([a-z0-9])/gi, (_, c: string) => c.toUpperCase());
  }

  /** True when `arg` is this option's short or long flag. */
  is(arg: string): boolean {
    return arg === this.short || arg === this.long;
  }
}

/** One positional argument: `<required>`, `[optional]`, `<many...>`. */
export class Argument {
  /** The bare name, e.g. `query`. */
  readonly name: string;
  /** Help text. */
  readonly description: string;
  /** True for `<name>`. */
  readonly required: boolean;
  /** True for `name...`: collects every remaining operand. */
  readonly variadic: boolean;

  /** Declares an argument from its usage form and help text. */
  constructor(declaration: string, description = "") {
    this.description = description;
    this.required = declaration.startsWith("<");
    const bare = declaration.replace(/^[<[]|[>\]]$/g, "");
    this.variadic = bare.endsWith("...");
    this.name = this.variadic ? bare.slice(0, -3) : bare;
  }

  /** The form shown in usage lines: `<slug>`, `[query...]`. */
  usage(): string {
    const inner = this.name + (this.variadic ? "..." : "");
    return this.required ? `<${inner}>` : `[${inner}]`;
  }
}

/** Settings a subcommand copies from its parent when created (help layout, help command, suggestions). */
interface Inherited {
  helpWidth: number;
  helpCommand: { term: string; description: string } | undefined;
  showSuggestions: boolean;
}

// deno-lint-ignore no-explicit-any
type ActionFn = (...args: any[]) => void | Promise<void>;

/**
 * A command (or the program itself). Type parameters track the declared arguments and options so `.action()`
 * receives them typed.
 */
// deno-lint-ignore ban-types
export class Command<Args extends unknown[] = [], Opts extends object = {}> {
  /** Subcommands in declaration order. */
  readonly commands: Command<unknown[], object>[] = [];
  /** Options in declaration order (the version flag included, the help flag not). */
  readonly options: Option[] = [];
  /** Declared positional arguments. */
  readonly registeredArguments: Argument[] = [];
  /** The parent command, `null` for the program. */
  parent: Command<unknown[], object> | null = null;
  /** Operands of the last parse (declared arguments first, then any excess). */
  args: string[] = [];

  #name = "";
  #description = "";
  #action: ActionFn | undefined;
  #allowExcess = false;
  #helpBefore: string[] = [];
  #helpAfter: string[] = [];
  #values: Record<string, unknown> = {};
  #settings: Inherited = { helpWidth: 80, helpCommand: undefined, showSuggestions: false };
  #version: { text: string; option: Option } | undefined;
  declare readonly _types?: [Args, Opts];

  /** Creates a command; the program is `new Command().name("mapper")`. */
  constructor(name = "") {
    this.#name = name;
  }

  // ---- declaration ----

  /** Adds a subcommand (inheriting help settings) and returns it for further declaration. */
  command(name: string): Command {
    const sub = new Command(name);
    sub.parent = this as Command<unknown[], object>;
    sub.#settings = { ...this.#settings };
    this.commands.push(sub as Command<unknown[], object>);
    return sub;
  }

  /** Gets the name, or sets it and returns the command. */
  name(): string;
  name(name: string): this;
  name(name?: string): string | this {
    if (name === undefined) return this.#name;
    this.#name = name;
    return this;
  }

  /** Gets the description, or sets it and returns the command. */
  description(): string;
  description(text: string): this;
  description(text?: string): string | this {
    if (text === undefined) return this.#description;
    this.#description = text;
    return this;
  }

  /** Declares a positional argument: `<name>` required, `[name]` optional, `name...` variadic (last only). */
  argument<S extends string>(declaration: S, description?: string): Command<[...Args, ArgValue<S>], Opts> {
    this.registeredArguments.push(new Argument(declaration, description));
    return this as unknown as Command<[...Args, ArgValue<S>], Opts>;
  }

  /** Declares a flag (`--json`) or an option with a value (`--dir <path>`), optionally a parser and a default. */
  option<F extends string>(
    flags: F,
    description?: string,
  ): Command<Args, Flat<Opts & OptionalOpt<F, PlainValue<F>>>>;
  option<F extends string, T>(
    flags: F,
    description: string,
    parseArg: (value: string, previous: T) => T,
  ): Command<Args, Flat<Opts & OptionalOpt<F, T>>>;
  option<F extends string, T, D extends T>(
    flags: F,
    description: string,
    parseArg: (value: string, previous: T) => T,
    defaultValue: D,
  ): Command<Args, Flat<Opts & PresentOpt<F, T>>>;
  option<F extends string, D>(
    flags: F,
    description: string,
    defaultValue: D,
  ): Command<
    Args,
    Flat<Opts & (undefined extends D ? OptionalOpt<F, PlainValue<F>> : PresentOpt<F, PlainValue<F> | D>)>
  >;
  option(flags: string, description = "", parseOrDefault?: unknown, defaultValue?: unknown): unknown {
    const option = new Option(flags, description);
    if (typeof parseOrDefault === "function") {
      option.parseArg = parseOrDefault as (value: string, previous: unknown) => unknown;
      option.defaultValue = defaultValue;
    } else {
      option.defaultValue = parseOrDefault;
    }
    return this.addOption(option);
  }

  /** Declares an option that must be given (a usage error names it when missing). */
  requiredOption<F extends string>(
    flags: F,
    description?: string,
  ): Command<Args, Flat<Opts & PresentOpt<F, string>>> {
    const option = new Option(flags, description);
    option.mandatory = true;
    return this.addOption(option) as unknown as Command<Args, Flat<Opts & PresentOpt<F, string>>>;
  }

  /** Adds a prepared {@linkcode Option} (e.g. one hidden from help). */
  addOption<F extends string>(option: Option<F>): Command<Args, Flat<Opts & OptionalOpt<F, PlainValue<F>>>> {
    this.options.push(option);
    if (option.defaultValue !== undefined) this.#values[option.attributeName()] = option.defaultValue;
    return this as unknown as Command<Args, Flat<Opts & OptionalOpt<F, PlainValue<F>>>>;
  }

  /** Sets what runs when this command is chosen: the declared arguments, then `opts()`, then the command. */
  action(fn: (...args: [...Args, Opts, this]) => void | Promise<void>): this {
    this.#action = fn as ActionFn;
    return this;
  }

  /** Lets the command receive more operands than it declares (in `.args`) instead of failing. */
  allowExcessArguments(allow = true): this {
    this.#allowExcess = allow;
    return this;
  }

  /** Adds text printed before or after this command's help. */
  addHelpText(position: "before" | "after", text: string): this {
    (position === "before" ? this.#helpBefore : this.#helpAfter).push(text);
    return this;
  }

  /** Registers the version flag (e.g. `-V, --version`) printing `text` and exiting 0. */
  version(text: string, flags = "-V, --version", description = "output the version number"): this {
    const option = new Option(flags, description);
    this.#version = { text, option };
    this.options.push(option);
    return this;
  }

  /** Names the implicit `help [command]` subcommand of every group (inherited by subcommands created afterwards). */
  helpCommand(term: string, description = "display help for command"): this {
    this.#settings.helpCommand = { term, description };
    return this;
  }

  /** Help layout; only `helpWidth` is supported (inherited by subcommands created afterwards). */
  configureHelp(config: { helpWidth?: number }): this {
    if (config.helpWidth !== undefined) this.#settings.helpWidth = config.helpWidth;
    return this;
  }

  /** After an unknown command or option, suggest the closest known name (inherited like the help settings). */
  showSuggestionAfterError(show = true): this {
    this.#settings.showSuggestions = show;
    return this;
  }

  // ---- reading ----

  /** The option values of the last parse (defaults included), keyed by attribute name. */
  opts(): Opts {
    return { ...this.#values } as Opts;
  }

  /** The usage line after the command path: `[options] [command]`, `[options] <slug>`. */
  usage(): string {
    const parts = ["[options]"];
    if (this.commands.length > 0) parts.push("[command]");
    for (const argument of this.registeredArguments) parts.push(argument.usage());
    return parts.join(" ");
  }

  /** The settings of the help layout and the implicit help command, as inherited. */
  get settings(): Readonly<Inherited> {
    return this.#settings;
  }

  /** The version flag and text, when `.version()` was called. */
  get versionInfo(): { readonly text: string; readonly option: Option } | undefined {
    return this.#version;
  }

  /** Text added with {@linkcode addHelpText}. */
  get helpText(): { readonly before: readonly string[]; readonly after: readonly string[] } {
    return { before: this.#helpBefore, after: this.#helpAfter };
  }

  /** The action, when one is set (groups have none). */
  get actionHandler(): ActionFn | undefined {
    return this.#action;
  }

  /** True when excess operands are allowed. */
  get excessAllowed(): boolean {
    return this.#allowExcess;
  }

  /** Stores a parsed option value (used by the parser). */
  setOptionValue(key: string, value: unknown): void {
    this.#values[key] = value;
  }

  /** Looks an option up by its short or long flag. */
  findOption(flag: string): Option | undefined {
    return this.options.find((o) => o.is(flag));
  }

  /** Looks a subcommand up by name. */
  findCommand(name: string | undefined): Command<unknown[], object> | undefined {
    return name ? this.commands.find((c) => c.name() === name) : undefined;
  }
}
