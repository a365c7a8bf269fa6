/* Segnapunti live: the pages hear of a change from the server's event streams (Server-Sent
 * Events), and poll only while they cannot.
 *
 * An element (or the body) declares data-stream="<url>": the page opens ONE EventSource per
 * address, however many elements name it. While a stream is open, the htmx polling of the
 * elements that name it rests (their "every Ns" requests are cancelled in htmx:beforeRequest,
 * as common.js does for a hidden tab: an htmx filter would be code, which the CSP forbids);
 * while it is not (never opened, refused, dropped, the server's bus down), they poll exactly as
 * before. That is the fallback.
 *
 * A stream that fails is opened again by this module with a growing, jittered delay (an
 * EventSource gives up by itself on a 503, 429 or 404), passing the last event id it saw as
 * ?last=<id>; the browser's own reconnects send Last-Event-ID. "end" (the login that opened it
 * ended) stops the stream for good: the page polls, and the server answers as it decides.
 *
 * A region is an element with data-stream and data-stream-on="<kinds>" (game, standings,
 * competition, table): on an event of one of those kinds (and on hello/reload) whose version
 * differs from the region's data-version, the region is asked for again, through its own
 * polled address (hx-get, with its ETag) or data-stream-src (a page of its own, the region
 * selected from it by its id), or swapped at once when the event carries the html itself (a
 * spectator's standings). A region in use (a field typed in, a choice made, a <details> open,
 * the focus inside) is not replaced under the person: the refresh waits until it is free,
 * unless the region has data-stream-keep (its page keeps the parts in use itself: live.js).
 * A standings region shows the rows that moved for a moment (▲/▼ and a flash).
 * "gone" (the competition is no longer public) stops the region, which says so (data-gone).
 *
 * Every event is also dispatched on the document as "segnapunti:stream" {url, kind, data, id},
 * for the scripts that do more (projector.js, My games' notice).
 *
 * The first part needs no page: the delays, what an event means for a region, which rows
 * moved. It is what Node loads (tests/js/stream.test.js); the page's part starts where it stops.
 */
(function () {
  "use strict";

  var FIRST_MS = 1000, MOST_MS = 30000, MOVE_MS = 4000;
  var KINDS = ["hello", "reload", "game", "standings", "competition", "table", "call", "clock", "gone", "end"];

  // -- the delays -------------------------------------------------------------------------------
  /* How long to wait before the attempt-th new try (0, 1, 2…): doubling from a second up to
   * half a minute, and a random half of it on top (random(): 0 to 1), so that a room full of
   * screens does not come back at the same instant after a restart. */
  function backoff(attempt, random) {
    var ceiling = Math.min(MOST_MS, FIRST_MS * Math.pow(2, Math.max(0, attempt)));
    var r = typeof random === "function" ? random() : Math.random();
    return Math.round(ceiling / 2 + r * ceiling / 2);
  }

  /* The address to open: the stream's own, with ?last=<id> once an event was seen. */
  function withLast(url, last) {
    if (!last) return url;
    return url + (url.indexOf("?") < 0 ? "?" : "&") + "last=" + encodeURIComponent(last);
  }

  // -- what an event means for a region -------------------------------------------------------
  /* Whether html is the region whose id is id: its first element carries that id (a standings
   * event brings the spectators' table, id="standings"; a palio's team standings listening to
   * the same stream are another region and ask for their own). */
  function carries(html, id) {
    var first = /^\s*<[a-zA-Z][^>]*>/.exec(html || "");
    if (!first || !id) return false;
    var named = /\sid\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/.exec(first[0]);
    return Boolean(named) && (named[1] || named[2] || named[3]) === id;
  }

  /* kinds: what the region listens to (its data-stream-on, split on spaces); shown: its
   * data-version (text, or "" when it has none); id: its id. One of
   * - "swap": the event brings the region's html itself (data.html, whose first element has the
   *   region's id), of another version;
   * - "fetch": ask for the region again;
   * - "gone": the thing is no longer readable here; "stop": the stream ended;
   * - "ignore": nothing this region shows changed. */
  function decide(kind, data, kinds, shown, id) {
    data = data || {};
    if (kind === "gone") return "gone";
    if (kind === "end") return "stop";
    var opening = kind === "hello" || kind === "reload";
    if (!opening && kinds.indexOf(kind) < 0) return "ignore";
    var versioned = data.version !== undefined && data.version !== null;
    var same = versioned && shown !== "" && shown !== undefined && String(data.version) === String(shown);
    // A competition's or a table's event says what changed, not a version of this region.
    if (kind === "competition" || kind === "table") return "fetch";
    if (same) return "ignore";
    if (typeof data.html === "string" && data.html) return carries(data.html, id) ? "swap" : "fetch";
    if (kind === "hello" && (!versioned || shown === "" || shown === undefined)) return "ignore";
    return "fetch";
  }

  /* Whether a region at version shown is behind the newest version announced (numbers). */
  function behind(shown, wanted) {
    var s = parseInt(shown, 10), w = parseInt(wanted, 10);
    return !isNaN(s) && !isNaN(w) && s < w;
  }

  // -- which rows moved -------------------------------------------------------------------------
  /* before, after: the entries of a table in their order (lists of ids). An entry that is
   * higher in after than in before moved "up", lower "down"; new and unmoved entries are left
   * out. {id: "up"|"down"}. */
  function moves(before, after) {
    var was = {}, moved = {};
    before.forEach(function (id, i) { was[id] = i; });
    after.forEach(function (id, i) {
      if (!(id in was) || was[id] === i) return;
      moved[id] = i < was[id] ? "up" : "down";
    });
    return moved;
  }

  var stream = { backoff: backoff, withLast: withLast, carries: carries, decide: decide, behind: behind, moves: moves };
  if (typeof module !== "undefined" && module.exports) module.exports = stream;
  if (typeof window === "undefined" || typeof document === "undefined") return;

  // -- the page: one EventSource per address ----------------------------------------------------
  var streams = {};  // url -> {source, open, last, attempt, timer, stopped}
  var wanted = {};   // region id -> newest version announced

  function live(url) {
    var s = streams[url];
    return Boolean(s && s.open && !s.stopped);
  }

  function regionsOf(url) {
    return Array.prototype.filter.call(document.querySelectorAll("[data-stream]"), function (el) {
      return el.getAttribute("data-stream") === url;
    });
  }

  function schedule(url) {
    var s = streams[url];
    if (!s || s.stopped || s.timer) return;
    s.timer = setTimeout(function () { s.timer = null; connect(url); }, backoff(s.attempt));
    s.attempt += 1;
  }

  function connect(url) {
    var s = streams[url];
    if (!s || s.stopped || !window.EventSource) return;
    if (s.source) s.source.close();
    var source = new EventSource(withLast(url, s.last));
    s.source = source;
    source.onopen = function () {
      if (s.source !== source) return;
      s.open = true;
      s.attempt = 0;
      document.documentElement.dataset.live = "on";
    };
    source.onerror = function () {
      if (s.source !== source) return;
      s.open = false;
      document.documentElement.dataset.live = "off";
      // CONNECTING: the browser tries again itself (with Last-Event-ID); CLOSED: it gave up.
      if (source.readyState === EventSource.CLOSED) { source.close(); schedule(url); }
    };
    KINDS.forEach(function (kind) {
      source.addEventListener(kind, function (event) {
        if (s.source !== source) return;
        if (event.lastEventId) s.last = event.lastEventId;
        var data = {};
        try { data = JSON.parse(event.data || "{}"); } catch (e) { data = {}; }
        heard(url, kind, data, event.lastEventId);
      });
    });
  }

  function stop(url) {
    var s = streams[url];
    if (!s) return;
    s.stopped = true;
    s.open = false;
    if (s.timer) clearTimeout(s.timer);
    if (s.source) s.source.close();
    document.documentElement.dataset.live = "off";
  }

  function heard(url, kind, data, id) {
    if (kind === "end" || kind === "gone") stop(url);
    regionsOf(url).forEach(function (region) { route(region, kind, data); });
    document.dispatchEvent(new CustomEvent("segnapunti:stream", { detail: { url: url, kind: kind, data: data, id: id } }));
  }

  function start(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll("[data-stream]"), function (el) {
      var url = el.getAttribute("data-stream");
      if (!url || streams[url]) return;
      streams[url] = { source: null, open: false, last: "", attempt: 0, timer: null, stopped: false };
      connect(url);
    });
    if (document.body && document.body.hasAttribute("data-stream")) {
      var url = document.body.getAttribute("data-stream");
      if (!streams[url]) {
        streams[url] = { source: null, open: false, last: "", attempt: 0, timer: null, stopped: false };
        connect(url);
      }
    }
  }

  // -- the regions ------------------------------------------------------------------------------
  /* Whether a person is using part of the region: the focus in a field of it, a field changed
   * from what was served, a <details> opened. */
  function inUse(region) {
    var active = document.activeElement;
    if (active && active !== document.body && region.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) return true;
    if (region.querySelector("details[open]")) return true;
    return Array.prototype.some.call(region.querySelectorAll("input, textarea, select"), function (field) {
      if (field.type === "hidden" || field.type === "submit" || field.type === "button") return false;
      if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
      if (field.tagName === "SELECT") {
        return Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
      }
      return field.value !== field.defaultValue;
    });
  }

  function route(region, kind, data) {
    var kinds = (region.getAttribute("data-stream-on") || "").split(/\s+/).filter(Boolean);
    if (!kinds.length) return;  // the stream is the page's (the projector's body): its script listens
    var what = decide(kind, data, kinds, region.getAttribute("data-version") || "", region.id);
    if (what === "gone") return gone(region);
    if (what === "ignore" || what === "stop") return;
    if (region.id && data.version != null && !isNaN(parseInt(data.version, 10))) {
      wanted[region.id] = Math.max(wanted[region.id] || 0, parseInt(data.version, 10));
    }
    if (what === "swap") return swapIn(region, data.html);
    refresh(region);
  }

  var waiting = {};
  /* Ask for the region again (or later, while it is in use). */
  function refresh(region) {
    var id = region.id;
    if (!id || !window.htmx) return;
    if (!region.hasAttribute("data-stream-keep") && inUse(region)) {
      if (!waiting[id]) waiting[id] = setTimeout(function () {
        waiting[id] = null;
        var now = document.getElementById(id);
        if (now) refresh(now);
      }, 2000);
      return;
    }
    var polled = region.getAttribute("hx-get");
    var src = polled || region.getAttribute("data-stream-src");
    if (!src) return;
    var options = { source: "#" + id, target: "#" + id, swap: "outerHTML",
                    event: new CustomEvent("segnapunti:live") };
    if (!polled) options.select = "#" + id;
    remember(region);
    window.htmx.ajax("GET", src, options);
  }

  /* The region from the event's html: a spectator's standings, no request. */
  function swapIn(region, html) {
    if (!window.htmx) return;
    remember(region);
    window.htmx.swap(region, html, { swapStyle: "outerHTML" });
    var now = document.getElementById(region.id);
    if (now) { window.htmx.process(now); moved(now); }
  }

  /* The order of the rows of each table of a standings region, kept before it is replaced. */
  var orders = {};
  function orderOf(region) {
    var tables = {};
    Array.prototype.forEach.call(region.querySelectorAll("[data-table]"), function (table) {
      tables[table.getAttribute("data-table")] = Array.prototype.map.call(
        table.querySelectorAll("tr[data-entry], li[data-entry]"), function (row) { return row.getAttribute("data-entry"); });
    });
    return tables;
  }
  function remember(region) {
    if (region.hasAttribute("data-stream-moves")) orders[region.id] = orderOf(region);
  }
  function moved(region) {
    var before = orders[region.id];
    if (!before || !region.hasAttribute("data-stream-moves")) return;
    delete orders[region.id];
    var after = orderOf(region);
    Object.keys(after).forEach(function (key) {
      var moves_ = moves(before[key] || [], after[key]);
      var table = region.querySelector('[data-table="' + key + '"]');
      keepMoves(region.id + "/" + key, moves_, function (entry) {
        return table && table.querySelector('[data-entry="' + entry + '"]');
      });
    });
  }

  /* The rows that moved (moves: {entry: way}) are shown so, and so are those that moved a
   * moment ago under the same name (a second answer right after the first, which moved
   * nothing more, must not wipe the marks). rowOf(entry): the row, or null. */
  var recent = {};
  function keepMoves(name, moves_, rowOf) {
    var now = Date.now(), kept = recent[name] || {};
    Object.keys(moves_).forEach(function (entry) { kept[entry] = { way: moves_[entry], until: now + MOVE_MS }; });
    Object.keys(kept).forEach(function (entry) {
      if (kept[entry].until <= now) { delete kept[entry]; return; }
      var row = rowOf(entry);
      if (row) showMove(row, kept[entry].way, kept[entry].until - now);
    });
    recent[name] = kept;
  }

  /* A row that moved "up" or "down" says so for a few seconds: ▲ or ▼ by its rank, and a flash
   * (the style sheet's; none for who asks for reduced motion). */
  function showMove(row, way, ms) {
    row.classList.add("moved", "moved-" + way);
    var rank = row.querySelector(".rank") || row.firstElementChild;
    if (rank && !rank.querySelector(".move-mark")) {
      var mark = document.createElement("span");
      mark.className = "move-mark";
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = way === "up" ? "▲" : "▼";
      rank.appendChild(mark);
    }
    setTimeout(function () {
      row.classList.remove("moved", "moved-up", "moved-down");
      var mark = row.querySelector(".move-mark");
      if (mark) mark.remove();
    }, ms || MOVE_MS);
  }

  /* The thing is no longer readable here: the region says so and stops asking. */
  function gone(region) {
    var still = region.cloneNode(true);
    ["hx-get", "hx-trigger", "data-stream", "data-stream-on"].forEach(function (name) { still.removeAttribute(name); });
    region.replaceWith(still);
    var text = still.getAttribute("data-gone");
    if (!text || document.getElementById(still.id + "-gone")) return;
    var notice = document.createElement("p");
    notice.id = still.id + "-gone";
    notice.className = "box warn";
    notice.setAttribute("role", "alert");
    notice.textContent = text;
    still.parentNode.insertBefore(notice, still);
  }

  // Polling rests while the stream of the polled element is open. A poll is the element's own
  // request with no triggering event; the refreshes above pass one.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt, config = event.detail.requestConfig || {};
    if (!elt || !elt.getAttribute || config.triggeringEvent) return;
    var url = elt.getAttribute("data-stream");
    if (url && live(url)) event.preventDefault();
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var region = event.detail.elt;
    if (!region || !region.id) return;
    region = document.getElementById(region.id);
    if (!region || !region.hasAttribute("data-stream")) return;
    moved(region);
    // An event announced a newer version than the answer brought (it crossed a request under
    // way): ask again.
    if (region.id in wanted && behind(region.getAttribute("data-version"), wanted[region.id])) refresh(region);
  });
  // Back from another app: a stream given up while hidden is tried again at once.
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) return;
    Object.keys(streams).forEach(function (url) {
      var s = streams[url];
      if (!s.stopped && !s.open && s.timer) { clearTimeout(s.timer); s.timer = null; connect(url); }
    });
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { start(); });
  else start();

  stream.live = live;
  stream.refresh = refresh;
  stream.inUse = inUse;
  stream.showMove = showMove;
  stream.keepMoves = keepMoves;
  window.segnapunti = window.segnapunti || {};
  window.segnapunti.stream = stream;
})();
