/* Segnapunti as an app: registers the service worker (/sw.js) on every page, and on a page that
 * asks for it (an element marked data-wake-lock: a game in progress, on its page or scoreboard) keeps the screen
 * awake where the browser allows it (Screen Wake Lock API). The lock is dropped by the browser
 * when the page is hidden; it is asked for again when the page is shown. Exposed as
 * segnapunti.pwa (wakeLock: whether a lock is held now; the browser tests read it).
 */
(function () {
  "use strict";

  // -- what needs no page (node --test tests/js/pwa.test.js) ---------------------------------

  /* Whether the screen is kept awake: the page asks for it (data-wake-lock) and is shown. */
  function keepAwake(marked, visibility) {
    return Boolean(marked) && visibility === "visible";
  }

  /* What a new live region does to the status badge ({current: the badge's status, status: the
   * region's}): null when nothing changes, else {status, ended}: the badge's new status and
   * whether the game has just ended (from in progress to anything else: the end-of-game card is
   * scrolled to). */
  function badgeAfter(current, status) {
    if (!status || current === status) return null;
    return { status: status, ended: current === "in_progress" };
  }

  var pure = { keepAwake: keepAwake, badgeAfter: badgeAfter };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------

  var state = { wakeLock: false, sentinel: null };

  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* not kept offline: no harm */ });
    });
  }

  function wanted() {
    return keepAwake(document.querySelector("[data-wake-lock]"), document.visibilityState);
  }

  function acquire() {
    if (!wanted() || state.sentinel || !("wakeLock" in navigator)) return;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      state.sentinel = sentinel;
      state.wakeLock = true;
      sentinel.addEventListener("release", function () {
        state.sentinel = null;
        state.wakeLock = false;
      });
    }).catch(function () { state.wakeLock = false; });  // refused (battery saver, policy): fine
  }

  function release() {
    if (state.sentinel) state.sentinel.release();
  }

  /* The height of what stays stuck at the top of the screen (the bar, the running totals): a
   * card scrolled to goes below it, not under it. */
  function stuckAbove() {
    var height = 0;
    Array.prototype.forEach.call(document.querySelectorAll(".topbar, #live .totals"), function (el) {
      var style = getComputedStyle(el);
      if (style.position === "sticky" || style.position === "fixed") height += el.getBoundingClientRect().height;
    });
    return height;
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") acquire();
  });
  document.addEventListener("DOMContentLoaded", acquire);
  /* After each refresh of the live region: the status badge follows the game's status (its
   * words are the badge's data attributes); a game that has just ended shows its end-of-game
   * card, scrolled to and focused, and lets the screen sleep again. */
  document.addEventListener("htmx:afterSwap", function () {
    var live = document.getElementById("live");
    if (!live || !live.dataset.status) { if (!wanted()) release(); return; }
    var badge = document.querySelector("[data-status-badge]");
    var change = badge && badgeAfter(badge.dataset.current, live.dataset.status);
    if (change) {
      var ended = change.ended;
      badge.dataset.current = change.status;
      badge.textContent = badge.getAttribute("data-label-" + live.dataset.status) || badge.textContent;
      badge.classList.toggle("off", live.dataset.status !== "in_progress");
      var over = document.getElementById("game-over");
      if (ended && over) {
        window.scrollTo({ top: over.getBoundingClientRect().top + window.scrollY - stuckAbove() - 8, behavior: "smooth" });
        var heading = over.querySelector("h2");
        if (heading) heading.focus({ preventScroll: true });
      }
    }
    if (wanted()) acquire(); else release();
  });

  window.segnapunti = window.segnapunti || {};
  window.segnapunti.pwa = state;
})();
