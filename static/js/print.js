/* A [data-print] button prints the page (the print styles keep only what belongs on paper). */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-print]") : null;
    if (button) { event.preventDefault(); window.print(); }
  });
})();
