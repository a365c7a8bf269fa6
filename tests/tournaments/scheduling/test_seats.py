"""A table's seats are decided in one place (tournaments/scheduling/seats.py): the game's bounds,
the competition's range, its preferred size and its format, put together by ``table_seats``;
the competition's ``table_range``, ``table_policy`` and ``game_sizes`` only read its answer
(docs/architecture.md, "A table's seats"). No database."""

import pytest

from scoring.rules import get
from tournaments.models import Competition
from tournaments.models import competitions as competition_module
from tournaments.scheduling.seats import TableSeats, table_seats


@pytest.mark.parametrize(
    ("game", "given", "expected"),
    [
        pytest.param("terziglio", {}, TableSeats((3, 4), (3, 4), 3, 4, (3, 4)), id="game-own"),
        pytest.param(
            "turkish",
            {"smallest": 3, "largest": 6, "preferred": 5},
            TableSeats((3, 4, 5, 6), (3, 4, 5, 6), 5, 0, (3, 4, 5, 6)),
            id="turkish-3-to-6-at-5",
        ),
        pytest.param(
            "turkish",
            {"smallest": 5, "preferred": 4},
            TableSeats((5, 6, 7, 8), (5, 6, 7, 8), 5, 0, (5, 6, 7, 8)),
            id="preferred-outside-the-range-nearest-the-game-ideal",
        ),
        pytest.param(
            "turkish",
            {"largest": 20},
            TableSeats(tuple(range(3, 9)), tuple(range(3, 9)), 4, 0, tuple(range(3, 9))),
            id="range-cut-to-the-game",
        ),
        pytest.param(
            "briscola_chiamata",
            {"largest": 4},
            TableSeats((), (5, 6), 5, 6, (5, 6)),
            id="a-range-that-leaves-nothing-falls-back-to-the-game",
        ),
        pytest.param(
            "terziglio",
            {"preferred": 4, "two_sided": True},
            TableSeats((3, 4), (2,), 2, 0, (2,)),
            id="two-sided",
        ),
        pytest.param(
            "briscola", {"pairs": True}, TableSeats((2, 3, 4, 5), (2,), 2, 0, (4,)), id="pairs"
        ),
    ],
)
def test_table_seats_puts_the_game_and_the_competition_together(game, given, expected):
    assert table_seats(get(game), **given) == expected


def competition(**fields) -> Competition:
    return Competition(rulesets=["turkish"], options={}, **fields)


def test_a_competition_asks_table_seats_with_its_own_fields():
    league = competition(min_table_size=3, max_table_size=6, table_size=5)
    assert league.table_seats("turkish") == table_seats(
        get("turkish"), smallest=3, largest=6, preferred=5
    )
    pairs = Competition(rulesets=["briscola"], options={"briscola": {"format": "pairs"}})
    assert pairs.table_seats("briscola") == table_seats(get("briscola"), pairs=True)


def test_the_competition_s_three_questions_are_answered_by_table_seats(monkeypatch):
    decided = TableSeats(range=(7,), sizes=(9, 11), ideal=11, sitting_out=9, players=(13,))
    asked = []

    def fake(game, **settings):
        asked.append((game.key, settings))
        return decided

    monkeypatch.setattr(competition_module, "table_seats", fake)
    league = competition(table_size=5)
    assert league.table_range("turkish") == (7,)
    assert league.table_policy("turkish") == ((9, 11), 11, 9)
    assert league.game_sizes("turkish") == (13,)
    assert [key for key, _settings in asked] == ["turkish"] * 3


def test_docs_architecture_says_where_a_table_s_seats_are_decided():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "architecture.md").read_text()
    assert "`tournaments/scheduling/seats.py`" in text and "`table_seats`" in text
