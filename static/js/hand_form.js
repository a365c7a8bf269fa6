/* Segnapunti at the table: the hand-entry form while it is being filled in.
 *
 * Shows the parts that apply (data-show-when), greys out the seat that sits out, keeps the live
 * figures up to date (the other side's points, the counted points, the penalties) and fills in the
 * other side's points where two sides share the hand. Every number about the game comes from the
 * ruleset's facts that the server put in the form (<script id="hand-facts">, see Ruleset.facts)
 * and the hand's number from data-hand-number: nothing is re-derived or read from the text.
 *
 * Listeners are delegated to the document, so a form put in the page later (a refused hand shown
 * again by outbox.js) works once refresh(form) has been called. Uses segnapunti.common
 * (common.js). Exposed as segnapunti.handForm.
 */
(function () {
  "use strict";

  var common = window.segnapunti.common, $ = common.$, $all = common.$all;

  // -- reading the form -----------------------------------------------------------------------
  function value(form, name) {
    var checked = $('input[name="' + name + '"]:checked', form);
    if (checked) return checked.value;
    var field = form.elements[name];
    if (!field) return "";
    if (field.type === "checkbox") return field.checked ? "on" : "";
    if (field.length && !field.tagName) return "";  // a radio list with nothing checked
    return field.value;
  }
  function number(form, name) {
    var v = parseInt(value(form, name), 10);
    return isNaN(v) ? null : v;
  }
  function facts(form) {
    if (!form.segnapuntiFacts) {
      var data = $("script#hand-facts", form);
      form.segnapuntiFacts = data ? JSON.parse(data.textContent) : {};
    }
    return form.segnapuntiFacts;
  }

  // -- the hand's number ----------------------------------------------------------------------
  function handNumber(form) {
    var n = parseInt(form.dataset.handNumber, 10);
    return isNaN(n) ? null : n;
  }
  /* The form enters hand ``n``: its data, and the heading above it (made from its translated
   * template, e.g. "Hand %(number)s"). */
  function setHandNumber(form, n) {
    if (!n) return;
    form.dataset.handNumber = String(n);
    if (form.elements.number) form.elements.number.value = String(n);  // sent: "already entered?"
    var section = form.closest("section");
    var heading = section ? $("[data-hand-heading]", section) : null;
    if (heading) heading.textContent = heading.dataset.template.replace("%(number)s", String(n));
  }

  // -- live figures ---------------------------------------------------------------------------
  function cardPoints(form) {
    var values = facts(form).card_values || {}, total = 0;
    Object.keys(values).forEach(function (key) {
      var count = key === "last_trick" ? (value(form, key) === "on" ? 1 : 0) : (number(form, key) || 0);
      total += Math.floor(count * values[key][0] / values[key][1]);
    });
    return total;
  }

  function soloistPoints(form) {
    if (value(form, "entry") === "cards") return cardPoints(form);
    return number(form, "soloist_points");
  }

  function sweepPossible(form) {
    if (value(form, "outcome") !== "played") return false;
    var points = soloistPoints(form);
    return points === 0 || points === facts(form).total_points;
  }

  function firstChoice(form, name) {
    var initial = $('input[name="' + name + '"]', form);
    return initial ? initial.value : "";
  }

  function showWhen(form) {
    $all("[data-show-when]", form).forEach(function (el) {
      var rule = el.dataset.showWhen, show;
      if (rule === "sweep-possible") {
        show = sweepPossible(form);
        if (!show) { var none = $('input[name="sweep"][value="none"]', el); if (none) none.checked = true; }
      } else {
        var parts = rule.split("="), current = value(form, parts[0]);
        show = parts[1].split(",").indexOf(current || firstChoice(form, parts[0])) >= 0;
      }
      el.hidden = !show;
    });
  }

  /* The dealer gets no cards at some tables: he cannot be the soloist, the caller or the partner. */
  function sittingOut(form) {
    var known = facts(form), dealer = number(form, "dealer");
    (known.active_seat_keys || []).forEach(function (key) {
      $all('fieldset[data-field="' + key + '"] input', form).forEach(function (input) {
        var idle = Boolean(known.dealer_sits_out) && dealer !== null && parseInt(input.value, 10) === dealer;
        input.disabled = idle;
        input.closest("label").classList.toggle("idle", idle);
        if (idle) input.checked = false;
      });
    });
  }

  function outputs(form) {
    var known = facts(form);
    $all("output[data-complement]", form).forEach(function (out) {
      var v = number(form, out.dataset.complement);
      out.textContent = v === null ? "–" : String(known.total_points - v);
    });
    $all("output[data-card-points]", form).forEach(function (out) { out.textContent = String(cardPoints(form)); });
    var remaining = $("output[data-remaining]", form);
    if (remaining) {
      var total = 0;
      $all(".side-points input", form).forEach(function (i) { total += parseInt(i.value, 10) || 0; });
      remaining.textContent = String(known.total_points - total);
    }
    var rows = $(".turkish-rows", form);
    if (rows) {
      var perCard = known.penalty_per_card || {}, out = value(form, "went_out");
      $all(".seat-row", rows).forEach(function (row) {
        var seat = row.dataset.seat;
        row.hidden = out !== "" && out === seat;
        var penalty = Object.keys(perCard).reduce(function (sum, key) {
          return sum + perCard[key] * (number(form, key + "_" + seat) || 0);
        }, 0);
        if (value(form, "entry") === "quick") penalty = number(form, "points_" + seat) || 0;
        $("output.penalty", row).textContent = penalty ? "· " + penalty : "";
      });
    }
  }

  function refresh(form) { showWhen(form); sittingOut(form); outputs(form); }

  /* Two sides share the hand's card points: typing one side's fills in the other's, until the
   * player types that one too. */
  function otherSideAutofill(form, changed) {
    var sides = $all(".side-points input", form);
    if (sides.length !== 2 || changed.closest(".side-points") === null) return;
    var other = sides[0] === changed ? sides[1] : sides[0];
    var v = parseInt(changed.value, 10);
    if (!isNaN(v) && (other.value === "" || other.dataset.auto === "1")) {
      other.value = String(facts(form).total_points - v);
      other.dataset.auto = "1";
    }
    changed.dataset.auto = "";
  }

  function handFormOf(event) {
    return event.target.closest ? event.target.closest("form.hand-form") : null;
  }

  document.addEventListener("input", function (e) {
    var form = handFormOf(e);
    if (!form) return;
    otherSideAutofill(form, e.target);
    form.dataset.touched = "1";
    refresh(form);
  });
  document.addEventListener("change", function (e) {
    var form = handFormOf(e);
    if (!form) return;
    form.dataset.touched = "1";
    refresh(form);
  });
  document.addEventListener("click", function (e) {
    var form = handFormOf(e), button = e.target.closest && e.target.closest("button.step");
    if (!form || !button) return;
    var input = button.parentNode.querySelector("input");
    input.value = String(Math.max(0, (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10)));
    form.dataset.touched = "1";
    refresh(form);
  });
  /* How much of the top of the screen the sticky totals cover (none where the screen is too low
   * for them to stick): what is scrolled to stops below them (html's scroll-padding-top). */
  function stickyTop() {
    var totals = $("#live .totals"), height = 0;
    if (totals && getComputedStyle(totals).position === "sticky") height = totals.getBoundingClientRect().height;
    document.documentElement.style.setProperty("--sticky-top", Math.ceil(height) + "px");
  }
  window.addEventListener("resize", stickyTop);
  document.addEventListener("htmx:afterSwap", stickyTop);
  document.addEventListener("DOMContentLoaded", function () { $all("form.hand-form").forEach(refresh); stickyTop(); });

  window.segnapunti = window.segnapunti || {};
  window.segnapunti.handForm = {
    value: value,
    number: number,
    facts: facts,
    handNumber: handNumber,
    setHandNumber: setHandNumber,
    refresh: refresh
  };
})();
