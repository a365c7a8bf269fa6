"""What each ruleset tells the edge as data: its facts for a table (``Ruleset.facts``) and the
summary of a hand as parts (``Ruleset.summarise``), never words. Pure: no database."""

import json

import pytest

from scoring.rules import RULESETS, SummaryPart, engine, get
from scoring.rules.base import dealer_after

from .helpers import new_game


@pytest.mark.parametrize("key", RULESETS)
def test_facts_are_json_data_for_every_table_size(key):
    rules = RULESETS[key]
    for n in range(rules.min_seats, rules.max_seats + 1):
        facts = rules.facts(rules.resolve_options({}, n), n)
        assert json.loads(json.dumps(facts)) == facts
        assert facts["ruleset"] == key and facts["seats"] == n
        assert facts["hand_keys"][0] == "dealer"
        assert facts["dealer_after"] == [(seat + 1) % n for seat in range(n)]
        assert set(facts["active_seat_keys"]) <= set(facts["hand_keys"])


@pytest.mark.parametrize(
    ("key", "n", "expected"),
    [
        pytest.param("terziglio", 3, False, id="terziglio-3-everybody-plays"),
        pytest.param("terziglio", 4, True, id="terziglio-4-dealer-sits-out"),
        pytest.param("calabrasella", 4, True, id="calabrasella-4-dealer-sits-out"),
        pytest.param("briscola_chiamata", 5, False, id="chiamata-5-everybody-plays"),
        pytest.param("briscola_chiamata", 6, True, id="chiamata-6-dealer-sits-out"),
        pytest.param("turkish", 4, False, id="turkish-nobody-sits-out"),
        pytest.param("briscola", 4, False, id="briscola-nobody-sits-out"),
    ],
)
def test_facts_say_whether_the_dealer_sits_out_at_this_table(key, n, expected):
    rules = get(key)
    assert rules.facts(rules.resolve_options({}, n), n)["dealer_sits_out"] is expected


def test_the_card_point_facts_of_each_game():
    chiamata = get("briscola_chiamata").facts(get("briscola_chiamata").resolve_options({}, 5), 5)
    assert (chiamata["total_points"], chiamata["default_target"]) == (120, 61)
    assert chiamata["active_seat_keys"] == ["caller", "partner"]
    briscola = get("briscola").facts(get("briscola").resolve_options({}, 4), 4)
    assert (briscola["total_points"], briscola["sides"]) == (120, [[0, 2], [1, 3]])
    terziglio = get("terziglio").facts(get("terziglio").resolve_options({}, 3), 3)
    assert terziglio["total_points"] == 11 and terziglio["sides"] is None
    assert terziglio["card_values"] == {"aces": [1, 1], "thirds": [1, 3], "last_trick": [1, 1]}
    calabrasella = get("calabrasella").facts(get("calabrasella").resolve_options({}, 3), 3)
    assert calabrasella["total_points"] == 35
    assert calabrasella["card_values"]["aces"] == [3, 1]


def test_turkish_facts_price_each_category_of_cards_left_from_the_options():
    rules = get("turkish")
    options = rules.resolve_options({"values": {"court": 15, "ten": 25, "other": 5}}, 4)
    facts = rules.facts(options, 4)
    assert facts["penalty_per_card"] == {"court": 15, "tens": 25, "other": 5}
    assert facts["total_points"] is None and facts["default_target"] is None


@pytest.mark.parametrize(
    ("key", "counts", "last_trick", "points"),
    [
        pytest.param("terziglio", {"aces": 2, "thirds": 8}, True, 5, id="T-2-aces-8-thirds-last"),
        pytest.param("terziglio", {"aces": 4, "thirds": 20}, True, 11, id="T-every-card"),
        pytest.param("calabrasella", {"aces": 2, "counters": 9}, True, 18, id="C-2-aces-9-last"),
        pytest.param("calabrasella", {"aces": 0, "counters": 0}, False, 0, id="C-nothing"),
    ],
)
def test_counted_cards_are_worth_what_the_card_values_say(key, counts, last_trick, points):
    assert get(key).points_of_cards(counts, last_trick) == points


def test_the_next_dealer_is_the_next_seat_round_the_table():
    assert [dealer_after(seat, 4) for seat in range(4)] == [1, 2, 3, 0]


# -- summaries ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "n", "document", "parts"),
    [
        pytest.param(
            "terziglio",
            3,
            {
                "dealer": 0,
                "outcome": "played",
                "soloist": 1,
                "contract": "solo",
                "soloist_points": 8,
            },
            (
                SummaryPart("soloist", seats={"seat": 1}),
                SummaryPart("contract", {"contract": "solo"}),
                SummaryPart("points", {"points": 8}),
            ),
            id="terziglio-points",
        ),
        pytest.param(
            "terziglio",
            3,
            {
                "dealer": 0,
                "outcome": "played",
                "soloist": 2,
                "contract": "chiamo",
                "soloist_points": 11,
                "sweep": "soloist",
            },
            (
                SummaryPart("soloist", seats={"seat": 2}),
                SummaryPart("contract", {"contract": "chiamo"}),
                SummaryPart("points", {"points": 11}),
                SummaryPart("sweep_soloist"),
            ),
            id="terziglio-sweep",
        ),
        pytest.param(
            "calabrasella",
            3,
            {
                "dealer": 0,
                "outcome": "played",
                "soloist": 0,
                "soloist_cards": {"aces": 0, "counters": 0, "last_trick": False},
                "sweep": "opponents",
            },
            (
                SummaryPart("soloist", seats={"seat": 0}),
                SummaryPart(
                    "cards_counted",
                    {"cards": (("aces", 0), ("counters", 0), ("last_trick", False))},
                ),
                SummaryPart("sweep_opponents"),
            ),
            id="calabrasella-cards-no-trick",
        ),
        pytest.param(
            "calabrasella",
            4,
            {"dealer": 3, "outcome": "passed_out"},
            (SummaryPart("passed_out"),),
            id="calabrasella-passed-out",
        ),
        pytest.param(
            "turkish",
            3,
            {
                "dealer": 0,
                "went_out": 2,
                "penalties": [{"seat": 0, "points": 5}, {"seat": 1, "points": 10}],
            },
            (SummaryPart("went_out", seats={"seat": 2}),),
            id="turkish-went-out",
        ),
        pytest.param(
            "briscola",
            2,
            {"dealer": 0, "points": [70, 50]},
            (SummaryPart("side_points", {"points": (70, 50)}),),
            id="briscola-points",
        ),
        pytest.param(
            "briscola_chiamata",
            5,
            {"dealer": 0, "outcome": "played", "caller": 1, "partner": 3, "caller_points": 68},
            (
                SummaryPart("caller_and_partner", seats={"caller": 1, "partner": 3}),
                SummaryPart("points_of_target", {"points": 68, "target": 61}),
            ),
            id="chiamata-with-partner",
        ),
        pytest.param(
            "briscola_chiamata",
            5,
            {
                "dealer": 0,
                "outcome": "played",
                "caller": 2,
                "partner": 2,
                "target": 75,
                "caller_points": 80,
            },
            (
                SummaryPart("caller_alone", seats={"caller": 2}),
                SummaryPart("points_of_target", {"points": 80, "target": 75}),
            ),
            id="chiamata-alone",
        ),
        pytest.param(
            "briscola_chiamata",
            5,
            {"dealer": 0, "outcome": "passed_out"},
            (SummaryPart("passed_or_thrown_in"),),
            id="chiamata-thrown-in",
        ),
    ],
)
def test_a_stored_hand_is_summarised_as_parts_with_seats_as_numbers(key, n, document, parts):
    stored = engine.play(new_game(key, n), document).hands[0].document
    assert get(key).summarise(stored) == parts


def test_only_briscola_totals_count_hands_won():
    assert [key for key, rules in RULESETS.items() if rules.totals_are_hands_won] == ["briscola"]
