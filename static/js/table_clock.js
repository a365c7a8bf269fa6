/* The round's clock on a table's phone and scoreboard, and how long a call has waited: counted
 * from the SERVER's time, never the phone's own clock (a phone may be minutes off).
 *
 * Each answer of the server (the page, the clock's JSON) carries its "now" (ms since the
 * epoch): the phone's offset is that minus its own Date.now() when the answer arrived, and
 * every instant it shows is its own clock plus that offset. A running timer is a deadline (the
 * server's ms); a paused or unstarted one is what is left (s). "last hand" is shown from
 * lastHand seconds before the end; extra time for this table only is in the deadline already.
 *
 * The page's part: every [data-table-clock] asks its data-src again on a "clock" event of its
 * stream (segnapunti:stream, stream.js) and every 30 s; every [data-waiting] counts the minutes
 * since data-since (server ms), from data-now (server ms at render).
 *
 * The first part needs no page: it is what Node loads (tests/js/table_clock.test.js).
 */
(function () {
  "use strict";

  var POLL_MS = 30000, TICK_MS = 250;

  /* The phone's offset from the server: add it to Date.now() to get the server's time. */
  function offset(serverNow, clientNow) {
    if (serverNow === "" || serverNow === null || serverNow === undefined) return 0;
    var s = Number(serverNow), c = Number(clientNow);
    return isFinite(s) && isFinite(c) ? s - c : 0;
  }

  /* Seconds left at the phone's clientNow: from the deadline while running, else clock.left. */
  function secondsLeft(clock, clientNow, off) {
    if (clock.state === "running" && clock.deadline) {
      return Math.max(0, Math.ceil((Number(clock.deadline) - (clientNow + off)) / 1000));
    }
    return Math.max(0, Number(clock.left) || 0);
  }

  /* What the clock shows: "idle", "paused", "running", "last" (within lastHand of the end) or
   * "over". */
  function phase(clock, left) {
    if (clock.state === "none") return "none";
    if (clock.state === "over" || (clock.state === "running" && left <= 0)) return "over";
    if (clock.state !== "running") return clock.state === "paused" ? "paused" : "idle";
    var warn = Number(clock.last_hand) || 0;
    return warn && left <= warn ? "last" : "running";
  }

  function text(seconds) {
    seconds = Math.max(0, Math.round(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = (m < 10 ? "0" : "") + m, ss = (s < 10 ? "0" : "") + s;
    return h ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  }

  /* Whole minutes since `since` (server ms) at the phone's clientNow. */
  function waited(since, clientNow, off) {
    return Math.max(0, Math.floor((clientNow + off - Number(since)) / 60000));
  }

  var clock = { offset: offset, secondsLeft: secondsLeft, phase: phase, text: text, waited: waited };
  if (typeof module !== "undefined" && module.exports) module.exports = clock;
  if (typeof window === "undefined" || typeof document === "undefined") return;
  window.segnapunti = window.segnapunti || {};
  if (window.segnapunti.clock) return;  // loaded twice (a page and a section)
  window.segnapunti.clock = clock;

  function fromData(el) {
    var d = el.dataset;
    return { state: d.state, deadline: d.deadline ? Number(d.deadline) : null, left: Number(d.left) || 0,
             last_hand: d.lastHand ? Number(d.lastHand) : null, extra: Number(d.extra) || 0 };
  }

  function follow(el) {
    if (el._clock) return;
    var state = { clock: fromData(el), off: offset(el.dataset.now, Date.now()) };
    el._clock = state;
    var time = el.querySelector("[data-clock-time]"), label = el.querySelector("[data-clock-label]");
    var extra = el.querySelector("[data-clock-extra]");
    function render() {
      var left = secondsLeft(state.clock, Date.now(), state.off), shown = phase(state.clock, left);
      el.hidden = shown === "none";
      el.dataset.phase = shown;
      if (time) time.textContent = text(left);
      var words = el.getAttribute("data-label-" + shown) || "";
      if (label && label.textContent !== words) label.textContent = words;
      if (extra) {
        var minutes = Math.floor((state.clock.extra || 0) / 60);
        extra.hidden = !minutes;
        extra.textContent = minutes ? (el.dataset.labelExtra || "").replace("%(minutes)s", minutes) : "";
      }
    }
    function ask() {
      if (!window.fetch || !el.dataset.src) return;
      fetch(el.dataset.src, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
        .then(function (answer) { return answer.ok ? answer.json() : null; })
        .then(function (data) {
          if (!data) return;
          state.clock = data;
          state.off = offset(data.now, Date.now());
          render();
        })
        .catch(function () { /* the next event or poll tries again */ });
    }
    document.addEventListener("segnapunti:stream", function (event) {
      var detail = event.detail || {};
      if (detail.url === el.dataset.stream && (detail.kind === "clock" || detail.kind === "reload")) ask();
    });
    setInterval(render, TICK_MS);
    setInterval(ask, POLL_MS);
    render();
  }

  function counters() {
    document.querySelectorAll("[data-waiting]").forEach(function (el) {
      if (el._off === undefined) el._off = offset(el.dataset.now, Date.now());
      var words = (el.dataset.template || "").replace("%(minutes)s", waited(el.dataset.since, Date.now(), el._off));
      if (el.textContent !== words) el.textContent = words;
    });
  }

  function start() {
    document.querySelectorAll("[data-table-clock]").forEach(follow);
    counters();
    setInterval(counters, 15000);
    document.addEventListener("htmx:afterSettle", counters);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
