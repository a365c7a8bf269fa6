"""With a real broker (Redis) and a real worker process, the tasks that follow a game's end and
a round's draw run in the worker: run by .ci/run with CELERY_BROKER_URL set (marker ``broker``).
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from scoring import services as scoring
from scoring.services import Actor
from tournaments import services
from tournaments.models import Round, StandingsSnapshot

pytestmark = [pytest.mark.broker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


def wait_for(condition, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("the worker did not do it in time")


@pytest.fixture
def worker():
    """A Celery worker process on the test database, consuming this run's queue."""
    if not settings.CELERY_BROKER_URL:
        pytest.fail(
            "These tests need CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/15), as .ci/run sets."
        )
    env = dict(os.environ)
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        env["SQLITE_PATH"] = str(db["NAME"])
    else:
        env["DATABASE_URL"] = (
            f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--loglevel=WARNING",
            "-Q",
            settings.CELERY_TASK_DEFAULT_QUEUE,
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
    )
    yield process
    process.terminate()
    process.wait(timeout=20)


def test_the_worker_draws_a_round_and_recomputes_the_standings_after_a_game_ends(
    worker, olga, club, players
):
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club, by=by, name="Lega", rulesets=["briscola"], format="round_robin"
    )
    for player in players:
        services.add_entry(competition=competition, player=player, by=by)
    round_ = services.add_round(competition=competition, by=by)
    from tournaments.tasks import generate_round

    generate_round.delay(round_.pk, olga.pk, 5)
    wait_for(lambda: Round.objects.get(pk=round_.pk).tables.count() == 2)
    services.publish_round(round_=Round.objects.get(pk=round_.pk), by=by)
    table = Round.objects.get(pk=round_.pk).tables.select_related("game").first()
    # The worker takes tasks in order: the refreshes the entries asked for ran before the draw,
    # so the snapshot lists every entry and no game yet, and nothing else is waiting.
    before = StandingsSnapshot.objects.get(competition=competition)
    assert before.data["games_counted"] == 0
    for dealer in (0, 1):
        scoring.record_hand(game=table.game, document={"dealer": dealer, "points": [70, 50]}, by=by)
    snapshot = wait_for(
        lambda: StandingsSnapshot.objects.filter(
            competition=competition, data__games_counted=1
        ).first()
    )
    assert snapshot.version > before.version
    leader = snapshot.data["tables"][0]["rows"][0]
    # A new competition counts fair placement points: a win at a table of two is worth 100.
    assert leader["points"] == 100 and leader["games"] == 1


def test_the_worker_emails_the_results_of_a_closed_round_once(worker, olga, club):
    """``close_round`` sends ``mail_round_results`` to the broker; the worker sends them and
    records each (its console backend prints them): a second run finds them sent."""
    from tournaments.models import ResultsMail
    from tournaments.tasks import mail_round_results

    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club, by=by, name="Sera", rulesets=["terziglio"], format="club_night"
    )
    entries = [
        services.add_entry(competition=competition, player=name, by=by)
        for name in ("Anna", "Bruno", "Carla")
    ]
    for entry, language in zip(entries[:2], ("it", "fr"), strict=True):
        scoring.update_player(
            player=entry.player, by=by, email=f"{entry.player}@example.org", language=language
        )
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    game = round_.tables.select_related("game").get().game
    scoring.record_hand(
        game=game,
        document={"dealer": 2, "outcome": "played", "soloist": 1, "contract": "scegliete",
                  "soloist_points": 8},
        by=by,
    )  # fmt: skip
    services.close_round(round_=Round.objects.get(pk=round_.pk), by=by)
    wait_for(lambda: ResultsMail.objects.filter(round=round_).count() == 2)
    mail_round_results.delay(round_.pk)
    time.sleep(2)
    assert ResultsMail.objects.filter(round=round_).count() == 2
