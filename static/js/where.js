/* "Where do I sit?": the alphabetical list of names is filtered as you type (any part of the
 * name, ignoring case and accents); Enter opens the only name left. */
(function () {
  "use strict";
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLocaleLowerCase();
  }
  function start() {
    var input = document.querySelector("[data-where-filter]");
    var list = document.querySelector("[data-where-list]");
    var none = document.querySelector("[data-where-none]");
    if (!input || !list) return;
    var items = Array.prototype.slice.call(list.children);
    var names = items.map(function (item) { return fold(item.textContent); });
    function filter() {
      var wanted = fold(input.value.trim());
      var shown = 0;
      items.forEach(function (item, i) {
        var match = !wanted || names[i].indexOf(wanted) !== -1;
        item.hidden = !match;
        if (match) shown += 1;
      });
      if (none) none.hidden = shown !== 0;
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
