import assert from "node:assert/strict";
import { axFacts } from "./_ax.ts";

const prop = (name: string, value: unknown) => ({ name, value: { value } });

Deno.test("axFacts - an ElementInternals radio gives its role, name and checked state", () => {
  assert.deepEqual(
    axFacts({
      role: { value: "radio" },
      name: { value: "  Dark\n mode " },
      properties: [prop("focusable", true), prop("checked", "true")],
    }),
    { role: "radio", name: "Dark mode", states: ["checked"] },
  );
});

Deno.test("axFacts - states in the snapshot's words and order; false ones are left out", () => {
  assert.deepEqual(
    axFacts({
      role: { value: "tab" },
      name: { value: "Privacy" },
      properties: [
        prop("readonly", true),
        prop("selected", true),
        prop("expanded", false),
        prop("required", true),
        prop("checked", "false"),
        prop("disabled", true),
      ],
    })?.states,
    ["disabled", "collapsed", "selected", "required", "readonly"],
  );
});

Deno.test("axFacts - no facts for an ignored node, no role, or one of Chromium's own roles", () => {
  assert.equal(axFacts(undefined), undefined);
  assert.equal(axFacts({ ignored: true, role: { value: "radio" } }), undefined);
  for (const role of ["generic", "none", "presentation", "GenericContainer", "LabelText", 3]) {
    assert.equal(axFacts({ role: { value: role }, name: { value: "x" } }), undefined, String(role));
  }
  assert.deepEqual(axFacts({ role: { value: "tablist" } }), { role: "tablist", name: "", states: [] });
});

Deno.test("axFacts - a combobox that only picks: its choice without the label its field draws inside it", () => {
  const combo = (name: string, value: string) =>
    axFacts({ role: { value: "combobox" }, name: { value: name }, value: { value } });
  assert.equal(combo("Language", "Language  French")?.value, "French");
  assert.equal(combo("Language", "French")?.value, "French");
  assert.equal(combo("Language", "Language")?.value, "");
  assert.equal(combo("", " French ")?.value, "French");
  assert.equal(combo("Language", "Languages French")?.value, "Languages French");
  // Only a combobox's value is its choice: a textbox's is left to the page.
  assert.equal(
    axFacts({ role: { value: "textbox" }, name: { value: "Q" }, value: { value: "Q x" } })?.value,
    undefined,
  );
});
