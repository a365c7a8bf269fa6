/* "Where do I sit?": the alphabetical list of names is filtered as you type (any part of the
 * name, ignoring case and accents); Enter opens the only name left.
 * The first part needs no page (which names match); it is what Node loads (tests/js/where.test.js). */
(function () {
  "use strict";

  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLocaleLowerCase();
  }

  /* For each name (already folded), whether it is shown for what was typed. */
  function shownFor(names, typed) {
    var wanted = fold(String(typed || "").trim());
    return names.map(function (name) { return !wanted || name.indexOf(wanted) !== -1; });
  }

  var pure = { fold: fold, shownFor: shownFor };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------
  function start() {
    var input = document.querySelector("[data-where-filter]");
    var list = document.querySelector("[data-where-list]");
    var none = document.querySelector("[data-where-none]");
    if (!input || !list) return;
    var items = Array.prototype.slice.call(list.children);
    var names = items.map(function (item) { return fold(item.textContent); });
    function filter() {
      var shown = shownFor(names, input.value);
      items.forEach(function (item, i) { item.hidden = !shown[i]; });
      if (none) none.hidden = shown.indexOf(true) !== -1;
    }
    input.addEventListener("input", filter);
    input.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      var left = items.filter(function (item) { return !item.hidden; });
      if (left.length === 1) { event.preventDefault(); left[0].querySelector("a").click(); }
    });
    filter();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
