"""Corrections replay the game from hand 1 (docs/rules/README.md §9), with the pages' examples."""

import pytest

from scoring.rules import RULESETS, RuleViolation, engine

from .games import complete_game
from .helpers import errors, new_game


def documents_of(key, game_id):
    players, options, hands, _ranking, _card_points = complete_game(key, game_id)
    return players, options, [document for document, *_ in hands]


def replay(key, players, options, documents):
    ruleset = RULESETS[key]
    return engine.replay(ruleset, ruleset.resolve_options(options, players), players, documents)


def corrected(documents, number, document):
    return [document if i == number else d for i, d in enumerate(documents, start=1)]


TERZIGLIO_G1 = documents_of("terziglio", "G1")
BRISCOLA_G1 = documents_of("briscola", "G1")


def test_R1_terziglio_correction_that_removes_the_end_reopens_the_game():
    players, options, documents = TERZIGLIO_G1
    new = {"dealer": 0, "outcome": "played", "soloist": 0, "contract": "solo", "soloist_points": 4}
    game = replay("terziglio", players, options, corrected(documents, 7, new))
    assert game.hands[6].deltas == (-4, 2, 2)
    assert game.totals == (9, -18, 9)
    assert game.status == "in_progress"
    assert game.next_dealer == 1
    game = engine.play(game, {"dealer": 1, "outcome": "passed_out"})
    assert len(game.hands) == 8


def test_R2_terziglio_correction_that_ends_the_game_early_is_rejected_at_the_next_hand():
    players, options, documents = TERZIGLIO_G1
    new = {
        "dealer": 1,
        "outcome": "played",
        "soloist": 0,
        "contract": "scegliete",
        "soloist_points": 6,
    }
    with pytest.raises(RuleViolation) as caught:
        replay("terziglio", players, options, corrected(documents, 5, new))
    assert [p.as_dict() for p in caught.value.problems] == [
        {"hand": 6, "field": "game", "code": "game_finished"}
    ]


def test_R3_terziglio_correction_that_keeps_the_winner_keeps_the_game_finished():
    players, options, documents = TERZIGLIO_G1
    original = replay("terziglio", players, options, documents)
    new = {"dealer": 2, "outcome": "played", "soloist": 1, "contract": "solo", "soloist_points": 6}
    game = replay("terziglio", players, options, corrected(documents, 3, new))
    assert game.hands[2].deltas == (-2, 4, -2)
    assert game.totals == (33, -24, -9)
    assert game.status == "finished"
    assert game.ranking == original.ranking
    assert game.hands[:2] == original.hands[:2]  # earlier hands untouched


def test_R1_briscola_correction_to_a_drawn_hand_reopens_the_match():
    players, options, documents = BRISCOLA_G1
    game = replay(
        "briscola", players, options, corrected(documents, 4, {"dealer": 1, "points": [60, 60]})
    )
    assert game.totals == (1, 1)
    assert game.status == "in_progress"
    assert game.next_dealer == 0
    assert engine.play(game, {"dealer": 0, "points": [70, 50]}).status == "finished"


def test_R2_briscola_correction_changes_the_winner_and_stays_finished():
    players, options, documents = BRISCOLA_G1
    game = replay(
        "briscola", players, options, corrected(documents, 4, {"dealer": 1, "points": [39, 81]})
    )
    assert game.totals == (1, 2)
    assert game.status == "finished"
    assert [p.as_dict() for p in game.ranking] == [{"seat": 1, "place": 1}, {"seat": 0, "place": 2}]


def test_R3_briscola_correction_that_ends_the_match_early_is_rejected():
    players, options, documents = BRISCOLA_G1
    with pytest.raises(RuleViolation) as caught:
        replay(
            "briscola", players, options, corrected(documents, 3, {"dealer": 0, "points": [64, 56]})
        )
    assert [p.as_dict() for p in caught.value.problems] == [
        {"hand": 4, "field": "game", "code": "game_finished"}
    ]


def test_changing_a_dealer_breaks_the_rotation_of_the_next_hand():
    players, options, documents = TERZIGLIO_G1
    new = dict(documents[1], dealer=2)
    with pytest.raises(RuleViolation) as caught:
        replay("terziglio", players, options, corrected(documents, 2, new))
    assert ("dealer", "wrong_dealer") in errors(caught.value)
    assert {p.hand for p in caught.value.problems} == {2}


def test_free_dealer_accepts_any_dealer_in_a_replay():
    players, _options, documents = TERZIGLIO_G1
    shuffled = [dict(d, dealer=0) for d in documents]
    game = replay("terziglio", players, {"free_dealer": True}, shuffled)
    assert game.status == "finished"


def test_removing_the_last_hand_reopens_a_finished_game():
    players, options, documents = TERZIGLIO_G1
    game = replay("terziglio", players, options, documents[:-1])
    assert game.status == "in_progress"
    assert game.totals == (13, -20, 7)


def test_fixed_deal_games_keep_their_status_when_a_hand_is_corrected():
    game = new_game("calabrasella", 3, {"deals": 2})
    game = engine.play(game, {"dealer": 0, "outcome": "played", "soloist": 0, "soloist_points": 21})
    game = engine.play(game, {"dealer": 1, "outcome": "passed_out"})
    documents = [h.document for h in game.hands]
    documents[0] = {"dealer": 0, "outcome": "played", "soloist": 1, "soloist_points": 30}
    again = engine.replay(game.ruleset, game.options, 3, documents)
    assert again.status == game.status == "finished"
    assert again.totals == (-25, 50, -25)
