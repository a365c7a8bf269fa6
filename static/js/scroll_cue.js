/* A box that scrolls sideways (a standings table's .table-wrap, a knockout's .bracket) says so:
 * data-overflow names the sides where more is hidden ("left", "right" or both), and the style
 * sheet fades that edge. Marked on load, on resize, while scrolled, and after htmx or the
 * event stream replaced a part of the page. A box that overflows can be scrolled with the
 * keyboard (tabindex). */
(function () {
  "use strict";

  var BOXES = ".table-wrap, .bracket";

  function mark(box) {
    var hidden = box.scrollWidth - box.clientWidth;
    var sides = [];
    if (hidden > 1) {
      if (box.scrollLeft > 1) sides.push("left");
      if (box.scrollLeft < hidden - 1) sides.push("right");
      if (!box.hasAttribute("tabindex")) box.tabIndex = 0;
    }
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
