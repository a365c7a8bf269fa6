"""A table calls the director; the director acknowledges ("coming") and resolves the call.

Who may call: the phones of the table (its table link, as long as the session holds it), the
players seated there with an account, and the club's scorers and organizers. Who answers: the
club's owner and organizers (``require_manager``).

A table cannot flood the organizer: one open call per table (``DirectorCall``'s constraint,
re-checked under the round's lock); calling again while the call is open is refused for
``REPEAT_MINUTES`` after the last call, then rings again (the same call, ``times`` + 1, waiting
for an answer anew). The pages and the API also count a table phone's tries (``CALL_BACKOFF``,
``scoring.throttles``), so that a call refused still costs the caller its time.

Each write records its ``CompetitionEvent`` (the organizer's round page and desk hear it on the
competition's channel, ``tournaments.live``), and tells the table's phones on the game's channel
(``call``): the event says the call's state only, the phone asks for its panel.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring import live
from scoring.models import HAND_WRITERS
from scoring.selectors import role_of
from scoring.services import Actor, NotAllowed, violation
from scoring.throttles import Backoff
from tournaments.models import CallReason, DirectorCall, RoundStatus, Table, TableSeat
from tournaments.services._common import lock, record_event, require_manager

#: Minutes after a call before the table may call again while it is still open.
REPEAT_MINUTES = 5
TEXT_MAX = 200
#: A table phone's call tries (per table and session, per address): three free, then a wait.
CALL_BACKOFF = Backoff(
    "director-call",
    free=3,
    max_delay=REPEAT_MINUTES * 60,
    memory=2 * REPEAT_MINUTES * 60,
    first_delay=30,
)


def _seated(table: Table, user) -> TableSeat | None:
    return (
        TableSeat.objects.filter(table=table)
        .filter(Q(entry__player__user=user) | Q(entry__partner__user=user))
        .select_related("entry__player", "entry__partner")
        .first()
    )


def caller_name(table: Table, by: Actor) -> str | None:
    """Who calls, as the organizer reads it ("" for the table's phone); None when ``by`` may
    not call this table."""
    at_table = table.game_id is not None and (
        by.table_game == table.game_id or by.client == f"table:{table.game_id}"
    )
    user = by.user
    if user is None or not user.is_authenticated:
        return "" if at_table else None
    seat = _seated(table, user)
    if seat is not None:
        entry = seat.entry
        partner = entry.partner
        mine = partner if partner is not None and partner.user_id == user.pk else entry.player
        return mine.display_name
    if at_table or role_of(user, table.round.competition.club) in HAND_WRITERS:
        return user.get_full_name() or user.get_username()
    return None


def _announce(call: DirectorCall) -> None:
    if call.table.game_id is not None:
        live.publish_on_commit(
            live.game_channel(call.table.game_id),
            "call",
            {"id": call.table.game_id, "call": call.pk, "state": call.state},
        )


def _clean_text(text) -> str:
    if text is None:
        return ""
    if not isinstance(text, str):
        raise violation("text", "type", expected="text")
    text = text.strip()
    if len(text) > TEXT_MAX:
        raise violation("text", "too_long", max=TEXT_MAX, value=len(text))
    return text


def call_director(*, table: Table, by: Actor, reason, text="") -> DirectorCall:
    """The table calls the director for ``reason`` (a ``CallReason``; "other" with ``text``)."""
    if reason not in CallReason.values:
        raise violation("reason", "choice", choices=", ".join(CallReason.values), value=reason)
    text = _clean_text(text)
    name = caller_name(table, by)
    if name is None:
        raise NotAllowed()
    with transaction.atomic():
        competition = lock(table.round)
        if table.round.status != RoundStatus.PUBLISHED:
            raise violation("round", "not_allowed", reason="call_not_playing")
        now = timezone.now()
        call = (
            DirectorCall.objects.select_for_update().filter(table=table, resolved_at=None).first()
        )
        if call is not None:
            waited = (now - call.called_at).total_seconds()
            if waited < REPEAT_MINUTES * 60:
                raise violation("call", "not_allowed", reason="call_open", minutes=REPEAT_MINUTES)
            call.reason, call.text, call.caller = reason, text, name
            call.called_at, call.times = now, call.times + 1
            call.acknowledged_at = call.acknowledged_by = None
            call.save()
        else:
            call = DirectorCall.objects.create(
                table=table,
                reason=reason,
                text=text,
                caller=name,
                called_by=by.user if by.user is not None else None,
                first_called_at=now,
                called_at=now,
            )
        call.table = table
        record_event(
            competition,
            by,
            "director_call",
            round_=table.round,
            reason=text,
            number=table.round.number,
            table=table.number,
            call=call.pk,
            call_reason=reason,
            times=call.times,
            caller=name,
        )
        _announce(call)
    return call


def _answer(call: DirectorCall, by: Actor, action: str) -> DirectorCall:
    table = call.table
    require_manager(by, table.round.competition.club)
    with transaction.atomic():
        competition = lock(table.round)
        call.refresh_from_db(from_queryset=DirectorCall.objects.select_for_update())
        if call.resolved_at is not None:
            raise violation("call", "not_allowed", reason="call_resolved")
        now = timezone.now()
        if action == "acknowledge":
            if call.acknowledged_at is not None:
                return call
            call.acknowledged_at, call.acknowledged_by = now, by.user
        else:
            call.resolved_at, call.resolved_by = now, by.user
        call.save()
        record_event(
            competition,
            by,
            f"director_call_{action}",
            round_=table.round,
            number=table.round.number,
            table=table.number,
            call=call.pk,
            waited=int((now - call.called_at).total_seconds()),
        )
        _announce(call)
    return call


def acknowledge_call(*, call: DirectorCall, by: Actor) -> DirectorCall:
    """The director is coming: the table's phones say so."""
    return _answer(call, by, "acknowledge")


def resolve_call(*, call: DirectorCall, by: Actor) -> DirectorCall:
    """The director dealt with it: the table may call again."""
    return _answer(call, by, "resolve")


CALL_ACTIONS = {"acknowledge": acknowledge_call, "resolve": resolve_call}
