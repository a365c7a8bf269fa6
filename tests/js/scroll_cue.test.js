// A box that scrolls sideways says where more is hidden (static/js/scroll_cue.js, the part that
// needs no page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const cue = require("../../static/js/scroll_cue.js");

test("a box that fits hides nothing (a pixel of rounding included)", () => {
  assert.deepEqual(cue.hiddenSides(390, 390, 0), []);
  assert.deepEqual(cue.hiddenSides(391, 390, 0), []);
});

test("at the start more is on the right, at the end on the left, between on both", () => {
  assert.deepEqual(cue.hiddenSides(800, 390, 0), ["right"]);
  assert.deepEqual(cue.hiddenSides(800, 390, 410), ["left"]);
  assert.deepEqual(cue.hiddenSides(800, 390, 200), ["left", "right"]);
});

test("a fraction of a pixel from either end counts as the end", () => {
  assert.deepEqual(cue.hiddenSides(800, 390, 1), ["right"]);
  assert.deepEqual(cue.hiddenSides(800, 390, 409.5), ["left"]);
});
