// The director's panel of the tables' calls: which calls are new and ring (static/js/calls.js,
// the part that needs no page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const calls = require("../../static/js/calls.js");

test("the panel's data-calls is read as a list of calls", () => {
  assert.deepEqual(calls.listed("12.1 15.2"), ["12.1", "15.2"]);
  assert.deepEqual(calls.listed("  12.1\n 15.2  "), ["12.1", "15.2"]);
  assert.deepEqual(calls.listed(""), []);
  assert.deepEqual(calls.listed(null), []);
});

test("nothing rings when the page opens on calls already there", () => {
  assert.deepEqual(calls.fresh(null, ["12.1", "15.2"]), []);
});

test("a new call rings, a call answered and gone does not", () => {
  assert.deepEqual(calls.fresh(["12.1"], ["12.1", "15.1"]), ["15.1"]);
  assert.deepEqual(calls.fresh(["12.1", "15.1"], ["15.1"]), []);
  assert.deepEqual(calls.fresh(["12.1"], ["12.1"]), []);
});

test("a table calling again rings again (its count went up)", () => {
  assert.deepEqual(calls.fresh(["12.1"], ["12.2"]), ["12.2"]);
});
