/**
 * `routeOverlap` (assets/extension/resolver.js): whether two routes match a common path, exactly, for every segment
 * form — checked on crafted cases and, for random routes, against a brute-force search over paths built from the
 * routes' own pieces (a path both match, if any exists, is among them). Every witness it returns is matched by both.
 */
import assert from "node:assert/strict";
import { matchRoute, routeOverlap } from "../assets/extension/resolver.js";
import { seeded } from "./_random.ts";

Deno.test("route overlap - crafted cases: crossing wildcards, globstars, params, glued wildcards", () => {
  const cases: Array<[string, string, boolean]> = [
    ["/x/*", "/*/y", true], // crossing: /x/y
    ["/x/:id", "/*/y", true],
    ["/x/y", "/x/z", false],
    ["/a/**", "/a", true],
    ["/a/**/b", "/a/b", true],
    ["/a/**/b", "/a/c", false],
    ["/**/b/**", "/a/**", true],
    ["/**", "/", true],
    ["/*", "/", false],
    ["/a/*", "/a/b/c", false],
    ["/a/**", "/b/**", false],
    ["/img/*.png", "/img/logo.*", true],
    ["/img/*.png", "/img/*.jpg", false],
    ["/img/a*", "/img/*b", true],
    ["/m/ab*", "/m/*ba", true], // aba
    ["/m/a*", "/m/b*", false],
    ["/p/v-:id", "/p/:slug", true], // a glued ":" is literal
    ["/p/v-:id", "/p/v-7", false],
    ["/a%2Fb", "/*", false], // a decoded "/" never sits inside one segment
    ["https://a.example/x", "https://b.example/x", true], // hosts are not compared: a bare path matches both
    ["", "/", false],
  ];
  for (const [a, b, expected] of cases) {
    for (const [x, y] of [[a, b], [b, a]] as const) {
      const witness = routeOverlap(x, y);
      assert.equal(witness !== null, expected, `${x} ∩ ${y}: ${witness}`);
      if (witness !== null) {
        assert.notEqual(matchRoute(x, witness), null, `${x} should match its witness ${witness}`);
        assert.notEqual(matchRoute(y, witness), null, `${y} should match its witness ${witness}`);
      }
    }
  }
  assert.equal(routeOverlap("/x/*", "/*/y"), "/x/y");
});

/** Segment forms random routes are built from: literals, params, stars, globstars, glued wildcards. */
const SEGMENTS = ["a", "b", "ab", "ba", ":id", ":slug", "*", "**", "a*", "*b", "a*b", "*a*", "b*"];

Deno.test("route overlap - random routes agree with a brute-force search for a common path", () => {
  const rng = seeded();
  // Every path of up to 4 segments over these values: literal pieces, strings glued wildcards match, and one
  // that only wildcards match.
  const values = ["a", "b", "ab", "ba", "aba", "q"];
  const paths: string[] = [];
  const grow = (prefix: string[]) => {
    paths.push(`/${prefix.join("/")}`);
    if (prefix.length < 4) { for (const v of values) grow([...prefix, v]); }
  };
  grow([]);
  for (let n = 0; n < 300; n++) {
    const route = () => `/${Array.from({ length: rng.int(4) }, () => rng.pick(SEGMENTS)).join("/")}`;
    const a = route();
    const b = route();
    const witness = routeOverlap(a, b);
    const found = paths.find((p) => matchRoute(a, p) !== null && matchRoute(b, p) !== null);
    if (found !== undefined) {
      assert.notEqual(witness, null, `${a} and ${b} both match ${found}, yet no overlap was found; ${rng.replay}`);
    }
    if (witness !== null) {
      assert.ok(
        matchRoute(a, witness) !== null && matchRoute(b, witness) !== null,
        `witness ${witness} of ${a} ∩ ${b} is not matched by both; ${rng.replay}`,
      );
    }
  }
});
