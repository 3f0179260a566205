import assert from "node:assert/strict";
import { load, stats } from "./mod.ts";
import { tempCorpus } from "./_testing.ts";

Deno.test("stats - counts distinct names, distinct definitions, memory and per-view reach", async () => {
  await using c = await tempCorpus({
    "shared.yaml": [
      "version: 1",
      "memory: [file note]",
      "components:",
      "  - name: Header",
      "    selector: header",
      "    memory: [header note]",
      "    properties: [{name: title, extract: text}]",
      "  - $ref: Header", // an exact copy: collapses
      "requests:",
      "  - {name: Beacon, route: /b, memory: [beacon note]}",
      "messages:",
      "  - {name: LoginRequired, level: error, message: login required}",
      "",
    ].join("\n"),
    "views.yaml": [
      "version: 1",
      "views:",
      "  - name: Home",
      "    route: /",
      "    memory: [home note]",
      "    components:",
      "      - $ref: Header", // same definition again: collapses
      "      - name: Card", // pasted in two views identically: collapses
      "        selector: .card",
      "        properties: [{name: a, extract: text}, {name: b, extract: attr=href}]",
      "        children:",
      "          - $ref: Header", // under a parent: its own definition
      "    requests:",
      "      - {name: Feed, route: /feed}",
      "  - name: List",
      "    route: /list",
      "    components:",
      "      - name: Card",
      "        selector: .card",
      "        properties: [{name: a, extract: text}, {name: b, extract: attr=href}]",
      "        children:",
      "          - $ref: Header",
      "      - name: Card", // same name, different definition: counts
      "        selector: .card.other",
      "        properties: [{name: c, extract: text}]",
      "",
    ].join("\n"),
  });
  const { corpus } = await load(c.dir);
  assert.deepEqual(stats(corpus), {
    views: 2,
    components: 2, // Header, Card
    requests: 2,
    messages: 1,
    // Header 1 + Card 2 + Header-under-.card 1 + other Card 1
    properties: 5,
    // file 1 + Header 1 + Header-under-.card 1 + beacon 1 + home 1
    memory: 5,
    per_view: [
      { name: "Home", route: "/", components: 3, requests: 1 },
      { name: "List", route: "/list", components: 3, requests: 0 },
    ],
  });
});
