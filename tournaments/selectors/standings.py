"""Standings recomputed from the games.

``standings_of`` turns the finished game of every table of a competition into plain
``tournaments.standings.Result`` records (a forfeited table counts through the organizer's
adjustments instead) and hands them to the pure ``compute``: overall, and once per game of a
mixed league. It reads the games' cached figures as plain values, never their hands nor model
instances, so its cost does not grow with the number of hands: four queries whatever the size
of the league (``bench/standings.py`` measures it). Its output holds keys, not labels:
``labelled`` adds those in the reader's language. A knockout's overall table is ranked by its
bracket (``selectors.bracket``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery, TextField
from django.db.models.functions import Cast

from scoring.labels import game_name
from scoring.models import NOT_ACCEPTED, GameStatus
from scoring.rules import RULESETS, GameState, Ruleset
from scoring.rules.base import places
from tournaments import standings as pure
from tournaments.labels import SCHEME_LABELS, TIE_BREAK_LABELS
from tournaments.models import (
    Adjustment,
    Competition,
    Entry,
    EntryStatus,
    Round,
    StandingsSnapshot,
    Table,
    TableSeat,
)
from tournaments.scheduling.double_elimination import bracket_ranking
from tournaments.selectors.bracket import bracket_json, bracket_of
from tournaments.selectors.outlook import add_outlook


def seat_entries(entries: list[int], n_seats: int, pairs: bool) -> list[int]:
    """Entry id of each game seat, from the table's entries in position order: the same list,
    or for pairs the two pairs alternating (seats 0 and 2 are the first pair, 1 and 3 the
    second)."""
    if pairs:
        return [entries[i % 2] for i in range(n_seats)]
    return entries


class _Parsed(dict):
    """JSON texts parsed once each: most games of a league share their options, and many their
    totals or card points. Lists become tuples, so that no two games share a mutable value."""

    def __missing__(self, text: str | None) -> Any:
        value = None if text is None else json.loads(text)
        if isinstance(value, list):
            value = tuple(value)
        self[text] = value
        return value


def _places(rules: Ruleset, state: GameState) -> tuple[int, ...]:
    """The place of every seat, by the ruleset's own ranking of the game's cached figures."""
    place_of_seat = [0] * state.n
    for placing in rules.ranking(state):
        place_of_seat[placing.seat] = placing.place
    return tuple(place_of_seat)


def _finished_tables(competition: Competition) -> QuerySet[Table]:
    """The tables whose game counts: finished, not forfeited, every hand accepted."""
    return Table.objects.filter(
        round__competition=competition, game__status=GameStatus.FINISHED, forfeited=False
    ).exclude(game__hands__acceptance__in=NOT_ACCEPTED)  # confirmation by the table: not yet


def _table_rows(finished: QuerySet[Table]):
    """Each table as plain values: its id, round number, game id and ruleset, the game's cached
    figures (JSON read as text), hand count and last dealer."""
    return (
        finished.annotate(
            options_text=Cast("game__options", output_field=TextField()),
            totals_text=Cast("game__totals", output_field=TextField()),
            card_points_text=Cast("game__card_points", output_field=TextField()),
        )
        .order_by("round__number", "number")
        .values_list(
            "pk",
            "round__number",
            "game_id",
            "game__ruleset",
            "options_text",
            "totals_text",
            "card_points_text",
            "game__hand_count",
            "game__last_dealer",
        )
    )


def _seated(finished: QuerySet[Table]) -> dict[int, list[int]]:
    """The entries of every table, in seat order."""
    seated: dict[int, list[int]] = defaultdict(list)
    for table_id, entry_id in (
        TableSeat.objects.filter(table__in=finished)
        .order_by("table_id", "position")
        .values_list("table_id", "entry_id")
    ):
        seated[table_id].append(entry_id)
    return seated


class _Figures:
    """The games' figures read once: each distinct JSON text parsed once (``parsed``), equal
    figures ranked once (``places``), each game's sides worked out once (``side_of``)."""

    def __init__(self) -> None:
        self.parsed = _Parsed()
        # Rankings are deterministic, so equal figures are ranked once: by the totals alone for
        # a ruleset that keeps the contract's default ranking, by the whole state otherwise.
        self.by_totals = {
            key: type(rules).ranking is Ruleset.ranking for key, rules in RULESETS.items()
        }
        self.ranked: dict[tuple, tuple[int, ...]] = {}
        self.sides: dict[tuple[str, str, int], dict[int, int]] = {}

    def places(self, row: tuple) -> tuple[int, ...]:
        """The place of every seat of the table's game (``row`` from ``_table_rows``)."""
        _table, _group, _game, ruleset, options_text, totals_text, card_text, hands, dealer = row
        by_totals = self.by_totals[ruleset]
        figures = (
            (ruleset, totals_text)
            if by_totals
            else (ruleset, options_text, hands, totals_text, dealer, card_text)
        )
        place_of_seat = self.ranked.get(figures)
        if place_of_seat is None:
            rules, parsed = RULESETS[ruleset], self.parsed
            totals = parsed[totals_text]
            if by_totals:
                # What the contract's default ranking gives, without building its placings.
                place_of_seat = places(totals, lowest_wins=rules.lowest_wins)
            else:
                state = GameState(
                    len(totals), parsed[options_text], hands, totals, dealer, parsed[card_text]
                )
                place_of_seat = _places(rules, state)
            self.ranked[figures] = place_of_seat
        return place_of_seat

    def side_of(self, ruleset: str, options_text: str, n: int) -> dict[int, int]:
        """The side of every seat of a game of ``ruleset`` at ``n`` seats."""
        key = (ruleset, options_text, n)
        side_of = self.sides.get(key)
        if side_of is None:
            sides = RULESETS[ruleset].sides(self.parsed[options_text], n)
            side_of = self.sides[key] = {
                seat: i for i, side in enumerate(sides or ()) for seat in side
            }
        return side_of


def results_of(competition: Competition) -> list[pure.Result]:
    """One Result per entry and finished game of the competition (forfeited tables excluded).

    Plain values, no model instances, in two queries whatever the number of games: the tables
    with their round's number and their game's cached figures (JSON read as text, each distinct
    text parsed once), then the seats.
    """
    finished = _finished_tables(competition)
    rows = _table_rows(finished)
    seated = _seated(finished)
    pairs, figures = competition.pairs, _Figures()
    results: list[pure.Result] = []
    for row in rows:
        _add_results(results, row, seated[row[0]], pairs, figures)
    return results


def _add_results(
    results: list[pure.Result], row: tuple, entries: list[int], pairs: bool, figures: _Figures
) -> None:
    """Append the Result of every entry at one table (``row`` from ``_table_rows``, ``entries``
    its entries in seat order)."""
    _table, group, game_id, ruleset, options_text, totals_text, card_text, _hands, _dealer = row
    rules = RULESETS[ruleset]
    totals = figures.parsed[totals_text]
    place_of_seat = figures.places(row)
    first_seat: dict[int, int] = {}  # an entry's first seat: a pair sits at two
    for seat, entry in enumerate(seat_entries(entries, len(totals), pairs)):
        first_seat.setdefault(entry, seat)
    entrants = tuple(first_seat)
    hands_won = rules.totals_are_hands_won
    card_points = figures.parsed[card_text]  # None but where the game sums card points per side
    if card_points:
        side_of = figures.side_of(ruleset, options_text, len(totals))
    # Positional arguments, in the field order of ``pure.Result`` (this loop runs once per seat
    # of every game of a season: keywords cost a tenth of its time).
    Result = pure.Result
    competitors, lowest_wins = len(entrants), rules.lowest_wins
    for i, (entry, seat) in enumerate(first_seat.items()):
        score = totals[seat]
        results.append(
            Result(
                entry,
                game_id,
                group,
                place_of_seat[seat],
                competitors,
                score,
                lowest_wins,
                entrants[:i] + entrants[i + 1 :],
                score if hands_won else None,
                card_points[side_of[seat]] if card_points else None,
                ruleset,
            )
        )


def adjustments_of(competition: Competition) -> list[pure.Adjustment]:
    return [
        pure.Adjustment(
            entrant=a.entry_id,
            group=a.round.number if a.round_id else 0,
            points=Fraction(a.points),
            reason=a.reason,
        )
        for a in Adjustment.objects.filter(competition=competition).select_related("round")
    ]


def as_json_number(value: Fraction | int) -> float | int:
    """A standings figure as JSON holds it: an integer when whole, else a float to two places."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 2)
    return value


def _row_json(row: pure.Row, entries: dict[int, tuple]) -> dict[str, Any]:
    """A standings row as plain data (``entries``: each entry's name, whether active, players)."""
    return {
        "rank": row.rank,
        "ranked": row.ranked,
        "entry": row.entrant,
        "name": entries[row.entrant][0] if row.entrant in entries else "?",
        "withdrawn": row.entrant in entries and not entries[row.entrant][1],
        # the players' ids, for links to their pages
        "players": entries[row.entrant][2] if row.entrant in entries else [],
        "points": as_json_number(row.points),
        "games": row.games_played,
        "rounds": row.groups_played,
        "wins": row.wins,
        "values": {k: as_json_number(v) for k, v in row.values.items()},
        # [round number, points, counted] of every night played (best-N)
        "nights": [
            [group, as_json_number(points), group in row.counted_groups]
            for group, points in row.group_points
        ],
    }


def _entry_rows(competition: Competition):
    """Every entry as plain values: its id, names, status, players, when it withdrew, and when
    the competition started (its first round published; ``None`` before), in one query."""
    started = (
        Round.objects.filter(competition=OuterRef("competition"), published_at__isnull=False)
        .order_by("published_at")
        .values("published_at")[:1]
    )
    return competition.entries.annotate(started=Subquery(started)).values_list(
        "pk",
        "player__display_name",
        "partner__display_name",
        "status",
        "player",
        "partner",
        "withdrawn_at",
        "started",
    )


@dataclass(frozen=True)
class Played:
    """What a competition's standings are computed from, read once (four queries): every
    entry's (name, active, players), the entrants that have a row, the results and the
    organizer's adjustments."""

    entries: dict[int, tuple[str, bool, list[int]]]
    entrants: list[int]
    results: list[pure.Result]
    adjustments: list[pure.Adjustment]


def played_of(competition: Competition) -> Played:
    """The entries, results and adjustments of the competition (``Played``)."""
    # (name, active, players) of every entry, read as plain values: no model instances needed
    entries, withdrawn_before_start = {}, set()
    for pk, player, partner, status, a, b, withdrawn_at, started in _entry_rows(competition):
        entries[pk] = (
            Entry.name_of(player, partner),
            status == EntryStatus.ACTIVE,
            [a, b] if b else [a],
        )
        if status == EntryStatus.WITHDRAWN and (
            started is None or (withdrawn_at is not None and withdrawn_at < started)
        ):
            withdrawn_before_start.add(pk)
    results = results_of(competition)
    adjustments = adjustments_of(competition)
    # An entry that withdrew before the first round was published took no part: no row (its
    # entry stays in the entries' history). One with a result or an adjustment keeps its row.
    withdrawn_before_start -= {r.entrant for r in results} | {a.entrant for a in adjustments}
    entrants = [pk for pk in entries if pk not in withdrawn_before_start]
    return Played(entries, entrants, results, adjustments)


def standings_of(competition: Competition, *, outlook: bool = True) -> dict[str, Any]:
    """Every standings table of the competition: overall, and one per ruleset when a league
    mixes games. Plain data (JSON-ready), also cached in ``StandingsSnapshot``: keys only, the
    same whatever the language of whoever caused the computation; ``labelled`` adds the labels
    in the language of whoever reads it. ``outlook=False`` leaves out who can still win (most
    of the cost: ``services.store_standings``)."""
    played = played_of(competition)
    data, overall = standings_from(competition, played)
    entries = played.entries
    active = tuple(sorted(e for e, (_name, on, _players) in entries.items() if on))
    outlook = outlook and add_outlook(
        competition, data["tables"][0], overall, active, played.adjustments
    )
    return data | {"outlook": outlook}


def standings_from(
    competition: Competition, played: Played, *, up_to: int | None = None
) -> tuple[dict[str, Any], pure.Standings]:
    """The standings tables of ``played`` (``standings_of`` without the outlook), and the
    overall table as ``pure.compute`` gave it. ``up_to``: ``played`` holds the rounds up to
    that one only, and a knockout's bracket is ranked as it stood then."""
    entries, entrants, results = played.entries, played.entrants, played.results
    adjustments = played.adjustments
    groups: list[tuple[str, str, list[pure.Result]]] = [("overall", "", results)]
    if len(competition.rulesets) > 1:
        for key in competition.rulesets:
            groups.append(
                (
                    key,
                    game_name(key),
                    [r for r in results if r.ruleset == key],
                )
            )
    tie_breaks = [
        t for t in (competition.tie_breaks or pure.DEFAULT_TIE_BREAKS) if t in pure.TIE_BREAKS
    ]
    placement = {int(k): tuple(v) for k, v in (competition.placement_points or {}).items()} or None
    tables = []
    for key, title, subset in groups:
        computed = pure.compute(
            subset,
            scheme=competition.scheme,
            tie_breaks=tie_breaks,
            placement_points=placement,
            best_of=competition.best_of,
            min_groups=competition.min_rounds,
            adjustments=adjustments if key == "overall" else (),
            entrants=entrants if key == "overall" else (),
        )
        if key == "overall":
            overall = computed
        tables.append(
            {
                "key": key,
                "title": title,
                # [key, untranslated name]: the display translates the key (``labelled``).
                "columns": [list(column) for column in computed.columns],
                "rows": [_row_json(row, entries) for row in computed.rows],
            }
        )
    ranked_by_bracket = _bracket_ranking(competition, tables[0], up_to=up_to)
    data = {
        "competition": competition.pk,
        "scheme": competition.scheme,
        "tables": tables,
        "bracket": ranked_by_bracket,
        "games_counted": len({r.game for r in results}),
        "outlook": False,
    }
    return data, overall


def _bracket_ranking(
    competition: Competition, table: dict[str, Any], *, up_to: int | None = None
) -> bool:
    """A knockout's overall table ranked by the bracket (``scheduling.knockout.ranking``), not
    by points: 1 the final's winner, 2 its loser, 3 and 4 from the third-place match, then by
    the round of elimination, places shared as the format shares them. Entrants outside the
    bracket are listed unranked. The rows keep their points and figures. True when done."""
    drawn = bracket_of(competition, up_to=up_to)
    if drawn is None:
        return False
    bracket, outcomes = drawn
    placing = {p.entrant: p for p in bracket_ranking(bracket, outcomes)}
    order = {p.entrant: i for i, p in enumerate(placing.values())}
    cut = competition.format == "swiss"
    # A Swiss cut: who missed the cut keeps the order of the Swiss standings at the cut (later
    # knockout results would otherwise move them through the tie-breaks) after the top places.
    at_cut = bracket_json(competition).get("swiss", ())
    swiss_rank = {entry: rank for entry, rank in at_cut}
    swiss_order = {entry: i for i, (entry, _) in enumerate(at_cut)}
    below = [row for row in table["rows"] if row["entry"] not in placing]
    for row in below:
        swiss_rank.setdefault(row["entry"], len(swiss_rank) + 1)
    for row in table["rows"]:
        p = placing.get(row["entry"])
        row["ranked"] = p is not None or cut
        row["rank"] = p.place if p is not None else None
        row["decided"] = p.decided if p is not None else True
        if p is None and cut:
            ahead = sum(
                1 for other in below if swiss_rank[other["entry"]] < swiss_rank[row["entry"]]
            )
            row["rank"] = len(placing) + 1 + ahead
    table["rows"].sort(
        key=lambda row: (
            order.get(row["entry"], len(order)),
            swiss_order.get(row["entry"], len(swiss_order)),
        )
    )
    return True


def labelled(data: dict[str, Any]) -> dict[str, Any]:
    """``standings_of`` data, or a snapshot of it, with labels in the active language:
    ``scheme_label``, and every table's ``columns`` as ``[key, label]``. Labels stored by an
    older snapshot are replaced, not trusted."""
    scheme = data.get("scheme", "")
    return data | {
        "scheme_label": str(SCHEME_LABELS.get(scheme, scheme)),
        "tables": [
            table
            | {
                "columns": [
                    [key, str(TIE_BREAK_LABELS.get(key, name))] for key, name in table["columns"]
                ]
            }
            for table in data.get("tables", [])
        ],
    }


def snapshot_of(competition: Competition) -> StandingsSnapshot | None:
    """The competition's standings snapshot (None before the first one is stored)."""
    return StandingsSnapshot.objects.filter(competition=competition).first()


def snapshot_stamp(competition: Competition) -> tuple[int, datetime] | None:
    """The version of the competition's standings snapshot and when it was computed, without
    its tables (None before the first one is stored): what a polled page's ETag and its cached
    HTML are named by."""
    return (
        StandingsSnapshot.objects.filter(competition=competition)
        .values_list("version", "computed_at")
        .first()
    )
