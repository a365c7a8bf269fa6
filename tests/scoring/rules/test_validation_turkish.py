"""Validation of Turkish (scoring/rules/turkish.py): one row per rule of its validation table,
named after the rule it checks (U- V-numbers of the game file), missing seats named, and the
options that change the cards a hand may hold."""

import pytest

from scoring.rules import RuleViolation, engine

from .helpers import errors, new_game


def cards_left(*entries):
    return [dict(zip(("seat", "court", "tens", "other"), e, strict=True)) for e in entries]


INVALID = [
    # Turkish
    pytest.param(
        "turkish",
        4,
        {"dealer": 0, "cards_left": []},
        "went_out",
        "required",
        id="U-V3-went-out-required",
    ),
    pytest.param(
        "turkish", 4, {"dealer": 0, "went_out": 1}, "cards_left", "required", id="U-V4-neither-form"
    ),
    pytest.param(
        "turkish",
        4,
        {"dealer": 0, "went_out": 1, "cards_left": [], "penalties": []},
        "penalties",
        "conflict",
        id="U-V4-both-forms",
    ),
    pytest.param(
        "turkish",
        4,
        {"dealer": 0, "went_out": 1, "penalties": {"seat": 0}},
        "penalties",
        "type",
        id="U-V4-not-a-list",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": [5, {"seat": 2, "court": 0, "tens": 0, "other": 1}],
        },
        "cards_left[0]",
        "type",
        id="U-V5-entry-not-an-object",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": [
                {"court": 1, "tens": 0, "other": 0},
                {"seat": 2, "court": 0, "tens": 0, "other": 1},
            ],
        },
        "cards_left[0].seat",
        "required",
        id="U-V5-seat-required",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": cards_left((0, 1, 0, 0), (1, 0, 0, 1), (2, 1, 0, 0)),
        },
        "cards_left[0].seat",
        "not_allowed",
        id="U-V5-entry-for-the-seat-out",
    ),
    pytest.param(
        "turkish",
        3,
        {"dealer": 0, "went_out": 0, "cards_left": cards_left((1, 1, 0, 0), (1, 0, 0, 1))},
        "cards_left[1].seat",
        "duplicate_seat",
        id="U-V5-duplicate-seat",
    ),
    pytest.param(
        "turkish",
        3,
        {"dealer": 0, "went_out": 0, "cards_left": cards_left((1, 17, 0, 0), (2, 0, 0, 1))},
        "cards_left[0].court",
        "range",
        id="U-V7-court-range",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": [
                {"seat": 1, "court": 1, "tens": 0},
                {"seat": 2, "court": 0, "tens": 0, "other": 1},
            ],
        },
        "cards_left[0].other",
        "required",
        id="U-V7-count-required",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": [
                {"seat": 1, "court": 1, "tens": 0, "other": 0, "aces": 1},
                {"seat": 2, "court": 0, "tens": 0, "other": 1},
            ],
        },
        "cards_left[0].aces",
        "unknown_key",
        id="U-V1-unknown-entry-key",
    ),
    pytest.param(
        "turkish",
        8,
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": cards_left(*[(s, 5, 1, 10) for s in range(1, 8)]),
        },
        "cards_left",
        "exceeds_pack",
        id="U-V9-more-cards-than-in-play",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 0}, {"seat": 2, "points": 5}],
        },
        "penalties[0].points",
        "range",
        id="U-V10-below-one-card",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 425}, {"seat": 2, "points": 5}],
        },
        "penalties[0].points",
        "range",
        id="U-V10-above-the-pack",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 400}, {"seat": 2, "points": 100}],
        },
        "penalties",
        "exceeds_pack",
        id="U-V12-sum-over-the-pack",
    ),
    pytest.param(
        "turkish",
        3,
        {"went_out": 0, "penalties": [{"seat": 1, "points": 5}, {"seat": 2, "points": 5}]},
        "dealer",
        "required",
        id="U-V2-dealer-required",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 3,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 5}, {"seat": 2, "points": 5}],
        },
        "dealer",
        "not_a_seat",
        id="U-V2-dealer-not-a-seat",
    ),
    pytest.param(
        "turkish",
        4,
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 5}, {"seat": 2, "points": 5}],
        },
        "penalties",
        "missing_seat",
        id="U-V6-missing-seat-quick-entry",
    ),
    pytest.param(
        "turkish",
        3,
        {"dealer": 0, "went_out": 0, "cards_left": cards_left((1, 0, 0, 1), (2, 0, 0, 0))},
        "cards_left[1]",
        "no_cards",
        id="U-V8-loser-without-cards",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 7}, {"seat": 2, "points": 5}],
        },
        "penalties[0].points",
        "not_multiple",
        id="U-V11-not-a-multiple-of-5",
    ),
]


@pytest.mark.parametrize(("key", "players", "document", "field", "code"), INVALID)
def test_invalid_hand_names_the_field_and_the_rule(key, players, document, field, code):
    with pytest.raises(RuleViolation) as caught:
        engine.play(new_game(key, players), document)
    assert (field, code) in errors(caught.value)


def test_turkish_missing_entries_are_named_by_seat():
    with pytest.raises(RuleViolation) as caught:
        engine.play(
            new_game("turkish", 5),
            {"dealer": 0, "went_out": 0, "penalties": [{"seat": 2, "points": 5}]},
        )
    (problem,) = caught.value.problems
    assert (problem.field, problem.code, problem.params["seats"]) == (
        "penalties",
        "missing_seat",
        (1, 3, 4),
    )


def test_turkish_two_packs_allow_more_cards():
    game = engine.play(
        new_game("turkish", 6),
        {"dealer": 0, "went_out": 0, "penalties": [{"seat": s, "points": 5} for s in range(1, 6)]},
    )
    assert game.totals == (0, 5, 5, 5, 5, 5)


def test_turkish_custom_values_change_the_smallest_penalty_and_its_step():
    game = new_game("turkish", 3, {"values": {"court": 10, "ten": 20, "other": 4}})
    with pytest.raises(RuleViolation) as caught:
        engine.play(
            game,
            {
                "dealer": 0,
                "went_out": 0,
                "penalties": [{"seat": 1, "points": 3}, {"seat": 2, "points": 5}],
            },
        )
    assert errors(caught.value) == {
        ("penalties[0].points", "range"),
        ("penalties[1].points", "not_multiple"),
    }
    assert engine.play(
        game,
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 4}, {"seat": 2, "points": 6}],
        },
    ).totals == (0, 4, 6)
