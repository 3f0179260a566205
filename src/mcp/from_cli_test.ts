import assert from "node:assert/strict";
import { z } from "zod";
import type { Command } from "../cli/command.ts";
import { type CliContext, collect, coordinateArg, intArg } from "../cli/context.ts";
import { testIo } from "../io.ts";
import type { ToolContext } from "./registry.ts";
import {
  ALLOW_SCHEME_REASON,
  CLI_TOOL,
  cliCall,
  cliCommand,
  cliInput,
  type CliParams,
  FROM_CLI,
  runAsCli,
} from "./from_cli.ts";
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

Deno.test("from_cli - a call runs the command's own action with the flags a user would type", async () => {
  let seen: unknown[] = [];
  const register = (program: Command, ctx: CliContext) => {
    program
      .command("demo")
      .argument("<name>", "the name")
      .argument("[more...]", "more names")
      .option("--limit <n>", "at most N", intArg(1, 50), 10)
      .option("--level <levels>", "comma list")
      .option("--scheme <s>", "repeatable", collect)
      .option("--include-hidden", "also hidden ones")
      .option("--json", "print as JSON")
      .option("--dir <path>", "corpus directory")
      .action((name, more, o) => {
        seen = [name, more, o];
        ctx.io.stdout.write(`ran ${name}\n`);
        ctx.exitCode = name === "bad" ? 1 : 0;
      });
  };
  const spec: CliParams = { register, command: "demo", omit: { "--scheme": ALLOW_SCHEME_REASON } };
  const ctx: ToolContext = {
    io: testIo(),
    dir: "corpus",
    allowSchemes: ["file"],
    async capture(fn) {
      const io = testIo();
      const code = await fn(io);
      if (code !== 0) throw new Error(`exit ${code}: ${io.stdout.text()}`);
      return io.stdout.text();
    },
    confirm: () => Promise.resolve(undefined),
  };
  assert.equal(await runAsCli(spec, { name: 7, level: ["error", "warn"], include_hidden: false }, ctx), "ran 7\n");
  assert.deepEqual(seen, ["7", [], { limit: 10, level: "error,warn", scheme: ["file"], dir: "corpus" }]);
  await runAsCli(spec, { name: "a", more: ["b", "c"], limit: 3, include_hidden: true }, ctx, { "--dir": undefined });
  assert.deepEqual(seen, ["a", ["b", "c"], { limit: 3, scheme: ["file"], includeHidden: true }]);
  await runAsCli(spec, { name: "a", more: "shop checkout" }, ctx);
  assert.deepEqual(seen[1], ["shop checkout"], "a phrase for a variadic argument is one operand");
  await assert.rejects(runAsCli(spec, { name: "bad" }, ctx), /exit 1: ran bad/);
});

Deno.test("MCP tools - every parameter of a tool that mirrors a command reaches that command's flag", () => {
  const server = { dir: "corpus", allowSchemes: ["file"] };
  for (const tool of TOOLS) {
    const decl = (tool as { [CLI_TOOL]?: CliToolDecl })[CLI_TOOL];
    if (decl === undefined) continue;
    const cmd = cliCommand(decl.cli.register, decl.cli.command);
    const given = (a: Record<string, unknown>) => decl.given?.(a) ?? {};
    const base = cliCall(decl.cli, {}, server, given({}));
    const extra = new Set(Object.keys(decl.cli.extra ?? {}));
    const json = z.toJSONSchema(z.object(tool.input)) as { properties: Record<string, JsonParam> };
    for (const [param, schema] of Object.entries(json.properties)) {
      if (extra.has(param)) continue;
      const slot = slotOf(cmd, decl.cli, param);
      assert.ok(slot, `${tool.name}: parameter ${param} is no flag or argument of "${decl.cli.command}"`);
      if (slot.key in given({})) continue; // the tool routes that flag itself
      const args = { [param]: sample(schema) };
      const call = cliCall(decl.cli, args, server, given(args));
      const changed = [
        ...call.args.flatMap((v, i) => JSON.stringify(v) === JSON.stringify(base.args[i]) ? [] : [`<${i}>`]),
        ...Object.keys({ ...call.opts, ...base.opts }).filter((k) =>
          JSON.stringify(call.opts[k]) !== JSON.stringify(base.opts[k])
        ),
      ];
      assert.deepEqual(changed, [slot.at], `${tool.name}: ${param} should set ${slot.key} of ${decl.cli.command}`);
    }
  }
});

type JsonParam = { type?: string; enum?: unknown[]; minimum?: number; items?: JsonParam };
type CliToolDecl = { cli: CliParams; given?: (a: Record<string, unknown>) => Record<string, unknown> };

/** A value for a parameter that differs from every default (a default is never the minimum plus 7). */
function sample(schema: JsonParam): unknown {
  if (schema.enum) return schema.enum.at(-1);
  if (schema.type === "boolean") return true;
  if (schema.type === "integer" || schema.type === "number") return (schema.minimum ?? 0) + 7;
  if (schema.type === "array") return [sample(schema.items ?? { type: "string" })];
  return "sample";
}

/** The flag or argument a parameter stands for, and where the action receives it (`<index>` or the option key). */
function slotOf(cmd: Command<unknown[], object>, spec: CliParams, param: string) {
  const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/-/g, "_");
  const slots = [
    ...cmd.registeredArguments.map((a, i) => ({ key: `<${a.name}>`, name: snake(a.name), at: `<${i}>` })),
    ...cmd.options.filter((o) => !o.hidden && o.long).map((o) => ({
      key: o.long!,
      name: snake(o.attributeName()),
      at: o.attributeName(),
    })),
  ];
  return slots.find((s) => (spec.rename?.[s.key] ?? s.name) === param && !(s.key in (spec.omit ?? {})));
}
