/* A list of tick boxes made quick to fill: a search box that hides the names that do not
   match (accents and case ignored), "select all shown", "clear", and a count of the ticked.
   Markup: an element with data-picker holding labels with a checkbox each, and a toolbar
   (data-picker-tools, hidden until this script shows it) with data-picker-search,
   data-picker-all, data-picker-none and data-picker-count (its data-one / data-many words,
   "%(n)s" standing for the number, come translated from the page).
   The first part needs no page (which names match, the count's words); it is what Node loads
   (tests/js/picker.test.js). */
(function () {
  "use strict";

  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }

  /* Whether a name is shown for what was typed in the search box (any part of it). */
  function matches(text, typed) {
    var wanted = fold(typed || "");
    return wanted === "" || fold(text).indexOf(wanted) !== -1;
  }

  /* The count's words for n ticked names ("%(n)s" standing for the number). */
  function countText(n, one, many) {
    return ((n === 1 ? one : many) || "%(n)s").replace("%(n)s", String(n));
  }

  var pure = { fold: fold, matches: matches, countText: countText };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------

  function setUp(picker) {
    var tools = picker.querySelector("[data-picker-tools]");
    if (!tools) return;
    var labels = Array.prototype.slice.call(picker.querySelectorAll("label")).filter(function (l) {
      return l.querySelector("input[type=checkbox]");
    });
    var search = tools.querySelector("[data-picker-search]");
    var count = tools.querySelector("[data-picker-count]");

    function box(label) { return label.querySelector("input[type=checkbox]"); }

    function shown() { return labels.filter(function (l) { return !l.hidden; }); }

    function recount() {
      if (!count) return;
      var n = labels.filter(function (l) { return box(l).checked; }).length;
      count.textContent = countText(n, count.dataset.one, count.dataset.many);
    }

    function filter() {
      var typed = search ? search.value : "";
      labels.forEach(function (l) { l.hidden = !matches(l.textContent, typed); });
    }

    if (search) {
      search.addEventListener("input", filter);
      // Enter in the search box ticks the only name left rather than sending the form.
      search.addEventListener("keydown", function (event) {
        if (event.key !== "Enter") return;
        event.preventDefault();
        var left = shown();
        if (left.length === 1) {
          box(left[0]).checked = true;
          search.value = "";
          filter();
          recount();
        }
      });
    }
    var all = tools.querySelector("[data-picker-all]");
    if (all) all.addEventListener("click", function () {
      shown().forEach(function (l) { box(l).checked = true; });
      recount();
    });
    var none = tools.querySelector("[data-picker-none]");
    if (none) none.addEventListener("click", function () {
      shown().forEach(function (l) { box(l).checked = false; });
      recount();
    });
    picker.addEventListener("change", recount);
    tools.hidden = false;
    recount();
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-picker]"), setUp);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
