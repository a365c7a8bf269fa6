"""The pure prize allocation (``tournaments.standings.prizes``): positions, ties under both of
the club's rules, odd cents, objects, categories, and one prize per entry unless ``both``; and
the property over random brackets and standings (issue 32)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scheduling.knockout import knockout, occupant, ranking
from tournaments.standings.prizes import Award, Placed, PrizeSpec, allocate, placed_from


def money(category, rank, cents):
    return PrizeSpec(category, rank, amount_cents=cents)


def thing(category, rank, name):
    return PrizeSpec(category, rank, object=name)


def field(*rows):
    """Placed rows from (entry, rank, points, categories)."""
    return [Placed(e, r, p, frozenset(c)) for e, r, p, c in rows]


PRIZES = [money("overall", 1, 10000), money("overall", 2, 6000), money("overall", 3, 3001)]


def won(awards):
    return [(a.category, a.first, a.last, a.entry, a.amount_cents, a.object) for a in awards]


def test_no_ties_each_position_takes_its_prize():
    placed = field((1, 1, 9, ""), (2, 2, 8, ""), (3, 3, 7, ""), (4, 4, 6, ""))
    assert won(allocate(placed, PRIZES, ties="split", both=False)) == [
        ("overall", 1, 1, 1, 10000, ""),
        ("overall", 2, 2, 2, 6000, ""),
        ("overall", 3, 3, 3, 3001, ""),
    ]


def test_split_pools_the_tied_positions_and_the_odd_cent_goes_to_the_better_tie_break():
    # 2 and 3 have equal points (ranks 2 and 3 by tie-break): 6000 + 3001 = 9001 shared.
    placed = field((1, 1, 9, ""), (2, 2, 8, ""), (3, 3, 8, ""), (4, 4, 6, ""))
    awards = allocate(placed, PRIZES, ties="split", both=False)
    assert won(awards)[1:] == [("overall", 2, 3, 2, 4501, ""), ("overall", 2, 3, 3, 4500, "")]
    assert awards[1].shared and not awards[0].shared


def test_tie_break_rule_gives_the_higher_prize_to_the_better_tie_break():
    placed = field((1, 1, 9, ""), (2, 2, 8, ""), (3, 3, 8, ""))
    assert won(allocate(placed, PRIZES, ties="tie_break", both=False))[1:] == [
        ("overall", 2, 2, 2, 6000, ""),
        ("overall", 3, 3, 3, 3001, ""),
    ]


def test_tie_break_rule_still_splits_entries_the_tie_breaks_cannot_separate():
    placed = field((1, 1, 9, ""), (2, 1, 9, ""), (3, 3, 7, ""))
    assert won(allocate(placed, PRIZES, ties="tie_break", both=False))[:2] == [
        ("overall", 1, 2, 1, 8000, ""),
        ("overall", 1, 2, 2, 8000, ""),
    ]


def test_a_tie_over_the_last_prize_shares_it_with_those_below_the_list():
    placed = field((1, 1, 9, ""), (2, 2, 8, ""), (3, 3, 7, ""), (4, 3, 7, ""), (5, 3, 7, ""))
    assert won(allocate(placed, PRIZES, ties="split", both=False))[2:] == [
        ("overall", 3, 5, 3, 1001, ""),
        ("overall", 3, 5, 4, 1000, ""),
        ("overall", 3, 5, 5, 1000, ""),
    ]


def test_objects_go_by_tie_break_and_their_winner_takes_no_share():
    prizes = [thing("overall", 1, "Cup"), money("overall", 2, 5000)]
    placed = field((1, 1, 9, ""), (2, 2, 9, ""), (3, 3, 9, ""))
    assert won(allocate(prizes=prizes, placed=placed, ties="split", both=False)) == [
        ("overall", 1, 1, 1, 0, "Cup"),
        ("overall", 1, 3, 2, 2500, ""),
        ("overall", 1, 3, 3, 2500, ""),
    ]


def test_a_tie_with_objects_only_pools_nothing():
    prizes = [thing("overall", 1, "Cup")]
    placed = field((1, 1, 9, ""), (2, 1, 9, ""))
    assert won(allocate(placed, prizes, ties="split", both=False)) == [
        ("overall", 1, 1, 1, 0, "Cup")
    ]


CATEGORY = [money("overall", 1, 5000), money("overall", 2, 2000), money("tag:1", 1, 3000)]


def test_a_category_prize_goes_to_the_best_entry_of_the_category():
    placed = field((1, 1, 9, ""), (2, 2, 8, ""), (3, 3, 7, {"tag:1"}), (4, 4, 6, {"tag:1"}))
    assert won(allocate(placed, CATEGORY, ties="split", both=False)) == [
        ("overall", 1, 1, 1, 5000, ""),
        ("overall", 2, 2, 2, 2000, ""),
        ("tag:1", 1, 1, 3, 3000, ""),
    ]


def test_without_both_an_entry_keeps_the_better_prize_and_the_other_passes_down():
    # Entry 2 wins overall 2nd (20.00) and the category (30.00): it keeps the category prize,
    # the overall 2nd passes to entry 3.
    placed = field((1, 1, 9, ""), (2, 2, 8, {"tag:1"}), (3, 3, 7, ""), (4, 4, 6, {"tag:1"}))
    assert won(allocate(placed, CATEGORY, ties="split", both=False)) == [
        ("overall", 1, 1, 1, 5000, ""),
        ("overall", 2, 2, 3, 2000, ""),
        ("tag:1", 1, 1, 2, 3000, ""),
    ]
    # Entry 1 wins overall 1st (50.00) and the category: it keeps overall 1st, the category
    # passes to entry 4.
    placed = field((1, 1, 9, {"tag:1"}), (2, 2, 8, ""), (3, 3, 7, ""), (4, 4, 6, {"tag:1"}))
    assert won(allocate(placed, CATEGORY, ties="split", both=False))[-1] == (
        "tag:1",
        1,
        1,
        4,
        3000,
        "",
    )


def test_equal_money_keeps_the_overall_prize():
    prizes = [thing("overall", 1, "Cup"), thing("tag:1", 1, "Medal")]
    placed = field((1, 1, 9, {"tag:1"}), (2, 2, 8, {"tag:1"}))
    assert won(allocate(placed, prizes, ties="split", both=False)) == [
        ("overall", 1, 1, 1, 0, "Cup"),
        ("tag:1", 1, 1, 2, 0, "Medal"),
    ]


def test_with_both_an_entry_may_take_an_overall_and_a_category_prize():
    placed = field((1, 1, 9, {"tag:1"}), (2, 2, 8, ""))
    assert won(allocate(placed, CATEGORY, ties="split", both=True)) == [
        ("overall", 1, 1, 1, 5000, ""),
        ("overall", 2, 2, 2, 2000, ""),
        ("tag:1", 1, 1, 1, 3000, ""),
    ]


def test_no_entries_no_awards_and_an_unknown_rule_is_a_bug():
    assert allocate([], CATEGORY, ties="split", both=False) == ()
    with pytest.raises(ValueError, match="unknown rule"):
        allocate([], CATEGORY, ties="coin", both=False)
    assert Award("overall", 1, 1, 1, 5).shared is False


# -- the property (issue 32): brackets and standings at random --------------------------------


@st.composite
def bracket_rows(draw):
    """A knockout of 2 to 16 entrants (with or without a third-place match), some or all of its
    matches played at random, as the standings rows it ranks (points at random: a bracket's
    places owe nothing to them)."""
    n = draw(st.integers(2, 16))
    bracket = knockout(range(1, n + 1), third_place=n >= 4 and draw(st.booleans()))
    matches = [m for r in bracket.rounds for m in r]
    if bracket.third_place is not None:
        matches.append(bracket.third_place)
    played = draw(st.integers(0, len(matches)))
    outcomes: dict[int, tuple[int, int]] = {}
    for match in matches[:played]:
        home, away = occupant(match.home, outcomes), occupant(match.away, outcomes)
        if home is None or away is None:
            break
        outcomes[match.number] = (home, away) if draw(st.booleans()) else (away, home)
    return [
        {"entry": p.entrant, "rank": p.place, "points": draw(st.integers(0, 6)), "ranked": True}
        for p in ranking(bracket, outcomes)
    ]


@st.composite
def standings_rows(draw):
    """A table ranked by points then one tie-break, ranks shared where both are equal."""
    n = draw(st.integers(1, 16))
    figures = sorted(
        (draw(st.tuples(st.integers(0, 6), st.integers(0, 2))) for _ in range(n)), reverse=True
    )
    rows = []
    for index, figure in enumerate(figures):
        rank = rows[-1]["rank"] if rows and figures[index - 1] == figure else index + 1
        rows.append({"entry": index + 1, "rank": rank, "points": figure[0], "ranked": True})
    return rows


@settings(max_examples=300, deadline=None)
@given(
    data=st.one_of(
        st.tuples(st.just(True), bracket_rows()), st.tuples(st.just(False), standings_rows())
    ),
    amounts=st.lists(st.integers(1, 10000), min_size=1, max_size=6),
    ties=st.sampled_from(["split", "tie_break"]),
)
def test_the_money_paid_is_the_pool_falls_with_the_rank_and_a_shared_rank_shares_it(
    data, amounts, ties
):
    by_rank, rows = data
    amounts = sorted(amounts, reverse=True)  # a prize list pays less for a lower place
    prizes = [money("overall", rank, cents) for rank, cents in enumerate(amounts, start=1)]
    awards = allocate(
        placed_from(rows, by_rank=by_rank, categories={}), prizes, ties=ties, both=False
    )
    paid = {row["entry"]: 0 for row in rows}
    for award in awards:
        paid[award.entry] += award.amount_cents
    assert sum(paid.values()) == sum(amounts[: len(rows)])
    for higher in rows:
        for lower in rows:
            if lower["rank"] > higher["rank"]:
                assert paid[lower["entry"]] <= paid[higher["entry"]]
            if ties == "split" and lower["rank"] == higher["rank"]:
                # equal shares: only the odd cents of the division tell them apart
                assert abs(paid[lower["entry"]] - paid[higher["entry"]]) <= 1


def test_placed_from_leaves_the_unranked_out_and_levels_a_bracket_by_rank():
    rows = [
        {"entry": 1, "rank": 1, "points": 8, "ranked": True},
        {"entry": 2, "rank": 2, "points": 6, "ranked": True},
        {"entry": 3, "rank": None, "points": 6, "ranked": False},
    ]
    assert [p.level for p in placed_from(rows, by_rank=True, categories={})] == [1, 2]
    placed = placed_from(rows, by_rank=False, categories={2: frozenset({"tag:1"})})
    assert [(p.entry, p.level, p.categories) for p in placed] == [
        (1, 8, frozenset()),
        (2, 6, frozenset({"tag:1"})),
    ]
