// The undo toast's timer and choices (static/js/undo.js, the part that needs no page): which
// saved hands offer an undo, how long, the countdown itself, what an undo's answer means.
// Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const undo = require("../../static/js/undo.js");

/* A clock of our own for setInterval and clearInterval, moved on by tick(ms): the countdown
 * runs at once, and an interval cleared from its own callback stops (Node 20's mock timers keep
 * calling it). Put back after the test. */
function fakeClock(t) {
  const real = { setInterval: globalThis.setInterval, clearInterval: globalThis.clearInterval };
  const timers = new Map();
  let now = 0, next = 1;
  globalThis.setInterval = (fn, ms) => { timers.set(next, { fn, ms, at: now + ms }); return next++; };
  globalThis.clearInterval = (id) => { timers.delete(id); };
  t.after(() => Object.assign(globalThis, real));
  return {
    tick(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.values()].filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = due.at;
        due.at += due.ms;
        due.fn();
      }
      now = end;
    },
  };
}

const saved = (extra) => Object.assign({ number: 5, undo: { url: "/g/7/hands/5/undo/", etag: "e", seconds: 10 } }, extra);

test("an answer with an undo offers it on its own game's page", () => {
  assert.equal(undo.offered(saved(), "7"), true);
  assert.equal(undo.offered(saved(), 7), true);  // the page's id is text, the test's a number
});

test("no undo on another game's page, for a replayed answer, or without an undo", () => {
  assert.equal(undo.offered(saved(), "17"), false);
  assert.equal(undo.offered(saved({ replayed: true }), "7"), false);
  assert.equal(undo.offered({ number: 5 }, "7"), false);  // saved by another session
  assert.equal(undo.offered(null, "7"), false);
});

test("the toast counts down a second less than the server's window, and at least 1", () => {
  assert.equal(undo.MARGIN, 1);
  assert.equal(undo.secondsShown(10), 9);
  assert.equal(undo.secondsShown(2), 1);
  assert.equal(undo.secondsShown(1), 1);
  assert.equal(undo.secondsShown(0), 1);
});

test("the countdown ticks once a second down to 1, then is done and stops", (t) => {
  const clock = fakeClock(t);
  const ticks = [];
  let done = 0;
  undo.countdown(4, (left) => ticks.push(left), () => { done += 1; });
  clock.tick(999);
  assert.deepEqual(ticks, []);  // not before a second
  clock.tick(1);
  assert.deepEqual(ticks, [3]);
  clock.tick(2000);
  assert.deepEqual(ticks, [3, 2, 1]);
  assert.equal(done, 0);
  clock.tick(1000);
  assert.equal(done, 1);
  clock.tick(5000);  // stopped: never done twice, no ticks below 1
  assert.deepEqual(ticks, [3, 2, 1]);
  assert.equal(done, 1);
});

test("a countdown stopped with clearInterval (the player tapped Undo) neither ticks nor ends", (t) => {
  const clock = fakeClock(t);
  const ticks = [];
  let done = false;
  const timer = undo.countdown(3, (left) => ticks.push(left), () => { done = true; });
  clock.tick(1000);
  clearInterval(timer);
  clock.tick(5000);
  assert.deepEqual(ticks, [2]);
  assert.equal(done, false);
});

test("a countdown from 1 ends after one second without a tick", (t) => {
  const clock = fakeClock(t);
  const ticks = [];
  let done = false;
  undo.countdown(undo.secondsShown(1), (left) => ticks.push(left), () => { done = true; });
  clock.tick(1000);
  assert.deepEqual(ticks, []);
  assert.equal(done, true);
});

test("the hand is gone after a 2xx or a 404 (a retried undo), not after a refusal", () => {
  for (const status of [200, 204]) assert.equal(undo.undone(status), true, String(status));
  assert.equal(undo.undone(404), true);
  for (const status of [400, 403, 409, 500, 302]) assert.equal(undo.undone(status), false, String(status));
});

test("the toast's words take their numbers and seconds", () => {
  assert.equal(undo.fill("Hand %(number)s saved", { number: 5 }), "Hand 5 saved");
  assert.equal(undo.fill("Undo (%(seconds)s s) %(seconds)s", { seconds: 9 }), "Undo (9 s) 9");
  assert.equal(undo.fill("No placeholder", { number: 5 }), "No placeholder");
});

// -- the toast clear of the Save button (issue 37) ----------------------------------------------
// A 390×844 viewport, a toast 60 px high, the sticky totals' bottom at 150 px.

test("the toast stays at the bottom while the Save button is elsewhere", () => {
  assert.equal(undo.placement(null, 60, 844, 150), 16);
  assert.equal(undo.placement({ top: 300, bottom: 356 }, 60, 844, 150), 16);
  assert.equal(undo.placement({ top: 900, bottom: 956 }, 60, 844, 150), 16);  // below the fold
});

test("a Save button at the bottom pushes the toast just above it", () => {
  const save = { top: 760, bottom: 816 };
  const bottom = undo.placement(save, 60, 844, 150);
  assert.equal(bottom, 844 - 760 + 8);
  // The toast's box (from 844 - bottom - 60 to 844 - bottom) ends above the button's.
  assert.ok(844 - bottom <= save.top);
});

test("with no room above the button, the toast goes just below it", () => {
  // A tall button from just under the totals to near the bottom: the toast under it.
  assert.equal(undo.placement({ top: 180, bottom: 770 }, 60, 844, 150), 844 - 770 - 8 - 60);
  // Nowhere clear (the button fills the screen): the bottom, as before.
  assert.equal(undo.placement({ top: 160, bottom: 800 }, 60, 844, 150), 16);
});
