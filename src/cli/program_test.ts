import assert from "node:assert/strict";
import { buildProgram, GROUPS } from "./program.ts";
import { Command } from "./command.ts";
import { formatHelp } from "./_help.ts";
import { testIo } from "../io.ts";

// deno-lint-ignore no-explicit-any
type AnyCommand = Command<any, any>;

const ctx = () => ({ io: testIo(), exitCode: 0 });

/** Every command below `cmd`, with its path (`atlas find`). */
function walk(cmd: AnyCommand, path: string[] = []): Array<[string, AnyCommand]> {
  return cmd.commands.flatMap((c: AnyCommand) => [[[...path, c.name()].join(" "), c], ...walk(c, [...path, c.name()])]);
}

Deno.test("command table - GROUPS names exactly the top-level commands each registration adds, in help order", async () => {
  for (const group of GROUPS) {
    const alone = new Command();
    (await group.load())(alone, ctx());
    assert.deepEqual(alone.commands.map((c: AnyCommand) => c.name()), group.names);
  }
  const whole = (await buildProgram(ctx())) as AnyCommand;
  assert.deepEqual(whole.commands.map((c: AnyCommand) => c.name()), GROUPS.flatMap((g) => g.names));
});

Deno.test("command table - a line naming a command builds only its group, and every command in it reads the same", async () => {
  const whole = walk((await buildProgram(ctx())) as AnyCommand);
  assert.ok(whole.length > 40, `${whole.length} commands`);
  for (const group of GROUPS) {
    for (const name of group.names) {
      const focused = (await buildProgram(ctx(), name)) as AnyCommand;
      assert.deepEqual(focused.commands.map((c: AnyCommand) => c.name()), group.names, name);
      // Same commands below, with the same help (usage, options, defaults, parents' names).
      const mine = walk(focused);
      const theirs = whole.filter(([path]) => group.names.includes(path.split(" ")[0]!));
      assert.deepEqual(mine.map(([path]) => path), theirs.map(([path]) => path), name);
      for (const [i, [path, cmd]] of mine.entries()) assert.equal(formatHelp(cmd), formatHelp(theirs[i]![1]), path);
    }
  }
});

Deno.test("command table - any other first word builds the whole table", async () => {
  const size = async (first?: string) => ((await buildProgram(ctx(), first)) as AnyCommand).commands.length;
  const all = GROUPS.flatMap((g) => g.names).length;
  for (const first of [undefined, "help", "--help", "-V", "consol", "", "list"]) {
    assert.equal(await size(first), all, first);
  }
});
