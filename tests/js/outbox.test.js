// The offline outbox's queue and answers (static/js/outbox.js, the part that needs no page):
// how queued hands are stored, ordered and replaced, which one is sent next, what each answer
// from the server means and what the player is told. Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const outbox = require("../../static/js/outbox.js");

function hand(key, game, extra) { return Object.assign({ key, game, url: "/g/" + game + "/hands/" }, extra); }
const keys = (items) => items.map((i) => i.key);

/* The status line's words, as base.html gives them (the translated data attributes). */
const WORDS = {
  hand: "Hand %(number)s", whyOther: "The server refused it (error %(status)s).", loginUrl: "/accounts/login/",
};
const msg = (name) => WORDS[name] || "<" + name + ">";
const BASE = "https://club.example.org/g/7/";

// -- stored ------------------------------------------------------------------------------------

test("nothing stored, or something unreadable stored, is an empty queue", () => {
  assert.deepEqual(outbox.readQueue(null), []);
  assert.deepEqual(outbox.readQueue("null"), []);
  assert.deepEqual(outbox.readQueue("{not json"), []);
});

test("a stored queue reads back as it was saved, in order", () => {
  const items = [hand("a", "1", { number: 3 }), hand("b", "2")];
  assert.deepEqual(outbox.readQueue(JSON.stringify(items)), items);
});

test("the queue is kept under a versioned key", () => {
  assert.equal(outbox.STORE, "segnapunti-outbox-v1");
});

// -- ordered and deduplicated -------------------------------------------------------------------

test("a new hand goes to the end of the queue, which is not changed in place", () => {
  const items = [hand("a", "1"), hand("b", "1")];
  const after = outbox.queued(items, hand("c", "1"));
  assert.deepEqual(keys(after), ["a", "b", "c"]);
  assert.deepEqual(keys(items), ["a", "b"]);
});

test("a refused hand typed again takes its place in the queue: sent in its turn, never twice", () => {
  const items = [hand("a", "1"), hand("b", "1", { failed: true }), hand("c", "1")];
  const after = outbox.queued(items, hand("b2", "1"), "b");
  assert.deepEqual(keys(after), ["a", "b2", "c"]);
  assert.equal(after.filter((i) => i.failed).length, 0);
});

test("a hand replacing one discarded meanwhile goes last", () => {
  const after = outbox.queued([hand("a", "1")], hand("b2", "1"), "gone");
  assert.deepEqual(keys(after), ["a", "b2"]);
});

test("hands pending are counted per game", () => {
  const items = [hand("a", "1"), hand("b", "2"), hand("c", "1")];
  assert.equal(outbox.pendingIn(items, "1"), 2);
  assert.equal(outbox.pendingIn(items, "2"), 1);
  assert.equal(outbox.pendingIn(items, "3"), 0);
});

test("a hand is changed or dropped by its key only", () => {
  const items = [hand("a", "1"), hand("b", "1")];
  const marked = outbox.changed(items, "b", (i) => { i.failed = true; });  // no return: the item changed
  assert.deepEqual(marked.map((i) => Boolean(i.failed)), [false, true]);
  const renumbered = outbox.changed(items, "a", (i) => Object.assign({}, i, { number: 9 }));
  assert.equal(renumbered[0].number, 9);
  assert.deepEqual(keys(outbox.without(items, "a")), ["b"]);
  assert.deepEqual(keys(outbox.without(items, "zzz")), ["a", "b"]);
});

// -- which hand is sent next --------------------------------------------------------------------

test("hands are sent in the order they were typed", () => {
  const pick = outbox.nextToSend([hand("a", "1"), hand("b", "2"), hand("c", "1")]);
  assert.equal(pick.entry.key, "a");
  assert.deepEqual(pick.failed, []);
});

test("a hand refused as wrong holds back the later hands of its game, not other games'", () => {
  const wrong = hand("a", "1", { failed: true, html: "<form>" });
  const pick = outbox.nextToSend([wrong, hand("b", "1"), hand("c", "2")]);
  assert.equal(pick.entry.key, "c");
  assert.deepEqual(keys(pick.failed), ["a"]);  // its form is shown again
});

test("a kept refusal (not the form's fault) holds back its game's later hands too", () => {
  const kept = hand("a", "1", { refused: { status: 409 } });
  assert.equal(outbox.nextToSend([kept, hand("b", "1"), hand("c", "2")]).entry.key, "c");
});

test("a refused hand typed after a game's hand does not hold that hand back", () => {
  const pick = outbox.nextToSend([hand("a", "1"), hand("b", "1", { refused: { status: 403 } })]);
  assert.equal(pick.entry.key, "a");
});

test("nothing is sent while every game waits on a refused hand", () => {
  const items = [hand("a", "1", { refused: { status: 404 } }), hand("b", "1"), hand("c", "2", { failed: true })];
  const pick = outbox.nextToSend(items);
  assert.equal(pick.entry, null);
  assert.deepEqual(keys(pick.failed), ["c"]);
  assert.equal(outbox.nextToSend([]).entry, null);
});

test("wrong hands after the one sent are left for later", () => {
  const pick = outbox.nextToSend([hand("a", "1"), hand("b", "2", { failed: true })]);
  assert.equal(pick.entry.key, "a");
  assert.deepEqual(pick.failed, []);
});

test("after a 400, the next flush sends the other game's hand", () => {
  let items = [hand("a", "1"), hand("b", "1"), hand("c", "2")];
  const first = outbox.nextToSend(items).entry;
  assert.equal(outbox.answerOf(400, null), "wrong");
  items = outbox.changed(items, first.key, (i) => { i.failed = true; });
  assert.equal(outbox.nextToSend(items).entry.key, "c");
  items = outbox.without(items, "c");  // 201
  assert.equal(outbox.nextToSend(items).entry, null);
});

// -- what an answer means -----------------------------------------------------------------------

test("answers are classified: saved, entered elsewhere, wrong, tried again, kept as refused", () => {
  const cases = [
    [201, null, "saved"],
    [409, "already_entered", "entered"],
    [409, null, "refused"],  // a closed round
    [400, null, "wrong"],
    [500, null, "retry"], [502, null, "retry"], [503, null, "retry"],
    [408, null, "retry"], [429, null, "retry"],
    [200, null, "retry"], [302, null, "retry"],  // not a refusal, not a store: tried again
    [401, null, "refused"], [403, null, "refused"], [404, null, "refused"],
    [410, null, "refused"], [412, null, "refused"], [422, null, "refused"],
  ];
  for (const [status, header, expected] of cases) {
    assert.equal(outbox.answerOf(status, header), expected, status + " " + header);
  }
});

test("a kept refusal's kind follows its status, and not_authenticated means access", () => {
  const cases = [
    [{ status: 401 }, "access"], [{ status: 403 }, "access"], [{ status: 404 }, "gone"],
    [{ status: 404, code: "not_authenticated" }, "access"], [{ status: 409 }, "closed"],
    [{ status: 412 }, "stale"], [{ status: 422 }, "stale"], [{ status: 410 }, "other"],
    [{ status: 409, code: "game_abandoned" }, "gone"], [{ status: 409, code: "seating_changed" }, "seating"],
  ];
  for (const [refused, kind] of cases) assert.equal(outbox.kindOf(refused), kind, JSON.stringify(refused));
});

// -- what the player is told --------------------------------------------------------------------

test("the game's page is the hand's address without hands/", () => {
  assert.equal(outbox.gameUrl({ url: "/g/7/hands/" }, BASE), "/g/7/");
  assert.equal(outbox.gameUrl({ url: "https://club.example.org/g/12/hands" }, BASE), "/g/12/");
});

test("a table session ended: enter the PIN again, on the table link kept with the hand", () => {
  const told = outbox.advice(hand("a", "7", { pin: "/t/ABC/", refused: { status: 401, message: "x" } }), false, msg, BASE);
  assert.equal(told.kind, "access");
  assert.equal(told.why, "<whyPin>");
  assert.deepEqual(told.fix, ["/t/ABC/", "<fixPin>"]);
  assert.equal(told.server, false);  // it would only repeat why
});

test("a login ended: log in again, then back to the game", () => {
  const told = outbox.advice(hand("a", "7", { refused: { status: 403 } }), false, msg, BASE);
  assert.equal(told.why, "<whyLogin>");
  assert.deepEqual(told.fix, ["/accounts/login/?next=%2Fg%2F7%2F", "<fixLogin>"]);
});

test("the way in is back: no fix, only send again", () => {
  const told = outbox.advice(hand("a", "7", { pin: "/t/ABC/", refused: { status: 401 } }), true, msg, BASE);
  assert.equal(told.why, "<whyBack>");
  assert.equal(told.fix, null);
});

test("a game changed since: reload it; the server's words are shown", () => {
  const told = outbox.advice(hand("a", "7", { refused: { status: 412, message: "Hand 4 was corrected." } }), false, msg, BASE);
  assert.equal(told.why, "<whyStale>");
  assert.deepEqual(told.fix, ["/g/7/", "<fixStale>"]);
  assert.equal(told.server, true);
});

test("a closed round and a missing game offer no fix; only the closed round shows the server's words", () => {
  const closed = outbox.advice(hand("a", "7", { refused: { status: 409, message: "Round 2 is closed." } }), false, msg, BASE);
  assert.deepEqual([closed.why, closed.fix, closed.server], ["<whyClosed>", null, true]);
  const gone = outbox.advice(hand("a", "7", { refused: { status: 404, message: "Gone." } }), false, msg, BASE);
  assert.deepEqual([gone.why, gone.fix, gone.server], ["<whyGone>", null, false]);
});

test("an abandoned game is gone, and the server's words say it was abandoned", () => {
  const refused = { status: 409, code: "game_abandoned", message: "The game was abandoned." };
  const told = outbox.advice(hand("a", "7", { refused: refused }), false, msg, BASE);
  assert.deepEqual([told.kind, told.why, told.fix, told.server], ["gone", "<whyGone>", null, true]);
});

test("a hand typed for other players: the server's sentence; send again only where the page shows who sits now, after asking", () => {
  const refused = { status: 409, code: "seating_changed", message: "Dario replaced Carla at this table." };
  const elsewhere = outbox.advice(hand("a", "7", { refused: refused }), false, msg, BASE);
  assert.deepEqual(
    [elsewhere.kind, elsewhere.why, elsewhere.how, elsewhere.fix, elsewhere.server, elsewhere.resend],
    ["seating", "<whySeating>", "<howSeating>", ["/g/7/", "<fixSeating>"], true, false],
  );
  const back = outbox.advice(hand("a", "7", { refused: refused }), true, msg, BASE);
  assert.deepEqual([back.how, back.fix, back.server, back.resend], ["<howSeatingBack>", null, true, "confirm"]);
  // Any other kept refusal is sent again as it is, at once.
  assert.equal(outbox.advice(hand("a", "7", { refused: { status: 409 } }), true, msg, BASE).resend, true);
});

test("confirmed for the players seated now, the hand and its game's later ones typed for the same seats take the new seating", () => {
  const body = (seating, n) => "dealer=0&seating=" + seating + "&number=" + n;
  const items = [
    hand("x", "9", { body: body(1, 1) }),  // another game's
    hand("a", "7", { body: body(1, 1), refused: { status: 409, code: "seating_changed" } }),
    hand("b", "7", { body: body(1, 2) }),
    hand("c", "7", { body: body(3, 3) }),  // typed on a page of another seating
  ];
  const after = outbox.reseated(items, "a", "2");
  assert.deepEqual(after.map(outbox.seatingOf), ["1", "2", "2", "3"]);
  assert.equal(after[1].refused, undefined);  // no longer held back
  assert.equal(after[1].body, "dealer=0&seating=2&number=1");
  assert.deepEqual(items[1].refused, { status: 409, code: "seating_changed" });  // not changed in place
  assert.equal(outbox.reseated(items, "gone", "2"), items);
  assert.equal(outbox.seatingOf(hand("o", "7", { body: "dealer=0" })), null);  // an older page's hand
});

test("any other refusal names its status", () => {
  const told = outbox.advice(hand("a", "7", { refused: { status: 418 } }), false, msg, BASE);
  assert.equal(told.why, "The server refused it (error 418).");
  assert.equal(told.how, "<howOther>");
  assert.equal(told.server, false);  // no message from the server
});

test("what was typed is the page's title, the hand and one label: value a line", () => {
  const entry = { title: "Briscola · table 3", number: 5, values: [["Dealer", "Anna"], ["Points", "70"]] };
  assert.equal(outbox.typedText(entry, msg), "Briscola · table 3\nHand 5\nDealer: Anna\nPoints: 70");
  assert.equal(outbox.typedText({ values: [] }, msg), "Hand ?");
});

test("a hand queued before values were kept shows its raw fields, without the tokens", () => {
  const entry = { number: 2, body: "csrfmiddlewaretoken=t&idempotency_key=k&dealer=1&soloist_points=61" };
  assert.equal(outbox.typedText(entry, msg), "Hand 2\ndealer: 1\nsoloist_points: 61");
});

test("the next hand is dealt by the seat the ruleset's facts name after the dealer", () => {
  assert.equal(outbox.dealerAfter({ dealer_after: [1, 2, 3, 0] }, 3), 0);
  assert.equal(outbox.dealerAfter({ dealer_after: [2, 0, 1] }, 0), 2);
  assert.equal(outbox.dealerAfter({}, 1), undefined);  // no rotation known: left as it is
});

// -- a page reloaded while hands wait -----------------------------------------------------------

test("a page kept from before two hands were queued goes on after them, with the next dealer", () => {
  const items = [
    hand("a", "7", { number: 8, body: "dealer=1&outcome=played" }),
    hand("b", "7", { number: 9, body: "dealer=2&outcome=passed_out" }),
    hand("c", "5", { number: 20, body: "dealer=0" }),
  ];
  // The page shows hand 8 (it was kept before the two were typed): the next is 10, after seat 2.
  assert.deepEqual(outbox.resumeAfter(items, "7", 8), { number: 10, after: 2 });
});

test("a page that already counts the waiting hands, or a game with none waiting, is left alone", () => {
  const items = [hand("a", "7", { number: 8, body: "dealer=1" })];
  assert.equal(outbox.resumeAfter(items, "7", 9), null);  // hand 8 reached the server first
  assert.equal(outbox.resumeAfter(items, "5", 3), null);
  assert.equal(outbox.resumeAfter([], "7", 1), null);
});

test("a waiting hand whose dealer is not known still moves the number on", () => {
  const items = [hand("a", "7", { number: 4, body: "outcome=played" })];
  assert.deepEqual(outbox.resumeAfter(items, "7", 2), { number: 5, after: null });
});
