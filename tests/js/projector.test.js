// The projector and the round timer: how a list is paged, what a stream event asks, the clock's
// figures (static/js/projector.js, the part that needs no page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const projector = require("../../static/js/projector.js");

test("as many columns and rows as fit, gaps between them, at least one", () => {
  // Four columns of 240 with three gaps of 16 take 1008.
  assert.equal(projector.fitting(1008, 240, 16), 4);
  assert.equal(projector.fitting(1007, 240, 16), 3);
  assert.equal(projector.fitting(100, 240, 16), 1);
});

test("what does not fit goes on the next pages", () => {
  assert.equal(projector.pagesOf(40, 16), 3);
  assert.equal(projector.pagesOf(32, 16), 2);
  assert.equal(projector.pagesOf(0, 16), 1);
});

test("the page's label in the page's words, none for a single page", () => {
  assert.equal(projector.pageLabel("Page %(page)s of %(pages)s", 0, 3), "Page 1 of 3");
  assert.equal(projector.pageLabel("Pagina %(page)s di %(pages)s", 2, 3), "Pagina 3 di 3");
  assert.equal(projector.pageLabel("Page %(page)s of %(pages)s", 0, 1), "");
});

test("what the stream asks: renew on news, go on gone, nothing for others", () => {
  const here = "/s/coppa/";
  for (const kind of ["reload", "standings", "table", "competition"]) {
    assert.equal(projector.asked({ url: here, kind }, here, "4"), "renew", kind);
  }
  assert.equal(projector.asked({ url: here, kind: "gone" }, here, "4"), "gone");
  assert.equal(projector.asked({ url: "/s/other/", kind: "standings" }, here, "4"), null);
  assert.equal(projector.asked({ url: here, kind: "hand" }, here, "4"), null);
});

test("a greeting renews only when the standings moved on since the page was served", () => {
  const here = "/s/coppa/";
  assert.equal(projector.asked({ url: here, kind: "hello", data: { version: 4 } }, here, "4"), null);
  assert.equal(projector.asked({ url: here, kind: "hello", data: { version: 5 } }, here, "4"), "renew");
  assert.equal(projector.asked({ url: here, kind: "hello" }, here, "4"), "renew");
});

test("the clock: minutes and seconds, hours once there are any", () => {
  assert.equal(projector.clockText(0), "00:00");
  assert.equal(projector.clockText(65), "01:05");
  assert.equal(projector.clockText(3599), "59:59");
  assert.equal(projector.clockText(3600 + 61), "1:01:01");
  assert.equal(projector.clockText(-5), "00:00");
});

test("a running timer counts down from its last state, and is over at zero", () => {
  const running = { left: 90, state: "running", at: 1000 };
  assert.deepEqual(projector.timerAt(running, 31000), { left: 60, shown: "running" });
  assert.deepEqual(projector.timerAt(running, 200000), { left: 0, shown: "over" });
});

test("a paused timer stays where it was", () => {
  const paused = { left: 90, state: "paused", at: 1000 };
  assert.deepEqual(projector.timerAt(paused, 600000), { left: 90, shown: "paused" });
  assert.deepEqual(projector.timerAt({ left: 0, state: "paused", at: 0 }, 10), { left: 0, shown: "paused" });
});
