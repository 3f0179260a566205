/**
 * Real input for the action engine: key names and chords (`Enter`, `Control+A`, `Shift+Tab`) turned into CDP
 * `Input.dispatchKeyEvent` parameters with the right `key`, `code`, key code, text and modifier bits, and mouse
 * gestures (move, press, release) as `Input.dispatchMouseEvent` parameters. Pure: the engine sends what these
 * return, so the tables are unit-tested without a browser.
 *
 * @module
 */
import type { CdpParams } from "../browser/mod.ts";
import { UsageError } from "../errors.ts";

/** One key of the US layout: DOM `key`, DOM `code`, Windows virtual key code, and the text it types (if any). */
interface KeyDef {
  key: string;
  code: string;
  keyCode: number;
  text?: string;
  /** Location: 1 left, 2 right, 3 numpad. */
  location?: number;
}

/** CDP modifier bits (`Input.dispatchKeyEvent` / `dispatchMouseEvent` `modifiers`). */
export const MODIFIER_BITS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 } as const;
/** A modifier key name. */
export type Modifier = keyof typeof MODIFIER_BITS;

const MODIFIER_ALIASES: Record<string, Modifier> = {
  alt: "Alt",
  option: "Alt",
  control: "Control",
  ctrl: "Control",
  meta: "Meta",
  cmd: "Meta",
  command: "Meta",
  super: "Meta",
  shift: "Shift",
};

const MODIFIER_KEYS: Record<Modifier, KeyDef> = {
  Alt: { key: "Alt", code: "AltLeft", keyCode: 18, location: 1 },
  Control: { key: "Control", code: "ControlLeft", keyCode: 17, location: 1 },
  Meta: { key: "Meta", code: "MetaLeft", keyCode: 91, location: 1 },
  Shift: { key: "Shift", code: "ShiftLeft", keyCode: 16, location: 1 },
};

/** Named (non-character) keys, by lower-cased name; aliases point at the same definition. */
const NAMED: Record<string, KeyDef> = {
  enter: { key: "Enter", code: "Enter", keyCode: 13, text: "\r" },
  return: { key: "Enter", code: "Enter", keyCode: 13, text: "\r" },
  tab: { key: "Tab", code: "Tab", keyCode: 9 },
  escape: { key: "Escape", code: "Escape", keyCode: 27 },
  esc: { key: "Escape", code: "Escape", keyCode: 27 },
  backspace: { key: "Backspace", code: "Backspace", keyCode: 8 },
  delete: { key: "Delete", code: "Delete", keyCode: 46 },
  insert: { key: "Insert", code: "Insert", keyCode: 45 },
  space: { key: " ", code: "Space", keyCode: 32, text: " " },
  arrowup: { key: "ArrowUp", code: "ArrowUp", keyCode: 38 },
  arrowdown: { key: "ArrowDown", code: "ArrowDown", keyCode: 40 },
  arrowleft: { key: "ArrowLeft", code: "ArrowLeft", keyCode: 37 },
  arrowright: { key: "ArrowRight", code: "ArrowRight", keyCode: 39 },
  up: { key: "ArrowUp", code: "ArrowUp", keyCode: 38 },
  down: { key: "ArrowDown", code: "ArrowDown", keyCode: 40 },
  left: { key: "ArrowLeft", code: "ArrowLeft", keyCode: 37 },
  right: { key: "ArrowRight", code: "ArrowRight", keyCode: 39 },
  home: { key: "Home", code: "Home", keyCode: 36 },
  end: { key: "End", code: "End", keyCode: 35 },
  pageup: { key: "PageUp", code: "PageUp", keyCode: 33 },
  pagedown: { key: "PageDown", code: "PageDown", keyCode: 34 },
};
for (let i = 1; i <= 12; i++) NAMED[`f${i}`] = { key: `F${i}`, code: `F${i}`, keyCode: 111 + i };

const PUNCTUATION: Record<string, [code: string, keyCode: number, shifted: boolean]> = {
  "-": ["Minus", 189, false],
  "_": ["Minus", 189, true],
  "=": ["Equal", 187, false],
  "+": ["Equal", 187, true],
  "[": ["BracketLeft", 219, false],
  "{": ["BracketLeft", 219, true],
  "]": ["BracketRight", 221, false],
  "}": ["BracketRight", 221, true],
  "\\": ["Backslash", 220, false],
  "|": ["Backslash", 220, true],
  ";": ["Semicolon", 186, false],
  ":": ["Semicolon", 186, true],
  "'": ["Quote", 222, false],
  '"': ["Quote", 222, true],
  ",": ["Comma", 188, false],
  "<": ["Comma", 188, true],
  ".": ["Period", 190, false],
  ">": ["Period", 190, true],
  "/": ["Slash", 191, false],
  "?": ["Slash", 191, true],
  "`": ["Backquote", 192, false],
  "~": ["Backquote", 192, true],
};
const SHIFTED_DIGITS = ")!@#$%^&*(";

/** The definition of a single character key (`a`, `A`, `7`, `?`), or `undefined`. */
function charKey(ch: string): KeyDef | undefined {
  if (/^[a-z]$/i.test(ch)) {
    const upper = ch.toUpperCase();
    return { key: ch, code: `Key${upper}`, keyCode: upper.charCodeAt(0), text: ch };
  }
  if (/^[0-9]$/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch };
  const shiftedDigit = SHIFTED_DIGITS.indexOf(ch);
  if (shiftedDigit >= 0) return { key: ch, code: `Digit${shiftedDigit}`, keyCode: 48 + shiftedDigit, text: ch };
  const p = PUNCTUATION[ch];
  if (p) return { key: ch, code: p[0], keyCode: p[1], text: ch };
  return undefined;
}

/** A parsed key chord: the modifiers held, then the key pressed. */
export interface Chord {
  modifiers: Modifier[];
  key: KeyDef;
  /** The chord as written back canonically (`Control+A`), for confirmation lines. */
  label: string;
}

const KNOWN = "Enter, Tab, Escape, Backspace, Delete, Space, ArrowUp/Down/Left/Right, Home, End, PageUp, PageDown, " +
  "F1–F12, a single character, or a chord like Control+A or Shift+Tab";

/** Parses `KEY` or `Mod+Mod+KEY`; throws a {@linkcode UsageError} naming the accepted keys. */
export function parseChord(input: string): Chord {
  const raw = input.trim();
  // "+" alone, or a chord ending in "+" ("Shift++"), presses the plus key.
  const parts = raw === "+" ? ["+"] : raw.endsWith("++") ? [...raw.slice(0, -2).split("+"), "+"] : raw.split("+");
  if (raw === "" || parts.some((p) => p === "")) {
    throw new UsageError(`key ${JSON.stringify(input)} is not a key name`, { hint: `use ${KNOWN}` });
  }
  const name = parts.pop()!;
  const modifiers: Modifier[] = [];
  for (const m of parts) {
    const mod = MODIFIER_ALIASES[m.toLowerCase()];
    if (!mod) {
      throw new UsageError(`"${m}" in key ${JSON.stringify(input)} is not a modifier`, {
        hint: "modifiers are Control (Ctrl), Shift, Alt and Meta (Cmd)",
      });
    }
    if (!modifiers.includes(mod)) modifiers.push(mod);
  }
  const onlyModifier = MODIFIER_ALIASES[name.toLowerCase()];
  let key: KeyDef | undefined = onlyModifier ? MODIFIER_KEYS[onlyModifier] : NAMED[name.toLowerCase()];
  if (!key && [...name].length === 1) key = charKey(name);
  if (!key) throw new UsageError(`unknown key ${JSON.stringify(name)}`, { hint: `use ${KNOWN}` });
  // A letter's case comes from Shift, as on a keyboard: "Control+A" presses "a", "Shift+a" types "A".
  if (/^[a-z]$/i.test(key.key) && key.text !== undefined) {
    const typed = modifiers.includes("Shift") ? key.key.toUpperCase() : key.key.toLowerCase();
    key = { ...key, key: typed, text: typed };
  }
  const shown = key.key === " " ? "Space" : key.key.length === 1 ? key.key.toUpperCase() : key.key;
  return { modifiers, key, label: [...modifiers, shown].join("+") };
}

/** Parameters of one `Input.dispatchKeyEvent` call. */
export type KeyEventParams = CdpParams<"Input.dispatchKeyEvent">;

function keyEvent(type: "keyDown" | "rawKeyDown" | "keyUp", k: KeyDef, modifiers: number, text?: string) {
  const p: KeyEventParams = {
    type,
    key: k.key,
    code: k.code,
    windowsVirtualKeyCode: k.keyCode,
    nativeVirtualKeyCode: k.keyCode,
    modifiers,
  };
  if (k.location !== undefined) p.location = k.location;
  if (text !== undefined) {
    p.text = text;
    p.unmodifiedText = text;
  }
  return p;
}

/**
 * The `Input.dispatchKeyEvent` calls that press a chord: each modifier down (with the bits held so far), the key
 * down (with its text only when no Control/Alt/Meta is held: Control+A selects, it does not type "a"), the key up,
 * then the modifiers up in reverse order.
 */
export function chordEvents(chord: Chord): KeyEventParams[] {
  const events: KeyEventParams[] = [];
  let bits = 0;
  for (const m of chord.modifiers) {
    bits |= MODIFIER_BITS[m];
    events.push(keyEvent("rawKeyDown", MODIFIER_KEYS[m], bits));
  }
  const types = chord.key.text !== undefined && (bits & ~MODIFIER_BITS.Shift) === 0;
  events.push(
    types ? keyEvent("keyDown", chord.key, bits, chord.key.text) : keyEvent("rawKeyDown", chord.key, bits),
  );
  events.push(keyEvent("keyUp", chord.key, bits));
  for (const m of [...chord.modifiers].reverse()) {
    bits &= ~MODIFIER_BITS[m];
    events.push(keyEvent("keyUp", MODIFIER_KEYS[m], bits));
  }
  return events;
}

/** Parameters of one `Input.dispatchMouseEvent` call. */
export type MouseEventParams = Record<string, unknown>;

/** A left click at a viewport point: move there, press, release (one click, as a user's). */
export function clickEvents(x: number, y: number): MouseEventParams[] {
  return [...moveEvents(x, y), ...pressEvents(x, y)];
}

/** The press and release of a left click, the pointer already at the point. */
export function pressEvents(x: number, y: number): MouseEventParams[] {
  return [
    { type: "mousePressed", x, y, button: "left", buttons: 1, clickCount: 1 },
    { type: "mouseReleased", x, y, button: "left", buttons: 0, clickCount: 1 },
  ];
}

/** A pointer move to a viewport point (hover). */
export function moveEvents(x: number, y: number): MouseEventParams[] {
  return [{ type: "mouseMoved", x, y, button: "none", buttons: 0 }];
}
