/**
 * The README and the bundled skills must stay true: every `mapper …` line in their `sh` code blocks parses (command,
 * flags and arguments), every flag the README's command table names exists on that command, and every `deno task`
 * it shows exists.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Command } from "../src/cli/command.ts";
import { buildProgram } from "../src/cli/program.ts";
import { parse } from "../src/cli/_parse.ts";
import { testIo } from "../src/io.ts";
import config from "../deno.json" with { type: "json" };
import { ROOT } from "./_helpers.ts";
import { ASSETS } from "../src/assets.ts";

// deno-lint-ignore no-explicit-any
type AnyCommand = Command<any, any, any>;

const README = await Deno.readTextFile(join(ROOT, "README.md"));

/** The command table; parsing it (without running any action) is what the README lines are checked against. */
async function dryProgram(): Promise<AnyCommand> {
  return (await buildProgram({ io: testIo(), exitCode: 0 })) as AnyCommand;
}

/** Splits a shell line into words (single and double quotes; no expansions). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

function codeLines(text: string = README): string[] {
  const lines: string[] = [];
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of block[1]!.split("\n")) {
      const line = raw.replace(/\s+#.*$/, "").trim();
      if (line) lines.push(line);
    }
  }
  return lines;
}

async function findCommand(path: string[]): Promise<AnyCommand | undefined> {
  let cmd: AnyCommand | undefined = await dryProgram();
  for (const name of path) cmd = cmd?.commands.find((c) => c.name() === name) as AnyCommand | undefined;
  return cmd;
}

/** Parses every `mapper …` line of a document's `sh` blocks with the real command table; fails naming the line. */
async function assertLinesParse(what: string, text: string, atLeast: number): Promise<void> {
  const lines = codeLines(text).filter((l) => l.startsWith("mapper ") || l.startsWith("deno task mapper "));
  assert.ok(lines.length >= atLeast, `${what}: found only ${lines.length} mapper lines`);
  for (const line of lines) {
    const args = words(line.replace(/^deno task mapper /, "mapper ")).slice(1);
    try {
      parse(await dryProgram(), args);
    } catch (err: unknown) {
      assert.fail(`${what} line does not parse: ${line}\n  ${String(err)}`);
    }
  }
}

Deno.test("README - every 'mapper …' line in a code block parses as a real command", async () => {
  await assertLinesParse("README", README, 8);
});

Deno.test("skills - every 'mapper …' line in a bundled skill parses as a real command with those flags", async () => {
  const skills = Object.entries(ASSETS).filter(([path]) => /^skills\/[^/]+\/SKILL\.md$/.test(path));
  assert.ok(skills.length >= 2, "both skills are bundled");
  for (const [path, text] of skills) await assertLinesParse(`assets/${path}`, text, 3);
});

Deno.test("README - every flag in the command table exists on its command", async () => {
  const rows = README.split("\n").filter((l) => l.startsWith("| `mapper "));
  assert.ok(rows.length >= 10);
  for (const row of rows) {
    for (const cell of row.split(/(?<!\\)\|/)[1]!.matchAll(/`mapper ([^`]*)`/g)) {
      const text = cell[1]!;
      const path = text.split(/\s+/).filter((w) => /^[a-z][a-z-]*$/.test(w)).slice(0, 2);
      let cmd = await findCommand(path);
      if (cmd === undefined || cmd.commands.length > 0) cmd = await findCommand(path.slice(0, 1));
      assert.ok(cmd && cmd.commands.length === 0, `README names an unknown command: mapper ${text}`);
      const longs = new Set(cmd.options.map((o) => o.long));
      for (const flag of text.matchAll(/--[a-z][a-z0-9-]*/g)) {
        assert.ok(longs.has(flag[0]), `README shows ${flag[0]} for 'mapper ${path.join(" ")}', which has no such flag`);
      }
    }
  }
});

Deno.test("README - every 'deno task X' it shows exists in deno.json", () => {
  const tasks = new Set(Object.keys(config.tasks));
  const shown = [...README.matchAll(/deno(?:@[\d.]+)? task ([a-z][a-z-]*)/g)].map((m) => m[1]!);
  assert.ok(shown.includes("start") && shown.includes("test"), "the two quick-start tasks are shown");
  for (const task of shown) assert.ok(tasks.has(task), `README shows 'deno task ${task}', which deno.json lacks`);
});
