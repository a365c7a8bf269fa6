/* The organizer's panel of the tables' calls (#director-calls, round page and desk): a call that
 * was not there before (or a table calling again) beeps, where the browser allows sound (Web
 * Audio, once the page has been touched: browsers keep a page silent until then), and the panel
 * flashes. No audio file: a short tone made here.
 *
 * The panel is refreshed by stream.js; its data-calls lists "<call id>.<times called>".
 *
 * The first part needs no page (the calls listed, the ones that are new); it is what Node loads
 * (tests/js/calls.test.js).
 */
(function () {
  "use strict";

  /* The calls a panel's data-calls lists ("<call id>.<times called>" separated by spaces). */
  function listed(text) {
    return String(text || "").split(/\s+/).filter(Boolean);
  }

  /* The calls of now that were not there before: a new call, or a table calling again (its
   * count went up). Nothing is new on the first look (known is null: the page just opened). */
  function fresh(known, now) {
    if (known === null) return [];
    return now.filter(function (call) { return known.indexOf(call) < 0; });
  }

  var pure = { listed: listed, fresh: fresh };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------
  var audio = null, known = null;

  function unlock() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      if (!audio) audio = new Context();
      if (audio.state === "suspended") audio.resume();
    } catch (e) { audio = null; }
  }

  function beep() {
    unlock();
    if (!audio || audio.state !== "running") return false;
    [0, 0.25].forEach(function (at) {
      var tone = audio.createOscillator(), gain = audio.createGain(), t = audio.currentTime + at;
      tone.type = "sine";
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.3, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.18);
      tone.connect(gain).connect(audio.destination);
      tone.start(t);
      tone.stop(t + 0.2);
    });
    return true;
  }

  function check() {
    var panel = document.getElementById("director-calls");
    if (!panel) return;
    var now = listed(panel.getAttribute("data-calls"));
    if (fresh(known, now).length) {
      panel.dataset.rang = String(Number(panel.dataset.rang || 0) + 1);
      document.documentElement.dataset.callsRang = panel.dataset.rang;
      panel.classList.add("ringing");
      setTimeout(function () { panel.classList.remove("ringing"); }, 3000);
      beep();
    }
    known = now;
  }

  function start() {
    ["pointerdown", "keydown"].forEach(function (kind) {
      document.addEventListener(kind, unlock, { once: true, capture: true });
    });
    check();
    document.addEventListener("htmx:afterSettle", check);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
