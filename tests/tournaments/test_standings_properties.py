"""Standings recomputed from plain game results: properties that hold for any competition
(hypothesis), and every figure against a plain recount."""

import random
from collections import defaultdict
from fractions import Fraction
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.standings import SCHEMES, TIE_BREAKS, Adjustment, Result, compute, ranking

from .standings_helpers import order, points

PROPERTIES = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------


@st.composite
def competitions(draw):
    """Random games (every seat filled, places from random totals) and league options."""
    pool = list(range(1, draw(st.integers(2, 8)) + 1))
    six = st.lists(st.integers(0, 4), min_size=6, max_size=6)
    tables = st.tuples(
        st.integers(2, min(6, len(pool))),  # table size
        st.permutations(pool),  # seating: the first `size` sit
        six,  # game totals, few values so that places are often shared
        st.booleans(),  # lowest wins
        st.integers(1, 4),  # group
        st.one_of(st.none(), st.tuples(six, six)),  # Briscola hands won and card points
    )
    results = []
    for game_id, (size, seating, totals, lowest_wins, group, briscola) in enumerate(
        draw(st.lists(tables, max_size=12))
    ):
        seated, totals = seating[:size], totals[:size]
        for seat, (entrant, total) in enumerate(zip(seated, totals, strict=True)):
            better = sum(1 for t in totals if (t < total if lowest_wins else t > total))
            results.append(
                Result(
                    entrant=entrant,
                    game=game_id,
                    group=group,
                    place=1 + better,
                    competitors=size,
                    score=total,
                    lowest_wins=lowest_wins,
                    opponents=tuple(o for o in seated if o != entrant),
                    hands_won=briscola[0][seat] if briscola else None,
                    card_points=briscola[1][seat] * 30 if briscola else None,
                )
            )
    entrants = draw(st.lists(st.integers(1, 10), max_size=3))
    adjustments = draw(
        st.lists(
            st.builds(
                Adjustment,
                entrant=st.integers(1, 10),
                group=st.integers(1, 4),
                points=st.fractions(-3, 3, max_denominator=4),
            ),
            max_size=3,
        )
    )
    options = {
        "scheme": draw(st.sampled_from(sorted(SCHEMES))),
        "tie_breaks": tuple(draw(st.permutations(list(TIE_BREAKS)))[: draw(st.integers(0, 8))]),
        "best_of": draw(st.one_of(st.none(), st.integers(1, 3))),
        "min_groups": draw(st.integers(0, 2)),
        "adjustments": adjustments,
        "entrants": entrants,
    }
    return results, options


def sort_key(row, tie_breaks):
    return (row.points, *(row.values[key] for key in tie_breaks))


@PROPERTIES
@given(competitions())
def test_property_every_entrant_appears_exactly_once(competition):
    results, options = competition
    table = compute(results, **options)
    expected = (
        {r.entrant for r in results}
        | set(options["entrants"])
        | {a.entrant for a in options["adjustments"]}
    )
    assert sorted(order(table)) == sorted(expected)


@PROPERTIES
@given(competitions())
def test_property_ranks_are_a_competition_ranking_with_unranked_last(competition):
    results, options = competition
    table = compute(results, **options)
    ranked = [row for row in table.rows if row.ranked]
    unranked = table.rows[len(ranked) :]
    assert all(not row.ranked and row.rank is None for row in unranked)
    for i, row in enumerate(ranked):
        if i == 0:
            assert row.rank == 1
        else:
            assert row.rank in (ranked[i - 1].rank, i + 1)
    for row in table.rows:
        assert row.ranked == (row.groups_played >= options["min_groups"])


@PROPERTIES
@given(competitions(), st.randoms(use_true_random=False))
def test_property_recomputation_is_deterministic_whatever_the_order_of_records(
    competition, rng: random.Random
):
    results, options = competition
    first = compute(results, **options)
    assert compute(results, **options) == first
    shuffled = results[:]
    rng.shuffle(shuffled)
    adjustments = options["adjustments"][:]
    rng.shuffle(adjustments)
    assert compute(shuffled, **{**options, "adjustments": adjustments}) == first


@PROPERTIES
@given(competitions())
def test_property_rows_are_sorted_by_points_then_the_tie_break_values(competition):
    results, options = competition
    table = compute(results, **options)
    tie_breaks = options["tie_breaks"]
    assert all(list(row.values) == list(tie_breaks) for row in table.rows)
    ranked = [row for row in table.rows if row.ranked]
    unranked = [row for row in table.rows if not row.ranked]
    for rows in (ranked, unranked):
        for above, below in pairwise(rows):
            assert sort_key(above, tie_breaks) >= sort_key(below, tie_breaks)
    for above, below in pairwise(ranked):
        same_key = sort_key(above, tie_breaks) == sort_key(below, tie_breaks)
        assert same_key == (above.rank == below.rank)
        if same_key:
            assert above.entrant < below.entrant


@PROPERTIES
@given(competitions())
def test_property_placement_points_are_neither_created_nor_lost_by_shared_places(competition):
    results, _ = competition
    table = compute(results)
    seats_points = {2: 2, 3: 6, 4: 6, 5: 10, 6: 15}  # the sum of each table size's points
    per_game = {r.game: r.competitors for r in results}
    assert sum(points(table).values()) == sum(seats_points[size] for size in per_game.values())


def recount(results, options):
    """Every entrant's figures counted the plain way, in fractions, game by game: the yardstick
    of ``compute``'s faster bookkeeping (integers over a common denominator)."""
    scheme, table = SCHEMES[options["scheme"]], ranking._placement_table(None)
    by_game = defaultdict(list)
    for r in results:
        by_game[r.game].append(r)
    per_group = defaultdict(lambda: defaultdict(Fraction))
    counts = defaultdict(lambda: dict.fromkeys(["games_played", "wins", "game_score", "hands_won",
                                                "card_points"], 0))  # fmt: skip
    met = defaultdict(list)
    for game_results in by_game.values():
        for r in game_results:
            shared = sum(1 for other in game_results if other.place == r.place)
            per_group[r.entrant][r.group] += scheme.points(r, shared, table)
            figures = counts[r.entrant]
            figures["games_played"] += 1
            figures["wins"] += r.place == 1
            figures["game_score"] += -r.score if r.lowest_wins else r.score
            figures["hands_won"] += r.hands_won or 0
            figures["card_points"] += r.card_points or 0
            met[r.entrant].append(r.opponents)
    everyone = set(per_group) | set(options["entrants"])
    everyone |= {a.entrant for a in options["adjustments"]}
    totals = {}
    for entrant in everyone:
        groups = sorted(per_group[entrant], key=lambda g: (-per_group[entrant][g], g))
        counted = groups[: options["best_of"]] if options["best_of"] else groups
        totals[entrant] = sum(per_group[entrant][g] for g in counted) + sum(
            Fraction(a.points) for a in options["adjustments"] if a.entrant == entrant
        )
    return {
        entrant: counts[entrant]
        | {
            "points": totals[entrant],
            "groups_played": len(per_group[entrant]),
            # One term per game: the mean of that table's opponents (fair across table sizes).
            "opponents_strength": sum(
                (
                    Fraction(sum(totals.get(o, 0) for o in opponents), len(opponents))
                    for opponents in met[entrant]
                    if opponents
                ),
                Fraction(0),
            ),
        }
        for entrant in everyone
    }


@PROPERTIES
@given(competitions())
def test_property_every_figure_matches_a_plain_recount(competition):
    results, options = competition
    expected = recount(results, options)
    for row in compute(results, **options).rows:
        figures = expected[row.entrant]
        assert (row.points, row.games_played, row.wins, row.groups_played) == (
            figures["points"],
            figures["games_played"],
            figures["wins"],
            figures["groups_played"],
        )
        for key, value in row.values.items():
            if key != "head_to_head":
                assert value == figures[key], key
