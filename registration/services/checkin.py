"""Self check-in at the venue (issue 24): the organizer opens a window on a draft round
(``open_check_in``, ``close_check_in``); while it is open an entry checks itself in from the
player's phone, through the registration's e-mailed link or, signed in, from the check-in poster
(``check_in_self``). The organizer's own check-in (``services.rounds.set_check_ins``) stays
beside it: both write ``CheckIn`` rows of the round, under the competition's and the round's
locks, and the draw seats only those checked in.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from registration.models import CheckInWindow, LinkPurpose, Registration, RegistrationStatus
from registration.services.registration import find_link, link_refusal
from scoring.services import Actor, violation
from tournaments.models import CheckIn, Competition, Entry, EntryStatus, Round, RoundStatus
from tournaments.services._common import locked_round, record_event, require_manager

#: The longest window the organizer may open, in minutes.
WINDOW_MAX = 24 * 60


def open_check_in(*, round_: Round, by: Actor, minutes: int = 120) -> CheckInWindow:
    """Players check themselves in to ``round_`` (a draft) for the next ``minutes``."""
    competition = round_.competition
    require_manager(by, competition.club)
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= WINDOW_MAX:
        raise violation("minutes", "range", min=1, max=WINDOW_MAX, value=minutes)
    with locked_round(round_, RoundStatus.DRAFT, "published"):
        now = timezone.now()
        window, _created = CheckInWindow.objects.update_or_create(
            round=round_,
            defaults={"opened_at": now, "closes_at": now + timedelta(minutes=minutes)},
        )
        record_event(competition, by, "open_check_in", round_=round_, minutes=minutes)
    return window


def close_check_in(*, round_: Round, by: Actor) -> None:
    """No more self check-ins to ``round_`` (those made stay)."""
    competition = round_.competition
    require_manager(by, competition.club)
    with locked_round(round_, RoundStatus.DRAFT, "published"):
        window = CheckInWindow.objects.filter(round=round_).first()
        if window is None or not window.is_open():
            raise violation("round", "not_allowed", reason="check_in_not_open")
        window.closes_at = timezone.now()
        window.save(update_fields=["closes_at"])
        record_event(competition, by, "close_check_in", round_=round_)


def open_round(competition: Competition) -> Round | None:
    """The draft round whose self check-in is open now, if any (the earliest)."""
    window = (
        CheckInWindow.objects.select_related("round")
        .filter(
            round__competition=competition,
            round__status=RoundStatus.DRAFT,
            round__deleted_at__isnull=True,
            closes_at__gt=timezone.now(),
        )
        .order_by("round__number")
        .first()
    )
    if window is None:
        return None
    window.round.competition = competition
    return window.round


def entry_of(*, by: Actor, token: str = "", competition: Competition | None = None) -> Entry:
    """The entry checking in: the registration's of a ``token`` (its withdrawal and check-in
    link), or the signed-in account's in ``competition`` (registered, or the player it is)."""
    if token:
        link = find_link(token)
        problem = link_refusal(link, {LinkPurpose.MANAGE})
        if problem is not None:
            raise problem
        registration = link.registration
        if registration.status != RegistrationStatus.ENTERED:
            raise violation("token", "not_allowed", reason="not_entered")
        return registration.entry
    if by.user is None or competition is None:
        raise violation("token", "required", reason="check_in_who")
    registration = Registration.objects.filter(
        competition=competition, user=by.user, status=RegistrationStatus.ENTERED
    ).first()
    if registration is not None:
        return registration.entry
    entry = competition.entries.filter(player__user=by.user, status=EntryStatus.ACTIVE).first()
    if entry is None:
        raise violation("token", "not_found", reason="check_in_not_entered")
    return entry


def check_in_self(*, entry: Entry, by: Actor) -> Round:
    """``entry`` is present for the round whose self check-in is open (refused when none is,
    or when the entry withdrew). Checking in twice is one check-in."""
    competition = entry.competition
    round_ = open_round(competition)
    if round_ is None:
        raise violation("round", "not_allowed", reason="check_in_not_open")
    with locked_round(round_, RoundStatus.DRAFT, "published"):
        window = CheckInWindow.objects.filter(round=round_).first()
        if window is None or not window.is_open():
            raise violation("round", "not_allowed", reason="check_in_not_open")
        entry.refresh_from_db()
        if entry.status != EntryStatus.ACTIVE:
            raise violation("entry", "not_allowed", reason="withdrawn")
        _found, created = CheckIn.objects.get_or_create(round=round_, entry=entry)
        if created:
            record_event(
                competition, by, "self_check_in", round_=round_, entry=entry.pk, name=entry.name
            )
    return round_
