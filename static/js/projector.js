/* The projector and the round timer.
 *
 * Paging: every [data-pager] holds a [data-pager-list] whose children are laid out in as many
 * columns of at least data-min em as fit, and as many rows as fit the height; what does not fit
 * is shown on the next page (every 10 s), so no row is ever cut off. Names never wrap (CSS
 * ellipsis; the full name is in the title).
 *
 * New results: the body names the competition's event stream (data-stream; stream.js): the
 * spectators' stream, whose table this screen does not use (it shows its own lists), so that
 * the stream server renders no table for the projector alone.
 * A table finished, new standings, a round published or changed (or, on opening, standings of
 * another version than data-version) renew the screen at once: the page is asked for again (the
 * same address, its own access rules) and its title and main part take the place of the old
 * ones, without reloading the page (the timer and the QR code stay). The running totals of the
 * tables still playing are renewed every data-reload seconds, once every page has been shown,
 * stream or not (no event carries a hand of a competition's table). A competition made private
 * ("gone") shows data-gone.
 *
 * Timer: a [data-timer-clock] counts down from data-left seconds while data-state is
 * "running"; with data-poll it asks the server every 5 s (the organizer starts and pauses it on
 * the round page).
 *
 * The first part needs no page (the columns and rows a list fits, its pages, a page's label, what a stream event asks,
 * the timer's figures); it is what Node loads (tests/js/projector.test.js).
 */
(function () {
  "use strict";
  var PAGE_MS = 10000, POLL_MS = 5000;

  function px(value) { return parseFloat(value) || 0; }

  /* How many of size (a column's least width, a row's height) fit in room with gap between
   * them: at least one. */
  function fitting(room, size, gap) {
    return Math.max(1, Math.floor((room + gap) / (size + gap)));
  }

  /* How many pages count items take, per on a page: at least one. */
  function pagesOf(count, per) {
    return Math.max(1, Math.ceil(count / per));
  }

  /* The page's label ("%(page)s" of "%(pages)s", page counted from 0), empty for one page. */
  function pageLabel(text, page, pages) {
    return pages > 1 ? text.replace("%(page)s", page + 1).replace("%(pages)s", pages) : "";
  }

  /* What an event of the stream (segnapunti:stream's detail) asks of this screen: "gone",
   * "renew" or nothing (another stream, a greeting of the version shown, a kind not shown). */
  function asked(detail, stream, version) {
    var data = detail.data || {};
    if (detail.url !== stream) return null;
    if (detail.kind === "gone") return "gone";
    if (detail.kind === "hello" && String(data.version) === version) return null;
    return ["hello", "reload", "standings", "table", "competition"].indexOf(detail.kind) >= 0 ? "renew" : null;
  }

  /* Seconds as the clock shows them: m:ss under an hour (two digits each), h:mm:ss from one. */
  function clockText(seconds) {
    seconds = Math.max(0, Math.round(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = (m < 10 ? "0" : "") + m, ss = (s < 10 ? "0" : "") + s;
    return h ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  }

  /* The timer at now (ms) from its last known state {left (s), state, at (ms)}: the seconds
   * left and the state shown ("over" once a running timer reaches zero). */
  function timerAt(state, now) {
    var left = state.left;
    if (state.state === "running") left = Math.max(0, state.left - (now - state.at) / 1000);
    return { left: left, shown: state.state === "running" && left <= 0 ? "over" : state.state };
  }

  var pure = { fitting: fitting, pagesOf: pagesOf, pageLabel: pageLabel, asked: asked, clockText: clockText, timerAt: timerAt };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------

  function layout(pager) {
    var list = pager.querySelector("[data-pager-list]");
    if (!list) return null;
    var items = Array.prototype.slice.call(list.children);
    items.forEach(function (item) { item.hidden = false; });
    var style = getComputedStyle(list);
    var colGap = px(style.columnGap), rowGap = px(style.rowGap);
    var minWidth = px(pager.dataset.min || 15) * px(style.fontSize);
    var cols = fitting(list.clientWidth, minWidth, colGap);
    list.style.gridTemplateColumns = "repeat(" + cols + ", minmax(0, 1fr))";
    list.style.gridTemplateRows = "";
    var tallest = 0;
    items.forEach(function (item) { tallest = Math.max(tallest, item.getBoundingClientRect().height); });
    var rows = fitting(list.clientHeight, tallest, rowGap);
    list.style.gridTemplateRows = "repeat(" + rows + ", " + tallest + "px)";
    list.style.gridAutoFlow = "column";
    var per = rows * cols;
    return { items: items, per: per, pages: pagesOf(items.length, per), page: 0,
             label: pager.querySelector("[data-pager-page]"), text: pager.dataset.pageText || "" };
  }

  function show(state) {
    state.items.forEach(function (item, i) {
      item.hidden = Math.floor(i / state.per) !== state.page;
    });
    if (state.label) state.label.textContent = pageLabel(state.text, state.page, state.pages);
  }

  var states = [];
  function laidOut() {
    states = [];
    document.querySelectorAll("[data-pager]").forEach(function (pager) {
      var state = layout(pager);
      if (state) { show(state); states.push(state); }
    });
  }

  function pagers() {
    laidOut();
    var reload = px(document.body.dataset.reload) * 1000;
    if (!states.length && !reload) return;
    var started = Date.now(), cycles = 0;
    setInterval(function () {
      cycles += 1;
      states.forEach(function (state) { state.page = (state.page + 1) % state.pages; show(state); });
      var most = Math.max.apply(null, states.map(function (s) { return s.pages; }).concat([1]));
      if (reload && Date.now() - started >= reload && cycles % most === 0) {
        started = Date.now();
        renew();
      }
    }, PAGE_MS);
    window.addEventListener("resize", laidOut);
  }

  /* The screen from the page asked for again: its title and main part replace the old ones.
   * One request at a time; a change heard meanwhile asks once more after it. */
  var renewing = false, again = false;
  function order() {
    return Array.prototype.map.call(document.querySelectorAll(".standings-list [data-entry]"),
      function (row) { return row.dataset.entry; });
  }
  function renew() {
    if (!window.fetch || !window.DOMParser) return;
    if (renewing) { again = true; return; }
    renewing = true;
    fetch(location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (answer) { return answer.ok ? answer.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var before = order();
        [".projector-title", ".projector-main"].forEach(function (selector) {
          var now = document.querySelector(selector), next = fresh.querySelector(selector);
          if (now && next) now.replaceWith(document.importNode(next, true));
        });
        if (fresh.body && fresh.body.dataset.version) document.body.dataset.version = fresh.body.dataset.version;
        laidOut();
        var stream = (window.segnapunti || {}).stream;
        if (stream) {
          stream.keepMoves("projector", stream.moves(before, order()), function (entry) {
            return document.querySelector('.standings-list [data-entry="' + entry + '"]');
          });
        }
      })
      .catch(function () { /* the next change or the next cycle tries again */ })
      .then(function () {
        renewing = false;
        if (again) { again = false; renew(); }
      });
  }

  function heard(event) {
    var wanted = asked(event.detail || {}, document.body.dataset.stream, document.body.dataset.version);
    if (wanted === "gone") gone();
    else if (wanted === "renew") renew();
  }

  function gone() {
    var main = document.querySelector(".projector-main");
    if (!main || document.getElementById("projector-gone")) return;
    var notice = document.createElement("p");
    notice.id = "projector-gone";
    notice.className = "projector-gone";
    notice.setAttribute("role", "alert");
    notice.textContent = document.body.dataset.gone || "";
    main.replaceChildren(notice);
    document.body.dataset.reload = "";
  }

  function timer(clock) {
    var state = { left: px(clock.dataset.left), state: clock.dataset.state, at: Date.now() };
    var box = clock.parentElement, label = box.querySelector("[data-timer-label]");
    function render() {
      var now = timerAt(state, Date.now()), shown = now.shown;
      clock.textContent = clockText(Math.ceil(now.left));
      clock.dataset.state = shown;
      box.dataset.state = shown;
      if (label) label.textContent = label.dataset[shown] || "";
    }
    setInterval(render, 250);
    render();
    var url = clock.dataset.poll;
    if (!url || !window.fetch) return;
    setInterval(function () {
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (answer) { return answer.ok ? answer.json() : null; })
        .then(function (data) {
          if (!data) return;
          box.hidden = data.state === "none";  // the round is closed, the results final
          if (box.hidden) return;
          state = { left: data.left, state: data.state, at: Date.now() };
          render();
        })
        .catch(function () { /* the next poll tries again */ });
    }, POLL_MS);
  }

  function start() {
    document.querySelectorAll("[data-timer-clock]").forEach(timer);
    pagers();
    document.addEventListener("segnapunti:stream", heard);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
