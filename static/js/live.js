/* Segnapunti at the table: the live figures of a game (#live: totals, next dealer, history).
 *
 * htmx polls the live region while the game is in progress; refresh() asks for it at once (after
 * the outbox sent a hand). After each swap, the entry form follows what another phone may have
 * changed: a finished game takes no more hands (the form goes, unless hands of this game still
 * wait in the outbox); otherwise the form's hand number, and while the form is untouched its
 * dealer, come from the region's data attributes (data-status, data-hand-count,
 * data-next-dealer), never from its text. The region is asked for again at once when the phone
 * comes back (visibilitychange) or the network does (online). When the players themselves
 * changed (an organizer swapped or replaced someone before the first hand: data-seats differs
 * from the page's), the whole page is loaded again, so that its entry form names the new
 * players. Exposed as segnapunti.live.
 *
 * The region names the game's event stream (data-stream, stream.js): while it is open, the
 * polling rests and the region is asked for as soon as a hand, a correction, a removal... is
 * stored (a "game" event of another version than data-version). A verification card a person
 * is using (a choice made, a reason typed, the focus in it) is never replaced by a refresh,
 * polled or streamed: the new region keeps that card as it is (htmx's hx-preserve, set on the
 * card in the answer before it is swapped in) and everything around it is updated.
 *
 * The first part needs no page (whether a card's field was used, whether the players changed,
 * what the entry form takes from a new region); it is what Node loads (tests/js/live.test.js).
 */
(function () {
  "use strict";

  /* Whether a field of a card holds what a person did there: a choice other than the one
   * served, a text typed (hidden fields and buttons never do). */
  function fieldUsed(field) {
    if (field.type === "hidden" || field.type === "submit") return false;
    if (field.type === "radio" || field.type === "checkbox") return field.checked !== field.defaultChecked;
    return field.value !== field.defaultValue;
  }

  /* Whether the players of the game changed since the page was served (both seat lists known). */
  function seatsChanged(served, now) {
    return served != null && now != null && now !== served;
  }

  /* What the entry form takes from a new live region ({status, handCount, nextDealer}, its data
   * attributes), given the hands of this game waiting in the outbox and whether the form was
   * touched: {remove} when the game is no longer in progress (the form goes unless hands wait),
   * else {number, dealer}: the next hand's number (after the waiting ones), and the next dealer
   * or null (the form is touched, hands wait, or the region names none). */
  function formAfter(region, pending, touched) {
    if (region.status !== "in_progress") return { remove: !pending };
    var dealer = touched || pending || region.nextDealer === "" ? null : region.nextDealer;
    return { number: parseInt(region.handCount, 10) + 1 + pending, dealer: dealer === undefined ? null : dealer };
  }

  var pure = { fieldUsed: fieldUsed, seatsChanged: seatsChanged, formAfter: formAfter };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------
  var $ = window.segnapunti.common.$, $all = window.segnapunti.common.$all;
  function handForm() { return (window.segnapunti || {}).handForm; }
  function waiting(gameId) {
    var outbox = (window.segnapunti || {}).outbox;
    return outbox ? outbox.pendingFor(gameId) : 0;
  }

  function refresh() {
    var live = $("#live");
    var url = live && (live.getAttribute("hx-get") || live.dataset.streamSrc);
    if (!url || !window.htmx) return;
    // An event of its own: not a poll, which rests while the stream is open (stream.js).
    window.htmx.ajax("GET", url, { source: "#live", target: "#live", swap: "outerHTML",
                                   event: new CustomEvent("segnapunti:refresh") });
  }

  /* A card is in use once a choice is made or a reason typed in it, or the focus is in it; and
   * a card the server answered with a problem (data-in-use: the name chosen, the error next to
   * the field), until it is sent again. */
  function cardInUse(card) {
    if (card.hasAttribute("data-in-use")) return true;
    var active = document.activeElement;
    if (active && card.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) return true;
    return $all("input, textarea", card).some(fieldUsed);
  }

  /* The answer about to replace #live keeps the cards in use: each is marked hx-preserve in the
   * answer, so htmx puts the card as it is (its choice, its text, its focus) in the new region's
   * place for it. A card the answer no longer has (another phone answered it) goes. */
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "live" || !event.detail.shouldSwap) return;
    var used = $all("[data-check]", target).filter(cardInUse).map(function (card) { return card.id; });
    if (!used.length || typeof event.detail.serverResponse !== "string") return;
    var answer = document.createElement("template");
    answer.innerHTML = event.detail.serverResponse;
    var kept = 0;
    used.forEach(function (id) {
      var card = answer.content.querySelector('[id="' + id + '"]');
      if (card) { card.setAttribute("hx-preserve", ""); kept += 1; }
    });
    if (kept) event.detail.serverResponse = answer.innerHTML;
  });

  /* Two phones, one truth: the hand another phone entered is pointed at once the history shows
   * it (after a refusal "Hand 7 was just entered from another phone"); a hand waiting to be
   * checked that this page did not show yet is brought into view (the verification card). */
  var pointAt = null, checksShown = {};
  function highlight(number) { pointAt = String(number); refresh(); }
  function showNew() {
    if (pointAt !== null) {
      var row = $('#live tr[data-hand="' + pointAt + '"]');
      if (row) {
        row.classList.add("just-entered");
        // The refusal above the form says why; the row is brought near, not over it.
        row.scrollIntoView({ block: "nearest" });
        pointAt = null;
      }
    }
    var fresh = null;
    $all("#live [data-check]").forEach(function (card) {
      if (!checksShown[card.dataset.check] && !fresh) fresh = card;
      checksShown[card.dataset.check] = true;
    });
    if (fresh && fresh.querySelector("form")) fresh.scrollIntoView({ block: "start" });
  }
  document.addEventListener("DOMContentLoaded", function () {
    $all("#live [data-check]").forEach(function (card) {
      checksShown[card.dataset.check] = true;
    });
    var marked = $("#live tr.just-entered");
    if (marked) marked.scrollIntoView({ block: "center" });
  });
  // Back from another app, or the network is back: what the other phones did, at once.
  document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
  window.addEventListener("online", refresh);

  document.addEventListener("htmx:afterSwap", showNew);

  /* The region answered 403 or 404: this phone may no longer read the game (its table link was
   * renewed, its session ended). The page says so above the figures, which stay as they were,
   * and stops asking; the answer is not handed on (django-htmx's debug handler, listening on the
   * document, would show Django's error page in place of the game). */
  document.body.addEventListener("htmx:beforeOnLoad", function (event) {
    var live = $("#live"), xhr = event.detail.xhr;
    if (!live || event.target !== live || (xhr.status !== 403 && xhr.status !== 404)) return;
    event.stopPropagation();
    event.preventDefault();
    // A copy without htmx's attributes takes the region's place: polling stops with the old one.
    var still = live.cloneNode(true);
    still.removeAttribute("hx-get");
    still.removeAttribute("hx-trigger");
    live.replaceWith(still);
    if ($("#live-gone")) return;
    var notice = document.createElement("p");
    notice.id = "live-gone";
    notice.className = "box warn";
    notice.setAttribute("role", "alert");
    notice.textContent = still.dataset.gone;
    still.parentNode.insertBefore(notice, still);
  });

  var servedSeats = null;
  document.addEventListener("DOMContentLoaded", function () {
    var live = $("#live");
    if (live) servedSeats = live.dataset.seats;
  });

  document.addEventListener("htmx:afterSwap", function () {
    var live = $("#live"), form = $("#hand-form"), fields = handForm();
    if (live && seatsChanged(servedSeats, live.dataset.seats)) {
      window.location.reload();  // other players at this table: the form must name them
      return;
    }
    if (!live || !form || !fields || form.hasAttribute("data-replaces")) return;
    var after = formAfter(live.dataset, waiting(form.dataset.gameId), Boolean(form.dataset.touched));
    if ("remove" in after) {
      var card = form.closest(".entry-card");
      if (card && after.remove) card.remove();
      return;
    }
    fields.setHandNumber(form, after.number);
    var next = after.dealer;
    if (next === null) return;
    var fixed = $("input[data-dealer]", form);
    if (fixed) fixed.value = next;
    else {  // a form served before the first hand: the dealer another phone's hand makes next
      var radio = $('input[name="dealer"][value="' + next + '"]', form);
      if (radio) radio.checked = true;
    }
    fields.refresh(form);
  });

  window.segnapunti = window.segnapunti || {};
  window.segnapunti.live = { refresh: refresh, highlight: highlight };
})();
