// "Where do I sit?": which names stay listed for what was typed (static/js/where.js, the part
// that needs no page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const where = require("../../static/js/where.js");

const NAMES = ["Niccolò Bàrberi", "Anna Rossi", "Bruno Ferri"].map(where.fold);

test("any part of the name, case and accents ignored", () => {
  assert.deepEqual(where.shownFor(NAMES, "NICCOLO"), [true, false, false]);
  assert.deepEqual(where.shownFor(NAMES, "rri"), [false, false, true]);
  assert.deepEqual(where.shownFor(NAMES, "barb"), [true, false, false]);
});

test("nothing typed (or spaces) shows every name; no match shows none", () => {
  assert.deepEqual(where.shownFor(NAMES, ""), [true, true, true]);
  assert.deepEqual(where.shownFor(NAMES, "   "), [true, true, true]);
  assert.deepEqual(where.shownFor(NAMES, "zeta"), [false, false, false]);
});
