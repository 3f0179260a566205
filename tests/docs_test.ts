/**
 * The documentation under `docs/` must stay true to the code: the generated pages are current (`deno task docs`),
 * the corpus format lists exactly the keys the decoder accepts at each place and every diagnostic code, its complete
 * examples validate, every relative link and anchor resolves, ARCHITECTURE.md's command table names every command,
 * and no page cites notes that are not in the repository. (Commands and flags shown in the docs are checked with the
 * README's in `readme_test.ts`.)
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { KEY_ORDER, load, type Place } from "../src/corpus/mod.ts";
import { lintCorpus } from "../src/authoring/lint_rules.ts";
import type { Command } from "../src/cli/command.ts";
import { buildProgram } from "../src/cli/program.ts";
import { testIo } from "../src/io.ts";
import { replaceRegion, slug, stale } from "../tools/docs.ts";
import { ROOT, tempDir } from "./_helpers.ts";

// deno-lint-ignore no-explicit-any
type AnyCommand = Command<any, any>;

const FORMAT = await Deno.readTextFile(join(ROOT, "docs/corpus-format.md"));

/** Every Markdown file of the documentation: `docs/**` and the top-level guides. */
async function markdownFiles(): Promise<string[]> {
  const out = ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md"];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(join(ROOT, dir))) {
      if (e.isDirectory) await walk(`${dir}/${e.name}`);
      else if (e.name.endsWith(".md")) out.push(`${dir}/${e.name}`);
    }
  };
  await walk("docs");
  return out.sort();
}

/** The text outside fenced code blocks (line count kept). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ""));
}

Deno.test("docs - the generated pages are up to date ('deno task docs' writes them)", async () => {
  assert.deepEqual(await stale(), [], "run 'deno task docs' and commit the result");
});

Deno.test("docs - replaceRegion rewrites only the text between its markers, and nothing without them", () => {
  const text = "a\n<!-- BEGIN GENERATED x -->\nold\n<!-- END GENERATED x -->\nb\n";
  assert.equal(
    replaceRegion(text, "x", "new"),
    "a\n<!-- BEGIN GENERATED x -->\n\nnew\n\n<!-- END GENERATED x -->\nb\n",
  );
  assert.equal(replaceRegion(text, "y", "new"), text);
  assert.equal(replaceRegion("no markers\n", "x", "new"), "no markers\n");
});

Deno.test("docs - slug makes GitHub's heading anchors", () => {
  assert.equal(slug("`$ref`: reusing a component"), "ref-reusing-a-component");
  assert.equal(slug("`mapper browser wait-for`"), "mapper-browser-wait-for");
  assert.equal(slug("`config.yaml`"), "configyaml");
});

// ---- the corpus format reference against the decoder ---------------------------------------------------------

/**
 * Where each place of a corpus file sits, as YAML around a probe: `list` places get one list item per candidate key
 * (so a `$ref` is alone in its entry), `map` places one mapping holding every candidate. `indent` is the probe keys'.
 */
const PLACES: Record<string, { kind: "list" | "map"; prefix: string; indent: string }> = {
  file: { kind: "map", prefix: "", indent: "" },
  view: { kind: "list", prefix: "version: 1\nviews:\n", indent: "  " },
  access: { kind: "map", prefix: "version: 1\nviews:\n  - name: V\n    route: /\n    access:\n", indent: "      " },
  component: { kind: "list", prefix: "version: 1\ncomponents:\n", indent: "  " },
  componentProperty: {
    kind: "list",
    prefix: "version: 1\ncomponents:\n  - name: C\n    selector: .c\n    properties:\n",
    indent: "      ",
  },
  request: { kind: "list", prefix: "version: 1\nrequests:\n", indent: "  " },
  payload: {
    kind: "map",
    prefix: "version: 1\nrequests:\n  - name: R\n    route: /r\n    request:\n",
    indent: "      ",
  },
  payloadField: {
    kind: "list",
    prefix: "version: 1\nrequests:\n  - name: R\n    route: /r\n    request:\n      fields:\n",
    indent: "        ",
  },
  message: { kind: "list", prefix: "version: 1\nmessages:\n", indent: "  " },
  fieldProperty: { kind: "list", prefix: "version: 1\nmessages:\n  - name: M\n    properties:\n", indent: "      " },
};

/** Words YAML reads as something other than a string key. */
const NOT_STRINGS = new Set(["null", "true", "false", "yes", "no", "on", "off", "y", "n"]);

/**
 * Keys to try at every place: every identifier-like string literal in the corpus loader's sources (wherever its key
 * lists live, today `_decode.ts`), plus every key the reference documents. Reading the loader's literals instead of
 * importing a key list keeps this test independent of how the lists are declared.
 */
async function candidateKeys(documented: Iterable<string>): Promise<Set<string>> {
  const keys = new Set(documented);
  for await (const e of Deno.readDir(join(ROOT, "src/corpus"))) {
    if (!e.name.endsWith(".ts") || e.name.endsWith("_test.ts")) continue;
    const text = await Deno.readTextFile(join(ROOT, "src/corpus", e.name));
    for (const m of text.matchAll(/"(\$?[a-z][A-Za-z0-9_]*)"/g)) if (!NOT_STRINGS.has(m[1]!)) keys.add(m[1]!);
  }
  return keys;
}

/** The keys the decoder accepts at each place: those that draw no `unknown-field` (or misplaced-key) warning. */
async function acceptedKeys(candidates: ReadonlySet<string>): Promise<Record<string, Set<string>>> {
  await using dir = await tempDir();
  const keyAt = new Map<string, Map<number, string>>();
  for (const [place, where] of Object.entries(PLACES)) {
    const lines = where.prefix.split("\n").slice(0, -1);
    const byLine = new Map<number, string>();
    for (const key of candidates) {
      lines.push(`${where.indent}${where.kind === "list" ? "- " : ""}${key}:`);
      byLine.set(lines.length, key);
    }
    keyAt.set(`${place}.yaml`, byLine);
    await Deno.writeTextFile(dir.join(`${place}.yaml`), lines.join("\n") + "\n");
  }
  const { diagnostics } = await load(dir.path, { tolerant: true });
  const accepted: Record<string, Set<string>> = {};
  for (const place of Object.keys(PLACES)) accepted[place] = new Set(candidates);
  for (const d of diagnostics) {
    if (d.code !== "unknown-field" && d.code !== "view-field-at-file-root") continue;
    const file = relative(dir.path, d.location.file);
    const key = keyAt.get(file)?.get(d.location.line);
    assert.ok(key !== undefined, `a ${d.code} at ${file}:${d.location.line} is on no probe line: ${d.message}`);
    accepted[file.replace(/\.yaml$/, "")]!.delete(key);
  }
  return accepted;
}

/** The keys docs/corpus-format.md lists per place: the first column of the table after `<!-- keys: PLACE -->`. */
function documentedKeys(): Record<string, Set<string>> {
  const out: Record<string, Set<string>> = {};
  for (const m of FORMAT.matchAll(/<!-- keys: (\w+) -->\n\n((?:\|.*\n)+)/g)) {
    const rows = m[2]!.trim().split("\n").slice(2);
    out[m[1]!] = new Set(rows.map((row) => /^\|\s*`([^`]+)`/.exec(row)?.[1] ?? `unreadable row: ${row}`));
  }
  return out;
}

Deno.test("docs - the corpus format lists exactly the keys the decoder accepts, at each place", async () => {
  const documented = documentedKeys();
  assert.deepEqual(Object.keys(documented).sort(), Object.keys(PLACES).sort(), "one key table per place");
  const accepted = await acceptedKeys(await candidateKeys(Object.values(documented).flatMap((s) => [...s])));
  for (const place of Object.keys(PLACES)) {
    const missing = [...accepted[place]!].filter((k) => !documented[place]!.has(k));
    const extra = [...documented[place]!].filter((k) => !accepted[place]!.has(k));
    assert.deepEqual(missing, [], `docs/corpus-format.md, place "${place}": accepted by the decoder, not documented`);
    assert.deepEqual(extra, [], `docs/corpus-format.md, place "${place}": documented, but an unknown field`);
  }
});

Deno.test("docs - the corpus format's key tables are in the corpus schema's (fmt's) order", () => {
  for (const m of FORMAT.matchAll(/<!-- keys: (\w+) -->\n\n((?:\|.*\n)+)/g)) {
    const rows = m[2]!.trim().split("\n").slice(2).map((row) => /^\|\s*`([^`]+)`/.exec(row)?.[1]);
    assert.deepEqual(rows, KEY_ORDER[m[1] as Place], `docs/corpus-format.md, the table of "${m[1]}"`);
  }
});

Deno.test("docs - the corpus format names every diagnostic code that has a fixture", async () => {
  const codes: string[] = [];
  for await (const e of Deno.readDir(join(ROOT, "tests/fixtures/authoring"))) if (e.isDirectory) codes.push(e.name);
  assert.ok(codes.length > 40, "the fixtures are found");
  const missing = codes.filter((code) => !FORMAT.includes(`\`${code}\``)).sort();
  assert.deepEqual(missing, [], "diagnostic codes missing from docs/corpus-format.md#diagnostics");
});

Deno.test("docs - every complete YAML example (starting with version: 1) loads without an error or lint finding", async () => {
  let checked = 0;
  for (const path of await markdownFiles()) {
    const text = await Deno.readTextFile(join(ROOT, path));
    for (const block of text.matchAll(/^```yaml\n(version: 1\n[\s\S]*?)^```/gm)) {
      await using dir = await tempDir();
      await Deno.writeTextFile(dir.join("example.yaml"), block[1]!);
      const { corpus, diagnostics } = await load(dir.path, { validate: true, sources: false });
      // Warnings a short example cannot avoid (a snippet without views) are fine; errors and style findings are not.
      const problems = [...diagnostics.filter((d) => d.severity === "error"), ...lintCorpus(corpus)]
        .map((d) => `${d.code}: ${d.message}`);
      assert.deepEqual(problems, [], `${path}: the example at "${block[1]!.split("\n")[1]}" has problems`);
      checked++;
    }
  }
  assert.ok(checked >= 4, `found only ${checked} examples`);
});

// ---- links, citations, the architecture's command table ------------------------------------------------------

/** The anchors GitHub gives a Markdown file's headings (a repeated heading gets `-1`, `-2`, …). */
function anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1]!.replace(/`/g, ""));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

Deno.test("docs - every relative link and #anchor in the documentation resolves", async () => {
  const problems: string[] = [];
  let checked = 0;
  for (const path of await markdownFiles()) {
    const text = await Deno.readTextFile(join(ROOT, path));
    const body = prose(text).replace(/`[^`\n]*`/g, "``");
    for (const m of body.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split("#") as [string, string | undefined];
      const resolved = file === "" ? path : join(dirname(path), file);
      checked++;
      let targetText: string;
      try {
        targetText = await Deno.readTextFile(join(ROOT, resolved));
      } catch {
        if (anchor === undefined && (await Deno.stat(join(ROOT, resolved)).catch(() => null))) continue;
        problems.push(`${path}: link to missing ${resolved}`);
        continue;
      }
      if (anchor !== undefined && !anchors(targetText).has(anchor)) {
        problems.push(`${path}: no heading #${anchor} in ${resolved}`);
      }
    }
  }
  assert.ok(checked > 50, `found only ${checked} links`);
  assert.deepEqual(problems, []);
});

/**
 * Known offenders, each `path: phrase`, until the text is fixed where it is declared (none today). The test fails
 * when one is gone, so an entry cannot outlive its fix.
 */
const KNOWN_CITATIONS = new Set<string>([]);

Deno.test("docs - no page cites notes outside the repository or another implementation", async () => {
  const banned = [/\/work\/shared/, /\.md §\d/, /\bthe reference\b/i, /\bsightmap\b(?!\.org)/i, /service description/i];
  const found = new Set<string>();
  for (const path of await markdownFiles()) {
    if (!path.startsWith("docs/") && path !== "CONTRIBUTING.md") continue;
    const text = await Deno.readTextFile(join(ROOT, path));
    for (const re of banned) {
      const hit = re.exec(text)?.[0];
      if (hit !== undefined) found.add(`${path}: ${hit}`);
    }
  }
  assert.deepEqual([...found].filter((f) => !KNOWN_CITATIONS.has(f)), [], "pages citing what users cannot open");
  const fixed = [...KNOWN_CITATIONS].filter((k) => !found.has(k));
  assert.deepEqual(fixed, [], "fixed: remove these from KNOWN_CITATIONS");
});

/** Every runnable command path: `validate`, `atlas find`, … */
async function commandPaths(): Promise<string[]> {
  const program = (await buildProgram({ io: testIo(), exitCode: 0 })) as AnyCommand;
  const out: string[] = [];
  const walk = (cmd: AnyCommand, path: string[]) => {
    for (const sub of cmd.commands as AnyCommand[]) {
      const p = [...path, sub.name()];
      if (sub.commands.length === 0) out.push(p.join(" "));
      walk(sub, p);
    }
  };
  walk(program, []);
  return out;
}

Deno.test("ARCHITECTURE - the command → file table names every command, and only files that exist", async () => {
  const text = await Deno.readTextFile(join(ROOT, "ARCHITECTURE.md"));
  const table = /<!-- commands-to-files -->\n\n((?:\|.*\n)+)/.exec(text)?.[1];
  assert.ok(table, "ARCHITECTURE.md has the table after <!-- commands-to-files -->");
  const rows = table.trim().split("\n").slice(2);
  const named = new Set<string>();
  for (const row of rows) {
    const first = row.split(/(?<!\\)\|/)[1]!;
    for (const m of first.matchAll(/`mapper ([^`]+)`/g)) {
      // `mapper browser start|stop|status` names three commands.
      const words = m[1]!.replace(/\\\|/g, "|").split(" ");
      for (const last of words.at(-1)!.split("|")) named.add([...words.slice(0, -1), last].join(" "));
    }
    for (const m of row.matchAll(/`((?:src|assets|tests)\/[^`*]+)`/g)) {
      const path = m[1]!.replace(/\/$/, "");
      assert.ok(await Deno.stat(join(ROOT, path)).catch(() => null), `ARCHITECTURE.md names ${path}, which is missing`);
    }
  }
  const commands = await commandPaths();
  assert.deepEqual(commands.filter((p) => !named.has(p)), [], "commands missing from ARCHITECTURE.md's table");
  assert.deepEqual([...named].filter((p) => !commands.includes(p)), [], "ARCHITECTURE.md names unknown commands");
});
