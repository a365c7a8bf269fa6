// What the game page keeps of its live region and which hands it lists as waiting
// (static/js/kept.js, the part that needs no page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const kept = require("../../static/js/kept.js");

test("one kept region per game", () => {
  assert.equal(kept.storeKey(7), "segnapunti-live-7");
  assert.notEqual(kept.storeKey(7), kept.storeKey(8));
});

test("a kept region is read back, and anything else is none", () => {
  assert.deepEqual(kept.readKept('{"version": "5", "html": "<div id=live></div>"}'),
    { version: "5", html: "<div id=live></div>" });
  assert.equal(kept.readKept(null), null);
  assert.equal(kept.readKept("not json"), null);
  assert.equal(kept.readKept('{"version": "5"}'), null);
  assert.equal(kept.readKept('{"html": "x"}'), null);
});

test("the kept region is used only when it is newer than the page served", () => {
  assert.equal(kept.newer({ version: "7", html: "" }, "3"), true);  // the worker's older copy
  assert.equal(kept.newer({ version: "7", html: "" }, "7"), false);
  assert.equal(kept.newer({ version: "7", html: "" }, "12"), false);  // a fresh page: not by text order
  assert.equal(kept.newer(null, "3"), false);
  assert.equal(kept.newer({ version: "x", html: "" }, "3"), false);
});

test("the waiting hands of a game, by number, marked when refused", () => {
  const items = [
    { key: "b", game: "4", number: 6, values: [["Outcome", "Everybody passed"]] },
    { key: "a", game: "4", number: 5, values: [["Soloist", "Anna"]] },
    { key: "c", game: "9", number: 1, values: [] },
    { key: "d", game: "4", number: 7, failed: true },
  ];
  assert.deepEqual(kept.waitingOf(items, 4), [
    { number: 5, values: [["Soloist", "Anna"]], refused: false },
    { number: 6, values: [["Outcome", "Everybody passed"]], refused: false },
    { number: 7, values: [], refused: true },
  ]);
  assert.deepEqual(kept.waitingOf([], 4), []);
  assert.deepEqual(kept.waitingOf(undefined, 4), []);
});

test("the words are filled in", () => {
  assert.equal(kept.fill("%(n)s hands waiting to be sent.", { n: 3 }), "3 hands waiting to be sent.");
  assert.equal(kept.fill("Hand %(number)s", { number: 5 }), "Hand 5");
});
