"""Keeping a club's data sound over time: idempotency records that have served their purpose are
purged, and every game's cached figures can be checked against a replay of its hands (and the
games against what the apps built on scoring require of them: ``extensions.GAME_CHECKS``).

Both run nightly from Celery beat (``config/settings.py`` ``CELERY_BEAT_SCHEDULE``) and by hand
(``manage.py check_games``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone

from scoring.extensions import GAME_CHECKS
from scoring.models import (
    AuditEvent,
    FormSubmission,
    Game,
    GameStatus,
    GuessCounter,
    Hand,
    IdempotencyRecord,
    IdempotentRequest,
)
from scoring.rules import RuleViolation, engine


def purge_idempotency_records(*, older_than: timedelta | None = None) -> int:
    """Delete the remembered first answers (of hands, and of every other API write:
    ``IdempotentRequest``) older than ``older_than`` (by default ``IDEMPOTENCY_TTL_HOURS``), and the forms sent once as long ago (their tokens expire
    sooner: ``scoring.services.submissions``) and the throttles' expired counts; returns how
    many went. A phone resends within
    minutes or hours; past that window a resend is a new request."""
    if older_than is None:
        older_than = timedelta(hours=settings.IDEMPOTENCY_TTL_HOURS)
    cutoff = timezone.now() - older_than
    deleted, _by_model = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    requests, _by_model = IdempotentRequest.objects.filter(created_at__lt=cutoff).delete()
    forms, _by_model = FormSubmission.objects.filter(created_at__lt=cutoff).delete()
    # The throttles' counts kept while Redis was down, once forgotten (``scoring.throttles``).
    counts, _by_model = GuessCounter.objects.filter(expires__lt=time.time()).delete()
    return deleted + requests + forms + counts


@dataclass(frozen=True)
class Mismatch:
    """One cached figure of a game that its hands, replayed, do not give."""

    game: int
    figure: str
    stored: Any
    replayed: Any

    def __str__(self) -> str:
        return (
            f"game {self.game}: {self.figure} is {self.stored!r}, its hands give {self.replayed!r}"
        )


def _game_mismatches(game: Game) -> list[Mismatch]:
    hands = list(game.hands.all())
    found: list[Mismatch] = []
    numbers = [hand.number for hand in hands]
    if numbers != list(range(1, len(hands) + 1)):
        found.append(Mismatch(game.pk, "hand numbers", numbers, list(range(1, len(hands) + 1))))
    try:
        scored = engine.replay(game.rules, game.options, game.n, [h.document for h in hands])
    except RuleViolation as refusal:
        problems = "; ".join(f"{p.field} {p.code}" for p in refusal.problems)
        return [*found, Mismatch(game.pk, "hands", "stored", f"refused on replay: {problems}")]
    expected = {
        "hand_count": scored.state.hands_played,
        "totals": list(scored.totals),
        "card_points": None if scored.state.card_points is None else list(scored.state.card_points),
        "last_dealer": scored.state.last_dealer,
    }
    if game.status != GameStatus.ABANDONED:
        expected["status"] = scored.status
    for figure, value in expected.items():
        stored = getattr(game, figure)
        if stored != value:
            found.append(Mismatch(game.pk, figure, stored, value))
    for hand, replayed in zip(hands, scored.hands, strict=True):
        for figure, value in (
            ("deltas", list(replayed.deltas)),
            ("side_points", None if replayed.side_points is None else list(replayed.side_points)),
        ):
            stored = getattr(hand, figure)
            if stored != value:
                found.append(Mismatch(game.pk, f"hand {hand.number} {figure}", stored, value))
    return found


def check_games(
    *, club: str | None = None, batch: int = 500, since: datetime | None = None
) -> Iterator[Any]:
    """Replay every game (of ``club``, a slug, or all clubs) from its hands and yield each cached
    figure that differs: totals, hands played, card points, last dealer, status, and each hand's
    deltas (a ``Mismatch``). Reads games in batches so a large club fits in memory. Then what
    the apps built on scoring check of the games they hold (``extensions.GAME_CHECKS``: a
    closed round with a game in progress...), each finding read with ``str()``.

    ``since``: only the games changed since then (started, or with an audit event of theirs:
    every write of a game or its hands leaves one, in its transaction), and the checks of the
    apps on what changed since then: the nightly task's work follows what changed that day,
    not the whole history (the games not changed were checked the night after their change)."""
    changed = None if since is None else changed_games(since)
    yield from _replayed_mismatches(club, batch, changed)
    for check in GAME_CHECKS:
        yield from check(club, since=since, games=changed)


def changed_games(since: datetime) -> list[int]:
    """The games with an audit event at or after ``since`` (index ``audit_at``)."""
    return list(
        AuditEvent.objects.filter(at__gte=since, game__isnull=False)
        .order_by("game_id")
        .values_list("game_id", flat=True)
        .distinct()
    )


def _replayed_mismatches(
    club: str | None, batch: int, changed: list[int] | None
) -> Iterator[Mismatch]:
    games = Game.objects.order_by("pk").prefetch_related(
        Prefetch("hands", queryset=Hand.objects.order_by("number"))
    )
    if club is not None:
        games = games.filter(club__slug=club)
    if changed is not None:
        games = games.filter(pk__in=changed)
    last = 0
    while True:
        page = list(games.filter(pk__gt=last)[:batch])
        if not page:
            return
        for game in page:
            yield from _game_mismatches(game)
        last = page[-1].pk
