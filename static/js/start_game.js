/* Segnapunti: the start-game page. Shows the house rules of the chosen game only, and as many
 * seat rows as it takes players (each ruleset's most, from the form's data-max-seats).
 * seatHidden (no page needed) is what Node loads (tests/js/start_game.test.js). */
(function () {
  "use strict";

  /* Whether seat row number row (from 0) is hidden for the chosen ruleset: rows from the
   * ruleset's most players on; every row while no ruleset (or one not listed) is chosen is shown. */
  function seatHidden(maxSeats, chosen, row) {
    return maxSeats[chosen] !== undefined && row >= maxSeats[chosen];
  }

  var pure = { seatHidden: seatHidden };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------
  var $all = window.segnapunti.common.$all;

  function wire(form) {
    var maxSeats = JSON.parse(form.dataset.maxSeats || "{}");
    function show() {
      var checked = form.querySelector('input[name="ruleset"]:checked');
      var chosen = checked ? checked.value : "";
      $all("fieldset.options", form).forEach(function (f) { f.hidden = f.dataset.ruleset !== chosen; });
      $all("[data-seat-row]", form).forEach(function (row) {
        row.hidden = seatHidden(maxSeats, chosen, parseInt(row.dataset.seatRow, 10));
        $all("select, input", row).forEach(function (i) { i.disabled = row.hidden; });
      });
    }
    form.addEventListener("change", show);
    show();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form.start-game");
    if (form) wire(form);
  });
})();
