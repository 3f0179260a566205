/**
 * The README, the documentation (`docs/`, CONTRIBUTING.md) and the bundled skills must stay true: every `mapper …`
 * line in their `sh` code blocks parses (command, flags and arguments), every command and flag the README's command
 * table and the docs' inline code name exists, every `deno task` they show exists, and every JSON block parses.
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
type AnyCommand = Command<any, any>;

const README = await Deno.readTextFile(join(ROOT, "README.md"));

/** The documentation besides the README: every Markdown file under `docs/`, and CONTRIBUTING.md. */
async function docs(): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [["CONTRIBUTING.md", await Deno.readTextFile(join(ROOT, "CONTRIBUTING.md"))]];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(join(ROOT, dir))) {
      if (e.isDirectory) await walk(`${dir}/${e.name}`);
      else if (e.name.endsWith(".md")) out.push([`${dir}/${e.name}`, await Deno.readTextFile(join(ROOT, dir, e.name))]);
    }
  };
  await walk("docs");
  return out;
}

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

/** Parses every `mapper …` line of a document's `sh` blocks with the real command table; fails naming the line. */
async function assertLinesParse(what: string, text: string, atLeast: number): Promise<number> {
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
  return lines.length;
}

Deno.test("README - every 'mapper …' line in a code block parses as a real command", async () => {
  await assertLinesParse("README", README, 8);
});

Deno.test("skills - every 'mapper …' line in a bundled skill parses as a real command with those flags", async () => {
  const skills = Object.entries(ASSETS).filter(([path]) => /^skills\/[^/]+\/SKILL\.md$/.test(path));
  assert.ok(skills.length >= 2, "both skills are bundled");
  for (const [path, text] of skills) await assertLinesParse(`assets/${path}`, text, 3);
});

Deno.test("README - a short tour: at most 12 KB, a contents line, every command in its generated list", async () => {
  assert.ok(new TextEncoder().encode(README).length <= 12 * 1024, "README.md grew over 12 KB: move detail to docs/");
  assert.match(README, /^\*\*Contents:\*\* /m);
  const list = README.split("<!-- BEGIN GENERATED commands -->")[1]?.split("<!-- END GENERATED commands -->")[0] ?? "";
  for (const cmd of (await dryProgram()).commands as AnyCommand[]) {
    if (cmd.name() === "help") continue;
    assert.ok(list.includes("`mapper " + cmd.name() + "`"), `README's command list lacks mapper ${cmd.name()}`);
  }
});

Deno.test("README - every 'deno task X' it shows exists in deno.json", () => {
  const tasks = new Set(Object.keys(config.tasks));
  const shown = [...README.matchAll(/deno(?:@[\d.]+)? task ([a-z][a-z-]*)/g)].map((m) => m[1]!);
  assert.ok(shown.includes("start") && shown.includes("test"), "the two quick-start tasks are shown");
  for (const task of shown) assert.ok(tasks.has(task), `README shows 'deno task ${task}', which deno.json lacks`);
});

Deno.test("docs - every 'mapper …' line in a sh block of docs/ and CONTRIBUTING.md parses as a real command", async () => {
  let lines = 0;
  for (const [path, text] of await docs()) lines += await assertLinesParse(path, text, 0);
  assert.ok(lines >= 8, `found only ${lines} mapper lines in the docs`);
});

/**
 * Checks one inline `mapper …` code span: the words that name commands must be a real command path (`a|b` names
 * two), and every `--flag` must be an option of that command. A span whose first word is no command-like word
 * (`mapper <command> --help`, `mapper 0.1.0`) is not a command line. Returns the problem, or `undefined`.
 */
async function inlineProblem(span: string): Promise<string | undefined> {
  const words = span.split(/\s+/);
  if (!/^[a-z][a-z-]*(\|[a-z][a-z-]*)*$/.test(words[0] ?? "")) return undefined;
  const program = await dryProgram();
  // Each alternative path (`browser start|stop`) is resolved on its own.
  let paths: AnyCommand[] = [program];
  for (const word of words) {
    if (!/^[a-z][a-z-]*(\|[a-z][a-z-]*)*$/.test(word) || paths.every((c) => c.commands.length === 0)) break;
    const next = word.split("|").map((name) => paths[0]!.commands.find((c) => c.name() === name) as AnyCommand);
    // Below a group (`mapper atlas`) a word must name one of its commands (after a command, the loop has ended).
    if (next.some((c) => c === undefined)) return `unknown command in \`mapper ${span}\``;
    paths = next;
  }
  for (const cmd of paths) {
    if (cmd === program) return `no command in \`mapper ${span}\``;
    const longs = new Set(cmd.options.map((o) => o.long));
    for (const flag of span.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)) {
      if (flag[0] !== "--help" && !longs.has(flag[0])) return `\`mapper ${span}\` shows ${flag[0]}, which it has not`;
    }
  }
  return undefined;
}

Deno.test("docs - every command and flag in an inline 'mapper …' code span exists", async () => {
  const problems: string[] = [];
  let checked = 0;
  for (const [path, text] of await docs()) {
    const prose = text.replace(/^```[\s\S]*?^```/gm, "");
    for (const m of prose.matchAll(/`mapper ([^`]+)`/g)) {
      checked++;
      const problem = await inlineProblem(m[1]!.replace(/\\\|/g, "|"));
      if (problem) problems.push(`${path}: ${problem}`);
    }
  }
  assert.ok(checked >= 50, `found only ${checked} inline commands`);
  assert.deepEqual(problems, []);
});

Deno.test("docs - every 'deno task X' the docs show exists, and every JSON block parses", async () => {
  const tasks = new Set(Object.keys(config.tasks));
  let blocks = 0;
  for (const [path, text] of [["README.md", README] as [string, string], ...await docs()]) {
    for (const m of text.matchAll(/deno task ([a-z][a-z-]*)/g)) {
      assert.ok(tasks.has(m[1]!), `${path} shows 'deno task ${m[1]}', which deno.json lacks`);
    }
    for (const block of text.matchAll(/^```json\n([\s\S]*?)^```/gm)) {
      blocks++;
      try {
        JSON.parse(block[1]!);
      } catch (err: unknown) {
        assert.fail(`${path}: a JSON block does not parse (${String(err)}):\n${block[1]}`);
      }
    }
  }
  assert.ok(blocks >= 5, `found only ${blocks} JSON blocks`);
});
