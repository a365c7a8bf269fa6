"""Registration: players put their own names down (issue 24), and the waiting list moves.

- ``set_registration``, ``close_registration``: the organizer's window (when, how many, who);
  closing by hand freezes the list (as does ``closes_at`` passing).
- ``register``: a person (or a pair) asks for a place. An account's own address needs no
  confirmation; any other address confirms by an e-mailed link, and a pair's partner by theirs
  (``confirm_registration``; the organizer may confirm the partner at the desk,
  ``confirm_partner``). A registration complete takes a place: an ``Entry`` through
  ``services.entries.add_entry``, or a place on the waiting list beyond capacity.
- withdrawals, the waiting list and merging a player: ``services.waiting_list``.

Every write locks the competition (``_common.lock``) and decides on what it reads under the
lock: two people taking the last place at once, one gets it and the other waits. Each records
its ``CompetitionEvent``; the e-mails leave after the commit (``registration.tasks``).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from registration.models import (
    CapacityUnit,
    Eligibility,
    LinkPurpose,
    Registration,
    RegistrationLink,
    RegistrationSettings,
    RegistrationStatus,
)
from registration.services.names import named_player, player_for, refuse_look_alike_registrants
from scoring.links import request_origin
from scoring.models import Player
from scoring.selectors import role_of
from scoring.services import Actor, violation
from scoring.services.queue import enqueue_on_commit
from tournaments.models import Competition, EntryStatus
from tournaments.services._common import lock, record_event, require_manager
from tournaments.services.entries import add_entry

#: How long a confirmation link serves (never past the registration's close).
CONFIRM_HOURS = 48
#: How long the withdrawal and check-in link serves.
MANAGE_DAYS = 365
NAME_MAX = 80
EMAIL_MAX = 254
NOTE_MAX = 2000
#: The task that sends a registration's e-mail (``registration.tasks``), enqueued by name.
SEND_MAIL = "tournaments.tasks.send_registration_mail"


def hash_token(token: str) -> str:
    return hashlib.sha256((token or "").encode()).hexdigest()


def acting_for_club(by: Actor) -> Actor:
    """The registration service enters a registrant on the club's behalf: the entries service
    lets it (``trusted``) and the audit trail still names the registrant's account, if any."""
    return replace(by, trusted=True)


# -- the organizer's settings -----------------------------------------------------------------


def set_registration(
    *,
    competition: Competition,
    by: Actor,
    opens_at: datetime,
    closes_at: datetime,
    capacity: int,
    unit: str = CapacityUnit.ENTRIES,
    waiting_list: bool = True,
    eligibility: str = Eligibility.ANYONE,
    note: str = "",
) -> RegistrationSettings:
    """Open (or change) registration: from ``opens_at`` to ``closes_at``, ``capacity`` entries
    or tables, for whom (``eligibility``), a waiting list or not, a note shown on the form."""
    require_manager(by, competition.club)
    if not isinstance(capacity, int) or isinstance(capacity, bool) or not 1 <= capacity <= 10_000:
        raise violation("capacity", "range", min=1, max=10_000, value=capacity)
    if unit not in CapacityUnit.values:
        raise violation("unit", "choice", choices=CapacityUnit.values, value=unit)
    if eligibility not in Eligibility.values:
        raise violation("eligibility", "choice", choices=Eligibility.values, value=eligibility)
    if closes_at <= opens_at:
        raise violation("closes_at", "inconsistent", reason="closes_before_it_opens")
    note = str(note or "").strip()
    if len(note) > NOTE_MAX:
        raise violation("note", "too_long", max=NOTE_MAX, value=len(note))
    with transaction.atomic():
        lock(competition)
        found, _created = RegistrationSettings.objects.update_or_create(
            competition=competition,
            defaults={
                "opens_at": opens_at,
                "closes_at": closes_at,
                "capacity": capacity,
                "unit": unit,
                "waiting_list": waiting_list,
                "eligibility": eligibility,
                "note": note,
                "closed_at": None,
            },
        )
        record_event(
            competition,
            by,
            "registration_settings",
            opens_at=opens_at.isoformat(),
            closes_at=closes_at.isoformat(),
            capacity=capacity,
            unit=unit,
            waiting_list=waiting_list,
            eligibility=eligibility,
        )
    found.competition = competition
    return found


def close_registration(*, competition: Competition, by: Actor) -> RegistrationSettings:
    """Close registration now: nobody more registers and the waiting list is frozen."""
    require_manager(by, competition.club)
    with transaction.atomic():
        found = settings_locked(competition)
        if found.state() == "closed":
            raise violation("registration", "not_allowed", reason="registration_closed")
        found.closed_at = timezone.now()
        found.save(update_fields=["closed_at"])
        record_event(competition, by, "registration_closed")
    return found


def settings_locked(competition: Competition) -> RegistrationSettings:
    """Lock the competition, then read its registration settings (refused when there are none)."""
    lock(competition)
    found = RegistrationSettings.objects.filter(competition=competition).first()
    if found is None:
        raise violation("registration", "not_allowed", reason="registration_none")
    found.competition = competition
    return found


# -- registering ------------------------------------------------------------------------------


def _text(value: Any, field: str, limit: int, *, required: bool = True) -> str:
    text = " ".join(str(value or "").split())
    if required and not text:
        raise violation(field, "required")
    if len(text) > limit:
        raise violation(field, "too_long", max=limit, value=len(text))
    return text


def _email(value: Any, field: str, *, required: bool = True) -> str:
    email = _text(value, field, EMAIL_MAX, required=required).lower()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise violation(field, "invalid", reason="email", value=email) from None
    return email


def _check_eligible(found: RegistrationSettings, by: Actor) -> None:
    if found.eligibility == Eligibility.ANYONE:
        return
    if by.user is None:
        raise violation("user", "required", reason="account_required")
    if (
        found.eligibility == Eligibility.MEMBERS
        and role_of(by.user, found.competition.club) is None
    ):
        raise violation("user", "not_allowed", reason="members_only")


def _check_open(found: RegistrationSettings) -> None:
    state = found.state()
    if state == "not_open":
        raise violation(
            "registration", "not_allowed", reason="registration_not_open", value=found.opens_at
        )
    if state == "closed":
        raise violation("registration", "not_allowed", reason="registration_closed")


def _check_not_registered(competition, account, email: str, partner_email: str) -> None:
    """Refuse a person (same account, same address) registered already, as a registrant or as
    someone's partner, and a partner registered already."""
    standing = Registration.objects.filter(competition=competition).exclude(
        status=RegistrationStatus.WITHDRAWN
    )
    if account is not None and standing.filter(user=account).exists():
        raise violation("user", "duplicate", reason="already_registered_account")
    if email and (
        standing.filter(email__iexact=email).exists()
        or standing.filter(partner_email__iexact=email).exists()
    ):
        raise violation("email", "duplicate", reason="already_registered", value=email)
    if partner_email and (
        standing.filter(email__iexact=partner_email).exists()
        or standing.filter(partner_email__iexact=partner_email).exists()
    ):
        raise violation(
            "partner_email", "duplicate", reason="partner_registered", value=partner_email
        )


def register(
    *,
    competition: Competition,
    by: Actor,
    name: str,
    email: str = "",
    partner_name: str = "",
    partner_email: str = "",
    language: str = "",
    player: Any = None,
) -> Registration:
    """``name`` (and, for pairs, the partner) asks for a place. ``by``: the registrant's
    account, or an anonymous actor; ``language``: the form's, the registration's e-mails' (one
    the site does not speak: the club's). ``player``: an organizer registers an existing player
    of the club (its id; the name and address default to the player's, none confirmed by a
    link: the organizer vouches). Refused by name: before opening or after closing, someone
    not eligible, the same person twice, a partner registered already, no place left and no
    waiting list, a ``player`` named by someone not an organizer, or not of the club."""
    chosen, account = None, by.user  # the registrant's account (not the organizer's)
    if player is not None:
        require_manager(by, competition.club)
        chosen, account = named_player(competition, player), None
        name, email = name or chosen.display_name, email or chosen.email
    name = _text(name, "name", NAME_MAX)
    language = language if language in dict(settings.LANGUAGES) else ""
    if not email and account is not None:
        email = account.email
    email = _email(email, "email", required=player is None)
    pairs = competition.pairs
    partner_name = _text(partner_name, "partner_name", NAME_MAX, required=pairs)
    partner_email = _email(partner_email, "partner_email", required=pairs)
    if not pairs and (partner_name or partner_email):
        raise violation("partner_name", "not_allowed", reason="not_pairs")
    if pairs and partner_email == email:
        raise violation("partner_email", "duplicate", reason="partner_is_you", value=email)
    with transaction.atomic():
        found = settings_locked(competition)
        _check_open(found)
        if chosen is None:
            _check_eligible(found, by)
        else:
            chosen = named_player(competition, chosen.pk)  # read again under the lock
        _check_not_registered(competition, account, email, partner_email)
        refuse_look_alike_registrants(competition, name=name, partner_name=partner_name)
        _check_room(found)
        now = timezone.now()
        own_address = chosen is not None or (
            account is not None and (account.email or "").lower() == email
        )
        registration = Registration.objects.create(
            competition=competition,
            player=chosen,
            name=name,
            email=email,
            user=account,
            partner_name=partner_name,
            partner_email=partner_email,
            created_at=now,
            confirmed_at=now if own_address else None,
            language=language,
        )
        record_event(competition, by, "register", registration=registration.pk, name=name)
        if not own_address:
            mail_link(registration, LinkPurpose.CONFIRM, "confirm", found)
        _advance(registration, found, by)
    return registration


def _full(found: RegistrationSettings) -> bool:
    """Whether active entries take every place."""
    return found.competition.entries.filter(status=EntryStatus.ACTIVE).count() >= found.places


def _refuse_full(found: RegistrationSettings):
    return violation("registration", "not_allowed", reason="registration_full", max=found.places)


def _check_room(found: RegistrationSettings) -> None:
    """Without a waiting list, nobody asks once every place is taken (asked again when a
    confirmation would take a place: one may have gone meanwhile)."""
    if not found.waiting_list and _full(found):
        raise _refuse_full(found)


def _advance(registration: Registration, found: RegistrationSettings, by: Actor) -> None:
    """Under the lock: a registration waiting for nobody takes a place (or waits for one);
    otherwise it waits for its confirmations, the partner's asked for by e-mail once."""
    if registration.confirmed_at is None:
        return
    if registration.partner_email and registration.partner_confirmed_at is None:
        if registration.status != RegistrationStatus.PARTNER:
            registration.status = RegistrationStatus.PARTNER
            registration.save(update_fields=["status"])
            mail_link(registration, LinkPurpose.PARTNER, "partner", found)
        return
    _take_place(registration, found, by)


def _take_place(registration: Registration, found: RegistrationSettings, by: Actor) -> None:
    competition = found.competition
    if not _full(found):
        enter(registration, by)
        record_event(competition, by, "registration_entered", registration=registration.pk)
    elif found.waiting_list:
        last = Registration.objects.filter(
            competition=competition, status=RegistrationStatus.WAITING
        ).aggregate(last=Max("position"))["last"]
        registration.status = RegistrationStatus.WAITING
        registration.position = (last or 0) + 1
        registration.save(update_fields=["status", "position"])
        record_event(
            competition,
            by,
            "registration_waiting",
            registration=registration.pk,
            position=registration.position,
        )
    else:
        raise _refuse_full(found)
    mail_link(registration, LinkPurpose.MANAGE, "registered", found)


def _give_address(player: Player, email: str, language: str) -> None:
    """A player without an address (a language) of its own takes the registration's (confirmed
    by its link, or an account's): the results e-mails reach whoever registered, in the language
    they registered in. One set by the organizer is kept."""
    given = {"email": email, "language": language}
    changed = [name for name, value in given.items() if value and not getattr(player, name)]
    for name in changed:
        setattr(player, name, given[name])
    if changed:
        player.save(update_fields=changed)


def enter(registration: Registration, by: Actor) -> None:
    """The registration becomes an entry (``add_entry``, in the caller's transaction)."""
    competition = registration.competition
    club = competition.club
    player = registration.player or player_for(
        club, registration.name, user=registration.user, email=registration.email
    )
    partner = None
    if registration.partner_name:
        partner = registration.partner or player_for(
            club, registration.partner_name, email=registration.partner_email
        )
    _give_address(player, registration.email, registration.language)
    if partner is not None:
        _give_address(partner, registration.partner_email, registration.language)
    entry = add_entry(
        competition=competition, player=player, partner=partner, by=acting_for_club(by)
    )
    registration.entry, registration.player, registration.partner = entry, player, partner
    registration.status = RegistrationStatus.ENTERED
    registration.position = None
    registration.save(update_fields=["entry", "player", "partner", "status", "position"])


# -- links and e-mails ------------------------------------------------------------------------


def mail_link(registration: Registration, purpose: str, kind: str, found: RegistrationSettings):
    """A new link of ``purpose`` for the registration, e-mailed (``kind`` of mail) after the
    commit; the token is never stored, only its hash."""
    token = secrets.token_urlsafe(24)
    now = timezone.now()
    if purpose == LinkPurpose.MANAGE:
        expires = now + timedelta(days=MANAGE_DAYS)
    else:
        expires = min(now + timedelta(hours=CONFIRM_HOURS), found.closes_at)
    RegistrationLink.objects.create(
        registration=registration,
        purpose=purpose,
        token_hash=hash_token(token),
        created_at=now,
        expires_at=expires,
    )
    # On the address of the request that caused it (``scoring.links``), as the task's argument.
    enqueue_on_commit(SEND_MAIL, registration.pk, kind, token, request_origin())
    return token


def mail_news(registration: Registration, kind: str) -> None:
    """An e-mail with no link of its own (``registration_mail.PAGE_KINDS``), after the commit."""
    enqueue_on_commit(SEND_MAIL, registration.pk, kind, "", request_origin())


def find_link(token: str) -> RegistrationLink | None:
    """The link of a token (whatever its state), with its registration; one query."""
    return (
        RegistrationLink.objects.select_related("registration__competition__club")
        .filter(token_hash=hash_token(token))
        .first()
    )


def link_refusal(link: RegistrationLink | None, purposes) -> Any:
    """Why a link does not serve (a RuleViolation), or None while it does."""
    if link is None or link.purpose not in purposes:
        return violation("token", "not_found", reason="registration_link")
    if link.used_at is not None:
        return violation("token", "not_allowed", reason="link_used")
    if link.expires_at <= timezone.now():
        return violation("token", "not_allowed", reason="link_expired")
    return None


def link_locked(token: str, purposes) -> RegistrationLink:
    """In the caller's transaction: the competition locked, then the link and its registration
    read under the lock and refused unless they serve."""
    link = find_link(token)
    if link is None:
        raise link_refusal(None, purposes)
    competition = link.registration.competition
    lock(competition)
    link.refresh_from_db()
    link.registration.refresh_from_db()
    link.registration.competition = competition
    problem = link_refusal(link, purposes)
    if problem is not None:
        raise problem
    return link


def confirm_registration(*, token: str, by: Actor) -> Registration:
    """A confirmation link followed: the registrant's address, or the partner's, is confirmed
    (once; an expired or used link is refused); a registration complete takes a place."""
    with transaction.atomic():
        link = link_locked(token, {LinkPurpose.CONFIRM, LinkPurpose.PARTNER})
        registration = link.registration
        if registration.status == RegistrationStatus.WITHDRAWN:
            raise violation("token", "not_allowed", reason="registration_withdrawn")
        found = settings_locked(registration.competition)
        now = timezone.now()
        link.used_at = now
        link.save(update_fields=["used_at"])
        if link.purpose == LinkPurpose.CONFIRM:
            registration.confirmed_at = now
        else:
            registration.partner_confirmed_at = now
        registration.save(update_fields=["confirmed_at", "partner_confirmed_at"])
        record_event(
            registration.competition,
            by,
            "registration_confirmed",
            registration=registration.pk,
            who=link.purpose,
        )
        _advance(registration, found, by)
    return registration


def confirm_partner(*, registration: Registration, by: Actor) -> Registration:
    """The organizer confirms a pair's partner at the desk."""
    competition = registration.competition
    require_manager(by, competition.club)
    with transaction.atomic():
        found = settings_locked(competition)
        registration.refresh_from_db()
        registration.competition = competition
        if registration.status != RegistrationStatus.PARTNER:
            raise violation("registration", "not_allowed", reason="no_partner_to_confirm")
        registration.partner_confirmed_at = timezone.now()
        registration.save(update_fields=["partner_confirmed_at"])
        RegistrationLink.objects.filter(
            registration=registration, purpose=LinkPurpose.PARTNER, used_at=None
        ).update(used_at=registration.partner_confirmed_at)
        record_event(
            competition, by, "registration_confirmed", registration=registration.pk, who="desk"
        )
        _advance(registration, found, by)
    return registration
