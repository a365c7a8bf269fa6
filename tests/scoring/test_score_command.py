"""``manage.py score``: a game document in, a score sheet or JSON out, exit status 2 when invalid."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.scoring.rules.games import complete_game

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]
COMPLETE = [
    ("terziglio", "G1"),
    ("calabrasella", "G1"),
    ("turkish", "G1"),
    ("briscola", "G2"),
    ("briscola_chiamata", "G2"),
]


def game_document(key, game_id):
    players, options, hands, ranking, card_points = complete_game(key, game_id)
    document = {
        "ruleset": key,
        "options": options,
        "players": NAMES[:players],
        "hands": [hand[0] for hand in hands],
    }
    return document, hands, ranking, card_points


def run(tmp_path, document, *args):
    path = Path(tmp_path) / "game.json"
    path.write_text(json.dumps(document))
    out = io.StringIO()
    call_command("score", str(path), *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(("key", "game_id"), COMPLETE, ids=[key for key, _ in COMPLETE])
def test_json_output_scores_a_complete_game_of_each_ruleset(tmp_path, key, game_id):
    document, hands, ranking, card_points = game_document(key, game_id)
    data = json.loads(run(tmp_path, document, "--json"))
    assert data["ruleset"] == key
    assert data["players"] == document["players"]
    assert set(data["options"]) >= set(document["options"])
    assert [h["number"] for h in data["hands"]] == list(range(1, len(hands) + 1))
    assert [h["deltas"] for h in data["hands"]] == [h[1] for h in hands]
    assert [h["totals"] for h in data["hands"]] == [h[2] for h in hands]
    assert data["totals"] == hands[-1][2]
    assert data["status"] == "finished"
    assert data["ranking"] == ranking
    assert data["next_dealer"] is None
    if card_points is not None:
        assert data["card_points"] == card_points


def test_text_output_is_a_readable_score_sheet(tmp_path):
    document, *_ = game_document("terziglio", "G1")
    text = run(tmp_path, document)
    assert "Anna" in text and "status: finished" in text
    assert "ranking: 1. Anna, 2. Carla, 3. Bruno" in text
    assert "+24 → 37" in text  # hand 7 of G1: Anna's delta and running total


def test_text_output_of_a_game_in_progress_names_the_next_dealer(tmp_path):
    document = {
        "ruleset": "briscola",
        "players": ["Anna", "Bruno"],
        "hands": [{"dealer": 0, "points": [70, 50]}],
    }
    text = run(tmp_path, document)
    assert "standings so far: 1. Anna, 2. Bruno" in text
    assert "next dealer: Bruno (seat 1)" in text
    assert "card points per side: [70, 50]" in text


def test_an_invalid_hand_exits_with_status_2_and_only_the_errors_on_stdout():
    document, *_ = game_document("terziglio", "G1")
    document["hands"][3] = dict(document["hands"][3], soloist_points=12)
    result = subprocess.run(
        [sys.executable, "manage.py", "score", "-", "--json"],
        input=json.dumps(document),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert json.loads(result.stdout) == {
        "errors": [
            {
                "hand": 4,
                "field": "soloist_points",
                "code": "range",
                "message": "Soloist's points: enter a number from 0 to 11, not 12.",
            }
        ]
    }


def test_invalid_options_and_players_are_all_reported_without_a_hand(tmp_path):
    document = {"ruleset": "briscola_chiamata", "players": ["A", "B"], "options": {"deals": 0}}
    with pytest.raises(SystemExit) as exited:
        run(tmp_path, document, "--json")
    assert exited.value.code == 2


def test_text_mode_prints_the_errors_on_stderr(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    err = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("score", str(path), stdout=io.StringIO(), stderr=err)
    assert "document (type)" in err.getvalue()


def test_a_missing_file_is_a_command_error(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("score", str(tmp_path / "missing.json"))
