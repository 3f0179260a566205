import assert from "node:assert/strict";
import { Command, InvalidArgumentError, Option } from "./command.ts";
import { parse, ParseError } from "./_parse.ts";
import { formatHelp } from "./_help.ts";

/** A small program shaped like mapper's: a group with a leaf, a leaf with a variadic argument, the help command. */
function program() {
  const root = new Command().name("tool").description("a test tool").configureHelp({ helpWidth: 60 })
    .version("tool 1.2.3", "-V, --version", "print the version").helpCommand("help [command]", "show help")
    .showSuggestionAfterError(true);
  const seen: unknown[][] = [];
  root.command("find").description("search for things in the catalog of things, wrapping long descriptions")
    .argument("[query...]", "words to look for")
    .option("--json", "print JSON")
    .option("--limit <n>", "at most N", (v: string) => {
      if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`expected a whole number, got "${v}"`);
      return Number(v);
    }, 10)
    .option("--dir <path>", "directory", ".data")
    .option("--tag <t>", "repeatable", (v: string, prev: string[] | undefined) => [...(prev ?? []), v])
    .addOption(new Option("--secret <s>", "hidden").hideHelp())
    .action((query, opts) => {
      seen.push([query, opts]);
    });
  const group = root.command("group").description("a group");
  group.command("add").description("add one").argument("<slug>", "the slug").requiredOption("--out <dir>", "where")
    .action((slug, opts) => {
      seen.push([slug, opts]);
    });
  return { root, seen };
}

function run(argv: string[]) {
  const { root } = program();
  const outcome = parse(root, argv);
  return outcome.kind === "run" ? { ...outcome, opts: outcome.command.opts() } : outcome;
}

function error(argv: string[]): string {
  try {
    parse(program().root, argv);
  } catch (err: unknown) {
    if (err instanceof ParseError) return `${err.path}: ${err.message} — ${err.hint}`;
    throw err;
  }
  throw new Error(`parsed: ${argv.join(" ")}`);
}

Deno.test("command parse - options before or after operands, --name=value, defaults kept, parser gets the previous value", () => {
  const r = run(["find", "--tag", "a", "x", "--json", "--tag=b", "y", "--limit=3"]);
  assert.equal(r.kind, "run");
  if (r.kind !== "run") return;
  assert.deepEqual(r.args, [["x", "y"]]);
  assert.deepEqual(r.opts, { limit: 3, dir: ".data", tag: ["a", "b"], json: true });
});

Deno.test("command parse - a value option takes the next word even when it starts with '-'; '--' ends options", () => {
  const r = run(["find", "--dir", "-weird", "--", "--json"]);
  assert.ok(r.kind === "run");
  assert.deepEqual(r.opts, { limit: 10, dir: "-weird" });
  assert.deepEqual(r.args, [["--json"]]);
});

Deno.test("command parse - a negative number is an operand of a leaf, a hidden option still parses", () => {
  const r = run(["find", "-1", "--secret", "s"]);
  assert.ok(r.kind === "run");
  assert.deepEqual(r.args, [["-1"]]);
  assert.equal((r.opts as Record<string, unknown>).secret, "s");
});

Deno.test("command parse - help flag anywhere wins over other errors; before a subcommand it is the group's help", () => {
  const leaf = run(["find", "--nope", "-h"]);
  assert.ok(leaf.kind === "help" && leaf.command.name() === "find" && !leaf.error);
  const group = run(["group", "--help", "add"]);
  assert.ok(group.kind === "help" && group.command.name() === "group");
  const topic = run(["help", "group"]);
  assert.ok(topic.kind === "help" && topic.command.name() === "group" && !topic.error);
  const bare = run(["group"]);
  assert.ok(bare.kind === "help" && bare.command.name() === "group" && bare.error);
});

Deno.test("command parse - the version flag prints the version, also inside a cluster of short flags", () => {
  assert.deepEqual(run(["--version"]), { kind: "version", text: "tool 1.2.3" });
  assert.deepEqual(run(["-Vh"]), { kind: "version", text: "tool 1.2.3" });
});

Deno.test("command parse - every usage error is one line: what went wrong, then the fix and the help to read", () => {
  assert.equal(
    error(["find", "--jsn"]),
    "find: unknown option '--jsn' (Did you mean --json?) — see 'tool find --help'",
  );
  assert.equal(error(["fnd"]), ": unknown command 'fnd' (Did you mean find?) — see 'tool --help'");
  assert.equal(error(["help", "nope"]), "help: unknown command 'nope' — see 'tool --help'");
  assert.equal(error(["group", "help", "nope"]), "group help: unknown command 'nope' — see 'tool group --help'");
  assert.equal(
    error(["group", "add", "--out", "o", "a", "b"]),
    `group add: unexpected argument "b" — 'tool group add' takes one argument (<slug>); see 'tool group add --help'`,
  );
  assert.equal(
    error(["group", "add", "--out", "o"]),
    "group add: missing required argument 'slug' — usage: tool group add [options] <slug>; see 'tool group add --help'",
  );
  assert.equal(
    error(["group", "add", "x"]),
    "group add: required option '--out <dir>' not specified — add --out <dir>; see 'tool group add --help'",
  );
  assert.equal(
    error(["find", "--limit"]),
    "find: option '--limit <n>' argument missing — give --limit a value; see 'tool find --help'",
  );
  assert.equal(
    error(["find", "--limit", "x"]),
    `find: option '--limit <n>' argument 'x' is invalid. expected a whole number, got "x" — see 'tool find --help'`,
  );
});

Deno.test("command help - commander's layout: usage, wrapped description, aligned columns, defaults, hidden left out", () => {
  const { root } = program();
  assert.equal(
    formatHelp(root.commands[0]!),
    [
      "Usage: tool find [options] [query...]",
      "",
      "search for things in the catalog of things, wrapping long",
      "descriptions",
      "",
      "Arguments:",
      "  query         words to look for",
      "",
      "Options:",
      "  --json        print JSON",
      "  --limit <n>   at most N (default: 10)",
      '  --dir <path>  directory (default: ".data")',
      "  --tag <t>     repeatable",
      "  -h, --help    display help for command",
      "",
    ].join("\n"),
  );
  const small = new Command().name("tool").description("a test tool").configureHelp({ helpWidth: 60 })
    .version("tool 1.2.3", "-V, --version", "print the version").helpCommand("help [command]", "show help");
  small.command("find").description("search for things in the catalog of things, wrapping long descriptions")
    .argument("[query...]", "words");
  small.command("group").description("a group");
  assert.equal(
    formatHelp(small.addHelpText("after", "\nMore text.")),
    [
      "Usage: tool [options] [command]",
      "",
      "a test tool",
      "",
      "Options:",
      "  -V, --version    print the version",
      "  -h, --help       display help for command",
      "",
      "Commands:",
      "  find [query...]  search for things in the catalog of",
      "                   things, wrapping long descriptions",
      "  group            a group",
      "  help [command]   show help",
      "",
      "More text.",
      "",
    ].join("\n"),
  );
});

Deno.test("command types - options and arguments are typed from their flag strings", () => {
  const cmd = new Command().command("x").argument("<a>").argument("[b]").argument("[c...]")
    .option("--flag").option("--value <v>").option("--n <n>", "", Number, 1).option("--d <d>", "", "dflt")
    .requiredOption("--must <m>");
  cmd.action((a, b, c, opts) => {
    const checks: [string, string | undefined, string[], true | undefined, string | undefined, number, string, string] =
      [a, b, c, opts.flag, opts.value, opts.n, opts.d, opts.must];
    assert.ok(checks);
  });
  assert.equal(cmd.options.map((o) => o.attributeName()).join(","), "flag,value,n,d,must");
});
