"""Table links: the PIN check's ceiling per link, and changing a link and its PIN.

Guessing is throttled per caller (browser session and address, with a growing wait) by
``scoring.throttles`` before a PIN reaches :func:`check_pin`: one guesser slows only itself.
What is left here is a ceiling per link whatever the callers, a database counter so that every
web process shares it: many addresses together cannot try the 10,000 PINs quickly. Reaching it
(``PIN_LINK_MAX_FAILURES`` wrong PINs an hour, 100 by default) refuses new sessions only to
*suspects*, callers whose address has typed a wrong PIN for this link: a guesser locks himself
out, not the players arriving at the table. A second, much higher ceiling
(``PIN_LINK_HARD_FAILURES``) refuses every new session until the hour has passed: then a seated
phone or the organizer's table card admits a new phone (``scoring.access.admission_ticket``), or
the organizer gives the table a new link. Phones already seated keep working throughout.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scoring import live
from scoring.models import MANAGERS, AuditAction, Game, TableLink, new_pin, new_token
from scoring.services import audit
from scoring.services.actors import Actor, authorize_club


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
