// A hand accepted by another side: which player this phone chooses again in a new hand form
// (static/js/confirm.js, the part that needs no page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const confirm = require("../../static/js/confirm.js");

test("one kept player per game", () => {
  assert.equal(confirm.storeKey(7), "segnapunti-seat-7");
  assert.notEqual(confirm.storeKey(7), confirm.storeKey(8));
});

test("the kept player is chosen again when the form has that seat", () => {
  assert.equal(confirm.seatToChoose(["0", "1", "2"], false, "2"), "2");
  assert.equal(confirm.seatToChoose(["0", "1", "2"], false, 1), "1");
});

test("nothing is chosen over a choice made, with nothing kept, or for a seat not in the form", () => {
  assert.equal(confirm.seatToChoose(["0", "1", "2"], true, "2"), null);
  assert.equal(confirm.seatToChoose(["0", "1", "2"], false, null), null);
  assert.equal(confirm.seatToChoose(["0", "1"], false, "4"), null);
});
