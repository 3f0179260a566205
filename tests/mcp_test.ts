/**
 * `mapper mcp` driven as a user's MCP client drives it: a subprocess on `main.ts` spoken to with the SDK's own
 * `Client` + `StdioClientTransport`. Tool list, schemas and annotations; errors as tool errors with the CLI's text;
 * atlas tools against a local catalog; console and network tools against the test site in real Chromium; the
 * session lifecycle (stops what it started, never what it found).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Resource, Tool } from "@modelcontextprotocol/sdk/types.js";
import { assertGolden, baseEnv, mapperCommand, runMapper, tempDir } from "./_helpers.ts";
import { goodCorpus, tarGz } from "./fixtures/atlas/archive.ts";
import { startSite } from "./site/server.ts";
import { startMcp } from "./_mcp.ts";

/** A plain-HTTP loopback server of the files in `root`; dispose to stop it. */
function fileServer(root: string): { url: string } & AsyncDisposable {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    try {
      return new Response(await Deno.readFile(join(root, new URL(req.url).pathname.slice(1))));
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  return { url: `http://127.0.0.1:${server.addr.port}/`, [Symbol.asyncDispose]: () => server.shutdown() };
}
import { alive, reap, requireBrowser, skipBrowserTests, startSession, waitFor } from "./site/harness.ts";

Deno.test("mcp - lists every tool with described arguments and truthful annotations", async () => {
  await using dir = await tempDir();
  await using mcp = await startMcp([], { cwd: dir.path, home: dir.path });
  const { tools } = (await mcp.client.listTools()) as { tools: Tool[] };
  // Which URL schemes open is the user's choice (mapper mcp --allow-scheme): no tool lets an agent widen it.
  for (const t of tools) {
    const params = Object.keys((t.inputSchema as { properties?: object }).properties ?? {});
    assert.ok(!params.some((p) => p.includes("scheme")), `${t.name} takes ${params.join(", ")}`);
  }
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    "atlas_add",
    "atlas_find",
    "capture",
    "capture_prune",
    "click",
    "console_get",
    "console_list",
    "coverage",
    "discover",
    "draft",
    "drag",
    "evaluate",
    "explain",
    "fill",
    "gap",
    "handle_dialog",
    "hover",
    "inspect",
    "match",
    "multi_coverage",
    "navigate",
    "network_get",
    "network_list",
    "press_key",
    "probe",
    "report",
    "resize",
    "screenshot",
    "scroll",
    "search",
    "sel_check",
    "snapshot",
    "suggest",
    "tabs",
    "wait_for",
  ]);
  for (const t of tools) {
    assert.ok((t.description ?? "").length > 40, `${t.name} has a description an agent can act on`);
    const a = t.annotations ?? {};
    for (const k of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
      assert.equal(typeof a[k], "boolean", `${t.name} sets ${k}`);
    }
    const props = (t.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
    for (const [p, schema] of Object.entries(props)) {
      assert.ok((schema.description ?? "").length > 10, `${t.name}.${p} is described`);
    }
  }
  const by = (n: string) => tools.find((t) => t.name === n)!;
  for (
    const n of [
      "snapshot",
      "wait_for",
      "gap",
      "suggest",
      "inspect",
      "explain",
      "match",
      "search",
      "sel_check",
      "coverage",
      "report",
      "multi_coverage",
      "console_list",
      "console_get",
      "network_list",
      "network_get",
    ]
  ) {
    assert.deepEqual(by(n).annotations, {
      title: by(n).title,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  }
  for (const n of ["click", "press_key", "evaluate", "handle_dialog", "fill"]) {
    assert.equal(by(n).annotations?.destructiveHint, true, `${n} may submit, delete or overwrite`);
  }
  // One argument vocabulary across tools.
  const props = (n: string) => Object.keys(by(n).inputSchema.properties ?? {});
  for (const n of ["click", "fill", "hover", "scroll", "screenshot"]) assert.ok(props(n).includes("target"), n);
  assert.deepEqual(by("fill").inputSchema.required, ["target", "text"]);
  assert.deepEqual(by("press_key").inputSchema.required, ["key"]);
  for (const p of ["component", "view", "url", "selector", "load", "timeout_ms"]) {
    assert.ok(props("wait_for").includes(p), `wait_for takes ${p}`);
  }
  assert.equal(by("atlas_find").annotations?.openWorldHint, true);
  // draft reads the page (url: may open another one) and writes nothing: the file is the CLI's --out.
  assert.deepEqual(by("draft").annotations, {
    title: by("draft").title,
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  });
  assert.ok(!props("draft").includes("out"), "draft never writes");
  assert.equal(by("atlas_add").annotations?.readOnlyHint, false);
  assert.equal(by("atlas_add").annotations?.idempotentHint, false);
  assert.deepEqual(by("network_get").inputSchema.required, ["index"]);
  assert.deepEqual(
    (by("console_list").inputSchema.properties as Record<string, { items?: { enum?: string[] } }>).level?.items?.enum,
    ["log", "debug", "info", "warn", "error", "exception"],
  );
  const { resources } = (await mcp.client.listResources()) as { resources: Resource[] };
  assert.deepEqual(resources.map((r) => r.uri), ["mapper://corpus", "mapper://memory"]);
});

Deno.test("mcp - errors come back as tool errors with the CLI's message and hint", async () => {
  await using dir = await tempDir();
  await using mcp = await startMcp([], { cwd: dir.path, home: dir.path });
  const nowhere = "http://127.0.0.1:1/index.json";
  const missing = await mcp.call("atlas_find", { query: "x", index: nowhere });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /^cannot fetch the catalog http:\/\/127\.0\.0\.1:1\/index\.json: .* — /);
  // The CLI prints exactly the same text after its command name.
  const cli = await runMapper(["atlas", "find", "x", "--index", nowhere], {
    cwd: dir.path,
    env: { HOME: dir.path },
  });
  assert.equal(cli.stderr, `mapper atlas find: ${missing.text}\n`);
  const bad = await mcp.call("console_get", { index: -1 });
  assert.equal(bad.isError, true);
  assert.match(bad.text, /index/);
});

Deno.test("mcp - atlas_find searches and atlas_add installs only once the user confirmed", async (t) => {
  await using dir = await tempDir();
  await using home = await tempDir(); // the catalog cache goes there, not among the directories checked below
  await Deno.mkdir(dir.join("cat"));
  await Deno.copyFile(join(import.meta.dirname!, "fixtures", "atlas", "search.json"), dir.join("cat", "index.json"));
  await Deno.writeFile(dir.join("cat", "good.tar.gz"), await tarGz(goodCorpus()));
  const entries = async (p: string) => (await Array.fromAsync(Deno.readDir(p))).map((e) => e.name).sort();
  // The catalog over loopback HTTP: an MCP client may name a catalog URL, never a local file.
  await using catalog = fileServer(dir.join("cat"));
  const index = `${catalog.url}index.json`;

  await t.step("atlas_find prints the same hits as 'mapper atlas find'", async () => {
    await using mcp = await startMcp([], { cwd: dir.path, home: home.path });
    const found = await mcp.call("atlas_find", { query: "squareup.com", index });
    assert.equal(found.isError, false);
    assert.match(found.text, /^square-pos {2}Square POS\n/);
    assert.ok(found.text.includes(`mapper atlas add square-pos --index ${index}`), found.text);
  });

  await t.step("without elicitation: refused until confirm is true, then installed into --dir", async () => {
    await using mcp = await startMcp(["--dir", "site/.mapper"], { cwd: dir.path, home: home.path });
    const refused = await mcp.call("atlas_add", { slug: "good", index });
    assert.deepEqual({ isError: refused.isError, text: refused.text }, {
      isError: true,
      text:
        'installing "good" needs the user\'s confirmation — ask the user, then call atlas_add again with confirm: true',
    });
    assert.deepEqual(await entries(dir.path), ["cat"]);
    const ok = await mcp.call("atlas_add", { slug: "good", index, confirm: true });
    assert.equal(ok.isError, false, ok.text);
    assert.match(ok.text, /^Installed good: 4 files → site\/\.mapper\. Next:$/m);
    assert.ok((await entries(dir.join("site", ".mapper"))).includes("atlas-lock.json"));
    const again = await mcp.call("atlas_add", { slug: "good", index, confirm: true });
    assert.equal(again.isError, true);
    assert.match(again.text, /already exists and is not empty — /);
    // The compiled corpus is readable as a resource without any tool call.
    const res = await mcp.client.readResource({ uri: "mapper://corpus" });
    const wire = JSON.parse((res.contents[0] as { text: string }).text);
    assert.deepEqual(wire.views.map((v: { name: string }) => v.name), ["Checkout"]);
    assert.deepEqual(wire.globals.map((c: { name: string }) => c.name), ["Cart"]);
    // A command that reports problems and exits 1 is a tool error carrying its report (this archive has no
    // "version: 1" lines, which 'mapper match' reports as errors).
    const invalid = await mcp.call("match", { url: "https://shop.acme.test/checkout" });
    assert.equal(invalid.isError, true);
    assert.match(invalid.text, /^components\.yaml:1:1: error missing-version: /m);
    // Memory notes: no session is started just to read them.
    const memory = await mcp.client.readResource({ uri: "mapper://memory" });
    assert.match((memory.contents[0] as { text: string }).text, /^No browser session is running/m);
    assert.doesNotMatch(mcp.stderr(), /started a browser session/);
  });

  await t.step("with elicitation: the user's answer decides, whatever confirm says", async () => {
    await using no = await startMcp(["--dir", "two"], { cwd: dir.path, home: home.path, elicit: "decline" });
    const declined = await no.call("atlas_add", { slug: "good", index, confirm: true });
    assert.deepEqual({ isError: declined.isError, text: declined.text }, {
      isError: false,
      text: 'Nothing installed: the user declined installing "good".',
    });
    assert.ok(!(await entries(dir.path)).includes("two"));
    await using yes = await startMcp(["--dir", "two"], { cwd: dir.path, home: home.path, elicit: "accept" });
    const accepted = await yes.call("atlas_add", { slug: "good", index });
    assert.equal(accepted.isError, false, accepted.text);
    assert.ok((await entries(dir.join("two"))).includes("atlas-lock.json"));
    // The user is told the catalog the agent chose and the archive that will be fetched, not only a slug.
    assert.deepEqual(no.asked.concat(yes.asked), [
      `Install the atlas corpus "good" into "two"? Catalog: "${index}". Archive: "${catalog.url}good.tar.gz".`,
      `Install the atlas corpus "good" into "two"? Catalog: "${index}". Archive: "${catalog.url}good.tar.gz".`,
    ]);
  });

  await t.step(
    "index must be an https:// catalog (http:// on the loopback): a local file is refused unread",
    async () => {
      await Deno.writeTextFile(dir.join("shadow"), "root:*:20202:0:99999:7:::\n");
      await using mcp = await startMcp(["--dir", "three"], { cwd: dir.path, home: home.path, elicit: "accept" });
      for (
        const bad of ["shadow", dir.join("shadow"), `file://${dir.join("shadow")}`, "http://example.com/index.json"]
      ) {
        for (const tool of ["atlas_find", "atlas_add"]) {
          const r = await mcp.call(tool, { slug: "good", index: bad });
          assert.equal(r.isError, true, `${tool} ${bad}`);
          assert.ok(!r.text.includes("root:") && !r.text.includes("20202"), r.text);
          assert.match(r.text, /https:\/\//, r.text);
        }
      }
      assert.deepEqual(mcp.asked, [], "nothing was asked for a refused catalog");
      assert.ok(!(await entries(dir.path)).includes("three"));
    },
  );
});

Deno.test("mcp - --help documents the flags; a bad --url is a usage error before anything starts", async () => {
  await using dir = await tempDir();
  const help = await runMapper(["mcp", "--help"], { cwd: dir.path, env: { HOME: dir.path } });
  assert.equal(help.code, 0);
  await assertGolden("help-mcp.txt", help.stdout);
  const bad = await runMapper(["mcp", "--url", "shop.test"], { cwd: dir.path, env: { HOME: dir.path } });
  assert.equal(bad.code, 2);
  assert.equal(bad.stdout, "");
  assert.match(
    bad.stderr,
    /^mapper mcp: --url "shop\.test" is not an absolute URL — include the scheme, e\.g\. --url https:\/\/example\.com\/\n$/,
  );
  // A --url the scheme policy refuses fails at once, not at the first tool call.
  const local = await runMapper(["mcp", "--url", "file:///etc/hostname"], { cwd: dir.path, env: { HOME: dir.path } });
  assert.equal(local.code, 1);
  assert.match(local.stderr, /^mapper mcp: refusing to open "file:\/\/\/etc\/hostname": file: URLs are opened only /);
  const allowed = await runMapper(["mcp", "--url", "file:///etc/hostname", "--allow-scheme", "file"], {
    cwd: dir.path,
    env: { HOME: dir.path },
  });
  assert.equal(allowed.code, 0, allowed.stderr);
});

Deno.test("mcp - match answers with the text of 'mapper match'", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(dir.join(".mapper"));
  await Deno.writeTextFile(
    dir.join(".mapper", "site.yaml"),
    "version: 1\nviews:\n  - name: Product\n    route: /product/:id\n    components:\n      - name: Buy\n        selector: button.buy\n",
  );
  await using mcp = await startMcp([], { cwd: dir.path, home: dir.path });
  const matched = await mcp.call("match", { url: "https://shop.test/product/42" });
  assert.equal(matched.isError, false, matched.text);
  assert.match(matched.text, /^view Product {2}\/product\/:id {2}\(score 5, site\.yaml:3\)\nparams id=42\n/);
  const cli = await runMapper(["match", "https://shop.test/product/42"], { cwd: dir.path, env: { HOME: dir.path } });
  assert.equal(cli.code, 0, cli.stderr);
  assert.equal(matched.text, cli.stdout);
});

Deno.test("mcp - search and sel_check answer with the text of 'mapper search' and 'mapper sel-check'", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(dir.join(".mapper"));
  await Deno.writeTextFile(
    dir.join(".mapper", "site.yaml"),
    "version: 1\nviews:\n  - name: Product\n    route: /product/:id\n    components:\n      - name: Buy\n        selector: button.buy\n",
  );
  const tree = {
    schema: 1,
    kind: "mapper-tree",
    mapper: "t",
    url: "https://shop.test/product/1",
    title: "P",
    view: { name: "Product", route: "/product/:id" },
    capturedAt: "2026-06-07T19:30:00.000Z",
    viewport: { width: 800, height: 600, dpr: 1 },
    settled: true,
    coverage: null,
    root: {
      id: 1,
      tag: "html",
      attrs: {},
      role: "document",
      name: "",
      visible: true,
      children: [{
        id: 2,
        tag: "button",
        attrs: { class: "buy" },
        role: "button",
        name: "Buy",
        visible: true,
        children: [],
      }],
    },
  };
  await Deno.writeTextFile(dir.join("p.snap.tree.json"), JSON.stringify(tree));
  await using mcp = await startMcp([], { cwd: dir.path, home: dir.path });
  const env = { HOME: dir.path };
  const found = await mcp.call("search", { pattern: "buy", field: "selector" });
  assert.equal(found.isError, false, found.text);
  const cli = await runMapper(["search", "buy", "--field", "selector"], { cwd: dir.path, env });
  assert.equal(found.text, cli.stdout);
  assert.match(found.text, /^site\.yaml:7:19 {2}Product › Buy {2}selector: button\.buy$/m);
  const checked = await mcp.call("sel_check", { selector: "button.buy", files: ["p.snap.tree.json"] });
  assert.equal(checked.isError, false, checked.text);
  const cliCheck = await runMapper(["sel-check", "button.buy", "p.snap.tree.json"], { cwd: dir.path, env });
  assert.equal(checked.text, cliCheck.stdout);
  assert.match(checked.text, /^1 match$/m);
  const bad = await mcp.call("sel_check", { selector: "button[", files: ["p.snap.tree.json"] });
  assert.equal(bad.isError, true);
  assert.match(bad.text, /^invalid selector "button\[" at character 7: /);
  // coverage and report read the same capture: the CLI's text, the gate's exit as an error result.
  await Deno.mkdir(dir.join(".mapper", "snapshots", "Product"), { recursive: true });
  await Deno.copyFile(
    dir.join("p.snap.tree.json"),
    dir.join(".mapper", "snapshots", "Product", "20260607T193000Z.snap.tree.json"),
  );
  for (const [tool, args] of [["coverage", ["coverage"]], ["report", ["report"]]] as const) {
    const got = await mcp.call(tool, {});
    const cliOut = await runMapper(args, { cwd: dir.path, env });
    assert.equal(got.text.trimEnd(), cliOut.stdout.trimEnd(), tool);
    assert.equal(got.isError, cliOut.code !== 0, tool);
  }
  assert.match((await mcp.call("report", {})).text, /^ Product +\/product\/:id +- +1 /m);
});

Deno.test("mcp - answers what it read before standard input ended; a garbage line is logged, stdout stays protocol", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(dir.join(".mapper"));
  await Deno.writeTextFile(dir.join(".mapper", "site.yaml"), "version: 1\nviews:\n  - name: Home\n    route: /\n");
  const lines = [
    "garbage \u001b[31m",
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "match", arguments: { url: "/" } } }),
  ];
  const r = await runMapper(["mcp"], { cwd: dir.path, env: { HOME: dir.path }, stdin: lines.join("\n") + "\n" });
  assert.equal(r.code, 0);
  const answers = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(answers.map((a) => [a.jsonrpc, a.id]), [["2.0", 1], ["2.0", 2]]);
  assert.match(answers[1].result.content[0].text, /^view Home {2}\/ {2}\(score 1, site\.yaml:3\)$/m);
  assert.match(r.stderr, /^\[mcp\] .*is not valid JSON$/m);
  assert.match(r.stderr, /\[mcp\] standard input ended; shutting down\n$/);
});

Deno.test("mcp - a request over 4 MiB is refused at once with a JSON-RPC error and does not hold up the next one", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(dir.join(".mapper"));
  await Deno.writeTextFile(dir.join(".mapper", "site.yaml"), "version: 1\nviews:\n  - name: Home\n    route: /\n");
  // A raw client (the SDK's own client spends seconds pushing 60 MB through its Node stream; the server is measured).
  const child = new Deno.Command(Deno.execPath(), {
    args: mapperCommand(["mcp"]),
    cwd: dir.path,
    env: baseEnv(dir.path),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdin = child.stdin.getWriter();
  const enc = new TextEncoder();
  const send = (message: unknown) => stdin.write(enc.encode(JSON.stringify(message) + "\n"));
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const answer = async (): Promise<{ id: unknown; error?: { code: number; message: string }; result?: unknown }> => {
    for (;;) {
      const nl = buffered.indexOf("\n");
      if (nl >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        return JSON.parse(line);
      }
      const { value, done } = await lines.read();
      if (done) throw new Error("the server closed its output");
      buffered += value;
    }
  };
  await send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  assert.equal((await answer()).id, 1);
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const match = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "match", arguments: { url: "/" } },
  });
  // Once first, so the request measured below pays for no module loading.
  await send(match(10));
  assert.equal((await answer()).id, 10);
  // The id last, as the SDK's client writes it; then a small request right behind it in the pipe.
  const huge = {
    jsonrpc: "2.0",
    method: "tools/call",
    params: { name: "match", arguments: { url: "x".repeat(60 << 20) } },
  };
  const bigLine = enc.encode(JSON.stringify({ ...huge, id: 2 }) + "\n");
  // Written whole (the pipe took it: the server has read all but its last pipe-buffer full), then the next request.
  const writing = performance.now();
  await stdin.write(bigLine);
  // A hang guard on the write itself: a reader that buffers quadratically took minutes to take in such a line.
  assert.ok(performance.now() - writing < 30_000, "the server took the 60 MB line in");
  const started = performance.now();
  await send(match(3));
  const refused = await answer();
  assert.equal(refused.id, 2);
  assert.equal(refused.error?.code, -32600);
  assert.match(refused.error?.message ?? "", /^request too large: \d+ bytes; the limit is 4194304 bytes \(4 MiB\)$/);
  const next = await answer();
  const ms = performance.now() - started;
  assert.equal(next.id, 3);
  assert.match(JSON.stringify(next.result), /view Home /);
  // The bound: the request behind a 60 MB line is not held up (the buffering this replaced took minutes).
  assert.ok(ms < 1000, `the request behind the 60 MB line was answered after ${Math.round(ms)} ms`);
  await stdin.close();
  const status = await child.status;
  assert.equal(status.code, 0);
  const log = new TextDecoder().decode(await new Response(child.stderr).arrayBuffer());
  assert.match(log, /refused a \d+-byte message \(id 2\)/);
  await lines.cancel();
});

Deno.test("mcp - shuts down when its standard input ends", async () => {
  await using dir = await tempDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: mapperCommand(["mcp"]),
    cwd: dir.path,
    env: baseEnv(dir.path),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = await child;
  assert.equal(out.code, 0);
  assert.equal(new TextDecoder().decode(out.stdout), "", "stdout carries the protocol only");
  assert.match(new TextDecoder().decode(out.stderr), /\[mcp\] standard input ended; shutting down\n$/);
});

Deno.test({
  name: "mcp - starts a session for console and network tools and stops it when the client disconnects",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const browser = requireBrowser();
    await using site = startSite();
    await using dir = await tempDir("mapper-mcp-");
    const cwd = dir.join("site");
    await Deno.mkdir(join(cwd, ".mapper"), { recursive: true });
    await Deno.writeTextFile(
      join(cwd, ".mapper", "site.yaml"),
      "memory:\n  - the test site\nviews:\n  - name: ApiPage\n    route: /api.html\n    memory:\n      - it fetches /api/data first\n",
    );
    const args = ["--headless", "--browser", browser, "--port", "0", "--url", `${site.origin}/api.html`];
    let pids: number[] = [];
    {
      await using mcp = await startMcp(args, { cwd, home: dir.join("home") });
      const logged = await waitFor("the page's last console line", async () => {
        const r = await mcp.call("console_list", {});
        return r.text.includes("api done") ? r : undefined;
      }, 30_000);
      assert.equal(logged.isError, false);
      assert.match(logged.text, /^\[\d+\] \[--\] log {7}api done$/m);
      const info = JSON.parse(await Deno.readTextFile(join(cwd, ".mapper", ".session")));
      pids = [info.daemonPid, info.chromiumPid];
      assert.match(mcp.stderr(), new RegExp(`\\[mcp\\] started a browser session \\(daemon pid ${info.daemonPid}`));

      const memory = await mcp.client.readResource({ uri: "mapper://memory" });
      assert.match(
        (memory.contents[0] as { text: string }).text,
        /^## Site\n- the test site\n\n## Tab [0-9A-F]{8}: http:\/\/127\.0\.0\.1:\d+\/api\.html → view ApiPage \(route \/api\.html\)\n- it fetches \/api\/data first\n$/m,
      );
      const errors = await mcp.call("console_list", { level: ["error"] });
      assert.match(errors.text, /^\[\d+\] \[--\] error {5}refused: TypeError: Failed to fetch$/m);
      // (via=xhr rather than the page's first fetch: the collector of the merged tree sometimes misses the very
      // first fetch after an initial --url load; reported to the lead, not this server's concern.)
      const list = await mcp.call("network_list", { url: "via=xhr" });
      const m = /^\[(\d+)\] \[--\] GET \S+\/api\/data\?via=xhr → 200 OK \(XHR\)$/m.exec(list.text);
      assert.ok(m, list.text);
      const got = await mcp.call("network_get", { index: Number(m[1]) });
      assert.equal(got.isError, false, got.text);
      assert.match(got.text, /\{"ok":true,"via":"xhr"\}/);
      const secret = await mcp.call("network_list", { type: "xhr" });
      const post = /^\[(\d+)\] \[--\] POST \S+\/api\/echo → 201 Created \(XHR\)$/m.exec(secret.text);
      assert.ok(post, secret.text);
      const redacted = await mcp.call("network_get", { index: Number(post[1]) });
      assert.match(redacted.text, /^ {2}Authorization: <redacted, 13 bytes — use --show-secrets>$/m);
      const shown = await mcp.call("network_get", { index: Number(post[1]), show_secrets: true });
      assert.match(shown.text, /^ {2}Authorization: Bearer s3cret$/m);
      const gone = await mcp.call("network_get", { index: 999_999 });
      assert.equal(gone.isError, true);
      assert.match(gone.text, / — pick an index shown by 'mapper network list'$/);
    }
    try {
      await waitFor("the session this server started to stop", () => pids.every((p) => !alive(p)), 15_000);
      await assert.rejects(Deno.stat(join(cwd, ".mapper", ".session")), Deno.errors.NotFound);
    } finally {
      pids.forEach(reap); // a failing server must not leave its browser behind
    }
  },
});

Deno.test({
  name: "mcp - uses a running session and leaves it running when the client disconnects",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using site = startSite();
    await using s = await startSession(["--url", `${site.origin}/index.html`]);
    {
      await using mcp = await startMcp([], { cwd: s.cwd, home: s.env.HOME! });
      const r = await waitFor("index.html's console output", async () => {
        const r = await mcp.call("console_list", { level: ["info"] });
        return r.text.includes("info message") ? r : undefined;
      });
      assert.equal(r.isError, false);
      assert.doesNotMatch(mcp.stderr(), /started a browser session/);
    }
    // The client's close returns once the server process exited, so a server that stopped the session has done so.
    assert.ok(alive(s.daemonPid) && alive(s.chromiumPid), "the session it found is still running");
    const status = await s.run(["browser", "status"]);
    assert.match(status.stdout, /^● running/);
  },
});

Deno.test({
  name: "mcp - SIGTERM stops the server and the session it started",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const browser = requireBrowser();
    await using dir = await tempDir("mapper-mcp-");
    const cwd = dir.join("site");
    await Deno.mkdir(join(cwd, ".mapper"), { recursive: true });
    let pids: number[] = [];
    try {
      await using mcp = await startMcp(["--headless", "--browser", browser, "--port", "0"], {
        cwd,
        home: dir.join("home"),
      });
      const r = await mcp.call("console_list");
      assert.equal(r.isError, false, r.text);
      const info = JSON.parse(await Deno.readTextFile(join(cwd, ".mapper", ".session")));
      pids = [info.daemonPid, info.chromiumPid];
      Deno.kill(mcp.pid, "SIGTERM");
      await waitFor("the server to exit", () => !alive(mcp.pid), 15_000);
      assert.match(mcp.stderr(), /\[mcp\] stopped by a signal; shutting down\n/);
      assert.ok(pids.every((p) => !alive(p)), "the session it started is stopped before the server exits");
    } finally {
      pids.forEach(reap);
    }
  },
});
