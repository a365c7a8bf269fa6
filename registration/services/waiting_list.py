"""Withdrawals and the waiting list (issue 24): a registration withdrawn by its e-mailed link or
by the organizer, its place given to the first waiting registration (e-mailed) until the list is
frozen; the organizer's hand on the list (``promote``, ``reorder_waiting``); and the player made
for a registrant merged with an existing player of the club (``merge_player``).

Each locks the competition (``_common.lock``), decides on what it reads under the lock, and
records its ``CompetitionEvent``, as ``services.registration`` does.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

from registration.models import (
    LinkPurpose,
    Registration,
    RegistrationLink,
    RegistrationSettings,
    RegistrationStatus,
)
from registration.services.registration import (
    acting_for_club,
    enter,
    link_locked,
    mail_link,
    mail_news,
    settings_locked,
)
from scoring.models import Player
from scoring.services import Actor, violation
from tournaments.models import Competition, EntryStatus
from tournaments.services._common import lock, record_event, require_manager
from tournaments.services.entries import withdraw_entry


def withdraw_registration(
    *, by: Actor, token: str = "", registration: Registration | None = None, reason: str = ""
) -> Registration:
    """Withdraw: by the registrant's link (``token``) or by the organizer (``registration``,
    e-mailed to the registrant and partner). An entry withdraws (its results stay); its place
    goes to the first waiting registration, unless the list is frozen."""
    with transaction.atomic():
        if registration is None:
            link = link_locked(token, {LinkPurpose.MANAGE})
            registration = link.registration
            link.used_at = timezone.now()
            link.save(update_fields=["used_at"])
        else:
            require_manager(by, registration.competition.club)
            lock(registration.competition)
            registration.refresh_from_db()
        competition = registration.competition
        if registration.status == RegistrationStatus.WITHDRAWN:
            raise violation("registration", "not_allowed", reason="registration_withdrawn")
        found = settings_locked(competition)
        was = registration.status
        if was == RegistrationStatus.ENTERED and registration.entry.status == EntryStatus.ACTIVE:
            registration.entry.competition = competition
            withdraw_entry(entry=registration.entry, by=acting_for_club(by), reason=reason)
        registration.status = RegistrationStatus.WITHDRAWN
        registration.withdrawn_at = timezone.now()
        registration.position = None
        registration.save(update_fields=["status", "withdrawn_at", "position"])
        RegistrationLink.objects.filter(registration=registration, used_at=None).exclude(
            purpose=LinkPurpose.MANAGE
        ).update(used_at=registration.withdrawn_at)
        record_event(
            competition, by, "registration_withdrawn", registration=registration.pk, was=was
        )
        if not token:  # the organizer's: the registrant (and partner) learn it by e-mail
            mail_news(registration, "withdrawn")
        _compact(competition)
        if found.state() != "closed":
            _fill_places(found, by)
    return registration


def _waiting(competition: Competition) -> list[Registration]:
    return list(
        Registration.objects.filter(
            competition=competition, status=RegistrationStatus.WAITING
        ).order_by("position", "id")
    )


def _compact(competition: Competition) -> None:
    """The waiting list numbered 1, 2, 3... in its order."""
    for index, waiting in enumerate(_waiting(competition), start=1):
        if waiting.position != index:
            waiting.position = index
            waiting.save(update_fields=["position"])


def _fill_places(found: RegistrationSettings, by: Actor) -> None:
    """While places are free, the first waiting registration takes one (and is e-mailed)."""
    competition = found.competition
    free = found.places - competition.entries.filter(status=EntryStatus.ACTIVE).count()
    for waiting in _waiting(competition)[: max(0, free)]:
        waiting.competition = competition
        _promote(waiting, found, by, automatic=True)


def _promote(registration, found, by: Actor, *, automatic: bool) -> None:
    enter(registration, by)
    record_event(
        found.competition,
        by,
        "registration_promoted",
        registration=registration.pk,
        automatic=automatic,
    )
    _compact(found.competition)
    mail_link(registration, LinkPurpose.MANAGE, "promoted", found)
    if registration.partner_email:
        mail_news(registration, "partner_promoted")


def promote(*, registration: Registration, by: Actor) -> Registration:
    """The organizer gives a waiting registration a place now (beyond capacity if need be)."""
    competition = registration.competition
    require_manager(by, competition.club)
    with transaction.atomic():
        found = settings_locked(competition)
        registration.refresh_from_db()
        registration.competition = competition
        if registration.status != RegistrationStatus.WAITING:
            raise violation("registration", "not_allowed", reason="not_waiting")
        _promote(registration, found, by, automatic=False)
    return registration


def reorder_waiting(*, competition: Competition, order: list[int], by: Actor) -> list[int]:
    """The organizer puts the waiting list in ``order`` (every waiting registration's id, once);
    refused once the list is frozen."""
    require_manager(by, competition.club)
    with transaction.atomic():
        found = settings_locked(competition)
        if found.state() == "closed":
            raise violation("registration", "not_allowed", reason="registration_closed")
        waiting = {r.pk: r for r in _waiting(competition)}
        if (
            not isinstance(order, list | tuple)
            or len(order) != len(set(order))
            or set(order) != set(waiting)
        ):
            raise violation("order", "inconsistent", reason="waiting_order", value=list(waiting))
        if list(order) == list(waiting):
            return list(order)  # the list as it is: nothing moves, nothing to record
        for index, pk in enumerate(order, start=1):
            waiting[pk].position = index
            waiting[pk].save(update_fields=["position"])
        record_event(competition, by, "registration_reordered", order=list(order))
    return list(order)


def merge_player(*, registration: Registration, player: Player, by: Actor) -> Registration:
    """The player made for a registrant is ``player``, an existing player of the club: the
    entry names ``player`` and the made one is removed (kept, inactive, if anything else names
    it). Audited."""
    competition = registration.competition
    require_manager(by, competition.club)
    with transaction.atomic():
        lock(competition)
        registration.refresh_from_db()
        made = registration.player
        if registration.entry_id is None or made is None:
            raise violation("registration", "not_allowed", reason="not_entered")
        if player.club_id != competition.club_id:
            raise violation("player", "not_found", value=player.pk)
        entry = registration.entry
        if player.pk == made.pk:
            raise violation("player", "duplicate", value=player.display_name)
        if (
            competition.entries.filter(player=player).exists()
            or competition.entries.filter(partner=player).exists()
        ):
            raise violation("player", "duplicate", value=player.display_name)
        entry.player = player
        entry.save(update_fields=["player"])
        registration.player = player
        registration.save(update_fields=["player"])
        record_event(
            competition,
            by,
            "registration_merged",
            registration=registration.pk,
            made=made.display_name,
            player=player.pk,
            name=player.display_name,
        )
        try:
            with transaction.atomic():
                made.delete()
        except ProtectedError:
            Player.objects.filter(pk=made.pk).update(active=False)
    return registration
