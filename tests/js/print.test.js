// A [data-print] button prints the page: the button a click landed in (static/js/print.js, the
// part that needs no page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const print = require("../../static/js/print.js");

/* A stand-in element: closest() finds the marked element among itself and its ancestors. */
function element(marked, parent) {
  const self = { parent, marked };
  self.closest = (selector) => {
    assert.equal(selector, "[data-print]");
    for (let at = self; at; at = at.parent) if (at.marked) return at;
    return null;
  };
  return self;
}

test("a click on the button, or on the icon inside it, is the button's", () => {
  const button = element(true, null);
  assert.equal(print.printButton(button), button);
  assert.equal(print.printButton(element(false, button)), button);
});

test("a click elsewhere, or on something that is not an element, prints nothing", () => {
  assert.equal(print.printButton(element(false, element(false, null))), null);
  assert.equal(print.printButton({}), null);
  assert.equal(print.printButton(null), null);
});
