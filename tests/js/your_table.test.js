// "Your table on your phone" (issue 37 point 5): what My games' notice says after the round and
// the table (static/js/my_games.js, the part that needs no page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const myGames = require("../../static/js/my_games.js");

const WITH = "with %(names)s", FIRST = "you deal first";

test("the notice names the others at the table and says who deals first", () => {
  assert.equal(myGames.details({ with: ["Anna", "Bruno & Carla"], first: true }, WITH, FIRST),
    "with Anna, Bruno & Carla · you deal first");
  assert.equal(myGames.details({ with: ["Anna"], first: false }, WITH, FIRST), "with Anna");
});

test("in the page's words", () => {
  assert.equal(myGames.details({ with: ["Anna", "Bruno"], first: true }, "con %(names)s", "fai tu la prima mano"),
    "con Anna, Bruno · fai tu la prima mano");
});

test("an older event without the names adds nothing", () => {
  assert.equal(myGames.details({ round: 3, table: 4 }, WITH, FIRST), "");
  assert.equal(myGames.details({ with: "Anna", first: "yes" }, WITH, FIRST), "");
});
