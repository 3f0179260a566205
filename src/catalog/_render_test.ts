import assert from "node:assert/strict";
import { renderMarkdown, safeLink } from "./_render.ts";

Deno.test("catalog render - only http(s), mailto and relative links survive, however the scheme is spelt", () => {
  for (
    const bad of ["javascript:x", "JaVaScRiPt:x", " javascript:x", "java\tscript:x", "data:text/html,x", "vbscript:x"]
  ) {
    assert.equal(safeLink(bad), false, bad);
  }
  for (const good of ["https://a.example/", "http://a.example/", "mailto:a@example.com", "/atlas/x", "#top", "x.md"]) {
    assert.equal(safeLink(good), true, good);
  }
  const html = renderMarkdown(
    "[a](jav&#x61;script:alert(1)) [b](java&#09;script:alert(1)) ![c](javascript:alert(1)) <b onclick=x>raw</b>\n",
  );
  assert.ok(!/<img|<b /.test(html), html);
  // A percent-encoded tab is no scheme separator for a browser: the link stays a harmless relative path.
  const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => decodeURIComponent(m[1]!));
  assert.deepEqual(hrefs, ["java\tscript:alert(1)"]);
  assert.ok(!/href="[a-z]+:/i.test(html), html);
  assert.ok(html.includes("&lt;b onclick=x&gt;raw&lt;/b&gt;"), html);
});

Deno.test("catalog render - headings are demoted one level and images become links", () => {
  const html = renderMarkdown("# Title\n\n###### Deep\n\n![alt](https://img.example/x.png)\n");
  assert.ok(html.startsWith("<h2>Title</h2>\n<h6>Deep</h6>\n"), html);
  assert.ok(html.includes('<a href="https://img.example/x.png" rel="nofollow noopener">[image: alt]</a>'), html);
});

Deno.test("catalog render - a README table is wrapped in its own scroll box", () => {
  const html = renderMarkdown("| View | Route |\n|---|---|\n| Home | `/` |\n");
  assert.ok(html.startsWith('<div class="scroll"><table>\n'), html);
  assert.ok(html.endsWith("</table></div>\n"), html);
});
