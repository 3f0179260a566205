import assert from "node:assert/strict";
import { parseTarget, QueryParseError, type Target, testPredicate } from "./query.ts";

const P = (prop: string, op: "=" | "^=" | "*=", value: string, caseInsensitive = false) => ({
  prop,
  op,
  value,
  caseInsensitive,
});

/** Query text → parsed target (text omitted), or the parse error's message. */
const CASES: Array<[string, Omit<Extract<Target, { kind: "query" }>, "text"> | { kind: "id"; id: number } | string]> = [
  ["ProductCard", { kind: "query", parts: [{ name: "ProductCard", predicates: [] }], index: undefined }],
  ["  Search_2  ", { kind: "query", parts: [{ name: "Search_2", predicates: [] }], index: undefined }],
  ["ProductCard[name=Lamp]", {
    kind: "query",
    parts: [{ name: "ProductCard", predicates: [P("name", "=", "Lamp")] }],
    index: undefined,
  }],
  ['ProductCard[name="Cedar Cutting Board"]', {
    kind: "query",
    parts: [{ name: "ProductCard", predicates: [P("name", "=", "Cedar Cutting Board")] }],
    index: undefined,
  }],
  ['ProductCard[ name ^= "Cedar" ]', {
    kind: "query",
    parts: [{ name: "ProductCard", predicates: [P("name", "^=", "Cedar")] }],
    index: undefined,
  }],
  ["Card[sold-out*=tru i]", {
    kind: "query",
    parts: [{ name: "Card", predicates: [P("sold-out", "*=", "tru", true)] }],
    index: undefined,
  }],
  ['Card[name="a \\"quoted\\" \\\\ name" i][id=3]', {
    kind: "query",
    parts: [{ name: "Card", predicates: [P("name", "=", 'a "quoted" \\ name', true), P("id", "=", "3")] }],
    index: undefined,
  }],
  ['Card[name="]"]', { kind: "query", parts: [{ name: "Card", predicates: [P("name", "=", "]")] }], index: undefined }],
  ["LoginForm UsernameInput", {
    kind: "query",
    parts: [{ name: "LoginForm", predicates: [] }, { name: "UsernameInput", predicates: [] }],
    index: undefined,
  }],
  ["List[id=1]  Row   Button#2", {
    kind: "query",
    parts: [
      { name: "List", predicates: [P("id", "=", "1")] },
      { name: "Row", predicates: [] },
      { name: "Button", predicates: [] },
    ],
    index: 2,
  }],
  ["AddToCartButton#0", { kind: "query", parts: [{ name: "AddToCartButton", predicates: [] }], index: 0 }],
  ["42", { kind: "id", id: 42 }],
  ["#42", { kind: "id", id: 42 }],
  ["", "query '': expected a component name at position 0"],
  ["ProductCard[name^=", "query 'ProductCard[name^=': expected a value at position 18"],
  ["ProductCard[name", "query 'ProductCard[name': expected =, ^= or *= at position 16"],
  ["ProductCard[=x]", "query 'ProductCard[=x]': expected a property name at position 12"],
  ["ProductCard[name=x", "query 'ProductCard[name=x': expected ] at position 18"],
  ['ProductCard[name="x]', "query 'ProductCard[name=\"x]': expected a closing quote at position 20"],
  ["ProductCard[name=Cedar Board]", "query 'ProductCard[name=Cedar Board]': expected ] at position 23"],
  ["Card#", "query 'Card#': expected a number after # at position 5"],
  ["Card#1 Button", "query 'Card#1 Button': expected the end of the query after #N at position 7"],
  ["Card.name", "query 'Card.name': expected a space, [ or # at position 4"],
  ["[name=x]", "query '[name=x]': expected a component name at position 0"],
];

Deno.test("parseTarget - the query grammar, case by case", () => {
  for (const [text, want] of CASES) {
    if (typeof want === "string") {
      assert.throws(() => parseTarget(text), (err: unknown) => {
        assert.ok(err instanceof QueryParseError, text);
        assert.equal(err.message, want);
        return true;
      });
      continue;
    }
    const got = parseTarget(text);
    const { text: _text, ...rest } = got;
    assert.deepEqual(rest, want, text);
  }
});

Deno.test("parseTarget - a parse error is a usage error with a hint showing the forms", () => {
  try {
    parseTarget("X[");
    assert.fail("no error");
  } catch (err: unknown) {
    assert.ok(err instanceof QueryParseError);
    assert.equal(err.exitCode, 2);
    assert.match(err.hint ?? "", /Name\[prop=value\]/);
  }
});

Deno.test("testPredicate - exact, prefix, substring, case flag; a missing property never matches", () => {
  assert.equal(testPredicate(P("n", "=", "Lamp"), "Lamp"), true);
  assert.equal(testPredicate(P("n", "=", "Lamp"), "Lamp XL"), false);
  assert.equal(testPredicate(P("n", "=", "lamp"), "Lamp"), false);
  assert.equal(testPredicate(P("n", "=", "lamp", true), "LAMP"), true);
  assert.equal(testPredicate(P("n", "^=", "Cedar"), "Cedar Board"), true);
  assert.equal(testPredicate(P("n", "^=", "Board"), "Cedar Board"), false);
  assert.equal(testPredicate(P("n", "*=", "dar B"), "Cedar Board"), true);
  assert.equal(testPredicate(P("n", "*=", ""), undefined), false);
  assert.equal(testPredicate(P("n", "=", ""), ""), true);
});
