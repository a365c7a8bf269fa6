// My games' notifications button (static/js/push.js, the part that needs no page). Run by
// `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const push = require("../../static/js/push.js");

test("the VAPID key's base64url text becomes its 65 bytes, padding or not", () => {
  const key = "BJG1bPhEZXXDbFmHKqCs1nTzL6vohOyjNAh_ZJTP2RmVBQ_yVttzcNMz-3vpHG1HnOOMfbW2fr7n8M54O9_pDT4";
  const bytes = push.keyBytes(key);
  assert.equal(bytes.length, 65);
  assert.equal(bytes[0], 4);
  assert.deepEqual(Array.from(push.keyBytes(key + "=")), Array.from(bytes));
  assert.deepEqual(Buffer.from(bytes).toString("base64url"), key);
});

test("off offers to turn on; on offers to turn off; blocked offers nothing", () => {
  assert.deepEqual(push.view("off"), { text: "intro", button: "turnOn", disabled: false });
  assert.deepEqual(push.view("on"), { text: "on", button: "turnOff", disabled: false });
  assert.deepEqual(push.view("denied"), { text: "denied", button: "turnOn", disabled: true });
  assert.deepEqual(push.view("failed"), { text: "failed", button: "turnOn", disabled: false });
});
