import assert from "node:assert/strict";
import { z } from "zod";
import type { Command } from "../cli/command.ts";
import { coordinateArg, intArg } from "../cli/context.ts";
import { cliCommand, cliInput, type CliParams, FROM_CLI } from "./from_cli.ts";
import { TOOLS } from "./tools.ts";

const demo = (program: Command) => {
  program
    .command("demo")
    .argument("<name>", "the name to use")
    .argument("[more...]", "more names")
    .option("--limit <n>", "at most N", intArg(1, 50), 10)
    .option("--x <n>", "viewport x", coordinateArg)
    .option("--include-hidden", "also hidden ones")
    .option("--word <w>", "a word")
    .option("--json", "print as JSON")
    .option("--dir <path>", "corpus directory")
    .action(() => {});
};

const schemaOf = (shape: z.ZodRawShape) =>
  z.toJSONSchema(z.object(shape)) as {
    properties: Record<string, { type?: string; minimum?: number; maximum?: number; description?: string }>;
    required?: string[];
  };

Deno.test("from_cli - every flag and argument becomes a typed parameter with its bounds, default and help", () => {
  const s = schemaOf(cliInput({ register: demo, command: "demo" }));
  assert.deepEqual(Object.keys(s.properties), ["name", "more", "limit", "x", "include_hidden", "word"]);
  assert.deepEqual(s.required, ["name"]);
  assert.equal(s.properties.limit?.type, "integer");
  assert.equal(s.properties.limit?.minimum, 1);
  assert.equal(s.properties.limit?.maximum, 50);
  assert.equal(s.properties.limit?.description, "At most N. Default 10.");
  assert.equal(s.properties.x?.type, "number");
  assert.equal(s.properties.x?.minimum, 0);
  assert.equal(s.properties.include_hidden?.type, "boolean");
  assert.equal(s.properties.word?.type, "string");
  assert.equal(s.properties.more?.type, "array");
});

Deno.test("from_cli - omit, rename, schema, describe and extra shape the parameters", () => {
  const s = schemaOf(cliInput({
    register: demo,
    command: "demo",
    omit: { "--word": "not for tools", "<more>": "one name is enough" },
    rename: { "--x": "left" },
    schema: { limit: z.number().int() },
    describe: { name: "Who." },
    extra: { confirm: z.boolean().optional().describe("Agreed.") },
  }));
  assert.deepEqual(Object.keys(s.properties), ["name", "limit", "left", "include_hidden", "confirm"]);
  assert.equal(s.properties.name?.description, "Who.");
  assert.notEqual(s.properties.limit?.maximum, 50);
  assert.equal(s.properties.limit?.description, "At most N. Default 10.");
});

Deno.test("from_cli - a name the command does not have is an error, not a silent no-op", () => {
  const bad: Array<[Partial<CliParams>, RegExp]> = [
    [{ omit: { "--clear": "x" } }, /omit names --clear, which "demo" does not have/],
    [{ rename: { "<file>": "files" } }, /rename names <file>/],
    [{ schema: { nope: z.string() } }, /schema names parameter nope/],
    [{ describe: { nope: "x" } }, /describe names parameter nope/],
    [{ extra: { limit: z.number() } }, /extra parameter limit of "demo" is already a flag's/],
  ];
  for (const [spec, message] of bad) {
    assert.throws(() => cliInput({ register: demo, command: "demo", ...spec }), message);
  }
  assert.throws(() => cliCommand(demo, "demo nothing"), /no command "demo nothing"/);
});

Deno.test("MCP tools - every tool's parameters come from its CLI command; every flag left out says why", () => {
  for (const tool of TOOLS) {
    const spec = (tool.input as { [FROM_CLI]?: CliParams })[FROM_CLI];
    assert.ok(spec, `${tool.name}: its input is not derived from a CLI command (use cliInput)`);
    const cmd = cliCommand(spec.register, spec.command);
    const params = new Set(Object.keys(tool.input));
    const omitted: Record<string, string> = { "--json": "default", "--dir": "default", ...spec.omit };
    const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/-/g, "_");
    const flags = [
      ...cmd.registeredArguments.map((a) => [`<${a.name}>`, snake(a.name)] as const),
      ...cmd.options.filter((o) => !o.hidden && o.long).map((o) => [o.long!, snake(o.attributeName())] as const),
    ];
    for (const [flag, param] of flags) {
      const reason = omitted[flag];
      const name = spec.rename?.[flag] ?? param;
      assert.ok(
        params.has(name) || (reason !== undefined && reason.trim().length > 0),
        `${tool.name}: ${spec.command} ${flag} has no parameter and no reason`,
      );
    }
  }
});
