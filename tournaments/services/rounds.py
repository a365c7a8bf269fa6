"""A round's life: added, its date and game changed, check-ins taken while a draft, published
(a game per table) and closed once every table is done; a season of nights at once, a draft
deleted, the round timer, a bye or a late entrant's seat. Each write locks the competition and
the round (``_common.lock``, or ``_common.locked_round`` with the status the write needs) and
checks the round's status as it is under the lock.

Drawing a draft round's tables is ``draw``'s job; settling a table that cannot finish is
``settlement``'s.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring import services as scoring
from scoring.etags import Tag
from scoring.models import NOT_ACCEPTED, GameStatus, LockReason
from scoring.rules.base import Problems
from scoring.services import Actor, queue, violation
from tournaments import selectors
from tournaments.models import (
    Bye,
    CheckIn,
    Competition,
    Entry,
    EntryStatus,
    Round,
    RoundStatus,
    Table,
    TableSeat,
)
from tournaments.services._common import (
    GAME_CONTEXT,
    check_round_expected,
    lock,
    lock_round_games,
    locked_round,
    record_event,
    require_manager,
)
from tournaments.services._tables import table_options, table_players, table_title


def add_round(
    *,
    competition: Competition,
    by: Actor,
    ruleset: str | None = None,
    date: dt.date | None = None,
    start_time: dt.time | None = None,
    duration_minutes: int = 90,
) -> Round:
    require_manager(by, competition.club)
    ruleset = ruleset or competition.rulesets[0]
    if ruleset not in competition.rulesets:
        raise violation("ruleset", "choice", choices=tuple(competition.rulesets), value=ruleset)
    if not isinstance(duration_minutes, int) or not 10 <= duration_minutes <= 1440:
        raise violation("duration_minutes", "range", min=10, max=1440, value=duration_minutes)
    with transaction.atomic():
        # Under the competition's lock: two rounds added at once get the next two numbers.
        lock(competition)
        last = competition.rounds.order_by("-number").values_list("number", flat=True).first() or 0
        round_ = Round.objects.create(
            competition=competition,
            number=last + 1,
            ruleset=ruleset,
            date=date,
            start_time=start_time,
            duration_minutes=duration_minutes,
        )
        record_event(competition, by, "add_round", round_=round_, number=round_.number)
    return round_


#: ``update_round``: leave this value as it is (``None`` clears a date or time).
KEEP: Any = object()


def update_round(
    *,
    round_: Round,
    by: Actor,
    date: Any = KEEP,
    start_time: Any = KEEP,
    duration_minutes: Any = KEEP,
    ruleset: Any = KEEP,
) -> Round:
    """Change a round's date, start time, expected duration or (while a draft) its game.
    Arguments left out keep their value; ``date=None`` / ``start_time=None`` clear it."""
    competition = round_.competition
    require_manager(by, competition.club)
    if (
        duration_minutes is not KEEP
        and duration_minutes is not None
        and (
            not isinstance(duration_minutes, int)
            or isinstance(duration_minutes, bool)
            or not 10 <= duration_minutes <= 1440
        )
    ):
        raise violation("duration_minutes", "range", min=10, max=1440, value=duration_minutes)
    if date is not KEEP and date is not None and not isinstance(date, dt.date):
        raise violation("date", "type", expected="date")
    if start_time is not KEEP and start_time is not None and not isinstance(start_time, dt.time):
        raise violation("start_time", "type", expected="time")
    with transaction.atomic():
        lock(round_)
        changed = []
        if ruleset is not KEEP and ruleset is not None and ruleset != round_.ruleset:
            if round_.status != RoundStatus.DRAFT:
                raise violation("ruleset", "not_allowed", reason="published")
            if ruleset not in competition.rulesets:
                raise violation(
                    "ruleset", "choice", choices=tuple(competition.rulesets), value=ruleset
                )
            round_.ruleset = ruleset
            changed.append("ruleset")
        if duration_minutes is not KEEP and duration_minutes is not None:
            round_.duration_minutes = duration_minutes
            changed.append("duration_minutes")
        if date is not KEEP:
            round_.date = date
            changed.append("date")
        if start_time is not KEEP:
            round_.start_time = start_time
            changed.append("start_time")
        if changed:
            # Only the columns changed here: the status and the draw stay as the lock read them.
            round_.save(update_fields=changed)
        record_event(competition, by, "update_round", round_=round_, number=round_.number)
    return round_


def set_check_ins(*, round_: Round, entries: Iterable[Entry | int], by: Actor, shown=None):
    """Who is present (only they are seated). ``shown``: who the organizer's page showed
    checked in; whoever checked in since from a phone stays. None: the list is all (API)."""
    competition = round_.competition
    require_manager(by, competition.club)
    ids = set()
    for index, e in enumerate(entries):
        if isinstance(e, Entry):
            ids.add(e.pk)
        elif isinstance(e, int) and not isinstance(e, bool):
            ids.add(e)
        elif isinstance(e, str) and e.strip().isdigit():
            ids.add(int(e))
        else:
            raise violation(f"entries[{index}]", "type", expected="integer")
    with locked_round(round_, RoundStatus.DRAFT, "published"):
        # An id no database row can have (negative, or past a 64-bit key) is simply unknown.
        storable = {i for i in ids if 0 < i < 2**63}
        valid = set(
            competition.entries.filter(pk__in=storable, status=EntryStatus.ACTIVE).values_list(
                "pk", flat=True
            )
        )
        unknown = ids - valid
        if unknown:
            raise violation("entries", "not_found", value=", ".join(map(str, sorted(unknown))))
        if shown is not None:
            since = set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))
            valid |= since - set(shown)
        CheckIn.objects.filter(round=round_).exclude(entry_id__in=valid).delete()
        existing = set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))
        CheckIn.objects.bulk_create(CheckIn(round=round_, entry_id=e) for e in valid - existing)
        record_event(competition, by, "check_in", round_=round_, present=sorted(valid))
    return sorted(valid)


def _start_table_game(competition: Competition, round_: Round, table: Table, by: Actor) -> None:
    """The game of ``table``, its players in seat order (pairs: both first players, then their
    partners), seat 1 of the draw dealing first."""
    entries = [s.entry for s in sorted(table.seats.all(), key=lambda s: s.position)]
    players = table_players(competition, entries)
    table.game = scoring.start_game(
        club=competition.club,
        ruleset=round_.ruleset,
        players=players,
        options=table_options(competition, round_, table),
        title=table_title(competition.name, round_.number, table.number),
        context=GAME_CONTEXT,
        # Seat 1 of the draw deals first: the table card says so, the game knows it.
        first_dealer=0,
        hands_need_acceptance=competition.hands_must_be_accepted,
        by=Actor.system(via="page") if by.user is None else by,
    )
    table.save(update_fields=["game"])


def publish_round(*, round_: Round, by: Actor) -> Round:
    """Create the game of every table (the game page and its table link) and make the round
    public; entrants are e-mailed after commit if the competition says so."""
    competition = round_.competition
    require_manager(by, competition.club)
    with locked_round(round_, RoundStatus.DRAFT, "published"):
        tables = list(
            round_.tables.prefetch_related(
                "seats__entry__player", "seats__entry__partner"
            ).order_by("number")
        )
        if not tables:
            raise violation("round", "required", reason="no_tables")
        # Under the lock: an entry added (or reinstated) since the draw is not silently left out.
        missing = selectors.unseated(round_)
        if missing:
            raise violation(
                "round", "not_allowed", reason="unseated", value=", ".join(e.name for e in missing)
            )
        for table in tables:
            _start_table_game(competition, round_, table, by)
        round_.status = RoundStatus.PUBLISHED
        round_.published_at = timezone.now()
        round_.draw_problem = None  # its tables are fixed: an old refused draw is moot
        round_.save(update_fields=["status", "published_at", "draw_problem"])
        record_event(
            competition,
            by,
            "publish_round",
            round_=round_,
            number=round_.number,
            tables=len(tables),
        )
        if competition.notify_entrants:
            queue.mail_on_commit("tournaments.tasks.announce_round", round_.pk, None)
    return round_


def close_round(*, round_: Round, by: Actor) -> Round:
    """Close a round once every table's game is finished or the table was forfeited, and lock
    its games (``scoring.services.lock_games``); each player's results are e-mailed after the
    commit (``tasks.mail_round_results``)."""
    competition = round_.competition
    require_manager(by, competition.club)
    with locked_round(round_, RoundStatus.PUBLISHED, "not_published"):
        # Then its games, in id order (docs/architecture.md, "Locks"), read under their locks: a
        # hand removed at the same moment either commits first (the game is unfinished here) or
        # waits and then finds the game locked.
        games = {g.pk: g for g in lock_round_games(round_)}
        open_tables = [
            t.number
            for t in round_.tables.all()
            if not t.forfeited
            and (t.game_id is None or games[t.game_id].status != GameStatus.FINISHED)
        ]
        if open_tables:
            raise violation("round", "unfinished", tables=tuple(open_tables))
        # Confirmation by the table: a finished game counts once every hand is accepted.
        waiting = sorted(
            set(
                round_.tables.filter(
                    forfeited=False, game__hands__acceptance__in=NOT_ACCEPTED
                ).values_list("number", flat=True)
            )
        )
        if waiting:
            raise violation("round", "unaccepted", tables=tuple(waiting))
        round_.status = RoundStatus.CLOSED
        round_.closed_at = timezone.now()
        round_.save(update_fields=["status", "closed_at"])
        # Its games are settled: no hand changes until an organizer reopens one (scoring's lock).
        scoring.lock_games(
            games=round_.tables.exclude(game=None).values_list("game_id", flat=True),
            by=by,
            reason=LockReason.ROUND_CLOSED,
            context={"round": round_.number, "competition": competition.name},
        )
        record_event(competition, by, "close_round", round_=round_, number=round_.number)
        # Each player's results, e-mailed once (``results_mail``: closed again, none twice).
        queue.mail_on_commit("tournaments.tasks.mail_round_results", round_.pk)
    return round_


def delete_round(
    *, round_: Round, by: Actor, reason: str = "", expected: Collection[Tag] | None = None
) -> Round:
    """Delete a draft round (a stray "Round 4"): it leaves the schedule, the public pages and
    the calendar feed; the draft rounds after it move up one number. Its draw and check-ins go
    with it. A published or closed round is never deleted (its games are results), nor one
    that an adjustment names. The row itself stays, marked deleted, for the events naming it.

    ``expected``: the validators the client read (``scoring.etags``); one must name this very
    round (its row, not its number) as it is now, else ``VersionConflict``; a round they name
    that is deleted already raises ``Round.DoesNotExist``, as does this one deleted meanwhile:
    a DELETE sent twice never deletes the round that took the number."""
    competition = round_.competition
    require_manager(by, competition.club)
    reason = " ".join(str(reason or "").split())
    with locked_round(round_, RoundStatus.DRAFT, "published"):
        if expected is not None:
            check_round_expected(round_, expected)
        if round_.adjustments.exists():
            raise violation("round", "not_allowed", reason="has_adjustments")
        later = list(
            competition.rounds.select_for_update(no_key=True)
            .filter(number__gt=round_.number)
            .order_by("number")
        )
        if any(r.status != RoundStatus.DRAFT for r in later):
            raise violation("round", "not_allowed", reason="later_round_published")
        number = round_.number
        round_.tables.all().delete()
        round_.byes.all().delete()
        round_.check_ins.all().delete()
        round_.deleted_at = timezone.now()
        round_.save(update_fields=["deleted_at"])
        # One number at a time, upwards: the freed number is always the one taken next.
        for moved in later:
            moved.number -= 1
            moved.save(update_fields=["number"])
        record_event(
            competition,
            by,
            "delete_round",
            round_=round_,
            number=number,
            renumbered=[r.number for r in later],
            reason=reason,
        )
    return round_


TIMER_ACTIONS = ("start", "pause", "reset")


def set_round_timer(*, round_: Round, by: Actor, action: str) -> Round:
    """Start, pause or reset the round timer the projector shows (a published round only).
    Started, it runs down from what was left (the round's expected duration at first); paused,
    it keeps what was left; reset, it is back to the full duration, stopped. Kept on the round
    (``timer_started_at``, ``timer_remaining``) so that every screen counts down the same."""
    require_manager(by, round_.competition.club)
    if action not in TIMER_ACTIONS:
        raise violation("timer", "choice", choices=TIMER_ACTIONS, value=action)
    with transaction.atomic():
        competition = lock(round_)
        if round_.status != RoundStatus.PUBLISHED:
            raise violation("round", "not_allowed", reason=round_.status)
        now = timezone.now()
        left = round_.timer_left(now)
        if action == "start" and round_.timer_started_at is None:
            round_.timer_started_at, round_.timer_remaining = now, left
        elif action == "pause" and round_.timer_started_at is not None:
            round_.timer_started_at, round_.timer_remaining = None, left
        elif action == "reset":
            round_.timer_started_at = round_.timer_remaining = None
        round_.save(update_fields=["timer_started_at", "timer_remaining"])
        record_event(
            competition, by, f"timer_{action}", round_=round_, number=round_.number, left=left
        )
    return round_


def give_bye(*, round_: Round, entry: Entry, by: Actor) -> Round:
    """Give a bye in a drawn round to an active entry that has neither a seat nor a bye there
    (a late entrant of a published round: its games are fixed, so the entrant sits this round
    out, which the format counts as any bye)."""
    competition = round_.competition
    require_manager(by, competition.club)
    with transaction.atomic():
        lock(round_)
        if round_.status == RoundStatus.CLOSED:
            raise violation("round", "not_allowed", reason="not_published")
        if entry.pk not in {e.pk for e in selectors.unseated(round_)}:
            raise violation("entry", "not_found", value=entry.pk)
        Bye.objects.create(round=round_, entry=entry)
        record_event(
            competition,
            by,
            "give_bye",
            round_=round_,
            number=round_.number,
            entry=entry.pk,
            name=entry.name,
        )
    return round_


def seat_late_entrant(*, round_: Round, entry: Entry, table: Table | int, by: Actor) -> Table:
    """Seat an entry left out of a published round (a late entrant) at one of its tables whose
    game has no hand yet and takes one more player: the table's unplayed game is abandoned and a
    new one started with everyone (its table link changes: print the table's card again).
    Refused, and nothing changes, if the table has started or is full."""
    competition = round_.competition
    require_manager(by, competition.club)
    with locked_round(round_, RoundStatus.PUBLISHED, "not_playing"):
        # Its games locked before a table's hands decide (as ``close_round``): a hand being
        # entered commits first and the table is then seen as started.
        lock_round_games(round_)
        if entry.pk not in {e.pk for e in selectors.unseated(round_)}:
            raise violation("entry", "not_found", value=entry.pk)
        table_id = table.pk if isinstance(table, Table) else table
        table = (
            round_.tables.prefetch_related("seats__entry__player", "seats__entry__partner")
            .filter(pk=table_id)
            .first()
        )
        if table is None:
            raise violation("table", "not_found", value=table_id)
        reason = selectors.late_seat_refusal(round_, table)
        if reason:
            raise violation("table", "not_allowed", reason=reason)
        old = table.game
        position = table.seats.count()
        TableSeat.objects.create(table=table, entry=entry, position=position)
        table = round_.tables.prefetch_related("seats__entry__player", "seats__entry__partner").get(
            pk=table.pk
        )
        if old is not None:
            scoring.abandon_game(
                game=old, by=by, reason=f"{entry.name} seated late: a new game with everyone"
            )
        _start_table_game(competition, round_, table, by)
        record_event(
            competition,
            by,
            "seat_late_entrant",
            round_=round_,
            number=round_.number,
            entry=entry.pk,
            name=entry.name,
            table=table.number,
        )
    return table


#: The most rounds ``add_season`` adds at once (a year of weekly nights).
SEASON_MAX = 60


def add_season(
    *,
    competition: Competition,
    by: Actor,
    first_date: dt.date,
    nights: int,
    start_time: dt.time | None = None,
    weekday: int | None = None,
    rulesets: Iterable[str] | None = None,
    duration_minutes: int = 180,
) -> list[Round]:
    """A season of weekly nights in one step: ``nights`` rounds, a week apart, from
    ``first_date`` (moved on to the next ``weekday``, 0 = Monday, if given), at ``start_time``;
    their games rotate through ``rulesets`` in order (default: the competition's games). They
    follow the rounds already there."""
    require_manager(by, competition.club)
    problems = Problems()
    if not isinstance(first_date, dt.date):
        problems.add("first_date", "type", expected="date")
    if not isinstance(nights, int) or isinstance(nights, bool) or not 1 <= nights <= SEASON_MAX:
        problems.add("nights", "range", min=1, max=SEASON_MAX, value=nights)
    if weekday is not None and (not isinstance(weekday, int) or not 0 <= weekday <= 6):
        problems.add("weekday", "range", min=0, max=6, value=weekday)
    if start_time is not None and not isinstance(start_time, dt.time):
        problems.add("start_time", "type", expected="time")
    if not isinstance(duration_minutes, int) or not 10 <= duration_minutes <= 1440:
        problems.add("duration_minutes", "range", min=10, max=1440, value=duration_minutes)
    games = list(rulesets or competition.rulesets)
    for index, key in enumerate(games):
        if key not in competition.rulesets:
            problems.add(
                f"rulesets[{index}]", "choice", choices=tuple(competition.rulesets), value=key
            )
    if isinstance(first_date, dt.date) and isinstance(nights, int):
        try:  # the last night must be a date the calendar has
            first_date + dt.timedelta(days=6 + 7 * max(nights - 1, 0))
        except OverflowError:
            problems.add(
                "first_date", "range", min="0001-01-01", max="9999-12-31", value=first_date
            )
    problems.raise_if_any()
    if weekday is not None:
        first_date += dt.timedelta(days=(weekday - first_date.weekday()) % 7)
    with transaction.atomic():
        lock(competition)
        last = competition.rounds.order_by("-number").values_list("number", flat=True).first() or 0
        Round.objects.bulk_create(
            Round(
                competition=competition,
                number=last + 1 + i,
                ruleset=games[i % len(games)],
                date=first_date + dt.timedelta(weeks=i),
                start_time=start_time,
                duration_minutes=duration_minutes,
            )
            for i in range(nights)
        )
        created = list(competition.rounds.filter(number__gt=last).order_by("number"))
        record_event(
            competition,
            by,
            "add_season",
            numbers=[r.number for r in created],
            first_date=first_date.isoformat(),
            rulesets=games,
        )
    return created
