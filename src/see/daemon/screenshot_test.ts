import assert from "node:assert/strict";
import { imageSize } from "./screenshot.ts";

Deno.test("imageSize - reads a PNG's IHDR and a JPEG's SOF; anything else is 0×0", () => {
  const png = Uint8Array.from(
    atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="),
    (c) => c.charCodeAt(0),
  );
  assert.deepEqual(imageSize(png), [1, 1]);
  // SOI, APP0 (length 4), SOF0 with height 480 and width 640.
  const jpeg = new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0,
    4,
    0,
    0,
    0xff,
    0xc0,
    0,
    11,
    8,
    0x01,
    0xe0,
    0x02,
    0x80,
    3,
    0,
    0,
  ]);
  assert.deepEqual(imageSize(jpeg), [640, 480]);
  assert.deepEqual(imageSize(new Uint8Array([1, 2, 3])), [0, 0]);
});
