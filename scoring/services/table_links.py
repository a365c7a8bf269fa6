"""Table links: the PIN check's budget per link, and changing a link and its PIN.

Guessing is throttled per caller (browser session and address, with a growing wait) by
``scoring.throttles`` before a PIN reaches :func:`check_pin`: one guesser slows only itself.
What is left here is a budget per link whatever the callers, a database counter so that every
web process shares it (Redis up or down): many addresses together cannot try the 10**6 PINs
(``PIN_DIGITS``) quickly. Its first ceiling (``PIN_LINK_MAX_FAILURES`` wrong PINs in a
``LINK_WINDOW_MINUTES`` window, 25 by default) refuses new sessions only to *suspects*, callers
whose address has typed a wrong PIN for this link: a guesser locks himself out, not the players
arriving at the table. The second (``PIN_LINK_HARD_FAILURES``, 75) locks the link for everyone
until the window has passed: then a seated phone or the organizer's table card admits a new
phone (``scoring.access.admission_ticket``), and the card says the link is locked and until
when; the organizer can give the table a new link and PIN, which renews the budget. Phones
already seated keep working throughout.

What a guesser with any number of addresses gets (docs/architecture.md "Table PINs"): at most
``PIN_LINK_HARD_FAILURES`` wrong PINs per window, and a 12-hour evening meets at most
``12 * 60 / LINK_WINDOW_MINUTES + 1`` windows: 13 × 75 = 975 of 10**6 PINs, 0.0975 %
(:func:`evening_share`, which tests/scoring/test_pin_budget.py checks against these figures).
"""

from __future__ import annotations

import datetime
import math

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.utils import timezone

from scoring import live
from scoring.models import MANAGERS, PIN_DIGITS, AuditAction, Game, TableLink, new_pin, new_token
from scoring.services import audit
from scoring.services.actors import Actor, authorize_club

#: The window of a link's budget of wrong PINs: it starts at the first wrong PIN after the last.
LINK_WINDOW_MINUTES = 60
#: The share of the PINs an attacker may try in an evening, at most (issue 33).
EVENING_SHARE_MAX = 0.001


def evening_share(hard_max: int, *, hours: int = 12) -> float:
    """The share of the ``10**PIN_DIGITS`` PINs that ``hard_max`` wrong PINs per window let a
    guesser with any number of addresses try in ``hours``: windows last at least
    ``LINK_WINDOW_MINUTES`` each, so ``hours`` overlap at most ``hours * 60 / window + 1`` of
    them (the first begun before the evening)."""
    windows = math.ceil(hours * 60 / LINK_WINDOW_MINUTES) + 1
    return windows * hard_max / 10**PIN_DIGITS


#: The most wrong PINs per window that keep ``evening_share`` within ``EVENING_SHARE_MAX``.
FAILURES_LIMIT = math.floor(EVENING_SHARE_MAX / evening_share(1))


def check_budget() -> None:
    """Refuse to start with a budget beyond ``FAILURES_LIMIT`` (``ScoringConfig.ready``)."""
    for name in ("PIN_LINK_MAX_FAILURES", "PIN_LINK_HARD_FAILURES"):
        if getattr(settings, name) > FAILURES_LIMIT:
            raise ImproperlyConfigured(
                f"{name} must be at most {FAILURES_LIMIT}: beyond, a guesser with many addresses"
                " could try more than 0.1 % of a table's PINs in an evening"
                ' (docs/architecture.md "Table PINs")'
            )


def locked_until(link: TableLink, hard_max: int) -> datetime.datetime | None:
    """Until when wrong PINs lock ``link`` for every new phone (None: the PIN lets phones in)."""
    if link.window_started is None or link.failures < hard_max:
        return None
    until = link.window_started + datetime.timedelta(minutes=LINK_WINDOW_MINUTES)
    return until if until > timezone.now() else None


def check_pin(
    *,
    link: TableLink,
    pin: str,
    max_attempts: int,
    window_minutes: int,
    suspect: bool = True,
    hard_max: int | None = None,
) -> bool | None:
    """True for the right PIN, False for a wrong one, None while the link is locked for this
    caller: it has had ``max_attempts`` wrong PINs (``hard_max`` when the caller is no
    ``suspect``) in the ``window_minutes`` since the first of them."""
    limit = max_attempts if suspect or hard_max is None else max(hard_max, max_attempts)
    with transaction.atomic():
        link = TableLink.objects.select_for_update(no_key=True).get(pk=link.pk)
        now = timezone.now()
        if (
            link.window_started
            and (now - link.window_started).total_seconds() > window_minutes * 60
        ):
            link.failures, link.window_started = 0, None
        if link.failures >= limit:
            link.save(update_fields=["failures", "window_started"])
            return None
        if isinstance(pin, str) and pin.strip() == link.pin:
            # The count of wrong PINs stays: the right one does not open the way for more.
            link.save(update_fields=["failures", "window_started"])
            return True
        link.failures += 1
        link.window_started = link.window_started or now
        link.save(update_fields=["failures", "window_started"])
        return False


def rotate_table_link(*, game: Game, by: Actor) -> TableLink:
    """A new secret link and PIN for ``game``'s table (the owner or an organizer of its club):
    the old link and PIN stop working, and the sessions opened with them end
    (``scoring.access`` checks a session's link against the current one). Audited."""
    authorize_club(by, game.club, MANAGERS)
    with transaction.atomic():
        link, _created = TableLink.objects.select_for_update(no_key=True).get_or_create(game=game)
        link.token, link.pin = new_token(), new_pin()
        link.failures, link.window_started = 0, None
        link.save(update_fields=["token", "pin", "failures", "window_started"])
        audit.record(by, AuditAction.ROTATE_TABLE_LINK, club_id=game.club_id, game=game)
        # The streams opened with the old link end with it (scoring.views.live).
        live.publish_on_commit(live.game_channel(game.pk), "link", {"id": game.pk})
    return link
