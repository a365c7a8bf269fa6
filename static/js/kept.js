/* Segnapunti at the table: what the game page last saw, kept on the phone, and the hands that
 * wait in the outbox, shown as waiting. Loaded by the game page after outbox.js and live.js.
 *
 * Each time the live region (#live: totals, history, result) is shown, it is kept in
 * localStorage with its version (one entry per game). A page loaded without network is the
 * copy the service worker kept when the page last loaded, often older: when the region kept here
 * is of a newer version, it takes the served one's place, and the page says that these are the
 * figures as this phone last saw them. The hands waiting in the outbox for this game are listed
 * below the region (#waiting-hands), each marked as waiting with what was typed, under a heading
 * that counts them: they are not in the totals until they are sent. All words are the list's
 * translated data attributes.
 *
 * The first part needs no page (what to keep, whether to use it, the waiting hands of a game);
 * it is what Node loads (tests/js/kept.test.js).
 */
(function () {
  "use strict";

  var PREFIX = "segnapunti-live-";

  function storeKey(gameId) { return PREFIX + gameId; }

  /* The kept region read back ({version, html}), or null. */
  function readKept(text) {
    try {
      var kept = JSON.parse(text);
      return kept && typeof kept.html === "string" && kept.version !== undefined ? kept : null;
    } catch (e) { return null; }
  }

  /* Whether the kept region is newer than the one the page was served with (versions). */
  function newer(kept, served) {
    if (!kept) return false;
    var k = parseInt(kept.version, 10), s = parseInt(served, 10);
    return !isNaN(k) && (isNaN(s) || k > s);
  }

  /* The hands of game gameId waiting in the outbox (its items, in the order typed), by number:
   * [{number, values, refused}] (refused: sent and refused, kept here to fix or discard). */
  function waitingOf(items, gameId) {
    return (items || []).filter(function (i) { return String(i.game) === String(gameId); })
      .map(function (i) {
        return { number: i.number, values: i.values || [], refused: Boolean(i.failed || i.refused) };
      })
      .sort(function (a, b) { return (a.number || 0) - (b.number || 0); });
  }

  function fill(template, values) {
    return String(template || "").replace(/%\((\w+)\)s/g, function (_, name) { return values[name]; });
  }

  var pure = { storeKey: storeKey, readKept: readKept, newer: newer, waitingOf: waitingOf, fill: fill };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------
  function live() { return document.getElementById("live"); }
  function list() { return document.getElementById("waiting-hands"); }
  function gameId() { var l = list(); return l && l.dataset.gameId; }

  function keep() {
    var region = live(), id = gameId();
    if (!region || !id || !region.dataset.version) return;
    try {
      var kept = readKept(localStorage.getItem(storeKey(id)));
      if (kept && newer(kept, region.dataset.version)) return;  // never an older one over it
      localStorage.setItem(storeKey(id), JSON.stringify({ version: region.dataset.version, html: region.outerHTML }));
    } catch (e) { /* private mode, or full: the page still works */ }
  }

  function restore() {
    var region = live(), id = gameId();
    if (!region || !id) return;
    var kept = null;
    try { kept = readKept(localStorage.getItem(storeKey(id))); } catch (e) { return; }
    if (!newer(kept, region.dataset.version)) return;
    var holder = document.createElement("div");
    holder.innerHTML = kept.html;
    var fresh = holder.querySelector("#live");
    if (!fresh) return;
    region.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    var note = document.createElement("p");
    note.id = "kept-note";
    note.className = "box warn";
    note.setAttribute("role", "status");
    note.textContent = list().dataset.kept;
    fresh.parentNode.insertBefore(note, fresh);
  }

  var drawn = null;
  function draw() {
    var box = list(), outbox = (window.segnapunti || {}).outbox;
    if (!box || !outbox) return;
    var hands = waitingOf(outbox.load(), box.dataset.gameId);
    var state = JSON.stringify(hands);
    if (state === drawn) return;
    drawn = state;
    box.textContent = "";
    box.hidden = !hands.length;
    if (!hands.length) { var note = document.getElementById("kept-note"); if (note) note.remove(); return; }
    var title = document.createElement("h2");
    title.textContent = fill(hands.length === 1 ? box.dataset.one : box.dataset.many, { n: hands.length });
    box.appendChild(title);
    var why = document.createElement("p");
    why.className = "muted";
    why.textContent = box.dataset.why;
    box.appendChild(why);
    var rows = document.createElement("ol");
    rows.className = "plain waiting-list";
    hands.forEach(function (hand) {
      var row = document.createElement("li");
      row.className = "waiting" + (hand.refused ? " refused" : "");
      row.dataset.hand = hand.number;
      var head = document.createElement("strong");
      head.textContent = fill(box.dataset.hand, { number: hand.number || "?" });
      var badge = document.createElement("span");
      badge.className = "badge wait";
      badge.textContent = hand.refused ? box.dataset.refused : box.dataset.waiting;
      row.appendChild(head);
      row.appendChild(document.createTextNode(" "));
      row.appendChild(badge);
      var what = document.createElement("span");
      what.className = "muted values";
      what.textContent = hand.values.map(function (pair) { return pair[0] + ": " + pair[1]; }).join(" · ");
      row.appendChild(what);
      rows.appendChild(row);
    });
    box.appendChild(rows);
  }

  document.addEventListener("DOMContentLoaded", function () {
    restore();
    keep();
    draw();
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "live") keep();
    var note = document.getElementById("kept-note");
    if (note && navigator.onLine) note.remove();  // the region came from the server again
    draw();
  });
  // The outbox queues on submit and sends on its own: the list follows it.
  document.addEventListener("submit", function () { setTimeout(draw, 0); });
  window.addEventListener("storage", draw);
  window.addEventListener("online", draw);
  setInterval(draw, 1000);
})();
