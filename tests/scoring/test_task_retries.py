"""The background tasks run their work again when PostgreSQL broke off its transaction to resolve
a deadlock or a serialization failure (issue 22, point 2): a bounded number of times, waiting
longer each time, eagerly (no broker: the tests, a laptop) as on a worker. Any other database
error is raised at once. The errors are made here as Django raises them: an ``OperationalError``
whose ``__cause__`` is psycopg's."""

import pytest
from django.db import OperationalError, transaction
from psycopg import errors

from scoring import retries, services, tasks
from scoring.models import Rating, RatingStep
from scoring.services import Actor
from scoring.services import ratings as rating_service

# Real commits: the tasks run their work again only outside any transaction (a test's own
# transaction would count as the caller's).
pytestmark = pytest.mark.django_db(transaction=True)

FINISHING = {"dealer": 2, "outcome": "played", "soloist": 1, "contract": "scegliete",
             "soloist_points": 8}  # fmt: skip


def broken_off(cause: Exception) -> OperationalError:
    """What Django raises when PostgreSQL breaks off a statement with ``cause``."""
    error = OperationalError(str(cause))
    error.__cause__ = cause
    return error


def assert_backoff(waits: list[float]) -> None:
    """Each wait doubles the one before, give or take half of it (the jitter)."""
    for attempt, waited in enumerate(waits, 1):
        middle = retries.BACKOFF * 2 ** (attempt - 1)
        assert middle / 2 <= waited <= middle * 1.5, (attempt, waited)


@pytest.fixture
def waits(monkeypatch) -> list[float]:
    """The waits between the runs, recorded instead of slept."""
    slept: list[float] = []
    monkeypatch.setattr(retries.time, "sleep", slept.append)
    return slept


@pytest.fixture
def failing_first(monkeypatch):
    """``ratings.rate_game`` failing with the given errors first, then doing its work."""
    calls: list[int] = []

    def install(*failures: Exception):
        real = rating_service.rate_game
        pending = list(failures)

        def rate_game(*, game):
            calls.append(game if isinstance(game, int) else game.pk)
            if pending:
                raise pending.pop(0)
            return real(game=game)

        monkeypatch.setattr(rating_service, "rate_game", rate_game)
        return calls

    return install


@pytest.fixture
def finished(terziglio, olga):
    services.record_hand(game=terziglio, document=FINISHING, by=Actor.for_user(olga))
    RatingStep.objects.all().delete()
    Rating.objects.all().delete()
    return terziglio


@pytest.mark.parametrize(
    "cause",
    [
        errors.DeadlockDetected("deadlock detected"),
        errors.SerializationFailure("could not serialize"),
    ],
    ids=["deadlock", "serialization"],
)
def test_the_rating_task_runs_again_after_a_deadlock_and_rates_the_game(
    finished, failing_first, waits, cause
):
    calls = failing_first(broken_off(cause), broken_off(cause))
    tasks.rate_game(finished.pk)
    assert calls == [finished.pk] * 3
    assert len(waits) == 2
    assert_backoff(waits)
    assert RatingStep.objects.filter(game=finished).count() == 3


def test_the_task_gives_up_after_a_bounded_number_of_runs(finished, failing_first, waits):
    deadlock = broken_off(errors.DeadlockDetected("deadlock detected"))
    calls = failing_first(*[deadlock] * (retries.RETRIES + 1))
    with pytest.raises(OperationalError):
        tasks.rate_game(finished.pk)
    assert len(calls) == retries.RETRIES + 1
    assert len(waits) == retries.RETRIES
    assert_backoff(waits)
    assert sum(waits) < 5  # bounded: a few seconds at most
    assert not RatingStep.objects.exists()


def test_another_database_error_is_not_run_again(finished, failing_first, waits):
    calls = failing_first(broken_off(errors.UndefinedTable("no such table")))
    with pytest.raises(OperationalError):
        tasks.rate_game(finished.pk)
    assert (len(calls), waits) == (1, [])


def test_a_finishing_hand_is_rated_even_when_its_eager_task_first_meets_a_deadlock(
    terziglio, olga, failing_first, waits
):
    """No broker: the task runs eagerly once the hand's transaction commits, and runs again."""
    calls = failing_first(broken_off(errors.DeadlockDetected("deadlock detected")))
    services.record_hand(game=terziglio, document=FINISHING, by=Actor.for_user(olga))
    assert calls == [terziglio.pk] * 2
    assert len(waits) == 1
    assert RatingStep.objects.filter(game=terziglio).count() == 3


def test_inside_a_caller_s_transaction_nothing_is_run_again(finished, failing_first, waits):
    """The caller's transaction is broken off too: only its owner may run it again."""
    calls = failing_first(broken_off(errors.DeadlockDetected("deadlock detected")))
    with pytest.raises(OperationalError), transaction.atomic():
        tasks.rate_game(finished.pk)
    assert (len(calls), waits) == (1, [])
