/* The bump chart (tournaments/partials/bump_chart.html): a name tapped (in the legend, in the
 * chart's data table, or a line of the chart itself) highlights that entry's line and names it
 * at both ends; tapped again, or Escape, the chart is as drawn. Without script the chart is
 * complete as drawn, the reader's own line already highlighted on their entry page.
 * The first part needs no page (which entry is highlighted after a tap); it is what Node loads
 * (tests/js/bump.test.js). */
(function () {
  "use strict";

  /* The entry highlighted after ``tapped`` is tapped while ``current`` is (null: none). */
  function nextHighlight(current, tapped) {
    if (tapped === null || tapped === undefined || tapped === "") return null;
    return String(current) === String(tapped) ? null : String(tapped);
  }

  /* The state of one element that names ``entry`` while ``highlighted`` is. */
  function stateOf(entry, highlighted) {
    var on = highlighted !== null && String(entry) === String(highlighted);
    return { on: on, pressed: on ? "true" : "false" };
  }

  var pure = { nextHighlight: nextHighlight, stateOf: stateOf };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------
  function show(chart, highlighted) {
    chart.dataset.highlighted = highlighted === null ? "" : highlighted;
    chart.classList.toggle("has-on", highlighted !== null);
    Array.prototype.forEach.call(chart.querySelectorAll("[data-entry]"), function (element) {
      var state = stateOf(element.dataset.entry, highlighted);
      element.classList.toggle("on", state.on);
      if (element.tagName === "BUTTON") element.setAttribute("aria-pressed", state.pressed);
    });
  }

  function tapped(event) {
    var chart = event.target.closest("[data-bump]");
    var named = event.target.closest("[data-entry]");
    if (!chart || !named || !chart.contains(named)) return;
    show(chart, nextHighlight(chart.dataset.highlighted || null, named.dataset.entry));
  }

  document.addEventListener("click", tapped);
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    Array.prototype.forEach.call(document.querySelectorAll("[data-bump].has-on"), function (c) {
      show(c, null);
    });
  });
})();
