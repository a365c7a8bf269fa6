/* Segnapunti at the table: live figures while typing, and an outbox for poor Wi-Fi.
 *
 * The outbox: a hand form marked data-outbox is not sent directly. Its fields, with a new
 * idempotency key, are queued in localStorage and sent in order; a resend after a lost answer is
 * harmless because the server returns the first answer for a key it has seen. A hand the server
 * refuses (400) comes back as the form with its errors and the values typed, so nothing is lost.
 * Network errors keep the queue for later (when the browser is online again, and every 15 s).
 */
(function () {
  "use strict";

  var STORE = "segnapunti-outbox-v1";
  var flushing = false;

  function $(selector, root) { return (root || document).querySelector(selector); }
  function $all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }

  // -- form values --------------------------------------------------------------------------
  function value(form, name) {
    var checked = $('input[name="' + name + '"]:checked', form);
    if (checked) return checked.value;
    var field = form.elements[name];
    if (!field) return "";
    if (field.type === "checkbox") return field.checked ? "on" : "";
    if (field.length && !field.tagName) return "";  // a radio list with nothing checked
    return field.value;
  }
  function number(form, name) {
    var v = parseInt(value(form, name), 10);
    return isNaN(v) ? null : v;
  }

  // -- live figures -------------------------------------------------------------------------
  function cardPoints(form) {
    var aces = number(form, "aces") || 0;
    var last = value(form, "last_trick") === "on";
    if (form.dataset.game === "terziglio") return aces + Math.floor((number(form, "thirds") || 0) / 3) + (last ? 1 : 0);
    return 3 * aces + (number(form, "counters") || 0) + (last ? 3 : 0);
  }

  function soloistPoints(form) {
    if (value(form, "entry") === "cards") return cardPoints(form);
    return number(form, "soloist_points");
  }

  function sweepPossible(form, box) {
    if (value(form, "outcome") !== "played") return false;
    var points = soloistPoints(form);
    return points === 0 || points === parseInt(box.dataset.maxPoints, 10);
  }

  function showWhen(form) {
    $all("[data-show-when]", form).forEach(function (el) {
      var rule = el.dataset.showWhen, show;
      if (rule === "sweep-possible") {
        show = sweepPossible(form, el);
        if (!show) { var none = $('input[name="sweep"][value="none"]', el); if (none) none.checked = true; }
      } else {
        var parts = rule.split("="), current = value(form, parts[0]);
        show = parts[1].split(",").indexOf(current || firstChoice(form, parts[0])) >= 0;
      }
      el.hidden = !show;
    });
  }

  function firstChoice(form, name) {
    var initial = $('input[name="' + name + '"]', form);
    return initial ? initial.value : "";
  }

  function sittingOut(form) {
    var seats = parseInt(form.dataset.seats, 10), rule = parseInt(form.dataset.sitsOut, 10);
    var dealer = number(form, "dealer");
    $all("fieldset.soloist input, fieldset.caller input, fieldset.partner input", form).forEach(function (input) {
      var idle = seats === rule && dealer !== null && parseInt(input.value, 10) === dealer;
      input.disabled = idle;
      input.closest("label").classList.toggle("idle", idle);
      if (idle) input.checked = false;
    });
  }

  function outputs(form) {
    $all("output[data-complement]", form).forEach(function (out) {
      var v = number(form, out.dataset.complement);
      out.textContent = v === null ? "–" : String(parseInt(out.dataset.total, 10) - v);
    });
    $all("output[data-card-points]", form).forEach(function (out) { out.textContent = String(cardPoints(form)); });
    var remaining = $("output[data-remaining]", form);
    if (remaining) {
      var total = 0;
      $all(".side-points input", form).forEach(function (i) { total += parseInt(i.value, 10) || 0; });
      remaining.textContent = String(parseInt(remaining.dataset.remaining, 10) - total);
    }
    var rows = $(".turkish-rows", form);
    if (rows) {
      var values = rows.dataset.values.split(",").map(Number), out = value(form, "went_out");
      $all(".seat-row", rows).forEach(function (row) {
        var seat = row.dataset.seat;
        row.hidden = out !== "" && out === seat;
        var penalty = ["court", "tens", "other"].reduce(function (sum, key, i) {
          return sum + values[i] * (number(form, key + "_" + seat) || 0);
        }, 0);
        var label = $("output.penalty", row);
        if (value(form, "entry") === "quick") penalty = number(form, "points_" + seat) || 0;
        label.textContent = penalty ? "· " + penalty : "";
      });
    }
  }

  function refresh(form) { showWhen(form); sittingOut(form); outputs(form); }

  function briscolaAutofill(form, changed) {
    var sides = $all(".side-points input", form);
    if (sides.length !== 2 || changed.closest(".side-points") === null) return;
    var other = sides[0] === changed ? sides[1] : sides[0];
    var v = parseInt(changed.value, 10);
    if (!isNaN(v) && (other.value === "" || other.dataset.auto === "1")) {
      other.value = String(120 - v);
      other.dataset.auto = "1";
    }
    changed.dataset.auto = "";
  }

  function wire(form) {
    if (form.dataset.wired) return;
    form.dataset.wired = "1";
    form.addEventListener("input", function (e) { briscolaAutofill(form, e.target); form.dataset.touched = "1"; refresh(form); });
    form.addEventListener("change", function () { form.dataset.touched = "1"; refresh(form); });
    form.addEventListener("click", function (e) {
      var button = e.target.closest("button.step");
      if (!button) return;
      var input = button.parentNode.querySelector("input");
      input.value = String(Math.max(0, (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10)));
      form.dataset.touched = "1";
      refresh(form);
    });
    if (form.hasAttribute("data-outbox")) form.addEventListener("submit", queue);
    refresh(form);
  }

  // -- outbox -------------------------------------------------------------------------------
  function load() { try { return JSON.parse(localStorage.getItem(STORE)) || []; } catch (e) { return []; } }
  function save(items) { localStorage.setItem(STORE, JSON.stringify(items)); }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "k-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

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

  function queue(event) {
    event.preventDefault();
    var form = event.target;
    var items = load();
    var entry = {
      key: uuid(),
      url: form.action,
      game: form.dataset.gameId,
      number: headingNumber(form),
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

  function nextHand(form) {
    var seats = parseInt(form.dataset.seats, 10);
    var fixed = $("input[data-dealer]", form);
    var dealer = number(form, "dealer");
    form.reset();
    delete form.dataset.replaces;
    delete form.dataset.touched;
    $all("[data-auto]", form).forEach(function (i) { i.dataset.auto = ""; });
    if (dealer !== null) {
      var next = String((dealer + 1) % seats);
      if (fixed) fixed.value = next;
      else { var radio = $('input[name="dealer"][value="' + next + '"]', form); if (radio) radio.checked = true; }
    }
    setHeading(form, headingNumber(form) + 1);
    $all(".error", form).forEach(function (e) { e.remove(); });
    $all(".has-error", form).forEach(function (e) { e.classList.remove("has-error"); });
    refresh(form);
  }

  function heading(form) {
    var section = form.closest("section");
    return section ? $("h2", section) : null;
  }
  function headingNumber(form) {
    var h = heading(form), m = h && h.textContent.match(/\d+/);
    return m ? parseInt(m[0], 10) : null;
  }
  function setHeading(form, number) {
    var h = heading(form);
    if (h && number) h.textContent = h.textContent.replace(/\d+/, String(number));
  }

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
        refreshLive();
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
    wire(form);
    setHeading(form, entry.number);
    form.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  function refreshLive() {
    var live = $("#live");
    if (!live || !window.htmx || !live.getAttribute("hx-get")) return;
    window.htmx.ajax("GET", live.getAttribute("hx-get"), { target: "#live", swap: "outerHTML" });
  }

  // After the live region is refreshed: a finished game takes no more hands; otherwise follow
  // the figures another phone may have changed, as long as this form is untouched.
  document.addEventListener("htmx:afterSwap", function () {
    var live = $("#live"), form = $("#hand-form");
    if (!live || !form || form.hasAttribute("data-replaces")) return;
    if (live.dataset.status !== "in_progress") {
      var card = form.closest(".entry-card");
      if (card && !load().some(function (i) { return i.game === form.dataset.gameId; })) card.remove();
      return;
    }
    var pending = load().filter(function (i) { return i.game === form.dataset.gameId; }).length;
    setHeading(form, parseInt(live.dataset.handCount, 10) + 1 + pending);
    if (form.dataset.touched || pending) return;
    var next = live.dataset.nextDealer;
    if (next === "") return;
    var fixed = $("input[data-dealer]", form);
    if (fixed) fixed.value = next;
    refresh(form);
  });

  // -- the start-game page: show the house rules of the chosen game ---------------------------
  function startGame() {
    var form = $("form.start-game");
    if (!form) return;
    var maxSeats = JSON.parse(form.dataset.maxSeats || "{}");
    function show() {
      var chosen = value(form, "ruleset");
      $all("fieldset.options", form).forEach(function (f) { f.hidden = f.dataset.ruleset !== chosen; });
      $all("[data-seat-row]", form).forEach(function (row) {
        row.hidden = maxSeats[chosen] !== undefined && parseInt(row.dataset.seatRow, 10) >= maxSeats[chosen];
        $all("select, input", row).forEach(function (i) { i.disabled = row.hidden; });
      });
    }
    form.addEventListener("change", show);
    show();
  }

  document.addEventListener("DOMContentLoaded", function () {
    $all("form.hand-form").forEach(wire);
    startGame();
    status();
    flush();
  });
  window.addEventListener("online", flush);
  window.addEventListener("offline", function () { status(); });
  setInterval(flush, 15000);
  window.segnapuntiOutbox = { load: load, flush: flush };
})();
