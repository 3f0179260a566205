// The gallery Action (action.yml at the repository root): it parses as a composite action, every `mapper …` command
// it runs exists with the flags it passes (checked against the real `--help`), it installs exactly the release
// assets `.github/workflows/release.yml` publishes and verifies them against checksums.txt, and values from the
// pull request reach shell only through `env:`. Its behaviour: the steps after the install, run as written under
// bash on a gallery pull request with the runner's files faked, fail for every kind of broken entry with an
// annotation at the entry's file and line, and pass a good one.
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { baseEnv, copyTree, MAIN, ROOT, runMapper, tempDir } from "./_helpers.ts";

interface Step {
  name?: string;
  id?: string;
  run?: string;
  "working-directory"?: string;
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
      "atlas build --strict --format --gallery --out",
    ]
  ) {
    assert.ok(seen.includes(expected), `action.yml should run 'mapper ${expected}'; it runs: ${seen.join(" | ")}`);
  }
  assert.match(scripts, /mapper atlas validate --format github /);
  assert.match(scripts, /mapper atlas build --strict --format github /);
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

// ---- Behaviour

const GALLERY = join(ROOT, "assets", "gallery", "entries");

async function git(dir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main", ...args],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return text;
}

/** A copy of a bundled entry under another slug (README slug replaced), optionally with its corpus replaced. */
async function entry(gallery: string, slug: string, readme?: (text: string) => string, corpus?: string) {
  const dir = join(gallery, "entries", slug);
  await copyTree(join(GALLERY, "demo-docs"), dir);
  const text = (await Deno.readTextFile(join(dir, "README.md"))).replace("slug: demo-docs", `slug: ${slug}`);
  await Deno.writeTextFile(join(dir, "README.md"), readme ? readme(text) : text);
  if (corpus !== undefined) await Deno.writeTextFile(join(dir, ".mapper", "docs.yaml"), corpus);
}

/** The values the runner would put into the steps' `${{ … }}` expressions. */
function expression(text: string, outputs: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
    if (expr === "inputs.base || github.base_ref") return "main";
    if (expr === "steps.changed.outputs.entries") return outputs.entries ?? "";
    if (expr === "inputs.gallery") return ".";
    throw new Error(`the test does not know the expression "${expr}": teach it what the runner would pass`);
  });
}

/**
 * Runs every step after "Install mapper" as the runner would: bash, the step's working directory and env, fake
 * GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files and RUNNER_TEMP, and `mapper` on PATH running this checkout. Stops at
 * the first failing step, like a composite action.
 */
async function runAction(gallery: string, home: string) {
  const bin = join(home, "bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    join(bin, "mapper"),
    `#!/bin/sh\nexec '${Deno.execPath()}' run -A --quiet '${MAIN}' "$@"\n`,
    { mode: 0o755 },
  );
  const summary = join(home, "summary.md");
  await Deno.writeTextFile(summary, "");
  const outputs: Record<string, string> = {};
  const steps: Array<{ name: string; code: number; stdout: string; stderr: string }> = [];
  for (const step of action.runs.steps.slice(1)) {
    const output = join(home, `output-${steps.length}`);
    await Deno.writeTextFile(output, "");
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expression(v, outputs)]));
    const base = baseEnv(home);
    const out = await new Deno.Command("bash", {
      args: ["--noprofile", "--norc", "-e", "-o", "pipefail", "-c", step.run!],
      cwd: join(gallery, expression(step["working-directory"] ?? ".", outputs)),
      env: {
        ...base,
        ...env,
        PATH: `${bin}:${base.PATH ?? ""}`,
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
        RUNNER_TEMP: home,
      },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const result = {
      name: step.name ?? "",
      code: out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
    };
    steps.push(result);
    if (step.id) {
      for (const line of (await Deno.readTextFile(output)).split("\n")) {
        const eq = line.indexOf("=");
        if (eq > 0) outputs[`${line.slice(0, eq)}`] = line.slice(eq + 1);
      }
    }
    if (out.code !== 0) break;
  }
  return { steps, outputs, summary: await Deno.readTextFile(summary) };
}

/** A gallery repository: `main` holds the bundled demo-docs entry; the pull request adds `add`'s entries. */
async function pullRequest(root: string, add: (gallery: string) => Promise<void>): Promise<string> {
  const gallery = join(root, "gallery");
  await Deno.mkdir(join(gallery, "entries"), { recursive: true });
  await copyTree(join(GALLERY, "demo-docs"), join(gallery, "entries", "demo-docs"));
  await git(gallery, "init", "-q");
  await git(gallery, "add", "-A");
  await git(gallery, "commit", "-q", "-m", "base");
  await git(gallery, "update-ref", "refs/remotes/origin/main", "HEAD");
  await git(gallery, "checkout", "-q", "-b", "pr");
  await add(gallery);
  await git(gallery, "add", "-A");
  await git(gallery, "commit", "-q", "-m", "pr");
  return gallery;
}

Deno.test("action - fails a pull request for each kind of broken entry, annotating its file and line", async () => {
  await using home = await tempDir();
  const gallery = await pullRequest(home.path, async (g) => {
    await entry(g, "broken-front", (t) => t.replace(/^name: .*$/m, "name: [unclosed"));
    await entry(g, "plain-http", (t) => t.replace(/^site_url: .*$/m, "site_url: http://plain.example/"));
    await entry(
      g,
      "lint-warning",
      undefined,
      "version: 1\nviews:\n  - name: Home\n    route: /\n    components:\n      - name: card\n        selector: .card\n",
    );
    await entry(
      g,
      "bad-selector",
      undefined,
      "version: 1\nviews:\n  - name: Home\n    route: /\n    components:\n      - name: Card\n        selector: div[[[\n",
    );
  });
  const { steps, outputs, summary } = await runAction(gallery, home.path);
  assert.deepEqual(steps.map((s) => `${s.name}: ${s.code}`), ["Find changed entries: 0", "Check the gallery: 1"]);
  assert.equal(outputs.entries, "bad-selector broken-front lint-warning plain-http");
  const annotations = steps[1]!.stdout.split("\n").filter((l) => l.startsWith("::error") || l.startsWith("::warning"));
  const expected = [
    /^::error file=entries\/bad-selector\/\.mapper\/docs\.yaml,line=7,title=corpus::entry "bad-selector" left out: the corpus does not load: 1 validation error\(s\), first: \.mapper\/docs\.yaml:7 selector-invalid/,
    /^::error file=entries\/broken-front\/README\.md,line=3,title=front-matter::entry "broken-front" left out: front matter is not valid YAML at README\.md line 3: Flow sequence/,
    /^::error file=entries\/plain-http\/README\.md,line=4,title=schema::entry "plain-http" left out: site_url: site_url "http:\/\/plain\.example\/" is not an https:\/\/ URL$/,
    /^::error file=entries\/bad-selector\/\.mapper\/docs\.yaml,line=7,col=19,title=selector-invalid::/,
    /^::warning file=entries\/lint-warning\/\.mapper\/docs\.yaml,line=6,col=\d+,title=name-case::/,
  ];
  for (const re of expected) {
    assert.ok(annotations.some((a) => re.test(a)), `${re}\nnot among:\n${annotations.join("\n")}`);
  }
  assert.match(summary, /^## mapper gallery check\n\n- catalog: \*\*failed\*\*/);
  for (const slug of outputs.entries!.split(" ")) assert.match(summary, new RegExp(`^### ${slug}$`, "m"));
});

Deno.test("action - passes a pull request that adds a good entry", async () => {
  await using home = await tempDir();
  const gallery = await pullRequest(home.path, (g) => entry(g, "good-entry"));
  const { steps, outputs, summary } = await runAction(gallery, home.path);
  assert.deepEqual(
    steps.map((s) => `${s.name}: ${s.code}`),
    ["Find changed entries: 0", "Check the gallery: 0"],
    steps.map((s) => s.stdout + s.stderr).join("\n"),
  );
  assert.equal(outputs.entries, "good-entry");
  assert.doesNotMatch(steps[1]!.stdout, /^::(error|warning)/m);
  assert.match(summary, /- catalog: every entry builds\n\n### good-entry\n/);
});
