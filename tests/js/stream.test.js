// The live pages' pure part (static/js/stream.js): how long to wait before a stream is opened
// again, the address that says what was seen, what an event means for a region, which rows of
// a standings table moved. Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const stream = require("../../static/js/stream.js");

test("the delay doubles from a second up to half a minute, jittered over its upper half", () => {
  const low = () => 0, high = () => 1;
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 12].map((n) => stream.backoff(n, low)),
    [500, 1000, 2000, 4000, 8000, 15000, 15000, 15000]);
  assert.deepEqual([0, 1, 2, 5, 40].map((n) => stream.backoff(n, high)), [1000, 2000, 4000, 30000, 30000]);
  for (let i = 0; i < 50; i++) {
    const ms = stream.backoff(3);
    assert.ok(ms >= 4000 && ms <= 8000, ms);
  }
});

test("a reconnect passes the last id seen, after the address's own query", () => {
  assert.equal(stream.withLast("/g/7/events/", ""), "/g/7/events/");
  assert.equal(stream.withLast("/g/7/events/", "1700000000000-3"), "/g/7/events/?last=1700000000000-3");
  assert.equal(stream.withLast("/p/uno/coppa/events/?big=1", "17-0"), "/p/uno/coppa/events/?big=1&last=17-0");
});

const game = ["game"];

test("a game event of another version asks for the region again; of its own version, nothing", () => {
  assert.equal(stream.decide("game", { version: 8, change: "hand" }, game, "7"), "fetch");
  assert.equal(stream.decide("game", { version: 7, change: "hand" }, game, "7"), "ignore");
  assert.equal(stream.decide("game", { version: 6 }, game, ""), "fetch");  // a region without a version
});

test("hello is nothing new when the page shows its version; reload always brings what was missed", () => {
  assert.equal(stream.decide("hello", { version: 7 }, game, "7"), "ignore");
  assert.equal(stream.decide("hello", { version: 9 }, game, "7"), "fetch");
  assert.equal(stream.decide("hello", { id: 3 }, game, "7"), "ignore");
  assert.equal(stream.decide("hello", { id: 3 }, ["competition"], ""), "ignore");
  assert.equal(stream.decide("reload", { version: 9 }, game, "7"), "fetch");
  assert.equal(stream.decide("reload", { id: 3 }, ["table"], ""), "fetch");
});

test("a spectator's standings bring their html: swapped in, no request", () => {
  const standings = ["standings"];
  const html = '<div id="standings" class="standings"><table></table></div>';
  assert.equal(stream.decide("standings", { version: 4, html: "<div id=standings></div>" }, standings, "3", "standings"), "swap");
  assert.equal(stream.decide("hello", { version: 4, html }, standings, "3", "standings"), "swap");
  assert.equal(stream.decide("standings", { version: 3, html }, standings, "3", "standings"), "ignore");
  assert.equal(stream.decide("standings", { version: 4 }, standings, "3", "standings"), "fetch");  // a member's
});

test("another region on the same stream asks for its own html instead of taking the event's", () => {
  // A palio's team standings listen to the competition's standings events, which bring the
  // spectators' individual table: swapping that in would replace the teams with it.
  const html = '<div id="standings" class="standings"><table></table></div>';
  const kinds = ["competition", "table", "standings"];
  assert.equal(stream.decide("standings", { version: 5, html }, kinds, "", "team-standings-live"), "fetch");
  assert.equal(stream.decide("hello", { version: 5, html }, kinds, "", "team-standings-live"), "fetch");
  // Drawn at the version the stream opens with (the page's data-version): nothing to ask for.
  assert.equal(stream.decide("hello", { version: 5, html }, kinds, "5", "team-standings-live"), "ignore");
  assert.equal(stream.decide("hello", { version: 6, html }, kinds, "5", "team-standings-live"), "fetch");
  assert.equal(stream.decide("standings", { version: 5, html }, kinds, "", undefined), "fetch");
});

test("the html of a region is told by the id of its first element", () => {
  assert.equal(stream.carries('<div id="standings" class="x"><p id="other"></p></div>', "standings"), true);
  assert.equal(stream.carries("  <section id='board'>", "board"), true);
  assert.equal(stream.carries("<div id=standings>", "standings"), true);
  assert.equal(stream.carries('<div data-id="standings">', "standings"), false);
  assert.equal(stream.carries('<div class="standings"><p id="standings"></p></div>', "standings"), false);
  assert.equal(stream.carries('<div id="standings-2">', "standings"), false);
  assert.equal(stream.carries("", "standings"), false);
  assert.equal(stream.carries('<div id="standings">', ""), false);
});

test("a region hears only the kinds it listens to; tables and rounds always mean a fetch", () => {
  assert.equal(stream.decide("table", { finished: true }, game, "7"), "ignore");
  assert.equal(stream.decide("standings", { version: 9 }, game, "7"), "ignore");
  assert.equal(stream.decide("table", { round: 2, table: 4 }, ["competition", "table"], ""), "fetch");
  assert.equal(stream.decide("competition", { action: "publish_round" }, ["competition"], "5"), "fetch");
});

test("gone and end stop every region, whatever it listens to", () => {
  assert.equal(stream.decide("gone", { id: 1 }, [], ""), "gone");
  assert.equal(stream.decide("end", { reason: "logout" }, game, "7"), "stop");
  assert.equal(stream.decide("game", null, game, "7"), "fetch");
});

test("a region behind the newest version announced is asked for again", () => {
  assert.equal(stream.behind("7", 8), true);
  assert.equal(stream.behind("8", 8), false);
  assert.equal(stream.behind("9", 8), false);
  assert.equal(stream.behind("", 8), false);
});

test("rows that moved up or down; new and unmoved rows are left out", () => {
  assert.deepEqual(stream.moves(["a", "b", "c", "d"], ["a", "c", "b", "d"]), { c: "up", b: "down" });
  assert.deepEqual(stream.moves(["a", "b"], ["a", "b", "e"]), {});
  assert.deepEqual(stream.moves([], ["a"]), {});
  assert.deepEqual(stream.moves(["a", "b", "c"], ["c", "a", "b"]), { c: "up", a: "down", b: "down" });
});
