/* Segnapunti at the table: the hand-entry form while it is being filled in.
 *
 * Shows the parts that apply (data-show-when), greys out the seat that sits out, keeps the live
 * figures up to date (the other side's points, the counted points, the penalties) and fills in the
 * other side's points where two sides share the hand. Every number about the game comes from the
 * ruleset's facts that the server put in the form (<script id="hand-facts">, see Ruleset.facts)
 * and the hand's number from data-hand-number: nothing is re-derived or read from the text.
 *
 * Listeners are delegated to the document, so a form put in the page later (a refused hand shown
 * again by outbox.js) works once refresh(form) has been called. Exposed as segnapunti.handForm.
 *
 * The arithmetic comes first and needs no page: it reads the form through read(name), a field's
 * value as typed. It is what Node loads (tests/js/hand_form.test.js); the page's part uses
 * segnapunti.common (common.js).
 */
(function () {
  "use strict";

  // -- the arithmetic ---------------------------------------------------------------------------
  /* A whole number typed, or null for nothing (or not a number). */
  function toNumber(text) {
    var v = parseInt(text, 10);
    return isNaN(v) ? null : v;
  }

  /* The soloist's card points counted from the cards taken: each kind of card counts
   * values[key] = [numerator, denominator] points per card, rounded down per kind; the last
   * trick (a tick box, "on") counts once. */
  function countedPoints(values, read) {
    var total = 0;
    Object.keys(values || {}).forEach(function (key) {
      var count = key === "last_trick" ? (read(key) === "on" ? 1 : 0) : (toNumber(read(key)) || 0);
      total += Math.floor(count * values[key][0] / values[key][1]);
    });
    return total;
  }

  /* A sweep (all the points, or none) is asked about only for a hand played to the end whose
   * soloist's points are 0 or the total. */
  function sweepPossible(outcome, points, total) {
    return outcome === "played" && (points === 0 || points === total);
  }

  /* data-show-when="name=a,b": shown while the field name has one of the choices (its first
   * choice while none is made). */
  function ruleHolds(rule, read, first) {
    var parts = rule.split("="), current = read(parts[0]);
    return parts[1].split(",").indexOf(current || first(parts[0])) >= 0;
  }

  /* Whether the seat sits this hand out: the dealer, at tables where the dealer gets no cards. */
  function sitsOut(dealerSitsOut, dealer, seat) {
    return Boolean(dealerSitsOut) && dealer !== null && seat === dealer;
  }

  /* The other side's points, from one side's: the hand's total less them (null: none typed). */
  function otherSide(total, points) { return points === null ? null : total - points; }

  /* What is left to share of the hand's total once the sides' points typed are counted. */
  function remaining(total, typed) {
    return typed.reduce(function (left, text) { return left - (parseInt(text, 10) || 0); }, total);
  }

  /* Two sides share the hand's points: what the other side's box gets when one side's is typed
   * (null: left alone, as nothing is typed or the player typed the other side's too; auto says
   * whether its value was filled in here). */
  function autofilled(total, typed, other, auto) {
    var v = parseInt(typed, 10);
    if (isNaN(v) || !(other === "" || auto === "1")) return null;
    return String(total - v);
  }

  /* A seat's penalty in a Turkish hand: each kind of card left in hand costs perCard[key]
   * (fields "<key>_<seat>"); typed quick, it is the seat's points ("points_<seat>"). */
  function penaltyOf(perCard, read, seat, quick) {
    if (quick) return toNumber(read("points_" + seat)) || 0;
    return Object.keys(perCard || {}).reduce(function (sum, key) {
      return sum + perCard[key] * (toNumber(read(key + "_" + seat)) || 0);
    }, 0);
  }

  /* A step button's "+1"/"-1": the count, never below 0. */
  function stepped(text, step) { return String(Math.max(0, (parseInt(text, 10) || 0) + parseInt(step, 10))); }

  var pure = {
    toNumber: toNumber, countedPoints: countedPoints, sweepPossible: sweepPossible,
    ruleHolds: ruleHolds, sitsOut: sitsOut, otherSide: otherSide, remaining: remaining,
    autofilled: autofilled, penaltyOf: penaltyOf, stepped: stepped
  };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------
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
  function number(form, name) { return toNumber(value(form, name)); }
  function reader(form) { return function (name) { return value(form, name); }; }
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
  function cardPoints(form) { return countedPoints(facts(form).card_values, reader(form)); }

  function soloistPoints(form) {
    if (value(form, "entry") === "cards") return cardPoints(form);
    return number(form, "soloist_points");
  }

  function sweepAsked(form) {
    return sweepPossible(value(form, "outcome"), soloistPoints(form), facts(form).total_points);
  }

  function firstChoice(form) {
    return function (name) {
      var initial = $('input[name="' + name + '"]', form);
      return initial ? initial.value : "";
    };
  }

  function showWhen(form) {
    $all("[data-show-when]", form).forEach(function (el) {
      var rule = el.dataset.showWhen, show;
      if (rule === "sweep-possible") {
        show = sweepAsked(form);
        if (!show) { var none = $('input[name="sweep"][value="none"]', el); if (none) none.checked = true; }
      } else {
        show = ruleHolds(rule, reader(form), firstChoice(form));
      }
      el.hidden = !show;
    });
  }

  /* The dealer gets no cards at some tables: he cannot be the soloist, the caller or the partner. */
  function sittingOut(form) {
    var known = facts(form), dealer = number(form, "dealer");
    (known.active_seat_keys || []).forEach(function (key) {
      $all('fieldset[data-field="' + key + '"] input', form).forEach(function (input) {
        var idle = sitsOut(known.dealer_sits_out, dealer, parseInt(input.value, 10));
        input.disabled = idle;
        input.closest("label").classList.toggle("idle", idle);
        if (idle) input.checked = false;
      });
    });
  }

  function outputs(form) {
    var known = facts(form);
    $all("output[data-complement]", form).forEach(function (out) {
      var other = otherSide(known.total_points, number(form, out.dataset.complement));
      out.textContent = other === null ? "–" : String(other);
    });
    $all("output[data-card-points]", form).forEach(function (out) { out.textContent = String(cardPoints(form)); });
    var rest = $("output[data-remaining]", form);
    if (rest) {
      var typed = $all(".side-points input", form).map(function (i) { return i.value; });
      rest.textContent = String(remaining(known.total_points, typed));
    }
    var rows = $(".turkish-rows", form);
    if (rows) {
      var out = value(form, "went_out"), quick = value(form, "entry") === "quick";
      $all(".seat-row", rows).forEach(function (row) {
        var seat = row.dataset.seat;
        row.hidden = out !== "" && out === seat;
        var penalty = penaltyOf(known.penalty_per_card, reader(form), seat, quick);
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
    var filled = autofilled(facts(form).total_points, changed.value, other.value, other.dataset.auto);
    if (filled !== null) {
      other.value = filled;
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
    input.value = stepped(input.value, button.dataset.step);
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
