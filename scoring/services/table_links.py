"""The table link's PIN check: a database counter of wrong PINs per game, so that guessing is
locked out across processes.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scoring.models import TableLink


def check_pin(*, link: TableLink, pin: str, max_attempts: int, window_minutes: int) -> bool | None:
    """True for the right PIN, False for a wrong one, None while the link is locked after too
    many wrong PINs (a database counter per game, reset when its window has passed)."""
    with transaction.atomic():
        link = TableLink.objects.select_for_update().get(pk=link.pk)
        now = timezone.now()
        if (
            link.window_started
            and (now - link.window_started).total_seconds() > window_minutes * 60
        ):
            link.failures, link.window_started = 0, None
        if link.failures >= max_attempts:
            link.save(update_fields=["failures", "window_started"])
            return None
        if isinstance(pin, str) and pin.strip() == link.pin:
            link.failures, link.window_started = 0, None
            link.save(update_fields=["failures", "window_started"])
            return True
        link.failures += 1
        link.window_started = link.window_started or now
        link.save(update_fields=["failures", "window_started"])
        return False
