/**
 * `deno task doc-lint`: `deno doc --lint` on every area's public surface (`src/<area>/mod.ts`), failing on any
 * problem it reports except a `private-type-ref` to one of the third-party types in {@linkcode THIRD_PARTY}.
 *
 * Why the exception: deno doc counts every type from another package as private (denoland/deno#27364), and
 * re-exporting one to make it "public" makes deno doc lint that whole package instead (devtools-protocol alone adds
 * 2,000+ undocumented fields). Our own types get no exception.
 *
 * @module
 */

/** Types from npm packages that our public types name; deno doc wrongly calls them private. */
const THIRD_PARTY: ReadonlySet<string> = new Set([
  // devtools-protocol: the typed CDP command/event tables behind `CdpMethod`, `CdpEventName`, … (src/browser/cdp.ts)
  "ProtocolMapping",
  "ProtocolMapping.Commands",
  "ProtocolMapping.Events",
  // zod: the argument shapes of MCP tools (src/mcp/registry.ts)
  "ZodRawShape",
  "ZodObject",
  "output",
]);

const root = new URL("../", import.meta.url);
const entries: string[] = [];
for await (const area of Deno.readDir(new URL("src/", root))) {
  if (!area.isDirectory) continue;
  const mod = `src/${area.name}/mod.ts`;
  try {
    await Deno.stat(new URL(mod, root));
    entries.push(mod);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
}
entries.sort();

const out = await new Deno.Command(Deno.execPath(), {
  args: ["doc", "--lint", ...entries],
  cwd: root,
  env: { NO_COLOR: "1" },
  stdout: "null",
  stderr: "piped",
}).output();
const text = new TextDecoder().decode(out.stderr);

// Each diagnostic starts with a line `error[<rule>]: <message>` and runs to the next one or the final `error: Found …`.
const blocks: string[] = [];
for (const line of text.split("\n")) {
  if (/^error\[[a-z-]+\]: /.test(line)) blocks.push(line);
  else if (/^error: /.test(line)) blocks.push("");
  else if (blocks.length > 0 && blocks[blocks.length - 1] !== "") blocks[blocks.length - 1] += `\n${line}`;
}
const diagnostics = blocks.filter((b) => b !== "");
const problems = diagnostics.filter((b) => {
  const ref = /^error\[private-type-ref\]: .* references private type '([^']+)'/.exec(b);
  return !(ref?.[1] !== undefined && THIRD_PARTY.has(ref[1]));
});
const allowed = diagnostics.length - problems.length;
const enc = new TextEncoder();

if (!out.success && diagnostics.length === 0) {
  // deno doc failed without a lint finding (a module that does not resolve, …): show everything it said.
  await Deno.stderr.write(enc.encode(text));
  await Deno.stderr.write(enc.encode("doc lint: deno doc failed — see its output above\n"));
  Deno.exit(1);
}
if (problems.length > 0) {
  await Deno.stderr.write(enc.encode(problems.map((b) => b.trimEnd()).join("\n\n") + "\n\n"));
  await Deno.stderr.write(
    enc.encode(`doc lint: ${problems.length} problem(s) in ${entries.join(" ")} — add the JSDoc or export the type\n`),
  );
  Deno.exit(1);
}
await Deno.stdout.write(
  enc.encode(`doc lint: ${entries.length} modules, 0 problems (${allowed} references to third-party types allowed)\n`),
);
