/* A box that scrolls sideways (a standings table's .table-wrap, a knockout's .bracket) says so:
 * data-overflow names the sides where more is hidden ("left", "right" or both), and the style
 * sheet fades that edge. Marked on load, on resize, while scrolled, and after htmx or the
 * event stream replaced a part of the page. A box that overflows can be scrolled with the
 * keyboard (tabindex).
 * The first part needs no page (the sides hidden, from the box's sizes); it is what Node loads
 * (tests/js/scroll_cue.test.js). */
(function () {
  "use strict";

  /* The sides where more is hidden, for a box scrollWidth wide showing clientWidth from
   * scrollLeft (a pixel of rounding is no overflow). */
  function hiddenSides(scrollWidth, clientWidth, scrollLeft) {
    var hidden = scrollWidth - clientWidth, sides = [];
    if (hidden > 1) {
      if (scrollLeft > 1) sides.push("left");
      if (scrollLeft < hidden - 1) sides.push("right");
    }
    return sides;
  }

  var pure = { hiddenSides: hiddenSides };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------
  var BOXES = ".table-wrap, .bracket";

  function mark(box) {
    var sides = hiddenSides(box.scrollWidth, box.clientWidth, box.scrollLeft);
    if (box.scrollWidth - box.clientWidth > 1 && !box.hasAttribute("tabindex")) box.tabIndex = 0;
    if (sides.length) box.dataset.overflow = sides.join(" ");
    else delete box.dataset.overflow;
  }

  function markAll() {
    Array.prototype.forEach.call(document.querySelectorAll(BOXES), mark);
  }

  document.addEventListener("scroll", function (event) {
    var box = event.target;
    if (box instanceof Element && box.matches(BOXES)) mark(box);
  }, true);
  window.addEventListener("resize", markAll);
  document.addEventListener("DOMContentLoaded", markAll);
  document.addEventListener("htmx:afterSettle", markAll);
  // The event stream (stream.js) swaps fragments without htmx: watch the page for new boxes.
  var queued = false;
  new MutationObserver(function () {
    if (queued) return;
    queued = true;
    window.requestAnimationFrame(function () { queued = false; markAll(); });
  })
    .observe(document.documentElement, { childList: true, subtree: true });
  markAll();
})();
