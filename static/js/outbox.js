/* Segnapunti at the table: the offline outbox, for poor Wi-Fi. Loaded on every page, so that
 * hands typed on one page are sent from any other.
 *
 * A hand form marked data-outbox is not sent directly. Its fields, with a new idempotency key,
 * are queued in localStorage and sent in order; a resend after a lost answer is harmless because
 * the server returns the first answer for a key it has seen. Nothing typed is ever dropped by the
 * phone itself; only the player discards a hand (after confirming):
 * - 400: the hand is wrong. It comes back as the form with its errors and the values typed.
 * - 409 with X-Refusal: already_entered: another phone entered this hand first. The same, under
 *   the next number, and the history is refreshed pointing at that hand.
 * - another 4xx (401/403 the table session or login ended, 404 the game is gone, 409 its round is
 *   closed, 412/422 the game changed or the hand was already sent with other values): the hand is
 *   kept, marked refused with the status and the server's message (the JSON error shape
 *   {"errors": [{"code", "message"}]} when the server gives one), and the status line says why
 *   and offers the fix, "Send again" and "Discard".
 * - 409 seating_changed: the players at the table changed after the hand was typed (the form's
 *   hidden seating is the version its page showed). Kept, with the server's sentence naming who
 *   replaced whom. Sent again as it is, it would be refused again: "Send again" is offered only
 *   on a page of that game served after the refusal (it shows who sits now), and asks first;
 *   confirmed, the hand and the later ones of its game typed for the same seats are sent with
 *   that page's seating. Elsewhere the fix is to open the game.
 * - 5xx, 408, 429 or no network: kept and tried again (when the browser is online again, and
 *   every 15 s).
 * A refused hand holds back the later hands of its game (they were typed after it), not those of
 * other games. The status line (#outbox-status) is made of separate sentences; all its words are
 * translated data attributes of that element.
 *
 * Uses segnapunti.common (common.js), and segnapunti.handForm (hand_form.js) and
 * segnapunti.live (live.js) where the page has them. The first part below needs no page: the
 * queue kept as a list, which hand goes next, what an answer means, what the player is told; it
 * is what Node loads (tests/js/outbox.test.js), and the page's part starts where it stops.
 */
(function () {
  "use strict";

  var STORE = "segnapunti-outbox-v1";

  /* What a refusal the form cannot fix means for the player, by status; any other 4xx but 400
   * is "other" (kept too), while 408, 429 and 5xx are tried again. */
  var KINDS = { 401: "access", 403: "access", 404: "gone", 409: "closed", 412: "stale", 422: "stale" };
  var RETRY = { 408: true, 429: true };

  // -- the queue, as a list of hands in the order they were typed -------------------------------
  /* The stored text read back: a list, whatever was (or was not) stored. */
  function readQueue(text) { try { return JSON.parse(text) || []; } catch (e) { return []; } }
  function pendingIn(items, gameId) { return items.filter(function (i) { return i.game === gameId; }).length; }
  function changed(items, key, change) {
    return items.map(function (i) { return i.key === key ? change(i) || i : i; });
  }
  function without(items, key) { return items.filter(function (i) { return i.key !== key; }); }
  /* A hand typed again in a refused hand's form (replaces: that hand's key) takes its place in
   * the queue, so it is sent when that one would have been and never twice; any other goes last. */
  function queued(items, entry, replaces) {
    items = items.slice();
    var at = replaces ? items.findIndex(function (i) { return i.key === replaces; }) : -1;
    if (at >= 0) items.splice(at, 1, entry); else items.push(entry);
    return items;
  }
  /* The hand to send now: the first that is not held back. A refused hand (failed: wrong, its
   * form to fix; refused: kept) holds back the later hands of its game, not those of other
   * games. failed: the wrong hands met before it, whose forms the page shows. */
  function nextToSend(items) {
    var blocked = {}, entry = null, failed = [];
    items.forEach(function (i) {
      if (entry) return;
      if (i.failed) { blocked[i.game] = true; failed.push(i); return; }
      if (i.refused) { blocked[i.game] = true; return; }
      if (!blocked[i.game]) entry = i;
    });
    return { entry: entry, failed: failed };
  }

  // -- the server's answer ----------------------------------------------------------------------
  /* "saved" (201), "entered" (409 already_entered: another phone was first), "wrong" (400: the
   * form with its errors), "retry" (no refusal: 5xx, 408, 429, anything below 400 but 201) or
   * "refused" (any other 4xx: kept until the player sends it again or discards it). */
  function answerOf(status, refusal) {
    if (status === 201) return "saved";
    if (status === 409 && refusal === "already_entered") return "entered";
    if (status === 400) return "wrong";
    if (status < 400 || status >= 500 || RETRY[status]) return "retry";
    return "refused";
  }

  function kindOf(refused) {
    if (refused.code === "not_authenticated") return "access";  // a 404 that only means "let me in"
    if (refused.code === "game_abandoned") return "gone";  // a 409: the game was abandoned
    if (refused.code === "seating_changed") return "seating";  // a 409: other players sit there now
    return KINDS[refused.status] || "other";
  }

  // -- what the player is told ------------------------------------------------------------------
  function gameUrl(entry, base) { return new URL(entry.url, base).pathname.replace(/hands\/?$/, ""); }

  /* Why a kept hand was refused, what to do, and the fix offered ([address, words] or null), in
   * the words given by msg(name). back: a page served after the refusal has this game's form,
   * so the way in is back. server: whether the server's own message is worth showing (it adds
   * what only it knows, which round, which hand, who replaced whom; for access and a missing
   * game it would only repeat why). resend: "Send again" offered (true), offered once the
   * player confirms ("confirm": for the players seated now), or not (false: it would only be
   * refused again). */
  function advice(entry, back, msg, base) {
    var refused = entry.refused, kind = kindOf(refused);
    var why, how, fix = null;
    if (kind === "access" && back) {
      why = msg("whyBack"); how = msg("howBack");
    } else if (kind === "access" && entry.pin) {
      why = msg("whyPin"); how = msg("howPin"); fix = [entry.pin, msg("fixPin")];
    } else if (kind === "access") {
      why = msg("whyLogin"); how = msg("howLogin");
      fix = [msg("loginUrl") + "?next=" + encodeURIComponent(gameUrl(entry, base)), msg("fixLogin")];
    } else if (kind === "gone") {
      why = msg("whyGone"); how = msg("howGone");
    } else if (kind === "closed") {
      why = msg("whyClosed"); how = msg("howClosed");
    } else if (kind === "stale") {
      why = msg("whyStale"); how = msg("howStale"); fix = [gameUrl(entry, base), msg("fixStale")];
    } else if (kind === "seating" && back) {
      why = msg("whySeating"); how = msg("howSeatingBack");
    } else if (kind === "seating") {
      why = msg("whySeating"); how = msg("howSeating"); fix = [gameUrl(entry, base), msg("fixSeating")];
    } else {
      why = msg("whyOther").replace("%(status)s", refused.status); how = msg("howOther");
    }
    // An abandoned game's 409 says so in the server's words (a missing game's 404 would repeat why).
    var server = Boolean(refused.message) && kind !== "access" &&
      (kind !== "gone" || refused.code === "game_abandoned");
    var resend = kind !== "seating" || (back ? "confirm" : false);
    return { kind: kind, why: why, how: how, fix: fix, server: server, resend: resend };
  }

  /* The seating a queued hand was typed for (its body's), or null. */
  function seatingOf(entry) { return new URLSearchParams(entry.body || "").get("seating"); }

  /* The queue once the player confirmed that the kept hand ``key`` is for the players seated
   * now (``seating``, the version the page shows): it and the later hands of its game typed for
   * the same seats are sent with that seating, and it is no longer held back. */
  function reseated(items, key, seating) {
    var refused = items.filter(function (i) { return i.key === key; })[0];
    if (!refused) return items;
    var was = seatingOf(refused), after = false;
    return items.map(function (i) {
      if (i.key === key) after = true;
      if (!after || i.game !== refused.game || seatingOf(i) !== was) return i;
      var body = new URLSearchParams(i.body);
      body.set("seating", seating);
      var copy = Object.assign({}, i, { body: body.toString() });
      if (i.key === key) delete copy.refused;
      return copy;
    });
  }

  /* What was typed, one "label: value" per line, to be read or copied when it cannot be sent. */
  function typedText(entry, msg) {
    var lines = [];
    if (entry.title) lines.push(entry.title);
    lines.push(msg("hand").replace("%(number)s", entry.number || "?"));
    var values = entry.values;
    if (!values) {  // a hand queued before the values were kept: its raw fields
      values = [];
      new URLSearchParams(entry.body).forEach(function (value, name) {
        if (name !== "csrfmiddlewaretoken" && name !== "idempotency_key") values.push([name, value]);
      });
    }
    values.forEach(function (pair) { lines.push(pair[0] + ": " + pair[1]); });
    return lines.join("\n");
  }

  /* The seat that deals the next hand, after this hand's dealer (the ruleset's facts). */
  function dealerAfter(facts, dealer) { return (facts.dealer_after || [])[dealer]; }

  /* Where the form of a page picks up when hands of its game wait on this phone: a page kept
   * from before they were typed (a reload without network) shows an older number. The next
   * hand is the one after the last waiting hand, dealt by the seat after its dealer; null when
   * the page already counts them (the server has them, or none waits). */
  function resumeAfter(items, gameId, pageNumber) {
    var last = null;
    items.forEach(function (i) {
      if (i.game === gameId && i.number && (last === null || i.number > last.number)) last = i;
    });
    if (last === null || last.number + 1 <= (pageNumber || 0)) return null;
    var dealer = new URLSearchParams(last.body || "").get("dealer");
    return { number: last.number + 1, after: dealer === null || dealer === "" ? null : parseInt(dealer, 10) };
  }

  var pure = {
    STORE: STORE, readQueue: readQueue, pendingIn: pendingIn, changed: changed, without: without,
    queued: queued, nextToSend: nextToSend, answerOf: answerOf, kindOf: kindOf, gameUrl: gameUrl,
    advice: advice, typedText: typedText, dealerAfter: dealerAfter,
    resumeAfter: resumeAfter, seatingOf: seatingOf, reseated: reseated
  };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------
  var common = window.segnapunti.common, $ = common.$, $all = common.$all;
  var flushing = false;
  var confirming = null;  // the key of the hand whose discard waits for "Yes, discard it"
  var sending = null;  // the key of the hand whose "Send again" waits for "Yes, send it"
  var drawn = "";  // what the status line shows: it is redrawn only when that changes
  var LOADED = Date.now();  // when this page was served
  // The page's own empty hand form, as served: a refused hand's form (the server's, with the
  // values typed and the errors in its markup, so form.reset() would bring them back) is
  // swapped for a copy of it once that hand is saved again.
  var pristine = (function () {
    var form = document.getElementById("hand-form");
    return form && form.hasAttribute("data-outbox") ? form.cloneNode(true) : null;
  })();

  function handForm() { return (window.segnapunti || {}).handForm; }
  function live() { return (window.segnapunti || {}).live; }

  function load() { try { return readQueue(localStorage.getItem(STORE)); } catch (e) { return []; } }
  function save(items) { localStorage.setItem(STORE, JSON.stringify(items)); }
  function pendingFor(gameId) { return pendingIn(load(), gameId); }
  function update(key, change) { save(changed(load(), key, change)); }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "k-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  // -- words and elements ---------------------------------------------------------------------
  function msg(name) {
    var box = $("#outbox-status");
    return (box && box.dataset[name]) || "";
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(text, className, action) {
    var node = el("button", className, text);
    node.type = "button";
    node.addEventListener("click", action);
    return node;
  }

  // -- the status line ------------------------------------------------------------------------
  function status() {
    var box = $("#outbox-status");
    if (!box) return;
    var items = load();
    var form = $("#hand-form");
    var state = JSON.stringify([navigator.onLine, confirming, sending, form && form.dataset.replaces || null,
      items.map(function (i) { return [i.key, Boolean(i.failed), i.refused || null]; })]);
    if (state === drawn) return;
    drawn = state;
    box.textContent = "";
    var trouble = false;
    if (items.length) {
      box.appendChild(el("p", null, items.length === 1 ? msg("one") : msg("many").replace("%(n)s", items.length)));
    }
    if (!navigator.onLine) box.appendChild(el("p", null, msg("offline")));
    items.forEach(function (entry) {
      if (entry.failed) {
        trouble = true;
        if (form && form.dataset.replaces === entry.key) box.appendChild(el("p", null, msg("failed")));
        else box.appendChild(wrongElsewhere(entry));
      } else if (entry.refused) {
        trouble = true;
        box.appendChild(kept(entry));
      }
    });
    box.hidden = !box.childNodes.length;
    box.className = "outbox" + (trouble ? " error" : "");
  }

  /* A hand refused as wrong (400) whose form cannot be shown here (another game, or a finished
   * one): a way to open its game and a way to discard it. */
  function wrongElsewhere(entry) {
    var block = el("div", "refused");
    block.dataset.key = entry.key;
    block.appendChild(el("p", null, msg("refused").replace("%(number)s", entry.number || "?")));
    var actions = el("div", "actions");
    var open = el("a", "button", msg("open"));
    open.href = gameUrl(entry, window.location.href);
    actions.appendChild(open);
    actions.appendChild(discardControl(entry));
    block.appendChild(actions);
    return block;
  }

  /* A hand kept after a refusal the form cannot fix: why, what to do, what was typed, and the
   * player's choice to send it again or discard it. */
  function kept(entry) {
    var refused = entry.refused;
    // A page served after the refusal with this game's form shows that the way in is back.
    var back = LOADED > (refused.at || 0) && Boolean($('#hand-form[data-outbox][data-game-id="' + entry.game + '"]'));
    var told = advice(entry, back, msg, window.location.href), kind = told.kind, fix = told.fix;
    var block = el("div", "refused");
    block.dataset.key = entry.key;
    block.dataset.kind = kind;
    block.dataset.status = refused.status;
    block.appendChild(el("p", null, msg("kept").replace("%(number)s", entry.number || "?")));
    block.appendChild(el("p", "why", told.why));
    if (told.server) block.appendChild(el("p", "server", refused.message));
    block.appendChild(el("p", null, told.how));
    var values = el("pre", "values", typedText(entry, msg));
    if (kind === "gone") {
      block.appendChild(values);
    } else {
      var more = el("details");
      more.appendChild(el("summary", null, msg("typed")));
      more.appendChild(values);
      block.appendChild(more);
    }
    var actions = el("div", "actions");
    if (fix) {
      var link = el("a", "button primary fix", fix[1]);
      link.href = fix[0];
      actions.appendChild(link);
    }
    if (told.resend === "confirm") actions.appendChild(resendControl(entry));
    else if (told.resend) actions.appendChild(button(msg("resend"), "resend", function () { resend(entry.key); }));
    actions.appendChild(discardControl(entry));
    block.appendChild(actions);
    return block;
  }

  /* "Send again" for a hand typed for other players (seating_changed), which asks first whether
   * it is for the players seated now: the question replaces the button until answered. */
  function resendControl(entry) {
    var holder = el("span", "resend-control");
    function ask() {
      sending = entry.key;
      holder.textContent = "";
      holder.classList.add("asking");
      holder.appendChild(el("span", "question", msg("confirmSeating").replace("%(number)s", entry.number || "?")));
      holder.appendChild(button(msg("confirmSeatingYes"), "primary", function () { resendSeated(entry); }));
      var no = button(msg("confirmNo"), "", function () { sending = null; idle(); status(); });
      holder.appendChild(no);
      return no;
    }
    function idle() {
      holder.textContent = "";
      holder.classList.remove("asking");
      holder.appendChild(button(msg("resend"), "resend", function () { ask().focus(); }));
    }
    if (sending === entry.key) ask(); else idle();
    return holder;
  }

  /* "Discard this hand", which asks first: the question replaces the button until answered. */
  function discardControl(entry) {
    var holder = el("span", "discard-control");
    function ask() {
      confirming = entry.key;
      holder.textContent = "";
      holder.classList.add("asking");
      holder.appendChild(el("span", "question", msg("confirm").replace("%(number)s", entry.number || "?")));
      holder.appendChild(button(msg("confirmYes"), "danger", function () { drop(entry.key); }));
      var no = button(msg("confirmNo"), "", function () { confirming = null; idle(); status(); });
      holder.appendChild(no);
      return no;
    }
    function idle() {
      holder.textContent = "";
      holder.classList.remove("asking");
      holder.appendChild(button(msg("discard"), "danger discard", function () { ask().focus(); }));
    }
    if (confirming === entry.key) ask(); else idle();
    return holder;
  }

  function typedValues(form) {
    var values = [];
    var fixed = $("input[data-dealer]", form);
    if (fixed) {
      var name = $('#live .total .name[data-seat="' + parseInt(fixed.value, 10) + '"]');
      values.push([msg("dealer"), name ? name.textContent.trim() : fixed.value]);
    }
    $all("[data-field]", form).forEach(function (field) {
      if (field.closest("[hidden]")) return;  // not asked for this hand (data-show-when)
      if (field.tagName === "FIELDSET") {
        var chosen = $all("input:checked", field).map(function (input) {
          var label = input.closest("label");
          return label ? label.textContent.trim() : input.value;
        });
        var legend = $("legend", field);
        if (chosen.length) values.push([legend ? legend.textContent.trim() : field.dataset.field, chosen.join(", ")]);
        return;
      }
      $all("input, select, textarea", field).forEach(function (input) {
        if (input.type === "hidden") return;
        var label = input.labels && input.labels.length ? input.labels[0].textContent.trim() : input.name;
        if (input.type === "checkbox") { if (input.checked) values.push([label, "✓"]); }
        else if (input.value !== "") values.push([label, input.value]);
      });
    });
    return values;
  }

  // -- the player's choices -------------------------------------------------------------------
  function drop(key) {
    confirming = null;
    save(without(load(), key));
    var form = $("#hand-form");
    if (form && form.dataset.replaces === key) { window.location.reload(); return; }
    status();
    flush();
  }

  function resend(key) {
    update(key, function (i) { delete i.refused; return i; });
    status();
    flush();
  }

  /* Confirmed: the hand goes to the players this page shows, with its seating. */
  function resendSeated(entry) {
    sending = null;
    var seating = $('#hand-form[data-outbox][data-game-id="' + entry.game + '"] input[name="seating"]');
    if (seating) save(reseated(load(), entry.key, seating.value));
    status();
    flush();
  }

  // -- queueing a hand ------------------------------------------------------------------------
  function queue(event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-outbox]")) return;
    event.preventDefault();
    var heading = $("h1");
    var entry = {
      key: uuid(),
      url: form.action,
      game: form.dataset.gameId,
      number: handForm() ? handForm().handNumber(form) : null,
      pin: form.dataset.tableLink || null,  // the way back in if the table session ends first
      title: heading ? heading.textContent.replace(/\s+/g, " ").trim() : "",
      values: typedValues(form),
      body: "",
      at: Date.now()
    };
    form.elements.idempotency_key.value = entry.key;
    entry.body = new URLSearchParams(new FormData(form)).toString();
    save(queued(load(), entry, form.dataset.replaces));
    nextHand(form);
    status();
    flush();
  }

  /* The page's form, loaded while hands of its game wait here: it goes on after them. */
  function resume() {
    var form = $("#hand-form[data-outbox]"), fields = handForm();
    if (!form || !fields || form.dataset.replaces) return;
    var next = resumeAfter(load(), form.dataset.gameId, fields.handNumber(form));
    if (next === null) return;
    fields.setHandNumber(form, next.number);
    var dealer = next.after === null ? undefined : dealerAfter(fields.facts(form), next.after);
    if (dealer !== undefined) showDealer(form, String(dealer));
    fields.refresh(form);
  }

  function showDealer(form, seat) {
    var fixed = $("input[data-dealer]", form);
    if (fixed) fixed.value = seat;
    else { var radio = $('input[name="dealer"][value="' + seat + '"]', form); if (radio) radio.checked = true; }
  }

  /* The form, emptied for the next hand but for its data-keep choices: dealt by the seat after
   * this hand's dealer (the ruleset's facts say which seat that is), under the next number. */
  function nextHand(form) {
    var fields = handForm();
    if (!fields) return;
    var dealer = fields.number(form, "dealer"), number = fields.handNumber(form);
    var after = dealerAfter(fields.facts(form), dealer);
    // The choices the next hand keeps (data-keep: Turkish's way of entry, "Quick total").
    var kept = $all("[data-keep] input:checked", form).map(function (input) { return input.name + "=" + input.value; });
    if (form.dataset.replaces && pristine) {  // a refused hand's form: back to the page's own
      var clean = pristine.cloneNode(true);
      form.replaceWith(clean);
      form = clean;
    }
    form.reset();
    delete form.dataset.replaces;
    delete form.dataset.touched;
    $all("[data-auto]", form).forEach(function (i) { i.dataset.auto = ""; });
    if (after !== undefined) showDealer(form, String(after));
    kept.forEach(function (pair) {
      var cut = pair.indexOf("="), name = pair.slice(0, cut), value = pair.slice(cut + 1);
      $all("[data-keep] input", form).forEach(function (input) {
        if (input.name === name) input.checked = input.value === value;
      });
    });
    if (number) fields.setHandNumber(form, number + 1);
    $all(".error", form).forEach(function (e) { e.remove(); });
    $all(".has-error", form).forEach(function (e) { e.classList.remove("has-error"); });
    fields.refresh(form);
  }

  // -- sending --------------------------------------------------------------------------------
  function flush() {
    if (flushing) return;
    var items = load();
    if (!items.length) { status(); return; }
    var pick = nextToSend(items), entry = pick.entry;
    pick.failed.forEach(function (i) { showRefused(i, i.html); });
    status();
    if (!entry) return;
    flushing = true;
    common.postForm(entry.url, entry.body, { "X-Outbox": "1" }).then(function (response) {
      var answer = answerOf(response.status, response.headers.get("X-Refusal"));
      if (answer === "saved") {
        save(without(load(), entry.key));
        flushing = false;
        // Stored: undo.js offers "Undo" for a few seconds when the answer allows it.
        response.json().then(function (answer) {
          document.dispatchEvent(new CustomEvent("segnapunti:saved", { detail: answer }));
        }, function () {});
        if (live()) live().refresh();
        flush();
        return null;
      }
      if (answer === "entered") {
        // Another phone entered this hand first: the form comes back with why, under the next
        // number, with what was typed; the history is refreshed and points at that hand.
        return response.text().then(function (html) {
          var holder = document.createElement("div");
          holder.innerHTML = html;
          var next = holder.querySelector('input[name="number"]');
          var was = entry.number;
          update(entry.key, function (i) { i.failed = true; i.html = html; if (next) i.number = parseInt(next.value, 10); });
          if (next) entry.number = parseInt(next.value, 10);
          showRefused(entry, html);
          if (live() && live().highlight) live().highlight(was);
          flushing = false;
          status();
        });
      }
      if (answer === "wrong") {
        return response.text().then(function (html) {
          update(entry.key, function (i) { i.failed = true; i.html = html; });
          showRefused(entry, html);
          if (live()) live().refresh();  // the refusal may come from what another phone did
          flushing = false;
          status();
        });
      }
      if (answer === "retry") {
        flushing = false;  // not refused: keep it and try again later
        status();
        return null;
      }
      return common.refusalOf(response).then(function (reason) {
        update(entry.key, function (i) {
          i.refused = { status: response.status, code: reason.code, message: reason.message, at: Date.now() };
        });
        flushing = false;
        flush();  // the hands of other games go on
      });
    }).catch(function () {
      flushing = false;
      status();
    });
  }

  /* A refused hand of the game on this page: its form, as the server sent it back with its
   * errors, takes the place of the empty one, under the refused hand's number. */
  function showRefused(entry, html) {
    var current = $("#hand-form");
    if (!current || !html || current.dataset.gameId !== entry.game || current.dataset.replaces === entry.key) return;
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var form = $("form", holder);
    if (!form) return;
    form.dataset.replaces = entry.key;
    if (entry.pin) form.dataset.tableLink = entry.pin;
    form.appendChild(discardControl(entry));
    current.replaceWith(form);
    if (handForm()) {
      handForm().refresh(form);
      handForm().setHandNumber(form, entry.number);
    }
    // To its first error, below the sticky totals (scroll-padding-top, see hand_form.js).
    ($(".has-error, .error", form) || form).scrollIntoView({ behavior: "smooth", block: "start" });
  }

  document.addEventListener("submit", queue);
  document.addEventListener("DOMContentLoaded", function () { resume(); flush(); });
  window.addEventListener("online", flush);
  window.addEventListener("offline", function () { status(); });
  setInterval(flush, 15000);

  window.segnapunti = window.segnapunti || {};
  window.segnapunti.outbox = { load: load, flush: flush, pendingFor: pendingFor };
  window.segnapuntiOutbox = window.segnapunti.outbox;  // the name the browser tests use
})();
