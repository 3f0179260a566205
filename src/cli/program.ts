/**
 * The command table: every command and subcommand, with its flags and help text. Each group lives in its own file,
 * loaded only when a command line needs it; actions are thin and load their implementation when they run. Both go
 * through `lazy` (`src/lazy.ts`), never a string-literal `import()`, which Deno would resolve at start-up.
 *
 * @module
 */
import { Command } from "./command.ts";
import type { CliContext } from "./context.ts";
import { lazy } from "../lazy.ts";
import { versionLine } from "../version.ts";

/** A group's registration: adds its top-level commands, and everything under them, to the program. */
export type Register = (program: Command, ctx: CliContext) => void;

/** One group of the table: its top-level commands and, loaded when needed, its registration. */
export interface Group {
  /** The top-level commands the registration adds, in its order. */
  readonly names: readonly string[];
  /** Loads the group's file (through `lazy`: only the group a command line names is loaded) and its registration. */
  readonly load: () => Promise<Register>;
}

/**
 * Every group, in the order `mapper --help` lists its commands (`program_test.ts` holds the names to what each
 * registration really adds).
 */
export const GROUPS: readonly Group[] = [
  {
    names: ["serve-mapper"],
    load: async () =>
      (await lazy<typeof import("./serve_mapper.ts")>(new URL("./serve_mapper.ts", import.meta.url)))
        .registerServeMapper,
  },
  {
    names: ["validate", "lint", "fmt"],
    load: async () =>
      (await lazy<typeof import("./authoring.ts")>(new URL("./authoring.ts", import.meta.url))).registerAuthoring,
  },
  {
    names: ["stats", "match", "explain", "init"],
    load: async () =>
      (await lazy<typeof import("./corpus_cmds.ts")>(new URL("./corpus_cmds.ts", import.meta.url)))
        .registerCorpusCommands,
  },
  {
    names: ["sel-check", "search", "export"],
    load: async () =>
      (await lazy<typeof import("./offline.ts")>(new URL("./offline.ts", import.meta.url))).registerOffline,
  },
  {
    names: ["atlas"],
    load: async () => (await lazy<typeof import("./atlas.ts")>(new URL("./atlas.ts", import.meta.url))).registerAtlas,
  },
  {
    names: ["browser"],
    load: async () =>
      (await lazy<typeof import("./browser.ts")>(new URL("./browser.ts", import.meta.url))).registerBrowser,
  },
  {
    names: ["console", "network"],
    load: async () =>
      (await lazy<typeof import("./devtools.ts")>(new URL("./devtools.ts", import.meta.url))).registerDevtools,
  },
  {
    names: ["snapshot"],
    load: async () => (await lazy<typeof import("./see.ts")>(new URL("./see.ts", import.meta.url))).registerSee,
  },
  {
    names: ["probe", "gap", "suggest", "draft", "inspect"],
    load: async () => (await lazy<typeof import("./kit.ts")>(new URL("./kit.ts", import.meta.url))).registerKit,
  },
  {
    names: ["capture", "capture-novelty", "capture-prune", "coverage", "report", "multi-coverage", "discover"],
    load: async () =>
      (await lazy<typeof import("./captures.ts")>(new URL("./captures.ts", import.meta.url))).registerCaptures,
  },
  {
    names: ["mcp"],
    load: async () => (await lazy<typeof import("./mcp.ts")>(new URL("./mcp.ts", import.meta.url))).registerMcp,
  },
  {
    names: ["skills"],
    load: async () =>
      (await lazy<typeof import("./skills.ts")>(new URL("./skills.ts", import.meta.url))).registerSkills,
  },
  {
    names: ["version"],
    load: async () =>
      (await lazy<typeof import("./version.ts")>(new URL("./version.ts", import.meta.url))).registerVersion,
  },
];

/**
 * Builds the `mapper` command tree. Output and exit behaviour are configured by the caller (`runCli`).
 *
 * `first` is the first word of the command line. When it names a top-level command, only that command's group is
 * loaded and built: the program reads its own options only up to a command's name and hands every later word to
 * that command, so parsing, help and errors of such a line never look at another group, and loading and building
 * them all cost every short command ~5 ms. Any other line (`--help`, `help …`, a typo) gets the whole table.
 */
export async function buildProgram(ctx: CliContext, first?: string): Promise<Command> {
  const program = new Command()
    .name("mapper")
    .description(
      "A map of a live website for AI agents, and eyes inside a browser: corpus tooling (.mapper/ YAML), the atlas " +
        "of community corpora, the catalog HTTP API, and a managed browser session whose console and network " +
        "traffic agents can read.",
    )
    .configureHelp({ helpWidth: 100 })
    .version(versionLine().trimEnd(), "-V, --version", "print mapper's version (same as 'mapper version')")
    .helpCommand("help [command]", "show help for a command")
    .showSuggestionAfterError(true);
  const named = GROUPS.find((group) => first !== undefined && group.names.includes(first));
  for (const register of await Promise.all((named ? [named] : GROUPS).map((g) => g.load()))) register(program, ctx);
  program.addHelpText(
    "after",
    "\nExit codes: 0 ok · 1 the action failed · 2 usage error · 130 interrupted\n" +
      "Run 'mapper <command> --help' for a command's flags.",
  );
  return program;
}
