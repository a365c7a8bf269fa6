"""What the results e-mails say, read for each player who receives one: after a round closes,
their games of the round (table, the others, the scores, the points won) and where they stand;
when the competition is declared final, the final standings, their place and the prizes.

Every player of an entry (both partners of a pair) with an address (``scoring.selectors.
results_address``) who has not opted out (``Player.results_by_email``) gets a ``Letter``; which
letters were already sent is the service's to know (``tournaments.services.results_mail``).
The standings are computed afresh (``standings_of``: four queries), never read from a snapshot
that a task still to run would refresh.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from scoring import selectors as scoring
from scoring.models import GameStatus, Player
from tournaments.models import Competition, Entry, Round
from tournaments.money import format_money
from tournaments.selectors.prizes import awarded
from tournaments.selectors.rounds import round_tables
from tournaments.selectors.standings import standings_of


@dataclass(frozen=True)
class Letter:
    """One player's results e-mail: to whom, in which language, and what it says."""

    player: Player
    address: str
    language: str
    context: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PrizeLine:
    """One prize of the final e-mail, written in the language active when it is shown (each
    letter is rendered in its player's): "Overall, place 1: Anna — 50,00 €"."""

    row: dict[str, Any]
    currency: str = "EUR"

    def __str__(self) -> str:
        # The label (lazy) and the money are written here, in the reader's language: the row
        # was made in whichever language the task had ("Overall", "€50.00" in Italian).
        row = self.row
        prize = row["object"] or format_money(row["amount_cents"], self.currency)
        return gettext("%(category)s, place %(place)s: %(name)s — %(prize)s") % {
            "category": str(row["category_label"]),
            "place": row["place"],
            "name": row["name"],
            "prize": prize,
        }


def prizes_awarded(competition: Competition) -> list[PrizeLine]:
    """The prizes of a competition declared final, one line each, for its final e-mail; the
    e-mail shows a prizes section only when there are some (``selectors.prizes.awarded``)."""
    currency = competition.club.currency
    return [PrizeLine(row, currency) for row in awarded(competition)]


def _recipients(entries: Iterable[Entry]) -> dict[int, list[Player]]:
    """The players who receive results by e-mail, by entry: both partners of a pair, with an
    address, not opted out. One query (the players with their accounts)."""
    wanted = {e.pk: [e.player_id, e.partner_id] for e in entries}
    ids = {pk for pair in wanted.values() for pk in pair if pk}
    players = {
        p.pk: p
        for p in Player.objects.filter(pk__in=ids, results_by_email=True).select_related("user")
    }
    return {
        entry: [
            players[pk] for pk in pair if pk in players and scoring.results_address(players[pk])
        ]
        for entry, pair in wanted.items()
    }


def _overall(competition: Competition) -> dict[int, dict[str, Any]]:
    table = standings_of(competition)["tables"][0]
    return {row["entry"]: row for row in table["rows"]}


def _standing(row: dict[str, Any] | None, round_number: int | None = None) -> dict[str, Any]:
    if row is None:
        return {"rank": None, "points": 0, "points_count": 0, "round_points": None}
    won = None
    if round_number is not None:
        won = next((points for number, points, _ in row["nights"] if number == round_number), None)
    return {
        "rank": row["rank"] if row.get("ranked", True) else None,
        "points": row["points"],
        "points_count": _plural_count(row["points"]),
        "round_points": won,
    }


def _plural_count(points, language: str | None = None) -> int:
    """The whole number that picks the plural of "points" (ngettext) in ``language``: 1 point,
    2 points; a fraction counts as several in English and Italian (1.5 points, 1,5 punti) and by
    its whole part in French, whose singular covers what is below 2 (0,5 point, 1,5 point)."""
    value = abs(float(points or 0))
    if value.is_integer() or (language or "").split("-")[0] == "fr":
        return int(value)
    return 2


def _table_seats(table) -> list[dict[str, Any]]:
    """The table's seats as the e-mail lists them: each player's name, total and place."""
    game = table.game
    if game is None:
        return [{"name": s.entry.name, "total": None, "place": None} for s in table.seats.all()]
    place = {}
    if game.hand_count and game.status == GameStatus.FINISHED:
        place = {p.seat: p.place for p in game.rules.ranking(game.state())}
    return [
        {
            "name": s.player.display_name,
            "player": s.player_id,
            "total": game.totals[s.index] if s.index < len(game.totals) else None,
            "place": place.get(s.index),
        }
        for s in game.seats.all()
    ]


def _letter(player: Player, club, context: dict[str, Any]) -> Letter:
    language = scoring.results_language(player, club.language)
    if "points" in context:  # "point" or "points" as the reader's language counts
        context = context | {"points_count": _plural_count(context["points"], language)}
    return Letter(
        player=player,
        address=scoring.results_address(player),
        language=language,
        context={"player": player, **context},
    )


def round_letters(round_: Round) -> list[Letter]:
    """The results e-mail of every player of the round's entries who receives one: their table
    (its number, every seat's name, total and place, whether it was forfeited) or their bye,
    the points the round gave them, their rank and points in the standings."""
    competition = round_.competition
    tables, byes = round_tables(round_)
    entries = [s.entry for t in tables for s in t.seats.all()] + list(byes)
    recipients = _recipients(entries)
    standings = _overall(competition)
    letters = []
    for table in tables:
        seats = _table_seats(table)
        for seat in table.seats.all():
            for player in recipients.get(seat.entry_id, ()):
                context = {
                    "table": table,
                    "seats": [s | {"you": s.get("player") == player.pk} for s in seats],
                    "bye": False,
                    **_standing(standings.get(seat.entry_id), round_.number),
                }
                letters.append(_letter(player, competition.club, context))
    for entry in byes:
        for player in recipients.get(entry.pk, ()):
            context = {"table": None, "seats": [], "bye": True}
            context |= _standing(standings.get(entry.pk), round_.number)
            letters.append(_letter(player, competition.club, context))
    return letters


def final_letters(competition: Competition) -> list[Letter]:
    """The final e-mail of every player of the competition who receives one: the final
    standings (rank, name, points of every entry), their own rank and points, and the prizes
    (``prizes_awarded``)."""
    table = standings_of(competition)["tables"][0]
    standings = [
        {
            "rank": row["rank"] if row.get("ranked", True) else None,
            "name": row["name"],
            "points": row["points"],
            "entry": row["entry"],
        }
        for row in table["rows"]
    ]
    by_entry = {row["entry"]: row for row in table["rows"]}
    # Those in the standings: not an entry that withdrew before the start (it took no part).
    entries = [e for e in competition.entries.all() if e.pk in by_entry]
    recipients = _recipients(entries)
    prizes = prizes_awarded(competition)
    letters = []
    for entry in entries:
        for player in recipients.get(entry.pk, ()):
            context = {
                "standings": [row | {"you": row["entry"] == entry.pk} for row in standings],
                "prizes": prizes,
                **_standing(by_entry.get(entry.pk)),
            }
            letters.append(_letter(player, competition.club, context))
    return letters
