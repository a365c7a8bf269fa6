"""History is permanent in the database itself: raw SQL cannot change or delete an audit row
(scoring's trail of the games, tournaments' trail of the organizers), on SQLite and on
PostgreSQL alike; deleting what a trail points at is refused instead of erasing the trail."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError

from scoring import permanent
from scoring.models import AuditEvent
from tests.tournaments.helpers import make_competition
from tournaments.models import CompetitionEvent

pytestmark = pytest.mark.django_db


def refused(sql: str, *params) -> str:
    with pytest.raises(IntegrityError) as caught, transaction.atomic(), connection.cursor() as c:
        c.execute(sql, params)
    return str(caught.value)


def test_raw_sql_cannot_update_a_game_audit_row(terziglio):
    event = AuditEvent.objects.get(game=terziglio)
    message = refused(
        "UPDATE scoring_auditevent SET reason = 'nothing happened' WHERE id = %s", event.pk
    )
    assert "history is permanent" in message
    assert AuditEvent.objects.get(pk=event.pk).reason == event.reason


def test_raw_sql_cannot_delete_a_game_audit_row(terziglio):
    event = AuditEvent.objects.get(game=terziglio)
    assert "history is permanent" in refused(
        "DELETE FROM scoring_auditevent WHERE id = %s", event.pk
    )
    assert "history is permanent" in refused("DELETE FROM scoring_auditevent")
    assert AuditEvent.objects.filter(pk=event.pk).exists()


def test_raw_sql_cannot_update_or_delete_a_competition_event(club, olga):
    competition = make_competition(club, olga)
    event = CompetitionEvent.objects.filter(competition=competition).first()
    assert event is not None
    assert "history is permanent" in refused(
        "UPDATE tournaments_competitionevent SET action = 'x' WHERE id = %s", event.pk
    )
    assert "history is permanent" in refused(
        "DELETE FROM tournaments_competitionevent WHERE id = %s", event.pk
    )
    assert CompetitionEvent.objects.get(pk=event.pk).action == event.action


def test_wiping_the_whole_audit_table_is_refused(terziglio):
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # The test's own transaction holds deferred foreign key checks, which TRUNCATE
            # would wait for: settle them first.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        assert "history is permanent" in refused("TRUNCATE scoring_auditevent CASCADE")
    assert "history is permanent" in refused("DELETE FROM scoring_auditevent")


def test_a_game_club_or_user_with_a_trail_cannot_be_deleted(terziglio, club, olga):
    with pytest.raises(ProtectedError), transaction.atomic():
        terziglio.delete()
    with pytest.raises(ProtectedError), transaction.atomic():
        olga.delete()
    assert AuditEvent.objects.filter(game=terziglio).count() == 1


def test_a_competition_with_a_trail_cannot_be_deleted(club, olga):
    competition = make_competition(club, olga)
    with pytest.raises(ProtectedError), transaction.atomic():
        competition.delete()
    assert CompetitionEvent.objects.filter(competition=competition).exists()


def test_unlocked_lets_a_whole_database_be_wiped_and_locks_again(terziglio):
    with permanent.unlocked(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM scoring_auditevent")
    assert not AuditEvent.objects.exists()
    AuditEvent.objects.create(club=terziglio.club, game=terziglio, action="abandon_game")
    assert "history is permanent" in refused("DELETE FROM scoring_auditevent")
