"""The registrations a competition's rates refused (``registration.rates``), counted for the
organizer's page: how many, when the last one was and why."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from registration.models import RegistrationRefusals
from tournaments.models import Competition


def note_refusal(competition: Competition, reason: str) -> None:
    """One more registration refused for ``competition`` (one row per competition, counted in
    the database: every web process adds to it)."""
    now = timezone.now()
    counted = RegistrationRefusals.objects.filter(competition=competition).update(
        refused=F("refused") + 1, last_at=now, last_reason=reason
    )
    if counted:
        return
    try:
        with transaction.atomic():
            RegistrationRefusals.objects.create(
                competition=competition, refused=1, last_at=now, last_reason=reason
            )
    except IntegrityError:  # made meanwhile by a parallel refusal
        RegistrationRefusals.objects.filter(competition=competition).update(
            refused=F("refused") + 1, last_at=now, last_reason=reason
        )
