/* My games: the player's own news, from their stream (/me/events/, stream.js). When a round
 * seats them (published, or changed after it was), a notice names the competition, the round
 * and the table, and links to the round's tables: "Round 3 is published: table 4", then who
 * else sits there and whether the player deals first ("with Anna, Bruno · you deal first"). A newer
 * notice of the same round takes the place of the older one (a changed round). The words are
 * the #my-news element's translated data attributes.
 *
 * The first part needs no page (tests/js/my_games.test.js).
 */
(function () {
  "use strict";

  /* The notice's sentence from its template ("Round %(round)s is published: table %(table)s")
   * and the event's data. */
  function sentence(template, data) {
    return String(template || "")
      .replace("%(round)s", data.round == null ? "?" : data.round)
      .replace("%(table)s", data.table == null ? "?" : data.table);
  }

  /* What follows the sentence: who else sits there ("with %(names)s", the names joined by
   * ", ") and, when the player deals first, that too ("you deal first"). Empty parts are left
   * out; the parts are joined by " · ". */
  function details(data, withTemplate, firstText) {
    var parts = [], others = Array.isArray(data.with) ? data.with.filter(Boolean) : [];
    if (others.length && withTemplate) parts.push(String(withTemplate).replace("%(names)s", others.join(", ")));
    if (data.first === true && firstText) parts.push(String(firstText));
    return parts.join(" · ");
  }

  /* What names one round of one competition among the notices. */
  function key(data) { return String(data.competition || "") + "\u0000" + String(data.round); }

  var myGames = { sentence: sentence, details: details, key: key };
  if (typeof module !== "undefined" && module.exports) module.exports = myGames;
  if (typeof window === "undefined" || typeof document === "undefined") return;

  document.addEventListener("segnapunti:stream", function (event) {
    var box = document.getElementById("my-news"), detail = event.detail || {};
    if (!box || detail.url !== box.getAttribute("data-stream") || detail.kind !== "table") return;
    var data = detail.data || {};
    var notice = document.createElement("p");
    notice.className = "box notice my-news-item";
    notice.dataset.key = key(data);
    if (data.competition) {
      var name = document.createElement("strong");
      name.textContent = data.competition;
      notice.append(name, " · ");
    }
    var link = document.createElement("a");
    link.href = typeof data.url === "string" && data.url.charAt(0) === "/" ? data.url : "#";
    link.textContent = sentence(box.dataset.table, data);
    notice.append(link);
    var more = details(data, box.dataset.with, box.dataset.first);
    if (more) {
      var rest = document.createElement("span");
      rest.className = "my-news-details";
      rest.textContent = more;
      notice.append(" · ", rest);
    }
    Array.prototype.forEach.call(box.querySelectorAll(".my-news-item"), function (old) {
      if (old.dataset.key === notice.dataset.key) old.remove();
    });
    box.prepend(notice);
    box.hidden = false;
  });

  window.segnapunti = window.segnapunti || {};
  window.segnapunti.myGames = myGames;
})();
