import assert from "node:assert/strict";
import { addToView } from "./add_to_view.ts";

const FILE = `# the shop
version: 1

views:
  - name: Home
    route: /
    components:
      - name: Hero # the banner
        selector: .hero
  - name: Bare
    route: /bare
`;

Deno.test("addToView - appends to the named view only, keeping comments and the other views", () => {
  const r = addToView(FILE, "Home", "- name: Search\n  selector: 'form[role=search]'\n");
  assert.equal(r.kind, "ok");
  const text = (r as { text: string }).text;
  assert.match(text, /^# the shop\n/);
  assert.match(
    text,
    /- name: Hero # the banner\n {8}selector: \.hero\n {6}- name: Search\n {8}selector: form\[role=search\]\n/,
  );
  assert.match(text, /- name: Bare\n {4}route: \/bare\n$/);
});

Deno.test("addToView - a view without components gets the list; an unknown view or bad text is said", () => {
  const r = addToView(FILE, "Bare", "- name: Logo\n  selector: img.logo\n");
  assert.match((r as { text: string }).text, /route: \/bare\n {4}components:\n {6}- name: Logo\n/);
  assert.deepEqual(addToView(FILE, "Nope", "- name: X\n  selector: x\n"), {
    kind: "no-view",
    message: 'no view named "Nope" in the file',
  });
  assert.equal(addToView("views: [", "Home", "- name: X\n").kind, "parse-error");
  assert.equal(addToView(FILE, "Home", "name: X\n").kind, "parse-error");
});
