// The live figures of a game: which card a person is using, when the page loads again, what the
// entry form takes from a new region (static/js/live.js, the part that needs no page).
// Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const live = require("../../static/js/live.js");

test("a choice changed or a text typed is a card in use", () => {
  assert.equal(live.fieldUsed({ type: "radio", checked: true, defaultChecked: false }), true);
  assert.equal(live.fieldUsed({ type: "checkbox", checked: false, defaultChecked: true }), true);
  assert.equal(live.fieldUsed({ type: "text", value: "wrong dealer", defaultValue: "" }), true);
  assert.equal(live.fieldUsed({ type: "textarea", value: "x", defaultValue: "" }), true);
});

test("fields as served, hidden fields and buttons are not", () => {
  assert.equal(live.fieldUsed({ type: "radio", checked: true, defaultChecked: true }), false);
  assert.equal(live.fieldUsed({ type: "text", value: "", defaultValue: "" }), false);
  assert.equal(live.fieldUsed({ type: "hidden", value: "7", defaultValue: "" }), false);
  assert.equal(live.fieldUsed({ type: "submit", value: "Accept", defaultValue: "" }), false);
});

test("the page loads again only when the players changed", () => {
  assert.equal(live.seatsChanged("1,2,3", "1,2,4"), true);
  assert.equal(live.seatsChanged("1,2,3", "1,2,3"), false);
  assert.equal(live.seatsChanged(null, "1,2,3"), false);  // a page served without the list
  assert.equal(live.seatsChanged("1,2,3", undefined), false);
});

test("a finished game takes no more hands, unless hands still wait to be sent", () => {
  assert.deepEqual(live.formAfter({ status: "finished", handCount: "9" }, 0, false), { remove: true });
  assert.deepEqual(live.formAfter({ status: "finished", handCount: "9" }, 2, false), { remove: false });
});

test("the next hand's number follows the hands stored and those waiting", () => {
  assert.equal(live.formAfter({ status: "in_progress", handCount: "4", nextDealer: "1" }, 0, false).number, 5);
  assert.equal(live.formAfter({ status: "in_progress", handCount: "4", nextDealer: "1" }, 2, false).number, 7);
});

test("the dealer follows another phone's hand only in an untouched form with nothing waiting", () => {
  const region = { status: "in_progress", handCount: "4", nextDealer: "2" };
  assert.deepEqual(live.formAfter(region, 0, false), { number: 5, dealer: "2" });
  assert.equal(live.formAfter(region, 0, true).dealer, null);
  assert.equal(live.formAfter(region, 1, false).dealer, null);
  assert.equal(live.formAfter({ ...region, nextDealer: "" }, 0, false).dealer, null);
  assert.equal(live.formAfter({ status: "in_progress", handCount: "4" }, 0, false).dealer, null);
});
