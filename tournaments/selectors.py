"""Reads of competitions: standings recomputed from the games, schedules, tables.

``standings_of`` turns the finished game of every table of a competition into plain
``tournaments.standings.Result`` records (a forfeited table counts through the organizer's
adjustments instead) and hands them to the pure ``compute``: overall, and once per game of a
mixed league. It reads the games' cached figures as plain values, never their hands nor model
instances, so its cost does not grow with the number of hands: four queries whatever the size
of the league (``bench/standings.py`` measures it). Its output holds keys, not labels:
``labelled`` adds those in the reader's language.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import F, Prefetch, TextField
from django.db.models.functions import Cast

from scoring.labels import game_name
from scoring.models import NOT_ACCEPTED, GameStatus
from scoring.rules import RULESETS, GameState, Ruleset
from scoring.rules.base import places
from tournaments import standings as pure
from tournaments.labels import SCHEME_LABELS, TIE_BREAK_LABELS
from tournaments.models import (
    Adjustment,
    Bye,
    CheckIn,
    Competition,
    Entry,
    EntryStatus,
    Round,
    RoundStatus,
    Table,
    TableSeat,
)
from tournaments.scheduling import Bracket
from tournaments.scheduling.double_elimination import bracket_ranking


def entries_of(competition: Competition, *, active_only: bool = False) -> list[Entry]:
    """The entries in seed order, unseeded ones after the seeded (in the order they entered):
    spelled out, since databases disagree on where NULL sorts (SQLite first, PostgreSQL last)."""
    entries = competition.entries.select_related("player", "partner")
    if active_only:
        entries = entries.filter(status="active")
    return list(entries.order_by(F("seed").asc(nulls_last=True), "id"))


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


def results_of(competition: Competition) -> list[pure.Result]:
    """One Result per entry and finished game of the competition (forfeited tables excluded).

    Plain values, no model instances, in two queries whatever the number of games: the tables
    with their round's number and their game's cached figures (JSON read as text, each distinct
    text parsed once), then the seats.
    """
    finished = Table.objects.filter(
        round__competition=competition, game__status=GameStatus.FINISHED, forfeited=False
    ).exclude(game__hands__acceptance__in=NOT_ACCEPTED)  # confirmation by the table: not yet
    tables = (
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
    seated: dict[int, list[int]] = defaultdict(list)
    for table_id, entry_id in (
        TableSeat.objects.filter(table__in=finished)
        .order_by("table_id", "position")
        .values_list("table_id", "entry_id")
    ):
        seated[table_id].append(entry_id)

    pairs = competition.pairs
    parsed = _Parsed()
    # Rankings are deterministic, so equal figures are ranked once: by the totals alone for a
    # ruleset that keeps the contract's default ranking, by the whole state otherwise.
    by_totals = {key: type(rules).ranking is Ruleset.ranking for key, rules in RULESETS.items()}
    ranked: dict[tuple, tuple[int, ...]] = {}
    side_of_seat: dict[tuple[str, str, int], dict[int, int]] = {}
    results: list[pure.Result] = []
    Result = pure.Result
    for row in tables:
        table_id, group, game_id, ruleset, options_text, totals_text, card_text, hands, dealer = row
        rules = RULESETS[ruleset]
        figures = (
            (ruleset, totals_text)
            if by_totals[ruleset]
            else (ruleset, options_text, hands, totals_text, dealer, card_text)
        )
        totals = parsed[totals_text]
        n = len(totals)
        place_of_seat = ranked.get(figures)
        if place_of_seat is None:
            if by_totals[ruleset]:
                # What the contract's default ranking gives, without building its placings.
                place_of_seat = places(totals, lowest_wins=rules.lowest_wins)
            else:
                state = GameState(n, parsed[options_text], hands, totals, dealer, parsed[card_text])
                place_of_seat = _places(rules, state)
            ranked[figures] = place_of_seat
        first_seat: dict[int, int] = {}  # an entry's first seat: a pair sits at two
        for seat, entry in enumerate(seat_entries(seated[table_id], n, pairs)):
            first_seat.setdefault(entry, seat)
        entrants = tuple(first_seat)
        hands_won = rules.totals_are_hands_won
        card_points = parsed[card_text]  # None but where the game sums card points per side
        if card_points:
            side_of = side_of_seat.get((ruleset, options_text, n))
            if side_of is None:
                sides = rules.sides(parsed[options_text], n)
                side_of = side_of_seat[ruleset, options_text, n] = {
                    seat: i for i, side in enumerate(sides or ()) for seat in side
                }
        # Positional arguments, in the field order of ``pure.Result`` (this loop runs once per
        # seat of every game of a season: keywords cost a tenth of its time).
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
    return results


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


def standings_of(competition: Competition) -> dict[str, Any]:
    """Every standings table of the competition: overall, and one per ruleset when a league
    mixes games. Plain data (JSON-ready), also cached in ``StandingsSnapshot``: keys only, the
    same whatever the language of whoever caused the computation; ``labelled`` adds the labels
    in the language of whoever reads it."""
    # (name, active) of every entry, read as plain values: no model instances needed here
    entries = {
        pk: (Entry.name_of(player, partner), status == EntryStatus.ACTIVE, [a, b] if b else [a])
        for pk, player, partner, status, a, b in competition.entries.values_list(
            "pk", "player__display_name", "partner__display_name", "status", "player", "partner"
        )
    }
    results = results_of(competition)
    adjustments = adjustments_of(competition)
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
            entrants=list(entries) if key == "overall" else (),
        )
        tables.append(
            {
                "key": key,
                "title": title,
                # [key, untranslated name]: the display translates the key (``labelled``).
                "columns": [list(column) for column in computed.columns],
                "rows": [
                    {
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
                    for row in computed.rows
                ],
            }
        )
    ranked_by_bracket = _bracket_ranking(competition, tables[0])
    return {
        "competition": competition.pk,
        "scheme": competition.scheme,
        "tables": tables,
        "bracket": ranked_by_bracket,
        "games_counted": len({r.game for r in results}),
    }


def bracket_of(competition: Competition) -> tuple[Any, dict[int, tuple[int, int]]] | None:
    """Knockout: the drawn bracket (``scheduling.Bracket``) and the outcome of every match
    settled so far, by match number; ``None`` before the first round is drawn."""
    stored = bracket_json(competition)
    if not stored:
        return None
    return Bracket.from_json(stored), match_outcomes(competition)


def bracket_json(competition: Competition) -> dict[str, Any]:
    """The bracket as stored on its first round ({} before it is drawn)."""
    start = competition.knockout_from
    if start is None:
        return {}
    first = competition.rounds.filter(number__gte=start).order_by("number").only("bracket").first()
    return (first.bracket if first is not None else None) or {}


def _bracket_ranking(competition: Competition, table: dict[str, Any]) -> bool:
    """A knockout's overall table ranked by the bracket (``scheduling.knockout.ranking``), not
    by points: 1 the final's winner, 2 its loser, 3 and 4 from the third-place match, then by
    the round of elimination, places shared as the format shares them. Entrants outside the
    bracket are listed unranked. The rows keep their points and figures. True when done."""
    drawn = bracket_of(competition)
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


def rounds_of(competition: Competition) -> list[Round]:
    return list(
        competition.rounds.prefetch_related(
            Prefetch("tables", queryset=Table.objects.select_related("game").order_by("number")),
            Prefetch(
                "tables__seats",
                queryset=TableSeat.objects.select_related(
                    "entry__player", "entry__partner"
                ).order_by("position"),
            ),
            "byes__entry__player",
        ).order_by("number")
    )


def published_rounds(competition: Competition) -> list[Round]:
    return [r for r in rounds_of(competition) if r.status != RoundStatus.DRAFT]


def meetings(competition: Competition, *, before: int | None = None) -> dict[tuple[int, int], int]:
    """How often each two entries shared a table in the rounds so far (draft rounds excluded)."""
    counts: dict[tuple[int, int], int] = defaultdict(int)
    seats = TableSeat.objects.filter(table__round__competition=competition).exclude(
        table__round__status=RoundStatus.DRAFT
    )
    if before is not None:
        seats = seats.filter(table__round__number__lt=before)
    by_table: dict[int, list[int]] = defaultdict(list)
    for table_id, entry_id in seats.values_list("table_id", "entry_id"):
        by_table[table_id].append(entry_id)
    for members in by_table.values():
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                counts[(min(a, b), max(a, b))] += 1
    return dict(counts)


def unseated(round_: Round) -> list[Entry]:
    """The active entries a drawn round leaves out by mistake: those expected to play (the
    checked-in ones if anyone checked in, else every active entry) with neither a seat nor a
    bye, in seed order. A late entrant added after a round was published is one; so is anyone
    who entered between a draw and its publication. Empty before a draw, and for a knockout
    (who plays a later round is decided by the bracket, not by being active)."""
    if round_.competition.bracket_round(round_.number) or not round_.tables.exists():
        return []
    placed = set(TableSeat.objects.filter(table__round=round_).values_list("entry_id", flat=True))
    placed |= set(Bye.objects.filter(round=round_).values_list("entry_id", flat=True))
    present = set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))
    return [
        e
        for e in entries_of(round_.competition, active_only=True)
        if e.pk not in placed and (not present or e.pk in present)
    ]


def late_seat_refusal(round_: Round, table: Table) -> str | None:
    """Why a late entrant cannot join ``table`` of a published round (a message reason), or
    ``None``: two-sided and pair tables are full by nature; others take one more player while
    the game allows it and no hand is entered."""
    competition = round_.competition
    if competition.two_sided or competition.pairs or table.forfeited:
        return "table_full"
    if table.seats.count() + 1 not in competition.game_sizes(round_.ruleset):
        return "table_full"
    game = table.game
    if game is not None and (game.status != GameStatus.IN_PROGRESS or game.hands.exists()):
        return "table_started"
    return None


def late_seat_tables(round_: Round) -> list[Table]:
    """The tables of a published round a late entrant can still join."""
    if round_.status != RoundStatus.PUBLISHED:
        return []
    tables = round_.tables.select_related("game").order_by("number")
    return [t for t in tables if late_seat_refusal(round_, t) is None]


def drawn_tables(competition: Competition) -> dict[int, list[tuple[int, ...]]]:
    """Every round's tables as drawn (draft rounds included), by round number: each table its
    entries in seat order. Two queries' worth of plain values, for the draw's quality figures."""
    tables: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for number, table, entry in (
        TableSeat.objects.filter(table__round__competition=competition)
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table__number", "entry_id")
    ):
        tables[number][table].append(entry)
    return {
        number: [tuple(seats) for _n, seats in sorted(by_table.items())]
        for number, by_table in sorted(tables.items())
    }


def _forfeit_winner(table: Table, seats: Sequence[int]) -> int | None:
    """The entry that goes through a forfeited knockout match: the one the organizer gave
    more points to (see ``forfeit_table``)."""
    given = dict.fromkeys(seats, Decimal(0))
    for entry_id, points in Adjustment.objects.filter(
        round_id=table.round_id, entry_id__in=seats
    ).values_list("entry_id", "points"):
        given[entry_id] += points
    best = max(given.values())
    leaders = [e for e, p in given.items() if p == best]
    return leaders[0] if len(leaders) == 1 else None


def match_outcomes(competition: Competition) -> dict[int, tuple[int, int]]:
    """Knockout: (winner, loser) of every match played or forfeited, by match number."""
    outcome: dict[int, tuple[int, int]] = {}
    for round_ in competition.rounds.exclude(status=RoundStatus.DRAFT):
        numbers = round_.metrics.get("matches", [])
        for table in round_.tables.select_related("game").order_by("number"):
            if table.number - 1 >= len(numbers):
                continue
            seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
            if table.forfeited:
                winner = _forfeit_winner(table, seats)
                if winner is not None:
                    loser = next(e for e in seats if e != winner)
                    outcome[numbers[table.number - 1]] = (winner, loser)
                continue
            game = table.game
            if game is None or game.status != GameStatus.FINISHED:
                continue
            winner_side = next(p.seat for p in game.rules.ranking(game.state()) if p.place == 1) % 2
            winner = seats[winner_side]
            outcome[numbers[table.number - 1]] = (winner, seats[1 - winner_side])
    return outcome


def competitions_of_game(game_id: int) -> list[int]:
    """The competitions whose tables play game ``game_id`` (its standings follow the game)."""
    return list(
        Competition.objects.filter(rounds__tables__game_id=game_id)
        .values_list("pk", flat=True)
        .distinct()
    )
