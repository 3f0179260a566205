import assert from "node:assert/strict";
import { splitFrontMatter } from "./_gallery.ts";
import { checkFrontMatter } from "./_schema.ts";
import { llmsEntryLine } from "./_llms.ts";

Deno.test("catalog gallery - front matter: LF or CRLF, dates stay strings, body follows the closing line", () => {
  const { data, body } = splitFrontMatter("---\r\nname: X\r\ncreated: 2026-01-02\r\n---\r\n# X\r\n");
  assert.deepEqual(data, { name: "X", created: "2026-01-02" });
  assert.equal(body, "# X\r\n");
  assert.throws(() => splitFrontMatter("# no front matter\n"), /does not start with a '---' line/);
  assert.throws(() => splitFrontMatter("---\nname: x\n"), /no closing/);
  assert.throws(() => splitFrontMatter("---\n- a\n---\n"), /not a YAML mapping/);
});

Deno.test("catalog gallery - front matter after a UTF-8 byte order mark (Windows editors) is read", () => {
  const { data, body } = splitFrontMatter("\uFEFF---\r\nname: X\r\n---\r\n# X\r\n");
  assert.deepEqual(data, { name: "X" });
  assert.equal(body, "# X\r\n");
});

Deno.test("catalog gallery - the schema names the failing key, and the README line it is on", () => {
  const readme = "---\nslug: ok-slug\nname: ''\ndomains:\n  - a.example\n  - Bad\n---\n# X\n";
  const split = splitFrontMatter(readme);
  const problems = checkFrontMatter(split.data as Record<string, unknown>);
  const name = problems.find((p) => p.path.join(".") === "name");
  assert.equal(name?.message, "must be 1 to 50 characters, found 0");
  assert.equal(split.lineOf(["name"]), 3);
  const domain = problems.find((p) => p.path.join(".") === "domains.1");
  assert.equal(domain?.code, "bad-format");
  assert.equal(split.lineOf(["domains", 1]), 6);
  assert.ok(problems.some((p) => p.code === "missing-field" && p.message.includes('"site_url"')));
  assert.throws(() => splitFrontMatter("---\nname: [\n---\n"), (e: unknown) => (e as { line: number }).line === 2);
});

Deno.test("catalog llms - entry lines: singular counts, full stop added, whitespace collapsed, host fallback", () => {
  const line = llmsEntryLine("https://a.example", {
    slug: "x",
    name: "Multi\nline",
    site_url: "https://www.x.example/",
    domains: [],
    description: "Ends without a stop",
    last_verified: "",
    stats: { views: 1, components: 2, requests: 1 },
  });
  assert.equal(
    line,
    "- [Multi line](https://a.example/atlas/x.md): www.x.example. Ends without a stop. 1 view, 2 components, " +
      "1 request. `mapper atlas add x --index https://a.example/atlas/index.json`",
  );
});
