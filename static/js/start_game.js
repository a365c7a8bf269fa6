/* Segnapunti: the start-game page. Shows the house rules of the chosen game only, and as many
 * seat rows as it takes players (each ruleset's most, from the form's data-max-seats). */
(function () {
  "use strict";

  var $all = window.segnapunti.common.$all;

  function wire(form) {
    var maxSeats = JSON.parse(form.dataset.maxSeats || "{}");
    function show() {
      var checked = form.querySelector('input[name="ruleset"]:checked');
      var chosen = checked ? checked.value : "";
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
    var form = document.querySelector("form.start-game");
    if (form) wire(form);
  });
})();
