/* Segnapunti at the table: "Hand 5 saved · Undo" for a few seconds after a hand is stored.
 *
 * The outbox (outbox.js) tells of each hand the server stored (event "segnapunti:saved", the
 * server's answer as detail); when the answer offers an undo (the hand was saved by this browser
 * session, including a hand that waited offline), the toast (#undo-toast) shows it with a
 * countdown a little shorter than the server's window. One tap posts the hand's validator (etag)
 * to its undo URL: a retried undo can only find the hand gone, never remove another. The words
 * are the toast's translated data attributes. Uses segnapunti.common (common.js). Exposed as
 * segnapunti.undo.
 */
(function () {
  "use strict";

  var MARGIN = 1;  // seconds kept back for the network
  var current = null;  // {detail, left, timer}

  var common = window.segnapunti.common, $ = common.$;
  function toast() { return $("#undo-toast"); }
  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, name) { return values[name]; });
  }

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
    if (!box || !detail || !detail.undo || detail.replayed) return;
    if (String(box.dataset.gameId) !== String(detail.undo.url.split("/")[2])) return;
    hide();
    current = { detail: detail, left: Math.max(detail.undo.seconds - MARGIN, 1), timer: null };
    draw();
    box.hidden = false;
    current.timer = setInterval(function () {
      current.left -= 1;
      if (current.left <= 0) { hide(); return; }
      draw();
    }, 1000);
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
        if (response.ok || response.status === 404) {
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
