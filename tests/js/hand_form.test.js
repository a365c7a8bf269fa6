// The hand form's arithmetic (static/js/hand_form.js, the part that needs no page): the points
// counted from the cards, the other side's points, the Turkish penalties, what is shown when.
// The examples use the rulesets' own facts (scoring/rules/). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const form = require("../../static/js/hand_form.js");

/* A form's fields as typed: read(name) gives "" for a field left empty, as the page does. */
const fields = (values) => (name) => (name in values ? values[name] : "");

const TERZIGLIO = { aces: [1, 1], thirds: [1, 3], last_trick: [1, 1] };  // 11 points a hand
const CALABRASELLA = { aces: [3, 1], counters: [1, 1], last_trick: [3, 1] };  // 35 points a hand
const TURKISH = { court: 10, tens: 20, other: 5 };  // the default card values

test("a typed number is a whole number, anything else none", () => {
  assert.equal(form.toNumber("42"), 42);
  assert.equal(form.toNumber("7.9"), 7);
  assert.equal(form.toNumber("0"), 0);
  for (const text of ["", "on", "abc", undefined]) assert.equal(form.toNumber(text), null, String(text));
});

test("Terziglio's card points: aces 1, thirds a third each rounded down, the last trick 1", () => {
  const read = fields({ aces: "3", thirds: "14", last_trick: "on" });
  assert.equal(form.countedPoints(TERZIGLIO, read), 3 + 4 + 1);
  assert.equal(form.countedPoints(TERZIGLIO, fields({ aces: "4", thirds: "20", last_trick: "on" })), 11);
});

test("the last trick counts once, only when ticked", () => {
  assert.equal(form.countedPoints(CALABRASELLA, fields({ aces: "1", counters: "2" })), 5);
  assert.equal(form.countedPoints(CALABRASELLA, fields({ aces: "1", counters: "2", last_trick: "on" })), 8);
  assert.equal(form.countedPoints(CALABRASELLA, fields({ last_trick: "3" })), 0);  // not "on": not ticked
});

test("card points of an empty form, or of a game without card values, are 0", () => {
  assert.equal(form.countedPoints(TERZIGLIO, fields({})), 0);
  assert.equal(form.countedPoints(undefined, fields({ aces: "3" })), 0);
});

test("a sweep is asked about only for a hand played to the end with 0 or all the points", () => {
  assert.equal(form.sweepPossible("played", 0, 11), true);
  assert.equal(form.sweepPossible("played", 11, 11), true);
  assert.equal(form.sweepPossible("played", 6, 11), false);
  assert.equal(form.sweepPossible("played", null, 11), false);
  assert.equal(form.sweepPossible("conceded", 0, 11), false);
});

test("a data-show-when rule holds while its field has one of the choices", () => {
  assert.equal(form.ruleHolds("entry=cards", fields({ entry: "cards" }), () => "points"), true);
  assert.equal(form.ruleHolds("entry=cards", fields({ entry: "points" }), () => "points"), false);
  assert.equal(form.ruleHolds("outcome=played,conceded", fields({ outcome: "conceded" }), () => ""), true);
});

test("with no choice made, a data-show-when rule follows the field's first choice", () => {
  const first = (name) => ({ entry: "points" })[name];
  assert.equal(form.ruleHolds("entry=points", fields({}), first), true);
  assert.equal(form.ruleHolds("entry=cards", fields({}), first), false);
});

test("the dealer sits out only at tables where the dealer gets no cards", () => {
  assert.equal(form.sitsOut(true, 2, 2), true);
  assert.equal(form.sitsOut(true, 2, 1), false);
  assert.equal(form.sitsOut(false, 2, 2), false);
  assert.equal(form.sitsOut(true, null, 0), false);  // no dealer chosen yet
  assert.equal(form.sitsOut(true, 0, 0), true);  // seat 0 is a seat
});

test("the opponents' points are the hand's total less the soloist's", () => {
  assert.equal(form.otherSide(120, 70), 50);
  assert.equal(form.otherSide(11, 0), 11);
  assert.equal(form.otherSide(120, null), null);  // nothing typed: nothing shown
});

test("what is left to share is the total less every side's points typed", () => {
  assert.equal(form.remaining(120, ["70", ""]), 50);
  assert.equal(form.remaining(120, ["70", "50"]), 0);
  assert.equal(form.remaining(120, ["", ""]), 120);
  assert.equal(form.remaining(120, ["100", "30"]), -10);  // too many: shown as such
});

test("Briscola: typing one side's points fills the other side's with total - points", () => {
  assert.equal(form.autofilled(120, "70", "", ""), "50");
  assert.equal(form.autofilled(120, "0", "", ""), "120");
});

test("a side filled in automatically follows the other; one typed by the player is left alone", () => {
  assert.equal(form.autofilled(120, "61", "50", "1"), "59");  // filled before: follows
  assert.equal(form.autofilled(120, "61", "50", ""), null);  // typed by the player: kept
});

test("nothing is filled while the side typed holds no number", () => {
  assert.equal(form.autofilled(120, "", "", ""), null);
  assert.equal(form.autofilled(120, "-", "50", "1"), null);
});

test("Turkish: a seat's penalty is each card left times its value", () => {
  const read = fields({ court_1: "2", tens_1: "1", other_1: "3", court_2: "5" });
  assert.equal(form.penaltyOf(TURKISH, read, "1", false), 2 * 10 + 1 * 20 + 3 * 5);
  assert.equal(form.penaltyOf(TURKISH, read, "2", false), 50);
  assert.equal(form.penaltyOf(TURKISH, read, "0", false), 0);
});

test("Turkish typed quick: a seat's penalty is the points typed for it", () => {
  const read = fields({ court_1: "2", points_1: "85" });
  assert.equal(form.penaltyOf(TURKISH, read, "1", true), 85);
  assert.equal(form.penaltyOf(TURKISH, read, "2", true), 0);
});

test("a step button adds or takes one, never below 0", () => {
  assert.equal(form.stepped("3", "1"), "4");
  assert.equal(form.stepped("3", "-1"), "2");
  assert.equal(form.stepped("", "1"), "1");
  assert.equal(form.stepped("0", "-1"), "0");
});
