/* Segnapunti at the table: "Hand 5 saved · Undo" for a few seconds after a hand is stored.
 *
 * The outbox (outbox.js) tells of each hand the server stored (event "segnapunti:saved", the
 * server's answer as detail); when the answer offers an undo (the hand was saved by this browser
 * session, including a hand that waited offline), the toast (#undo-toast) shows it with a
 * countdown a little shorter than the server's window. One tap posts the hand's validator (etag)
 * to its undo URL: a retried undo can only find the hand gone, never remove another. The words
 * are the toast's translated data attributes. The toast stays clear of the form's Save button
 * (placement). Exposed as segnapunti.undo.
 *
 * The first part below needs no page (which answers offer an undo, the countdown, what an
 * undo's answer means); it is what Node loads (tests/js/undo.test.js). The page's part uses
 * segnapunti.common (common.js).
 */
(function () {
  "use strict";

  var MARGIN = 1;  // seconds kept back for the network

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, name) { return values[name]; });
  }

  /* Whether the server's answer for a stored hand offers an undo on the page of game gameId:
   * not for a replayed answer (a resend of a hand already stored), nor another game's hand. */
  function offered(detail, gameId) {
    if (!detail || !detail.undo || detail.replayed) return false;
    return String(gameId) === String(detail.undo.url.split("/")[2]);
  }

  /* The seconds the toast counts down from: the server's window less the margin, at least 1. */
  function secondsShown(seconds) { return Math.max(seconds - MARGIN, 1); }

  /* Counts down from left, one a second: tick(left) while some are left, then done() when
   * none is (and stops). The interval's id, for clearInterval. */
  function countdown(left, tick, done) {
    var timer = setInterval(function () {
      left -= 1;
      if (left <= 0) { clearInterval(timer); done(); return; }
      tick(left);
    }, 1000);
    return timer;
  }

  /* The hand is gone after an undo: taken back now (2xx), or already (404: the first of two
   * undos sent for it went through). Anything else is a refusal to show. */
  function undone(status) { return (status >= 200 && status < 300) || status === 404; }

  /* Where the toast goes so that it never covers the Save button (a fast tap on the next hand's
   * Save would land on "Undo" and take back the hand just saved): its distance from the bottom
   * of the viewport (px). save: the button's box in the viewport ({top, bottom}, or null when
   * there is none); height: the toast's; viewport: the viewport's height; above: the top of the
   * room below what stays on top (the sticky totals). At the bottom (GAP from it) unless the
   * button is there; then just above the button if the toast fits there, else just below it. */
  var GAP = 16, CLEAR = 8;
  function placement(save, height, viewport, above) {
    var bottom = GAP, top = viewport - GAP - height;
    if (!save || save.bottom <= top - CLEAR || save.top >= viewport - GAP + CLEAR) return bottom;
    if (save.top - CLEAR - height >= (above || 0)) return viewport - save.top + CLEAR;
    if (save.bottom + CLEAR + height <= viewport) return viewport - save.bottom - CLEAR - height;
    return bottom;
  }

  var pure = {
    MARGIN: MARGIN, fill: fill, offered: offered, secondsShown: secondsShown, countdown: countdown,
    undone: undone, placement: placement
  };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------
  var common = window.segnapunti.common, $ = common.$;
  var current = null;  // {detail, left, timer}

  function toast() { return $("#undo-toast"); }

  /* The toast, put clear of the Save button: when it is shown, and as the page scrolls. */
  function place() {
    var box = toast();
    if (!box || box.hidden) return;
    var save = $('#hand-form button[type="submit"]');
    var rect = save && save.offsetParent !== null ? save.getBoundingClientRect() : null;
    var sticky = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--sticky-top")) || 0;
    var bottom = placement(rect, box.offsetHeight, window.innerHeight, sticky);
    box.style.bottom = bottom === GAP ? "" : bottom + "px";
  }
  window.addEventListener("scroll", place, { passive: true });
  window.addEventListener("resize", place);
  document.addEventListener("htmx:afterSwap", place);  // the figures above may move the button

  function hide() {
    var box = toast();
    if (current && current.timer) clearInterval(current.timer);
    current = null;
    if (box) box.hidden = true;
  }

  function say(text, seconds) {
    var box = toast();
    if (!box) return;
    if (current && current.timer) clearInterval(current.timer);
    current = null;
    $(".toast-text", box).textContent = text;
    $("button", box).hidden = true;
    box.hidden = false;
    place();
    setTimeout(function () { if (!current) box.hidden = true; }, (seconds || 4) * 1000);
  }

  function draw() {
    var box = toast();
    $(".toast-text", box).textContent = fill(box.dataset.saved, { number: current.detail.number });
    var button = $("button", box);
    button.hidden = false;
    button.disabled = false;
    button.textContent = fill(box.dataset.undo, { seconds: current.left });
  }

  function show(detail) {
    var box = toast();
    if (!box || !offered(detail, box.dataset.gameId)) return;
    hide();
    current = { detail: detail, left: secondsShown(detail.undo.seconds), timer: null };
    draw();
    box.hidden = false;
    place();
    current.timer = countdown(current.left, function (left) { current.left = left; draw(); }, hide);
  }

  function undo() {
    if (!current) return;
    var detail = current.detail, box = toast();
    clearInterval(current.timer);
    $("button", box).disabled = true;
    var body = new URLSearchParams({ etag: detail.undo.etag });
    common.postForm(detail.undo.url, body).then(function (response) {
      return common.refusalOf(response).then(function (reason) {
        var live = (window.segnapunti || {}).live;
        if (live) live.refresh();
        if (undone(response.status)) {
          say(fill(box.dataset.undone, { number: detail.number }));
          return;
        }
        say(reason.message || box.dataset.failed, 8);
      });
    }).catch(function () {
      say(box.dataset.offline, 8);
    });
  }

  document.addEventListener("segnapunti:saved", function (event) { show(event.detail); });
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#undo-toast button")) undo();
  });

  window.segnapunti = window.segnapunti || {};
  window.segnapunti.undo = { show: show, undo: undo };
})();
