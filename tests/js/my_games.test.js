// My games' notice of a round that seats the player (static/js/my_games.js, the part that needs
// no page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const myGames = require("../../static/js/my_games.js");

const EN = "Round %(round)s is published: table %(table)s";

test("the notice names the round and the table, in the page's words", () => {
  assert.equal(myGames.sentence(EN, { round: 3, table: 4 }), "Round 3 is published: table 4");
  assert.equal(myGames.sentence("Turno %(round)s pubblicato: tavolo %(table)s", { round: 2, table: 11 }),
    "Turno 2 pubblicato: tavolo 11");
});

test("a missing number reads as a question mark, never 'undefined'", () => {
  assert.equal(myGames.sentence(EN, {}), "Round ? is published: table ?");
});

test("one notice per round of a competition: a changed round replaces it", () => {
  assert.equal(myGames.key({ competition: "Coppa", round: 3, table: 4 }), myGames.key({ competition: "Coppa", round: 3, table: 7 }));
  assert.notEqual(myGames.key({ competition: "Coppa", round: 3 }), myGames.key({ competition: "Coppa", round: 4 }));
  assert.notEqual(myGames.key({ competition: "Coppa", round: 3 }), myGames.key({ competition: "Torneo", round: 3 }));
});
