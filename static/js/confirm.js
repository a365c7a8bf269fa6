/* Segnapunti at the table: who is entering, in a game whose hands must be accepted by a player of
 * another side. The phone remembers which player it belongs to (per game, in localStorage) and
 * chooses that player again in every new hand form: after a save, after the form is emptied
 * (form.reset()) and after a refreshed form replaces it. Nothing here talks to the server.
 */
(function () {
  "use strict";

  function key(form) { return "segnapunti-seat-" + form.dataset.gameId; }

  function choose(form) {
    if (!form || !form.dataset.gameId) return;
    var radios = form.querySelectorAll('input[name="seat"]');
    if (!radios.length) return;
    for (var i = 0; i < radios.length; i++) if (radios[i].checked) return;
    var stored = null;
    try { stored = localStorage.getItem(key(form)); } catch (e) { return; }
    var radio = stored === null ? null : form.querySelector('input[name="seat"][value="' + stored + '"]');
    if (radio) radio.checked = true;
  }

  function current() { return document.querySelector("#hand-form[data-game-id]"); }

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches('#hand-form input[name="seat"]')) return;
    try { localStorage.setItem(key(input.form), input.value); } catch (e) { /* private mode */ }
  });
  // form.reset() empties the form for the next hand: choose the player again once it is done.
  document.addEventListener("reset", function () { setTimeout(function () { choose(current()); }, 0); }, true);
  document.addEventListener("htmx:afterSwap", function () { choose(current()); });
  document.addEventListener("DOMContentLoaded", function () { choose(current()); });
})();
