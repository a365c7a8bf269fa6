/* Segnapunti at the table: the offline outbox, for poor Wi-Fi. Loaded on every page, so that
 * hands typed on one page are sent from any other.
 *
 * A hand form marked data-outbox is not sent directly. Its fields, with a new idempotency key,
 * are queued in localStorage and sent in order; a resend after a lost answer is harmless because
 * the server returns the first answer for a key it has seen. A hand the server refuses (400) comes
 * back as the form with its errors and the values typed, so nothing is lost. Network errors keep
 * the queue for later (when the browser is online again, and every 15 s). The status line
 * (#outbox-status) says how many hands wait; its sentences are translated data attributes.
 *
 * Uses segnapunti.handForm (hand_form.js) and segnapunti.live (live.js) where the page has them.
 */
(function () {
  "use strict";

  var STORE = "segnapunti-outbox-v1";
  var flushing = false;

  function $(selector, root) { return (root || document).querySelector(selector); }
  function $all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }
  function handForm() { return (window.segnapunti || {}).handForm; }
  function live() { return (window.segnapunti || {}).live; }

  // -- the queue ------------------------------------------------------------------------------
  function load() { try { return JSON.parse(localStorage.getItem(STORE)) || []; } catch (e) { return []; } }
  function save(items) { localStorage.setItem(STORE, JSON.stringify(items)); }
  function pendingFor(gameId) { return load().filter(function (i) { return i.game === gameId; }).length; }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "k-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  // -- the status line ------------------------------------------------------------------------
  function msg(name) {
    var box = $("#outbox-status");
    return box ? box.dataset[name] : "";
  }

  function status(text, kind) {
    var box = $("#outbox-status");
    if (!box) return;
    var items = load();
    var waiting = items.length;
    var parts = [];
    if (waiting) parts.push(waiting === 1 ? box.dataset.one : box.dataset.many.replace("%(n)s", waiting));
    if (!navigator.onLine) parts.push(box.dataset.offline);
    if (text) parts.push(text);
    box.textContent = parts.join(" ");
    // A refused hand whose form cannot be shown here (another game, or a finished one): say so,
    // with a way to open its game and a way to discard it.
    var form = $("#hand-form");
    items.forEach(function (entry) {
      if (!entry.failed || (form && form.dataset.replaces === entry.key)) return;
      var line = document.createElement("p");
      line.className = "refused";
      line.textContent = box.dataset.refused.replace("%(number)s", entry.number || "?") + " ";
      var open = document.createElement("a");
      open.href = "/g/" + entry.game + "/";
      open.textContent = box.dataset.open;
      var discard = document.createElement("button");
      discard.type = "button";
      discard.className = "link";
      discard.textContent = box.dataset.discard;
      discard.addEventListener("click", function () { drop(entry.key); });
      line.appendChild(open);
      line.appendChild(document.createTextNode(" · "));
      line.appendChild(discard);
      box.appendChild(line);
    });
    box.hidden = box.childNodes.length === 0 || box.textContent.trim() === "";
    box.className = "outbox" + (kind ? " " + kind : "");
  }

  function drop(key) {
    save(load().filter(function (i) { return i.key !== key; }));
    var form = $("#hand-form");
    if (form && form.dataset.replaces === key) { window.location.reload(); return; }
    status();
    flush();
  }

  // -- queueing a hand ------------------------------------------------------------------------
  function queue(event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-outbox]")) return;
    event.preventDefault();
    var items = load();
    var entry = {
      key: uuid(),
      url: form.action,
      game: form.dataset.gameId,
      number: handForm() ? handForm().handNumber(form) : null,
      body: "",
      at: Date.now()
    };
    form.elements.idempotency_key.value = entry.key;
    entry.body = new URLSearchParams(new FormData(form)).toString();
    var replaces = form.dataset.replaces;
    var at = replaces ? items.findIndex(function (i) { return i.key === replaces; }) : -1;
    if (at >= 0) items.splice(at, 1, entry); else items.push(entry);
    save(items);
    nextHand(form);
    status();
    flush();
  }

  /* The form, emptied for the next hand: dealt by the seat after this hand's dealer (the
   * ruleset's facts say which seat that is), under the next number. */
  function nextHand(form) {
    var fields = handForm();
    if (!fields) return;
    var fixed = $("input[data-dealer]", form);
    var dealer = fields.number(form, "dealer"), number = fields.handNumber(form);
    var after = (fields.facts(form).dealer_after || [])[dealer];
    form.reset();
    delete form.dataset.replaces;
    delete form.dataset.touched;
    $all("[data-auto]", form).forEach(function (i) { i.dataset.auto = ""; });
    if (after !== undefined) {
      var next = String(after);
      if (fixed) fixed.value = next;
      else { var radio = $('input[name="dealer"][value="' + next + '"]', form); if (radio) radio.checked = true; }
    }
    if (number) fields.setHandNumber(form, number + 1);
    $all(".error", form).forEach(function (e) { e.remove(); });
    $all(".has-error", form).forEach(function (e) { e.classList.remove("has-error"); });
    fields.refresh(form);
  }

  // -- sending --------------------------------------------------------------------------------
  function csrf() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  function flush() {
    if (flushing) return;
    var items = load();
    if (!items.length) { status(); return; }
    // Hands go in order per game: a refused hand holds back the later hands of its game (they
    // were typed after it), not those of other games.
    var blocked = {}, entry = null;
    items.forEach(function (i) {
      if (entry) return;
      if (i.failed) { blocked[i.game] = true; showRefused(i, i.html); return; }
      if (!blocked[i.game]) entry = i;
    });
    if (!entry) { status(msg("failed"), "error"); return; }
    flushing = true;
    fetch(entry.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-Outbox": "1", "X-CSRFToken": csrf(), "Content-Type": "application/x-www-form-urlencoded" },
      body: entry.body
    }).then(function (response) {
      if (response.status === 201) {
        save(load().filter(function (i) { return i.key !== entry.key; }));
        flushing = false;
        if (live()) live().refresh();
        flush();
        return null;
      }
      if (response.status === 400) {
        return response.text().then(function (html) {
          var rest = load();
          rest.forEach(function (i) { if (i.key === entry.key) { i.failed = true; i.html = html; } });
          save(rest);
          showRefused(entry, html);
          flushing = false;
          status(msg("failed"), "error");
        });
      }
      flushing = false;
      if (response.status === 401 || response.status === 403) { status(msg("login"), "error"); return null; }
      if (response.status === 404 || response.status === 405) {
        save(load().filter(function (i) { return i.key !== entry.key; }));
        flush();
        return null;
      }
      status();  // 5xx: keep it and try again later
      return null;
    }).catch(function () {
      flushing = false;
      status();
    });
  }

  /* A refused hand of the game on this page: its form, as the server sent it back with its
   * errors, takes the place of the empty one, under the refused hand's number. */
  function showRefused(entry, html) {
    var current = $("#hand-form");
    if (!current || !html || current.dataset.gameId !== entry.game || current.dataset.replaces === entry.key) return;
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var form = $("form", holder);
    if (!form) return;
    form.dataset.replaces = entry.key;
    var discard = document.createElement("button");
    discard.type = "button";
    discard.className = "danger discard";
    discard.textContent = msg("discard");
    discard.addEventListener("click", function () { drop(entry.key); });
    form.appendChild(discard);
    current.replaceWith(form);
    if (handForm()) {
      handForm().refresh(form);
      handForm().setHandNumber(form, entry.number);
    }
    form.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  document.addEventListener("submit", queue);
  document.addEventListener("DOMContentLoaded", function () { status(); flush(); });
  window.addEventListener("online", flush);
  window.addEventListener("offline", function () { status(); });
  setInterval(flush, 15000);

  window.segnapunti = window.segnapunti || {};
  window.segnapunti.outbox = { load: load, flush: flush, pendingFor: pendingFor };
  window.segnapuntiOutbox = window.segnapunti.outbox;  // the name the browser tests use
})();
