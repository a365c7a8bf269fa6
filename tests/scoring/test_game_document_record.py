"""A game's export keeps its life: title, status and why it was abandoned survive an import."""

import io
import json

import pytest
from django.core.management import call_command

from scoring import selectors, services
from scoring.models import Game, GameStatus
from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.scoring.rules.games import hand_documents

pytestmark = pytest.mark.django_db

G1 = hand_documents("terziglio", "G1")


@pytest.fixture
def abandoned(club, players, olga):
    by = Actor.for_user(olga)
    game = services.start_game(
        club=club, ruleset="terziglio", players=players[:3], by=by, title="Tavolo 3"
    )
    for document in G1[:2]:
        services.record_hand(game=game, document=document, by=by)
    return services.abandon_game(game=game, by=by, reason="Bruno had to leave")


def test_an_abandoned_game_keeps_its_title_status_and_reason_through_export_and_import(
    abandoned, club, olga
):
    exported = selectors.export_game(abandoned)
    assert (exported["title"], exported["status"], exported["abandon_reason"]) == (
        "Tavolo 3",
        "abandoned",
        "Bruno had to leave",
    )
    copy = services.import_game(club=club, document=exported, by=Actor.for_user(olga))
    copy = Game.objects.get(pk=copy.pk)
    assert (copy.title, copy.status, copy.abandon_reason) == (
        "Tavolo 3",
        GameStatus.ABANDONED,
        "Bruno had to leave",
    )
    assert copy.totals == abandoned.totals
    assert selectors.export_game(copy) == exported


def test_a_finished_game_is_exported_as_finished_and_imported_the_same(club, players, olga):
    hands = hand_documents("terziglio", "G1")
    by = Actor.for_user(olga)
    game = services.import_game(
        club=club,
        document={"ruleset": "terziglio", "players": ["Anna", "Bruno", "Carla"], "hands": hands},
        by=by,
    )
    exported = selectors.export_game(game)
    assert exported["status"] == game.status
    assert "abandon_reason" not in exported
    again = services.import_game(club=club, document=exported, by=by)
    assert (again.status, again.totals) == (game.status, game.totals)


@pytest.mark.parametrize(
    ("changes", "field", "code"),
    [
        ({"status": "finished"}, "status", "inconsistent"),
        ({"status": "lost"}, "status", "choice"),
        ({"status": "abandoned"}, "abandon_reason", "required"),
        ({"status": "abandoned", "abandon_reason": "  "}, "abandon_reason", "required"),
        ({"abandon_reason": "why not"}, "abandon_reason", "not_allowed"),
    ],
)
def test_a_document_whose_record_contradicts_it_is_refused_and_nothing_is_stored(
    club, players, olga, changes, field, code
):
    document = {"ruleset": "terziglio", "players": ["Anna", "Bruno", "Carla"], "hands": G1[:1]}
    before = Game.objects.count()
    with pytest.raises(RuleViolation) as refusal:
        services.import_game(club=club, document=document | changes, by=Actor.for_user(olga))
    assert [(p.field, p.code) for p in refusal.value.problems] == [(field, code)]
    assert Game.objects.count() == before


def test_manage_py_score_reads_an_export(abandoned, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(selectors.export_game(abandoned)))
    out = io.StringIO()
    call_command("score", str(path), "--json", stdout=out)
    assert json.loads(out.getvalue())["totals"] == abandoned.totals
