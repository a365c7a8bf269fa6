"""A worker killed in the middle of a results mailing delays nothing: the tasks safe to run
again are acknowledged late (the broker hands a killed worker's task on), and the beat check
``requeue_stalled_results_mail`` sends the task of a mailing that is due and incomplete again,
once per ``RESULTS_MAIL_STALLED_SECONDS``, leaving alone a complete one and one in progress."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.utils import timezone

from scoring.services import Actor, queue
from tournaments import services, tasks
from tournaments.models import Competition, ResultsMail, Round

from .test_results_mail import close, make_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club, olga):
    return make_night(club, olga)


STALLED = timedelta(seconds=settings.RESULTS_MAIL_STALLED_SECONDS)


def later(by: timedelta = STALLED) -> timezone.datetime:
    return timezone.now() + by + timedelta(seconds=1)


def close_with_the_second_mail_lost(round_, olga, capture):
    """The round closed and its mailing stopped after its first e-mail (as a worker killed
    there: the first is sent and recorded, the second not)."""
    real_send = EmailMultiAlternatives.send
    calls = {"n": 0}

    def dies_at_the_second(message, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError("worker lost")
        return real_send(message, *args, **kwargs)

    with (
        mock.patch.object(EmailMultiAlternatives, "send", dies_at_the_second),
        pytest.raises(OSError),
    ):
        close(round_, olga, capture)
    assert len(mail.outbox) == 1 and ResultsMail.objects.filter(round=round_).count() == 1


def test_the_tasks_safe_to_run_again_are_acknowledged_late_the_others_on_receipt():
    from config.celery import app

    ours = {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}
    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST
    on_receipt = {name for name, task in ours.items() if not task.acks_late}
    assert on_receipt == {
        "tournaments.tasks.announce_round",  # its e-mails are recorded nowhere
        "tournaments.tasks.send_registration_mail",  # likewise
        "scoring.tasks.send_password_reset",  # likewise
        "tournaments.tasks.search_design",  # may outlast the visibility timeout
    }
    for late in ("mail_round_results", "mail_final_results", "requeue_stalled_results_mail"):
        assert ours[f"tournaments.tasks.{late}"].acks_late is True
    assert ours["scoring.tasks.rate_game"].acks_late is True


def test_the_beat_runs_the_check_and_without_a_broker_it_runs_eagerly_finding_nothing(night):
    from config.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["requeue-stalled-results-mail"]
    assert entry["task"] in app.tasks
    assert entry["schedule"] == settings.RESULTS_MAIL_CHECK_EVERY_SECONDS
    assert tasks.requeue_stalled_results_mail.apply().get() == 0


def test_an_incomplete_mailing_is_sent_again_once_and_completed(
    night, olga, django_capture_on_commit_callbacks
):
    _competition, round_, _players = night
    close_with_the_second_mail_lost(round_, olga, django_capture_on_commit_callbacks)
    # Not yet: the round closed and its last e-mail went out a moment ago.
    assert services.requeue_stalled() == []
    now = later()
    with django_capture_on_commit_callbacks(execute=True):
        assert services.requeue_stalled(now=now) == [f"round {round_.pk}"]
    assert sorted(m.to[0] for m in mail.outbox) == ["anna@example.org", "bruno@example.org"]
    assert Round.objects.get(pk=round_.pk).results_requeued_at == now
    # Complete now: the next checks, now or much later, leave it alone.
    with django_capture_on_commit_callbacks(execute=True):
        assert services.requeue_stalled(now=now) == []
        assert services.requeue_stalled(now=later(2 * STALLED)) == []
    assert len(mail.outbox) == 2


def test_a_mailing_still_waiting_for_its_task_is_sent_again_once_per_interval(
    night, olga, django_capture_on_commit_callbacks
):
    """The re-queued task not run yet (a busy worker): the checks that follow do not queue it
    again before the interval has passed, and two checks at once queue it once."""
    _competition, round_, _players = night
    close_with_the_second_mail_lost(round_, olga, django_capture_on_commit_callbacks)
    now = later()
    with (
        mock.patch.object(queue, "enqueue") as enqueue,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert services.requeue_stalled(now=now) == [f"round {round_.pk}"]
        assert services.requeue_stalled(now=now + timedelta(seconds=30)) == []
        assert services.requeue_stalled(now=now + STALLED + timedelta(seconds=1)) != []
    assert (
        enqueue.call_args_list == [mock.call("tournaments.tasks.mail_round_results", round_.pk)] * 2
    )
    assert len(mail.outbox) == 1


def test_a_complete_mailing_is_left_alone(night, olga, django_capture_on_commit_callbacks):
    _competition, round_, _players = night
    close(round_, olga, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 2
    with (
        mock.patch.object(queue, "enqueue") as enqueue,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert services.requeue_stalled(now=later()) == []
    enqueue.assert_not_called()
    assert Round.objects.get(pk=round_.pk).results_requeued_at is None


def test_a_mailing_in_progress_is_left_alone_and_sent_again_once_it_stalls(
    night, olga, django_capture_on_commit_callbacks
):
    """Closed an hour ago, its last e-mail sent a moment ago: in progress. The same e-mail sent
    an hour ago: stalled."""
    _competition, round_, _players = night
    close_with_the_second_mail_lost(round_, olga, django_capture_on_commit_callbacks)
    hour_ago = timezone.now() - timedelta(hours=1)
    Round.objects.filter(pk=round_.pk).update(closed_at=hour_ago)
    with (
        mock.patch.object(queue, "enqueue") as enqueue,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert services.requeue_stalled() == []
        ResultsMail.objects.filter(round=round_).update(sent_at=hour_ago)
        assert services.requeue_stalled() == [f"round {round_.pk}"]
    assert enqueue.call_count == 1


def test_an_incomplete_final_mailing_is_sent_again_and_a_round_long_past_is_not_looked_at(
    night, olga, django_capture_on_commit_callbacks
):
    competition, round_, _players = night
    close(round_, olga, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    with (
        mock.patch.object(queue, "enqueue"),
        django_capture_on_commit_callbacks(execute=True),
    ):  # the final mailing's task lost with its worker
        services.finalize_competition(competition=competition, by=Actor.for_user(olga))
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        assert services.requeue_stalled(now=later()) == [f"competition {competition.pk}"]
    assert len(mail.outbox) == 2
    assert Competition.objects.get(pk=competition.pk).results_requeued_at is not None
    # Beyond RESULTS_MAIL_CHECK_HOURS a mailing is history: not looked at.
    ResultsMail.objects.filter(round=round_).delete()
    hours = timedelta(hours=settings.RESULTS_MAIL_CHECK_HOURS)
    with (
        mock.patch.object(queue, "enqueue") as enqueue,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert services.requeue_stalled(now=later(hours)) == []
    enqueue.assert_not_called()


def test_a_results_email_sent_again_after_its_record_was_lost_has_the_same_message_id(
    night, olga, django_capture_on_commit_callbacks
):
    """A worker killed between the SMTP server's answer and the commit of the record: the
    e-mail goes out again, as the same message (mail programs show one); the corrected
    results after a reopening are another message."""
    _competition, round_, _players = night
    close(round_, olga, django_capture_on_commit_callbacks)
    first = {m.to[0]: m.extra_headers["Message-ID"] for m in mail.outbox}
    assert len(set(first.values())) == 2
    ResultsMail.objects.filter(round=round_).delete()
    mail.outbox.clear()
    assert tasks.mail_round_results(round_.pk) == 2
    assert {m.to[0]: m.extra_headers["Message-ID"] for m in mail.outbox} == first
    by = Actor.for_user(olga)
    services.reopen_round(round_=Round.objects.get(pk=round_.pk), by=by, reason="typo")
    mail.outbox.clear()
    close(Round.objects.get(pk=round_.pk), olga, django_capture_on_commit_callbacks)
    corrected = {m.to[0]: m.extra_headers["Message-ID"] for m in mail.outbox}
    assert corrected.keys() == first.keys() and not set(corrected.values()) & set(first.values())
    assert all(m.message()["Message-ID"] == corrected[m.to[0]] for m in mail.outbox)
