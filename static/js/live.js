/* Segnapunti at the table: the live figures of a game (#live: totals, next dealer, history).
 *
 * htmx polls the live region while the game is in progress; refresh() asks for it at once (after
 * the outbox sent a hand). After each swap, the entry form follows what another phone may have
 * changed: a finished game takes no more hands (the form goes, unless hands of this game still
 * wait in the outbox); otherwise the form's hand number, and while the form is untouched its
 * dealer, come from the region's data attributes (data-status, data-hand-count,
 * data-next-dealer), never from its text. Exposed as segnapunti.live.
 */
(function () {
  "use strict";

  function $(selector, root) { return (root || document).querySelector(selector); }
  function handForm() { return (window.segnapunti || {}).handForm; }
  function waiting(gameId) {
    var outbox = (window.segnapunti || {}).outbox;
    return outbox ? outbox.pendingFor(gameId) : 0;
  }

  function refresh() {
    var live = $("#live");
    if (!live || !window.htmx || !live.getAttribute("hx-get")) return;
    window.htmx.ajax("GET", live.getAttribute("hx-get"), { target: "#live", swap: "outerHTML" });
  }

  document.addEventListener("htmx:afterSwap", function () {
    var live = $("#live"), form = $("#hand-form"), fields = handForm();
    if (!live || !form || !fields || form.hasAttribute("data-replaces")) return;
    var pending = waiting(form.dataset.gameId);
    if (live.dataset.status !== "in_progress") {
      var card = form.closest(".entry-card");
      if (card && !pending) card.remove();
      return;
    }
    fields.setHandNumber(form, parseInt(live.dataset.handCount, 10) + 1 + pending);
    if (form.dataset.touched || pending) return;
    var next = live.dataset.nextDealer;
    if (next === "") return;
    var fixed = $("input[data-dealer]", form);
    if (fixed) fixed.value = next;
    fields.refresh(form);
  });

  window.segnapunti = window.segnapunti || {};
  window.segnapunti.live = { refresh: refresh };
})();
