import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { chordEvents, clickEvents, parseChord } from "./input.ts";

Deno.test("parseChord - named keys, aliases and single characters have DOM key, code and key code", () => {
  const enter = parseChord("enter");
  assert.deepEqual([enter.key.key, enter.key.code, enter.key.keyCode, enter.key.text], ["Enter", "Enter", 13, "\r"]);
  assert.equal(parseChord("Esc").key.key, "Escape");
  assert.equal(parseChord("ArrowDown").key.keyCode, 40);
  assert.equal(parseChord("F5").key.code, "F5");
  assert.deepEqual([parseChord("a").key.code, parseChord("a").key.keyCode], ["KeyA", 65]);
  assert.deepEqual([parseChord("7").key.code, parseChord("?").key.code], ["Digit7", "Slash"]);
  assert.equal(parseChord("Space").key.text, " ");
});

Deno.test("parseChord - chords collect modifiers; Shift capitalises a letter; labels are canonical", () => {
  const c = parseChord("ctrl+a");
  assert.deepEqual(c.modifiers, ["Control"]);
  assert.equal(c.label, "Control+A");
  const s = parseChord("Shift+a");
  assert.equal(s.key.key, "A");
  assert.equal(parseChord("Shift+Tab").label, "Shift+Tab");
  assert.equal(parseChord("Control++").key.key, "+");
});

Deno.test("parseChord - unknown keys and modifiers are usage errors naming what is accepted", () => {
  assert.throws(
    () => parseChord("Entr"),
    (e: unknown) => e instanceof UsageError && /unknown key "Entr"/.test(e.message),
  );
  assert.throws(
    () => parseChord("Hyper+A"),
    (e: unknown) => e instanceof UsageError && /not a modifier/.test(e.message),
  );
  assert.throws(() => parseChord(""), UsageError);
  assert.throws(() => parseChord("Control+"), UsageError);
});

Deno.test("chordEvents - modifiers wrap the key; Control suppresses the typed text", () => {
  const ev = chordEvents(parseChord("Control+A"));
  assert.deepEqual(ev.map((e) => [e.type, e.key, e.modifiers]), [
    ["rawKeyDown", "Control", 2],
    ["rawKeyDown", "a", 2],
    ["keyUp", "a", 2],
    ["keyUp", "Control", 0],
  ]);
  assert.equal(ev[1]!.text, undefined);
  const enter = chordEvents(parseChord("Enter"));
  assert.deepEqual(enter.map((e) => [e.type, e.text]), [["keyDown", "\r"], ["keyUp", undefined]]);
  const shift = chordEvents(parseChord("Shift+a"));
  assert.equal(shift[1]!.text, "A");
});

Deno.test("clickEvents - move, press and release at the same point, one click", () => {
  const ev = clickEvents(10, 20);
  assert.deepEqual(ev.map((e) => e.type), ["mouseMoved", "mousePressed", "mouseReleased"]);
  assert.ok(ev.every((e) => e.x === 10 && e.y === 20));
  assert.equal(ev[1]!.clickCount, 1);
});
