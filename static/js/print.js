/* A [data-print] button prints the page (the print styles keep only what belongs on paper).
 * printButton (no page needed) is what Node loads (tests/js/print.test.js). */
(function () {
  "use strict";

  /* The [data-print] button a click landed in (the target or an element around it), or null. */
  function printButton(target) {
    return target && typeof target.closest === "function" ? target.closest("[data-print]") : null;
  }

  var pure = { printButton: printButton };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  document.addEventListener("click", function (event) {
    if (printButton(event.target)) { event.preventDefault(); window.print(); }
  });
})();
