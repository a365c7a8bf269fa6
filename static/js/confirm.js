/* Segnapunti at the table: who is entering, in a game whose hands must be accepted by a player of
 * another side. The phone remembers which player it belongs to (per game, in localStorage) and
 * chooses that player again in every new hand form: after a save, after the form is emptied
 * (form.reset()) and after a refreshed form replaces it. Nothing here talks to the server.
 *
 * The first part needs no page (where the player is kept, which seat to choose again); it is
 * what Node loads (tests/js/confirm.test.js).
 */
(function () {
  "use strict";

  function storeKey(gameId) { return "segnapunti-seat-" + gameId; }

  /* The seat to choose again among the form's seats (their values, in order), or null: none when
   * a seat is already chosen, nothing is kept, or the kept one is not in this form. */
  function seatToChoose(values, anyChecked, stored) {
    if (anyChecked || stored === null || stored === undefined) return null;
    return values.indexOf(String(stored)) >= 0 ? String(stored) : null;
  }

  var pure = { storeKey: storeKey, seatToChoose: seatToChoose };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------
  function choose(form) {
    if (!form || !form.dataset.gameId) return;
    var radios = Array.prototype.slice.call(form.querySelectorAll('input[name="seat"]'));
    if (!radios.length) return;
    var stored = null;
    try { stored = localStorage.getItem(storeKey(form.dataset.gameId)); } catch (e) { return; }
    var values = radios.map(function (radio) { return radio.value; });
    var seat = seatToChoose(values, radios.some(function (radio) { return radio.checked; }), stored);
    if (seat !== null) radios[values.indexOf(seat)].checked = true;
  }

  function current() { return document.querySelector("#hand-form[data-game-id]"); }

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches('#hand-form input[name="seat"]')) return;
    try { localStorage.setItem(storeKey(input.form.dataset.gameId), input.value); } catch (e) { /* private mode */ }
  });
  // form.reset() empties the form for the next hand: choose the player again once it is done.
  document.addEventListener("reset", function () { setTimeout(function () { choose(current()); }, 0); }, true);
  document.addEventListener("htmx:afterSwap", function () { choose(current()); });
  document.addEventListener("DOMContentLoaded", function () { choose(current()); });
})();
