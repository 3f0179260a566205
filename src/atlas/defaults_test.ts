import assert from "node:assert/strict";
import { isUrl } from "./defaults.ts";

Deno.test("atlas locations - Windows drive letters and UNC paths are files, not URLs with a one-letter scheme", () => {
  for (const path of ["C:\\x\\index.json", "c:/x/index.json", "D:index.json", "\\\\server\\share\\index.json"]) {
    assert.equal(isUrl(path), false, path);
  }
  for (const path of ["//server/share/index.json", "./index.json", "index.json", "/srv/atlas/index.json"]) {
    assert.equal(isUrl(path), false, path);
  }
});

Deno.test("atlas locations - anything with a scheme of two or more letters is a URL (file: is then refused)", () => {
  for (const url of ["https://sightmap.org/atlas/index.json", "http://127.0.0.1:8080/i.json", "file:///C:/x/i.json"]) {
    assert.equal(isUrl(url), true, url);
  }
});
