import assert from "node:assert/strict";
import { addCommand, findCommand } from "./_install.ts";

Deno.test("catalog install commands - plain for the public atlas, naming this catalog's index anywhere else", () => {
  assert.equal(addCommand("https://sightmap.org", "github"), "mapper atlas add github");
  assert.equal(findCommand("https://sightmap.org"), "mapper atlas find <domain>");
  assert.equal(
    addCommand("http://127.0.0.1:8080", "demo-shop"),
    "mapper atlas add demo-shop --index http://127.0.0.1:8080/atlas/index.json",
  );
  assert.equal(
    findCommand("https://mirror.example/catalog"),
    "mapper atlas find <domain> --index https://mirror.example/catalog/atlas/index.json",
  );
});
