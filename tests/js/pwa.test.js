// The installable app's page script (static/js/pwa.js, the part that needs no page): when the
// screen is kept awake, and what a new live region does to the status badge. Run by
// `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const pwa = require("../../static/js/pwa.js");

test("the screen stays awake on a page that asks for it, while it is shown", () => {
  assert.equal(pwa.keepAwake({}, "visible"), true);
  assert.equal(pwa.keepAwake({}, "hidden"), false);
  assert.equal(pwa.keepAwake(null, "visible"), false);
});

test("the badge changes only when the region's status differs from it", () => {
  assert.equal(pwa.badgeAfter("in_progress", "in_progress"), null);
  assert.equal(pwa.badgeAfter("in_progress", ""), null);
  assert.equal(pwa.badgeAfter("in_progress", undefined), null);
});

test("a game that has just ended is said to have ended; one reopened is not", () => {
  assert.deepEqual(pwa.badgeAfter("in_progress", "finished"), { status: "finished", ended: true });
  assert.deepEqual(pwa.badgeAfter("in_progress", "abandoned"), { status: "abandoned", ended: true });
  assert.deepEqual(pwa.badgeAfter("finished", "in_progress"), { status: "in_progress", ended: false });
});
