// The round's clock on a table's phone (static/js/table_clock.js, the part that needs no page):
// counted from the server's time, whatever the phone's own clock says.
// Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const clock = require("../../static/js/table_clock.js");

const SERVER_NOW = 1_800_000_000_000;

test("a phone five minutes fast shows the server's time left, not its own", () => {
  const fast = SERVER_NOW + 5 * 60_000;
  const off = clock.offset(SERVER_NOW, fast);
  assert.equal(off, -5 * 60_000);
  const running = { state: "running", deadline: SERVER_NOW + 600_000, left: 600 };
  assert.equal(clock.secondsLeft(running, fast, off), 600);
  // Ten seconds later on the phone's clock: ten seconds less.
  assert.equal(clock.secondsLeft(running, fast + 10_000, off), 590);
  // Without the correction the same phone would show five minutes less.
  assert.equal(clock.secondsLeft(running, fast, 0), 300);
});

test("two phones with different clocks show the same time left", () => {
  const running = { state: "running", deadline: SERVER_NOW + 1_234_000 };
  const slow = SERVER_NOW - 97_000, fast = SERVER_NOW + 42_000;
  const a = clock.secondsLeft(running, slow + 3_000, clock.offset(SERVER_NOW, slow));
  const b = clock.secondsLeft(running, fast + 3_000, clock.offset(SERVER_NOW, fast));
  assert.equal(a, b);
  assert.equal(a, 1231);
});

test("a paused or unstarted timer shows what is left, whatever the time", () => {
  assert.equal(clock.secondsLeft({ state: "paused", left: 754 }, SERVER_NOW * 2, 0), 754);
  assert.equal(clock.secondsLeft({ state: "idle", left: 5400 }, 0, 0), 5400);
  assert.equal(clock.phase({ state: "paused" }, 754), "paused");
  assert.equal(clock.phase({ state: "idle" }, 5400), "idle");
});

test("the last-hand warning shows from its minutes before the end, then time is up", () => {
  const running = { state: "running", deadline: SERVER_NOW + 600_000, last_hand: 300 };
  assert.equal(clock.phase(running, 301), "running");
  assert.equal(clock.phase(running, 300), "last");
  assert.equal(clock.phase(running, 1), "last");
  assert.equal(clock.phase(running, 0), "over");
  assert.equal(clock.phase({ state: "running", last_hand: null }, 10), "running");
  assert.equal(clock.phase({ state: "over" }, 0), "over");
  assert.equal(clock.phase({ state: "none" }, 0), "none");
  assert.equal(clock.secondsLeft(running, SERVER_NOW + 700_000, 0), 0);
});

test("the clock reads mm:ss, h:mm:ss from an hour", () => {
  assert.equal(clock.text(0), "00:00");
  assert.equal(clock.text(59), "00:59");
  assert.equal(clock.text(754), "12:34");
  assert.equal(clock.text(5400), "1:30:00");
});

test("a call's waiting minutes count from the server's time of the call", () => {
  const phoneNow = SERVER_NOW + 3_600_000;  // the phone is an hour fast
  const off = clock.offset(SERVER_NOW, phoneNow);
  assert.equal(clock.waited(SERVER_NOW - 125_000, phoneNow, off), 2);
  assert.equal(clock.waited(SERVER_NOW + 10_000, phoneNow, off), 0);
});

test("an answer without a server time leaves the phone's clock as it is", () => {
  assert.equal(clock.offset(undefined, 5), 0);
  assert.equal(clock.offset("", 5), 0);
  assert.equal(clock.offset(null, 5), 0);
  assert.equal(clock.offset("1000", 400), 600);
});
