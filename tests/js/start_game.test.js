// The start-game page: as many seat rows as the chosen game takes (static/js/start_game.js, the
// part that needs no page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const startGame = require("../../static/js/start_game.js");

const MOST = { briscola: 4, terziglio: 3, briscola_chiamata: 5 };

test("the rows beyond the game's most players are hidden", () => {
  assert.deepEqual([0, 1, 2, 3, 4].map((row) => startGame.seatHidden(MOST, "terziglio", row)),
    [false, false, false, true, true]);
  assert.deepEqual([0, 1, 2, 3, 4].map((row) => startGame.seatHidden(MOST, "briscola_chiamata", row)),
    [false, false, false, false, false]);
});

test("every row shows while no game (or one not listed) is chosen", () => {
  assert.equal(startGame.seatHidden(MOST, "", 4), false);
  assert.equal(startGame.seatHidden(MOST, "scopa", 4), false);
});
