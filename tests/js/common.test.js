// The shared helpers of static/js/common.js: the JSON error shape read back, the CSRF token,
// the POST every script sends. Run by `node --test tests/js/` (make test).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const common = require("../../static/js/common.js");

function json(body, status, type) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": type || "application/json" } });
}

/* A stand-in for the page: its cookie and its elements by selector. */
function withDocument(cookie, elements, run) {
  globalThis.document = {
    cookie,
    querySelector: (selector) => (elements[selector] || [])[0] || null,
    querySelectorAll: (selector) => elements[selector] || [],
  };
  try { return run(); } finally { delete globalThis.document; }
}

test("the reason is the first error's code and every error's message", () => {
  const body = { errors: [
    { hand: 3, field: "points", code: "out_of_range", message: "Points go from 0 to 120." },
    { hand: 3, field: "dealer", code: "required", message: "Who dealt?" },
  ] };
  assert.deepEqual(common.reasonFrom(body), { code: "out_of_range", message: "Points go from 0 to 120. Who dealt?" });
});

test("errors without a message give the code alone", () => {
  assert.deepEqual(common.reasonFrom({ errors: [{ code: "undo_expired" }] }), { code: "undo_expired", message: "" });
});

test("a DRF detail is the message when there are no errors", () => {
  assert.deepEqual(common.reasonFrom({ detail: "Not found." }), { code: "", message: "Not found." });
});

test("an empty, null or odd body gives no reason", () => {
  for (const body of [null, {}, { errors: "nope" }, { errors: [null] }, "text"]) {
    assert.deepEqual(common.reasonFrom(body), { code: "", message: "" }, JSON.stringify(body));
  }
});

test("refusalOf reads a JSON answer's errors", async () => {
  const answer = json({ errors: [{ code: "round_closed", message: "Round 2 is closed." }] }, 409);
  assert.deepEqual(await common.refusalOf(answer), { code: "round_closed", message: "Round 2 is closed." });
});

test("refusalOf takes any JSON type (problem+json) as JSON", async () => {
  const answer = json({ errors: [{ code: "stale", message: "Changed." }] }, 412, "application/problem+json");
  assert.equal((await common.refusalOf(answer)).code, "stale");
});

test("refusalOf gives no reason for a page (HTML) and does not read it", async () => {
  const answer = new Response("<h1>Forbidden</h1>", { status: 403, headers: { "Content-Type": "text/html" } });
  assert.deepEqual(await common.refusalOf(answer), { code: "", message: "" });
  assert.equal(answer.bodyUsed, false);
});

test("refusalOf gives no reason for JSON that does not parse", async () => {
  const answer = new Response("{broken", { status: 500, headers: { "Content-Type": "application/json" } });
  assert.deepEqual(await common.refusalOf(answer), { code: "", message: "" });
});

test("csrf reads the csrftoken cookie among others, decoded", () => {
  const token = withDocument("sessionid=abc; csrftoken=t%2Bk3n; theme=dark", {}, common.csrf);
  assert.equal(token, "t+k3n");
});

test("csrf does not take a cookie whose name only ends in csrftoken", () => {
  const field = { value: "from-the-form" };
  const token = withDocument("mycsrftoken=wrong", { "input[name=csrfmiddlewaretoken]": [field] }, common.csrf);
  assert.equal(token, "from-the-form");
});

test("csrf is empty with neither cookie nor form field", () => {
  assert.equal(withDocument("", {}, common.csrf), "");
});

test("$all gives a real array and $ the first match or null", () => {
  const items = { length: 2, 0: "a", 1: "b" };  // a NodeList-like
  withDocument("", { li: items }, () => {
    const found = common.$all("li");
    assert.ok(Array.isArray(found));
    assert.deepEqual(found, ["a", "b"]);
    assert.equal(common.$("p"), null);
  });
  const root = { querySelector: (s) => "in-root:" + s, querySelectorAll: () => ["x"] };
  assert.equal(common.$("b", root), "in-root:b");
  assert.deepEqual(common.$all("b", root), ["x"]);
});

test("postForm POSTs form fields with the CSRF token, the cookies and extra headers", async () => {
  const calls = [];
  globalThis.fetch = async (url, options) => { calls.push([url, options]); return new Response(null, { status: 201 }); };
  try {
    await withDocument("csrftoken=tok", {}, () => common.postForm("/g/1/hands/", new URLSearchParams({ a: "1", b: "x y" }), { "X-Outbox": "1" }));
  } finally { delete globalThis.fetch; }
  assert.equal(calls.length, 1);
  const [url, options] = calls[0];
  assert.equal(url, "/g/1/hands/");
  assert.equal(options.method, "POST");
  assert.equal(options.credentials, "same-origin");
  assert.equal(options.body, "a=1&b=x+y");
  assert.deepEqual(options.headers, {
    "X-CSRFToken": "tok", "Content-Type": "application/x-www-form-urlencoded", "X-Outbox": "1",
  });
});
