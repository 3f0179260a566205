import assert from "node:assert/strict";
import * as node from "node:path";
import { posix, win32 } from "./path.ts";

/** Deterministic pseudo-random paths built from the pieces that make path code go wrong. */
function* randomPaths(pieces: string[], count: number, seed = 1): Generator<string> {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648);
  for (let n = 0; n < count; n++) {
    let path = "";
    const length = next() % 7;
    for (let i = 0; i < length; i++) path += pieces[next() % pieces.length];
    yield path;
  }
}

const POSIX_PIECES = ["a", "bc", ".", "..", "/", "//", "x.y", " "];
const WIN_PIECES = ["a", "bc", ".", "..", "/", "\\", "x.y", "a b"];
const WIN_ROOTS = ["", "", "C:\\", "c:/", "D:", "\\", "/", "\\\\srv\\share\\", "//srv/share/"];

/** Windows paths: an optional root (drive, drive-relative, rooted, UNC share) followed by random pieces. */
function* windowsPaths(count: number, seed = 1): Generator<string> {
  let n = 0;
  for (const rest of randomPaths(WIN_PIECES, count, seed)) yield WIN_ROOTS[n++ % WIN_ROOTS.length] + rest;
}

for (
  const [name, ours, theirs, generate, base] of [
    ["posix", posix, node.posix, (count: number, seed?: number) => randomPaths(POSIX_PIECES, count, seed), "/base/dir"],
    ["win32", win32, node.win32, windowsPaths, "C:\\base\\dir"],
  ] as const
) {
  Deno.test(`path ${name} - normalize, join, isAbsolute, basename and dirname agree with node:path`, () => {
    const paths = [...generate(4000)];
    for (const p of paths) {
      assert.equal(ours.normalize(p), theirs.normalize(p), `normalize(${JSON.stringify(p)})`);
      assert.equal(ours.isAbsolute(p), theirs.isAbsolute(p), `isAbsolute(${JSON.stringify(p)})`);
      assert.equal(ours.basename(p), theirs.basename(p), `basename(${JSON.stringify(p)})`);
      assert.equal(ours.dirname(p), theirs.dirname(p), `dirname(${JSON.stringify(p)})`);
    }
    for (let i = 0; i + 2 < paths.length; i += 3) {
      const parts = paths.slice(i, i + 3);
      assert.equal(ours.join(...parts), theirs.join(...parts), `join(${JSON.stringify(parts)})`);
    }
  });

  Deno.test(`path ${name} - resolve against an absolute base agrees with node:path`, () => {
    const paths = [...generate(3000, 7)];
    for (let i = 0; i + 1 < paths.length; i += 2) {
      const parts = [base, paths[i]!, paths[i + 1]!];
      assert.equal(ours.resolve(...parts), theirs.resolve(...parts), `resolve(${JSON.stringify(parts)})`);
    }
  });

  Deno.test(`path ${name} - relative between two paths agrees with node:path`, () => {
    const paths = [...generate(3000, 11)];
    for (let i = 0; i + 1 < paths.length; i += 2) {
      // Both under the base (relative ones resolve against it), one level up, and under the first written in
      // capitals (the same directory on Windows, another one on POSIX).
      const from = ours.resolve(base, paths[i]!);
      const tos = [base, `${base}/..`, from.toUpperCase()].map((dir) => ours.resolve(dir, paths[i + 1]!));
      for (const to of tos) {
        assert.equal(ours.relative(from, to), theirs.relative(from, to), `relative(${JSON.stringify([from, to])})`);
      }
    }
  });
}

Deno.test("path win32 - join of a lone root and relative parts stays rooted, not a UNC path, as in node:path", () => {
  const cases = [
    ["/", "a/b"],
    ["\\", "a"],
    ["/", "/a"],
    ["\\\\", "a"],
    ["//", "x", "y"],
    ["", "/", "a"],
    ["/\\", "a"],
    ["\\\\srv\\share", "x"],
    ["//srv", "x"],
  ];
  for (const parts of cases) assert.equal(win32.join(...parts), node.win32.join(...parts), JSON.stringify(parts));
  assert.equal(win32.join("/", "a/b"), "\\a\\b");
  assert.equal(win32.join("\\\\srv\\share", "x"), "\\\\srv\\share\\x");
});
