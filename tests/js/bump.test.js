// A name tapped highlights its line of the bump chart (static/js/bump.js, the part that needs no
// page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const bump = require("../../static/js/bump.js");

test("a name tapped is highlighted; tapped again, nothing is", () => {
  assert.equal(bump.nextHighlight(null, "12"), "12");
  assert.equal(bump.nextHighlight("12", "12"), null);
});

test("another name tapped moves the highlight to it", () => {
  assert.equal(bump.nextHighlight("12", "7"), "7");
  assert.equal(bump.nextHighlight("12", 7), "7");
});

test("a tap on nothing named leaves nothing highlighted", () => {
  assert.equal(bump.nextHighlight("12", null), null);
  assert.equal(bump.nextHighlight("12", ""), null);
});

test("only the highlighted entry's elements are on and pressed", () => {
  assert.deepEqual(bump.stateOf("7", "7"), { on: true, pressed: "true" });
  assert.deepEqual(bump.stateOf(7, "7"), { on: true, pressed: "true" });
  assert.deepEqual(bump.stateOf("8", "7"), { on: false, pressed: "false" });
  assert.deepEqual(bump.stateOf("8", null), { on: false, pressed: "false" });
});
