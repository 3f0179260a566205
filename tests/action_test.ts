// The gallery Action (action.yml at the repository root): it parses as a composite action, every `mapper …` command
// it runs exists with the flags it passes (checked against the real `--help`), it installs exactly the release
// assets `.github/workflows/release.yml` publishes and verifies them against checksums.txt, and values from the
// pull request reach shell only through `env:`.
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { ROOT, runMapper } from "./_helpers.ts";

interface Step {
  name?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
}

const action = parse(await Deno.readTextFile(join(ROOT, "action.yml"))) as {
  name: string;
  inputs: Record<string, unknown>;
  runs: { using: string; steps: Step[] };
};
const scripts = action.runs.steps.map((s) => s.run ?? "").join("\n");

/** Every `mapper <command…> [--flags]` invocation in the step scripts, as command path + flags. */
function invocations(): Array<{ command: string[]; flags: string[]; line: string }> {
  const out: Array<{ command: string[]; flags: string[]; line: string }> = [];
  for (const raw of scripts.split("\n")) {
    const line = raw.trim();
    const m = /(?:^|[\s;(|&])mapper\s+(.*)$/.exec(line);
    if (!m || line.startsWith("#") || /\becho\b/.test(line)) continue;
    const words = m[1]!.replace(/\|\|.*$/, "").trim().split(/\s+/);
    const command: string[] = [];
    for (const w of words) {
      if (!/^[a-z][a-z-]*$/.test(w)) break;
      command.push(w);
    }
    const flags = words.filter((w) => w.startsWith("--")).map((w) => w.split("=")[0]!);
    out.push({ command, flags, line });
  }
  return out;
}

Deno.test("action - is a composite action whose steps run bash", () => {
  assert.equal(action.name, "mapper-gallery-check");
  assert.equal(action.runs.using, "composite");
  for (const step of action.runs.steps) if (step.run) assert.equal(step.shell, "bash", step.name);
});

Deno.test("action - runs validate, lint, fmt --check and atlas validate with --format github", () => {
  const seen = invocations().map((i) => `${i.command.join(" ")} ${i.flags.join(" ")}`.trim());
  for (
    const expected of [
      "validate --dir --format",
      "lint --dir --format",
      "fmt --check --dir --format",
      "atlas validate --format",
      "atlas build --gallery --out",
    ]
  ) {
    assert.ok(seen.includes(expected), `action.yml should run 'mapper ${expected}'; it runs: ${seen.join(" | ")}`);
  }
  assert.match(scripts, /mapper atlas validate --format github /);
  assert.match(scripts, /mapper validate --dir "\$dir" --format github/);
});

Deno.test("action - every mapper command it runs exists and accepts every flag it passes", async () => {
  const list = invocations();
  assert.ok(list.length >= 5);
  const byCommand = new Map<string, Set<string>>();
  for (const { command, flags } of list) {
    const key = command.join(" ");
    byCommand.set(key, new Set([...(byCommand.get(key) ?? []), ...flags]));
  }
  for (const [command, flags] of byCommand) {
    const r = await runMapper([...command.split(" "), "--help"]);
    assert.equal(r.code, 0, `mapper ${command} --help failed: ${r.stderr}`);
    for (const flag of flags) {
      assert.match(r.stdout, new RegExp(`${flag}(?![\\w-])`), `mapper ${command} has no ${flag}`);
    }
  }
});

Deno.test("action - installs the assets release.yml publishes, verified against checksums.txt", async () => {
  const release = await Deno.readTextFile(join(ROOT, ".github", "workflows", "release.yml"));
  const targets = [...release.matchAll(/^\s+- ([a-z0-9_]+-[a-z0-9_-]+)$/gm)].map((m) => m[1]!);
  assert.ok(targets.length >= 6, "release.yml lists its targets");
  for (const t of targets) assert.match(scripts, new RegExp(`target=${t};`), `no runner maps to ${t}`);
  assert.match(release, /name="mapper-\$\{\{ needs\.version\.outputs\.version \}\}-\$\{\{ matrix\.target \}\}"/);
  assert.match(scripts, /asset="mapper-\$\{version\}-\$\{target\}\.\$\{ext\}"/);
  assert.match(release, /sha256sum mapper-\* > checksums\.txt/);
  assert.match(scripts, /checksums\.txt/);
  assert.match(scripts, /if \[ "\$actual" != "\$expected" \]; then/);
  assert.match(scripts, /releases\/download\/v\$\{version\}/);
});

Deno.test("action - pull-request values reach shell only through env (no expressions inside run scripts)", () => {
  for (const step of action.runs.steps) {
    assert.doesNotMatch(step.run ?? "", /\$\{\{/, `step "${step.name}" expands an expression inside its script`);
  }
});
