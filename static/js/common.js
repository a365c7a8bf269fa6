/* Segnapunti's shared helpers, for the other scripts of static/js/. Loaded before them (every
 * script is deferred, so the order of the <script> tags is the order they run); exposed as
 * segnapunti.common:
 *
 * - $(selector, root) / $all(selector, root): the first match / an array of all matches, in root
 *   (the document when none is given);
 * - csrf(): the CSRF token, from the csrftoken cookie, else from the page's hidden form field;
 * - postForm(url, body, headers): POSTs form-encoded fields (a string or URLSearchParams) with
 *   the CSRF token and the session cookie, plus any headers given; fetch's promise;
 * - refusalOf(response): a promise of the server's reason for an answer, read from our JSON
 *   error shape {"errors": [{"hand", "field", "code", "message"}]}: {code, message}, the first
 *   error's code and every message joined (or a DRF "detail"); empty strings when the answer is
 *   not JSON (a page) or unreadable;
 * - reasonFrom(body): the same, from a body already parsed.
 *
 * Loaded under Node (node --test tests/js/), it exports the same functions.
 */
(function () {
  "use strict";

  function $(selector, root) { return (root || document).querySelector(selector); }
  function $all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }

  function csrf() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) return decodeURIComponent(match[1]);
    var input = $("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function postForm(url, body, headers) {
    var sent = { "X-CSRFToken": csrf(), "Content-Type": "application/x-www-form-urlencoded" };
    Object.keys(headers || {}).forEach(function (name) { sent[name] = headers[name]; });
    return fetch(url, { method: "POST", credentials: "same-origin", headers: sent, body: String(body) });
  }

  function reasonFrom(body) {
    var errors = (body && Array.isArray(body.errors)) ? body.errors : [];
    var texts = errors.map(function (e) { return e && e.message; }).filter(Boolean);
    if (!texts.length && body && typeof body.detail === "string") texts.push(body.detail);
    return { code: (errors[0] && errors[0].code) || "", message: texts.join(" ") };
  }

  function refusalOf(response) {
    var none = { code: "", message: "" };
    if ((response.headers.get("Content-Type") || "").indexOf("json") < 0) return Promise.resolve(none);
    return response.json().then(reasonFrom, function () { return none; });
  }

  var common = { $: $, $all: $all, csrf: csrf, postForm: postForm, reasonFrom: reasonFrom, refusalOf: refusalOf };
  if (typeof module !== "undefined" && module.exports) module.exports = common;
  if (typeof window !== "undefined") {
    window.segnapunti = window.segnapunti || {};
    window.segnapunti.common = common;
    // The pages' polling (hx-trigger="every Ns") rests while the tab is hidden. Not as an
    // htmx filter ("[!document.hidden]"): htmx evaluates those as code, which the CSP forbids.
    // (A hidden tab cannot be tapped: every htmx request it would make is a poll.)
    document.addEventListener("htmx:beforeRequest", function (event) {
      if (document.hidden) event.preventDefault();
    });
  }
})();
