// "Share the result": what is shared and how this browser shares it (static/js/share.js, the
// part that needs no page). Run by `node --test tests/js/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const share = require("../../static/js/share.js");

const DATA = share.shareData({ title: "Terziglio", text: "Anna won", url: "https://club.example/g/7/", copied: "x" });

test("the button's title, text and link are what is shared", () => {
  assert.deepEqual(DATA, { title: "Terziglio", text: "Anna won", url: "https://club.example/g/7/" });
});

test("the share sheet where the browser has it and takes the data", () => {
  assert.equal(share.way({ share() {} }, false, DATA), "share");
  assert.equal(share.way({ share() {}, canShare: () => true }, true, DATA), "share");
});

test("else the clipboard, in a secure page only", () => {
  const clipboard = { writeText() {} };
  assert.equal(share.way({ share() {}, canShare: () => false, clipboard }, true, DATA), "copy");
  assert.equal(share.way({ clipboard }, true, DATA), "copy");
  assert.equal(share.way({ clipboard }, false, DATA), "by-hand");
});

test("else the link is shown to copy by hand", () => {
  assert.equal(share.way({}, true, DATA), "by-hand");
});

// A competition's results picture (templates/tournaments/partials/picture_share.html).
const FILE = { name: "torneo.png" };
const PICTURE = share.pictureData({ title: "Torneo · Circolo", text: "1. Anna, 12 points" }, FILE);

test("the picture itself, its title and words go to the share sheet", () => {
  assert.deepEqual(PICTURE, { files: [FILE], title: "Torneo · Circolo", text: "1. Anna, 12 points" });
});

test("a browser that shares files gets the picture in its share sheet", () => {
  assert.equal(share.pictureWay({ share() {}, canShare: (data) => data.files.length === 1 }, PICTURE), "share-file");
});

test("else the picture is downloaded: no Web Share API, or one that takes no files", () => {
  assert.equal(share.pictureWay({}, PICTURE), "download");
  assert.equal(share.pictureWay({ share() {} }, PICTURE), "download");
  assert.equal(share.pictureWay({ share() {}, canShare: () => false }, PICTURE), "download");
});
