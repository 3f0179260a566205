import assert from "node:assert/strict";
import { join } from "node:path";
import { load } from "../corpus/mod.ts";
import { seeded } from "../../tests/_random.ts";
import { canonicalize } from "./canonical.ts";
import { matchUrl } from "./match.ts";

function ok(text: string): string {
  const r = canonicalize(text);
  if (r.kind !== "ok") throw new Error(`not canonicalised: ${JSON.stringify(r)}`);
  assert.equal(
    canonicalize(r.text).kind === "ok" && (canonicalize(r.text) as { text: string }).text,
    r.text,
    "idempotent",
  );
  return r.text;
}

Deno.test("canonical - no blank line between top-level keys; one between top-level entries and after the header", () => {
  const text = ok(
    "# Shop.\n\nversion: 1\n\n\nmemory:\n  - a note\n\nviews:\n  - name: B\n    route: /b\n  - name: A\n    route: /a\n",
  );
  assert.equal(
    text,
    "# Shop.\n\nversion: 1\nmemory:\n  - a note\nviews:\n  - name: A\n    route: /a\n\n  - name: B\n    route: /b\n",
  );
});

Deno.test("canonical - comments move with the entry they are written above, and stay with top-level keys", () => {
  const text = ok([
    "version: 1",
    "views:",
    "  # about zeta",
    "  - name: Zeta",
    "    route: /x/:id",
    "    # zeta's last line",
    "  # about alpha",
    "  - name: Alpha # alpha itself",
    "    route: /*/y",
    "# about the globals",
    "components:",
    "  - name: Z",
    "    selector: z",
    "  # about a",
    "  - name: A",
    "    selector: a",
    "# the end",
    "",
  ].join("\n"));
  assert.equal(
    text,
    [
      "version: 1",
      "views:",
      "  # about alpha",
      "  - name: Alpha # alpha itself",
      "    route: /*/y",
      "",
      "  # about zeta",
      "  - name: Zeta",
      "    route: /x/:id",
      "    # zeta's last line",
      "# about the globals",
      "components:",
      "  # about a",
      "  - name: A",
      "    selector: a",
      "",
      "  - name: Z",
      "    selector: z",
      "# the end",
      "",
    ].join("\n"),
  );
});

Deno.test("canonical - refuses to sort equally specific views whose routes cross (/x/* and /*/y meet on /x/y)", () => {
  const r = canonicalize("version: 1\nviews:\n  - name: Zeta\n    route: /x/*\n  - name: Alpha\n    route: /*/y\n");
  assert.equal(r.kind, "order-sensitive");
  assert.match((r as { message: string }).message, /both match \/x\/y, where "Zeta" wins/);
  // Already in name order, or not overlapping: sorted (or left) without a word.
  assert.equal(
    canonicalize("version: 1\nviews:\n  - name: Zeta\n    route: /x/*\n  - name: Alpha\n    route: /*/z/w\n").kind,
    "ok",
  );
  assert.equal(
    canonicalize("version: 1\nviews:\n  - name: Alpha\n    route: /x/*\n  - name: Zeta\n    route: /*/y\n").kind,
    "ok",
  );
});

Deno.test("canonical - keys follow the corpus schema's order everywhere (url beside route, properties before children)", () => {
  const text = ok([
    "requests:",
    "  - tags: [t]",
    "    properties:",
    "      - pattern: x",
    "        source: rsp.body",
    "        name: id",
    "    name: Api",
    "    route: /api",
    "views:",
    "  - requests: []",
    "    url: https://shop.example/",
    "    components:",
    "      - memory: [m]",
    "        children: []",
    "        properties:",
    "          - transform: number",
    "            extract: text",
    "            name: price",
    "        selector: .card",
    "        name: Card",
    "    route: /",
    "    name: Home",
    "version: 1",
    "",
  ].join("\n"));
  assert.equal(
    text,
    [
      "version: 1",
      "views:",
      "  - name: Home",
      "    route: /",
      "    url: https://shop.example/",
      "    components:",
      "      - name: Card",
      "        selector: .card",
      "        properties:",
      "          - name: price",
      "            extract: text",
      "            transform: number",
      "        children: []",
      "        memory:",
      "          - m",
      "    requests: []",
      "requests:",
      "  - name: Api",
      "    route: /api",
      "    properties:",
      "      - name: id",
      "        source: rsp.body",
      "        pattern: x",
      "    tags:",
      "      - t",
      "",
    ].join("\n"),
  );
});

// ---- Property: fmt never changes which view a URL resolves to

const NAMES = ["Alpha", "Beta", "Gamma", "Mu", "Zeta"];
const SEGMENTS = ["x", "y", "a", ":id", ":slug", "*", "**", "x*", "*y", "a.png", "*.png"];
const URL_SEGMENTS = ["x", "y", "a", "q", "xy", "a.png", "x.png"];

Deno.test("canonical - for random corpora and URLs, match resolves the same view before and after fmt", async () => {
  const rng = seeded();
  const base = await Deno.makeTempDir({ prefix: "mapper-fmt-property-" });
  let sorted = 0;
  let refused = 0;
  try {
    for (let n = 0; n < 60; n++) {
      const dir = join(base, String(n));
      await Deno.mkdir(dir);
      const files: Record<string, string> = {};
      for (const file of ["a.yaml", "b.yaml"]) {
        const lines = ["version: 1", "views:"];
        for (let v = 0; v < 2 + rng.int(4); v++) {
          if (rng.int(3) === 0) lines.push(rng.int(2) === 0 ? "  # about the next view" : "# at column 0");
          const route = `/${Array.from({ length: rng.int(4) }, () => rng.pick(SEGMENTS)).join("/")}`;
          lines.push(`  - name: ${rng.pick(NAMES)}`, `    route: '${route}'`);
          if (rng.int(4) === 0) lines.push("    # the view's last line");
        }
        files[file] = `${lines.join("\n")}\n`;
        await Deno.writeTextFile(join(dir, file), files[file]);
      }
      const urls = Array.from(
        { length: 40 },
        () => `https://h/${Array.from({ length: rng.int(5) }, () => rng.pick(URL_SEGMENTS)).join("/")}`,
      );
      const resolve = async () => {
        const { corpus } = await load(dir);
        return urls.map((u) => matchUrl(corpus, u).view?.name ?? null);
      };
      const before = await resolve();
      for (const [file, text] of Object.entries(files)) {
        const r = canonicalize(text);
        if (r.kind === "order-sensitive") refused++;
        if (r.kind !== "ok") continue;
        if (r.text !== text) sorted++;
        const again = canonicalize(r.text);
        assert.equal(again.kind === "ok" && again.text, r.text, `fmt is not idempotent on:\n${text}\n${rng.replay}`);
        await Deno.writeTextFile(join(dir, file), r.text);
      }
      const after = await resolve();
      assert.deepEqual(
        after,
        before,
        `fmt changed a view in corpus ${n}:\n${Object.values(files).join("---\n")}\n${rng.replay}`,
      );
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
  assert.ok(
    sorted > 20 && refused > 5,
    `too few cases exercised (sorted ${sorted}, refused ${refused}); ${rng.replay}`,
  );
});
