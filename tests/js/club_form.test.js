// Start a club: the address suggested from the club's name (static/js/club_form.js, the part
// that needs no page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const clubForm = require("../../static/js/club_form.js");

test("accents go, case goes, anything else becomes one dash", () => {
  assert.equal(clubForm.slugify("Circolo Società Bocciofila"), "circolo-societa-bocciofila");
  assert.equal(clubForm.slugify("Bar Sport & Co. (Forlì)"), "bar-sport-co-forli");
});

test("no dash at either end", () => {
  assert.equal(clubForm.slugify("  --Il Tressette!--  "), "il-tressette");
  assert.equal(clubForm.slugify("!!!"), "");
});

test("at most 60 characters", () => {
  const slug = clubForm.slugify("a".repeat(80));
  assert.equal(slug.length, 60);
});
