"""Clubs and their players: starting a club with its owner (audited), changing its settings
(owners only, audited), adding a player (a name unique in the club, case-insensitively) and
(de)activating one.
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from scoring import lookalike
from scoring.models import (
    MANAGERS,
    AuditAction,
    Club,
    Membership,
    Player,
    Role,
    validate_time_zone,
)
from scoring.models.clubs import CURRENCIES
from scoring.rules import RuleViolation
from scoring.services import audit
from scoring.services.actors import Actor, authorize_club, violation
from scoring.validators import text_problem

#: A club's address in URLs (``/c/<slug>/``): what Django's ``slug`` converter accepts, lower
#: case, at most 60 characters.
SLUG = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")
SLUG_MAX = 60
NAME_MAX = 120


def check_club_address(slug: str) -> None:
    """Refuse an address that the club's pages could not be reached at."""
    if not isinstance(slug, str) or len(slug) > SLUG_MAX or not SLUG.fullmatch(slug):
        raise violation("slug", "invalid", reason="club_slug", value=slug)


def create_club(
    *,
    name: str,
    slug: str,
    by: Actor,
    owner=None,
    time_zone: str | None = None,
    language: str = "it",
    results_public: bool = False,
    currency: str | None = "EUR",
) -> Club:
    """A new club, owned by ``owner`` (by default the user who starts it), audited. Refuses an
    address that is taken or that URLs cannot carry, and an unknown time zone."""
    owner = owner if owner is not None else by.user
    if owner is None:
        raise violation("owner", "required")
    name = " ".join(str(name).split())
    if not name or len(name) > NAME_MAX:
        raise violation("name", "range", min=1, max=NAME_MAX, value=len(name))
    check_club_address(slug)
    if time_zone is not None:
        try:
            validate_time_zone(time_zone)
        except ValidationError:
            raise violation("time_zone", "choice", value=time_zone) from None
    if Club.objects.filter(slug=slug).exists():
        raise violation("slug", "duplicate", reason="club_slug", value=slug)
    currency = _checked_settings({"currency": currency or "EUR"})["currency"]
    try:
        with transaction.atomic():
            club = Club.objects.create(
                name=name,
                slug=slug,
                language=language,
                results_public=results_public,
                currency=currency,
                **({"time_zone": time_zone} if time_zone else {}),
            )
            Membership.objects.create(club=club, user=owner, role=Role.OWNER)
            audit.record(
                by,
                AuditAction.CREATE_CLUB,
                club_id=club.pk,
                after={"name": name, "slug": slug, "owner": owner.get_username()},
            )
    except IntegrityError:  # the same address taken meanwhile
        raise violation("slug", "duplicate", reason="club_slug", value=slug) from None
    return club


#: What ``update_club`` changes. The address (``slug``) stays: every link, QR code, calendar
#: subscription and bookmark of the club's pages carries it.
CLUB_SETTINGS = ("name", "time_zone", "language", "results_public", "currency")


def _checked_settings(changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` cleaned (a name's spaces folded), or the first refusal, by field."""
    checked = {}
    if "name" in changes:
        name = " ".join(str(changes["name"]).split())
        if not name or len(name) > NAME_MAX:
            raise violation("name", "range", min=1, max=NAME_MAX, value=len(name))
        problem = text_problem(name, "name")
        if problem is not None:
            raise RuleViolation([problem])
        checked["name"] = name
    if "time_zone" in changes:
        try:
            validate_time_zone(changes["time_zone"])
        except (ValidationError, TypeError, ValueError):
            raise violation("time_zone", "choice", value=changes["time_zone"]) from None
        checked["time_zone"] = changes["time_zone"]
    if "language" in changes:
        codes = tuple(code for code, _name in settings.LANGUAGES)
        if changes["language"] not in codes:
            raise violation("language", "choice", choices=codes, value=changes["language"])
        checked["language"] = changes["language"]
    if "currency" in changes:
        codes = tuple(code for code, _name in CURRENCIES)
        if changes["currency"] not in codes:
            raise violation("currency", "choice", choices=codes, value=changes["currency"])
        checked["currency"] = changes["currency"]
    if "results_public" in changes:
        if not isinstance(changes["results_public"], bool):
            raise violation("results_public", "type", expected="boolean")
        checked["results_public"] = changes["results_public"]
    return checked


def update_club(
    *,
    club: Club,
    by: Actor,
    name: str | None = None,
    time_zone: str | None = None,
    language: str | None = None,
    results_public: bool | None = None,
    currency: str | None = None,
) -> Club:
    """Change the club's own settings (those given; None keeps one): its name, time zone (the
    schedules, calendars and dates of its pages follow), language (its e-mails', and its pages'
    for visitors who chose none), whether its results are public and its currency (fees and
    prizes). Owners only; audited with
    the fields that changed, before and after. The address stays (``CLUB_SETTINGS``)."""
    authorize_club(by, club, (Role.OWNER,))
    given = {"name": name, "time_zone": time_zone, "language": language}
    given["results_public"] = results_public
    given["currency"] = currency
    changes = _checked_settings({k: v for k, v in given.items() if v is not None})
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        before = {k: getattr(locked, k) for k in changes if getattr(locked, k) != changes[k]}
        after = {k: changes[k] for k in before}
        if after:
            for field, value in after.items():
                setattr(locked, field, value)
            locked.save(update_fields=list(after))
            audit.record(by, AuditAction.UPDATE_CLUB, club_id=club.pk, before=before, after=after)
    for field in CLUB_SETTINGS:
        setattr(club, field, getattr(locked, field))
    return club


def add_player(*, club: Club, display_name: str, by: Actor, user=None) -> Player:
    """A new player of the club. Raises RuleViolation if the name is blank or already taken."""
    authorize_club(by, club)
    return new_player(club, display_name, user)


def new_player(club: Club, display_name: str, user=None) -> Player:
    """A new player of the club, for a service that has already authorised its caller (a game
    started with a new name, a competition entry typed in). Refuses a blank or taken name."""
    name = " ".join(str(display_name).split())
    if not name:
        raise violation("display_name", "required")
    if len(name) > 80:
        raise violation("display_name", "range", min=1, max=80, value=len(name))
    if club.players.filter(display_name__iexact=name).exists():
        raise violation("display_name", "duplicate", value=name)
    names = club.players.values_list("display_name", flat=True)
    lookalike.refuse("display_name", name, names, reason="player_name")
    try:
        with transaction.atomic():
            return Player.objects.create(club=club, display_name=name, user=user)
    except IntegrityError:  # a concurrent request created the same name
        raise violation("display_name", "duplicate", value=name) from None


def set_player_active(*, player: Player, active: bool, by: Actor) -> Player:
    authorize_club(by, player.club, MANAGERS)
    Player.objects.filter(pk=player.pk).update(active=active)
    player.active = active
    return player
