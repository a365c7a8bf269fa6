"""Housekeeping: idempotency records expire and are purged; `check_games` replays every game and
names each cached figure its hands do not give."""

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from scoring import services, tasks
from scoring.models import Game, Hand, IdempotencyRecord
from scoring.services import Actor
from scoring.services.housekeeping import check_games, purge_idempotency_records
from tests.scoring.rules.games import hand_documents

pytestmark = pytest.mark.django_db

G1 = hand_documents("terziglio", "G1")


@pytest.fixture
def played(terziglio, sara):
    """Terziglio G1's first three hands, entered with idempotency keys."""
    by = Actor.for_user(sara)
    for number, document in enumerate(G1[:3], start=1):
        services.record_hand(game=terziglio, document=document, by=by, idempotency_key=f"k{number}")
    return Game.objects.get(pk=terziglio.pk)


def age(key: str, hours: float) -> None:
    IdempotencyRecord.objects.filter(key=key).update(
        created_at=timezone.now() - timedelta(hours=hours)
    )


def test_records_older_than_the_setting_are_purged_and_younger_ones_kept(played, settings):
    settings.IDEMPOTENCY_TTL_HOURS = 48
    age("k1", 49)
    age("k2", 47)
    assert purge_idempotency_records() == 1
    assert sorted(IdempotencyRecord.objects.values_list("key", flat=True)) == ["k2", "k3"]


def test_the_periodic_task_purges_with_the_configured_time(played, settings):
    settings.IDEMPOTENCY_TTL_HOURS = 2
    age("k1", 3)
    age("k2", 3)
    assert tasks.purge_idempotency_records() == 2
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["k3"]


def test_the_purge_runs_hourly_from_celery_beat(settings):
    schedule = {
        entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
    assert schedule["scoring.tasks.purge_idempotency_records"] == 3600
    assert schedule["scoring.tasks.check_games"] == 86400


def test_a_resend_within_the_window_still_gets_the_first_answer(played, sara, settings):
    settings.IDEMPOTENCY_TTL_HOURS = 48
    age("k3", 47)
    purge_idempotency_records()
    again = services.record_hand(
        game=played, document=G1[2], by=Actor.for_user(sara), idempotency_key="k3"
    )
    assert again.replayed
    assert Hand.objects.filter(game=played).count() == 3


def test_games_that_agree_with_their_hands_report_nothing(played, other_club):
    assert list(check_games()) == []
    out = io.StringIO()
    call_command("check_games", stdout=out)
    assert "1 game(s) checked: every figure agrees with its hands." in out.getvalue()


def test_a_tampered_total_and_hand_delta_are_named_and_the_command_exits_1(played):
    true_totals = list(played.totals)
    Game.objects.filter(pk=played.pk).update(totals=[99, 0, 0])
    hand = Hand.objects.get(game=played, number=2)
    true_deltas = list(hand.deltas)
    Hand.objects.filter(pk=hand.pk).update(deltas=[1, 2, 3])

    found = {(m.figure, str(m.stored), str(m.replayed)) for m in check_games()}
    assert found == {
        ("totals", "[99, 0, 0]", str(true_totals)),
        ("hand 2 deltas", "[1, 2, 3]", str(true_deltas)),
    }
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("check_games", stdout=out, stderr=err)
    assert exit_.value.code == 1
    assert f"game {played.pk}: totals is [99, 0, 0], its hands give {true_totals}" in out.getvalue()
    assert "2 figure(s) differ from their replay, in 1 game(s)." in err.getvalue()


def test_a_wrong_hand_count_and_status_are_named(played):
    Game.objects.filter(pk=played.pk).update(hand_count=7, status="finished")
    figures = {m.figure: (m.stored, m.replayed) for m in check_games()}
    assert figures == {"hand_count": (7, 3), "status": ("finished", "in_progress")}


def test_a_club_filter_checks_only_that_club(played, other_club, bea):
    services.start_game(
        club=other_club,
        ruleset="briscola",
        players=list(other_club.players.all()[:2]),
        by=Actor.for_user(bea),
    )
    Game.objects.filter(pk=played.pk).update(totals=[99, 0, 0])
    assert list(check_games(club="due")) == []
    assert [m.figure for m in check_games(club="uno")] == ["totals"]


def test_the_nightly_task_counts_what_differs(played, caplog):
    assert tasks.check_games() == 0
    wrong = (played.last_dealer + 1) % 3
    Game.objects.filter(pk=played.pk).update(last_dealer=wrong)
    assert tasks.check_games() == 1
    assert f"game {played.pk}: last_dealer is {wrong}, its hands give {played.last_dealer}" in (
        caplog.text
    )


def test_the_nightly_check_replays_only_the_games_changed_since_its_last_run(
    played, other_club, bea, sara
):
    """Its work follows the day's changes, not the whole history (issue 26): a game no write
    touched since ``since`` is not replayed; the next hand entered brings it back in; the
    command, without ``since``, still replays every game."""
    quiet = services.start_game(
        club=other_club, ruleset="terziglio", players=["Elena", "Franco", "Gina"], by=by_(bea)
    )
    Hand.objects.filter(game=played, number=1).update(deltas=[1, 2, 3])
    Game.objects.filter(pk=quiet.pk).update(totals=[5, 0, 0])
    since = timezone.now()
    assert list(check_games(since=since)) == []
    services.record_hand(game=played, document=G1[3], by=by_(sara))
    found = [str(m) for m in check_games(since=since)]
    assert len(found) == 1 and found[0].startswith(f"game {played.pk}: hand 1 deltas is")
    assert {m.game for m in check_games()} == {played.pk, quiet.pk}
    assert tasks.check_games(hours=1) == 2


def by_(user) -> Actor:
    return Actor.for_user(user)
