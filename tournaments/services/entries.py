"""Who plays: entering a player or a pair, withdrawing an entry and reinstating it.

An entry added after the first round is published is late (it joins the rounds to come); a
withdrawal draws the draft rounds that seated it again, in the same transaction. Both lock the
competition (``_common.lock``: entries are competition-wide) and decide on what they read under
the lock; both refresh the standings snapshot after commit.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring import services as scoring
from scoring.etags import Tag
from scoring.models import Club, Player
from scoring.services import Actor, VersionConflict, violation
from tournaments import selectors
from tournaments.models import (
    Bye,
    CheckIn,
    Competition,
    Entry,
    EntryStatus,
    Format,
    Round,
    RoundStatus,
    TableSeat,
)
from tournaments.services._common import lock, record_event, require_manager
from tournaments.services.draw import generate_round
from tournaments.services.standings import refresh_standings_later


def _player(club: Club, value: Any, field_: str) -> Player:
    if isinstance(value, Player):
        if value.club_id != club.pk:
            raise violation(field_, "not_found", value=value.pk)
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        player = Player.objects.filter(club=club, pk=value).first()
        if player is None:
            raise violation(field_, "not_found", value=value)
        return player
    if isinstance(value, str) and value.strip():
        name = " ".join(value.split())
        existing = Player.objects.filter(club=club, display_name__iexact=name).first()
        return existing or scoring.new_player(club, name)
    raise violation(field_, "type", expected="player")


def add_entry(
    *,
    competition: Competition,
    player: Any,
    by: Actor,
    partner: Any = None,
    seed: int | None = None,
) -> Entry:
    """Enter a player (or a pair). After the first round is published the entry is late: it
    joins the rounds still to come."""
    require_manager(by, competition.club)
    if competition.pairs and partner is None:
        raise violation("partner", "required")
    if not competition.pairs and partner is not None:
        raise violation("partner", "not_allowed", reason="not_pairs")
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 1 <= seed <= Entry.SEED_MAX
    ):
        raise violation("seed", "range", min=1, max=Entry.SEED_MAX, value=seed)
    with transaction.atomic():
        # Under the lock the same player entered twice at once is found the second time, and
        # "late" is decided on the rounds as they are.
        lock(competition)
        first = _player(competition.club, player, "player")
        second = _player(competition.club, partner, "partner") if partner is not None else None
        if second is not None and second.pk == first.pk:
            raise violation("partner", "duplicate", value=second.display_name)
        taken = Entry.objects.filter(competition=competition).filter(
            player__in=[p for p in (first, second) if p]
        ).exists() or (
            Entry.objects.filter(
                competition=competition, partner__in=[p for p in (first, second) if p]
            ).exists()
        )
        if taken:
            raise violation("player", "duplicate", value=first.display_name)
        late = competition.rounds.exclude(status=RoundStatus.DRAFT).exists()
        try:
            entry = Entry.objects.create(
                competition=competition, player=first, partner=second, seed=seed, late=late
            )
        except IntegrityError:
            raise violation("player", "duplicate", value=first.display_name) from None
        record_event(competition, by, "add_entry", entry=entry.pk, name=entry.name, late=late)
        _draw_again_with(competition, entry, by)
        refresh_standings_later(competition)
    return entry


def withdraw_entry(
    *, entry: Entry, by: Actor, reason: str = "", expected: Collection[Tag] | None = None
) -> Entry:
    """The entry is no longer seated in rounds to come; its results stay. Draft rounds are
    drawn again without it. ``expected``: the entry's validators the client read
    (``scoring.etags``); unless one names it as it is, ``VersionConflict``."""
    competition = entry.competition
    require_manager(by, competition.club)
    # One transaction: if a draft round cannot be drawn again without the entry, the refusal
    # leaves the entry as it was.
    with transaction.atomic():
        _switch(entry, by, reason, EntryStatus.WITHDRAWN, "withdrawn", "withdraw_entry", expected)
        CheckIn.objects.filter(entry=entry, round__status=RoundStatus.DRAFT).delete()
        drafts = [
            r
            for r in competition.rounds.filter(status=RoundStatus.DRAFT).order_by("number")
            if _seated(r, entry)
        ]
        _draw_again(competition, drafts, by)
        refresh_standings_later(competition)
    return entry


def reinstate_entry(
    *, entry: Entry, by: Actor, reason: str = "", expected: Collection[Tag] | None = None
) -> Entry:
    """Undo a withdrawal: the entry is active again, seated in the rounds to come (drawn draft
    rounds are drawn again with it, as for a new entry). ``expected``: as for a withdrawal."""
    competition = entry.competition
    require_manager(by, competition.club)
    with transaction.atomic():
        _switch(entry, by, reason, EntryStatus.ACTIVE, "not_withdrawn", "reinstate_entry", expected)
        _draw_again_with(competition, entry, by)
        refresh_standings_later(competition)
    return entry


def _switch(
    entry: Entry,
    by: Actor,
    reason: str,
    status: str,
    refused: str,
    action: str,
    expected: Collection[Tag] | None = None,
) -> None:
    """In the caller's transaction, under the competition's lock: ``entry`` moves to ``status``
    (refused for ``refused`` when it is there already), and the ``action`` is recorded with its
    reason. ``expected``: refused with ``VersionConflict`` unless it names the entry as it is."""
    competition = entry.competition
    lock(competition)
    # Every write of entries holds the competition's lock: the entry as read now is final.
    entry.refresh_from_db()
    if expected is not None:
        current = selectors.entry_validator(entry)
        if current not in expected:
            raise VersionConflict(entry.pk, current.version, reason="entry")
    if entry.status == status:
        raise violation("entry", "not_allowed", reason=refused)
    entry.status = status
    entry.withdrawn_at = timezone.now() if status == EntryStatus.WITHDRAWN else None
    entry.save(update_fields=["status", "withdrawn_at"])
    reason = " ".join(str(reason or "").split())
    record_event(competition, by, action, entry=entry.pk, name=entry.name, reason=reason)


def _draw_again_with(competition: Competition, entry: Entry, by: Actor) -> None:
    """Draw again the drawn draft rounds that should now seat ``entry`` (nobody checked in
    there, so every active entry plays), in the caller's transaction: a new or reinstated
    entry never sits unseen outside a draft's tables. A knockout's bracket is drawn once, from
    round 1: an entry added later does not enter it."""
    if competition.bracket_format:
        return
    drafts = [
        r
        for r in competition.rounds.filter(status=RoundStatus.DRAFT).order_by("number")
        if r.tables.exists() and not r.check_ins.exists() and not _seated(r, entry)
    ]
    _draw_again(competition, drafts, by)


def _draw_again(competition: Competition, drafts: list[Round], by: Actor) -> None:
    """Draw the draft rounds ``drafts`` again, with the seed each was drawn with."""
    done: set[int] = set()
    for round_ in drafts:
        if round_.pk in done:
            continue
        # Rotation and round robin plan every draft at once: drawing one draws them all.
        generate_round(round_=round_, by=by, seed=round_.seed or None)
        if competition.format in (Format.ROTATION, Format.ROUND_ROBIN):
            done.update(r.pk for r in drafts)


def _seated(round_: Round, entry: Entry) -> bool:
    return (
        TableSeat.objects.filter(table__round=round_, entry=entry).exists()
        or Bye.objects.filter(round=round_, entry=entry).exists()
    )
