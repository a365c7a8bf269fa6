"""The pure prize allocation (``tournaments.standings.prizes``): positions, ties under both of
the club's rules, odd cents, objects, categories, and one prize per entry unless ``both``."""

from __future__ import annotations

import pytest

from tournaments.standings.prizes import Award, Placed, PrizeSpec, allocate


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
