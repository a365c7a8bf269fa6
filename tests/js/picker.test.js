// A quick list of tick boxes: which names the search leaves, and the count's words
// (static/js/picker.js, the part that needs no page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const picker = require("../../static/js/picker.js");

test("the search matches any part of the name, case and accents ignored", () => {
  assert.equal(picker.matches("  Niccolò Bàrberi\n", "colo bar"), true);
  assert.equal(picker.matches("Anna Rossi", "ROSS"), true);
  assert.equal(picker.matches("Anna Rossi", "Ferri"), false);
});

test("an empty search shows every name", () => {
  assert.equal(picker.matches("Anna Rossi", ""), true);
  assert.equal(picker.matches("Anna Rossi", "   "), true);
  assert.equal(picker.matches("Anna Rossi", undefined), true);
});

test("the count in the page's words, one and many", () => {
  assert.equal(picker.countText(1, "%(n)s player", "%(n)s players"), "1 player");
  assert.equal(picker.countText(0, "%(n)s player", "%(n)s players"), "0 players");
  assert.equal(picker.countText(12, "%(n)s giocatore", "%(n)s giocatori"), "12 giocatori");
});

test("without words, the bare number", () => {
  assert.equal(picker.countText(3, undefined, undefined), "3");
});
