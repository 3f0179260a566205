/**
 * The command table: every command and subcommand, with its flags and help text. Each group lives in its own file;
 * actions are thin and load their implementation lazily with a string-literal `import()`.
 *
 * @module
 */
import { Command } from "./command.ts";
import type { CliContext } from "./context.ts";
import { registerAtlas } from "./atlas.ts";
import { registerAuthoring } from "./authoring.ts";
import { registerBrowser } from "./browser.ts";
import { registerCorpusCommands } from "./corpus_cmds.ts";
import { registerDevtools } from "./devtools.ts";
import { registerMcp } from "./mcp.ts";
import { registerSee } from "./see.ts";
import { registerServeMapper } from "./serve_mapper.ts";
import { registerSkills } from "./skills.ts";
import { registerVersion } from "./version.ts";
import { versionLine } from "../version.ts";

/** Builds the `mapper` command tree. Output and exit behaviour are configured by the caller (`runCli`). */
export function buildProgram(ctx: CliContext): Command {
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
  registerServeMapper(program, ctx);
  registerAuthoring(program, ctx);
  registerCorpusCommands(program, ctx);
  registerAtlas(program, ctx);
  registerBrowser(program, ctx);
  registerDevtools(program, ctx);
  registerSee(program, ctx);
  registerMcp(program, ctx);
  registerSkills(program, ctx);
  registerVersion(program, ctx);
  program.addHelpText(
    "after",
    "\nExit codes: 0 ok · 1 the action failed · 2 usage error · 130 interrupted\n" +
      "Run 'mapper <command> --help' for a command's flags.",
  );
  return program;
}
