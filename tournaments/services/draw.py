"""Drawing the tables of a draft round, and editing a draw by hand.

The competition's format picks the pure scheduler (``tournaments.scheduling``): rotation and
round robin plan every draft round at once, Swiss and club nights draw from the standings so
far, a knockout round seats the bracket's next matches (``bracket``). The drawn tables, byes
and quality figures replace the draft's in one transaction, under the competition's and the
round's lock (``_common.locked_round``): two draws of one draft follow each other, and a draw
never lands on a round published meanwhile. ``next_slot`` says when a round added by the plan is expected.

A draw asked in the background (``tasks.generate_round``) has nobody to answer: its refusal is
kept on the round (``record_draw_refusal``) until a later draw succeeds.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from scoring.rules import Problem, RuleViolation
from scoring.services import Actor, violation
from tournaments import scheduling, selectors
from tournaments.extensions import DRAW_AVOIDANCES
from tournaments.models import (
    Bye,
    CheckIn,
    Competition,
    EntryStatus,
    Format,
    Kind,
    RepeatObjective,
    Round,
    RoundStatus,
)
from tournaments.scheduling.bounds import repeat_bounds
from tournaments.services._common import lock, locked_round, record_event, require_manager
from tournaments.services._tables import metrics_dict, store_tables
from tournaments.services.bracket import draw_bracket_round


class SchedulerRefused(RuleViolation):
    """The pure scheduler refused what it cannot seat (a third-place match with fewer than four
    entrants...). It says so with a ValueError; for the organizer that is a fixable refusal on
    ``field`` (a 400 at the API, a line on the round page), not a 500. Only code that calls the
    scheduler raises this: a bare ValueError elsewhere stays a bug."""

    def __init__(self, refused: ValueError, field: str = "round"):
        super().__init__([Problem(field, "not_allowed", {"reason": str(refused)})])


@contextmanager
def scheduler_refusals(field: str = "round") -> Iterator[None]:
    try:
        yield
    except ValueError as refused:
        raise SchedulerRefused(refused, field) from None


#: Entries in seed order, unseeded ones last (in the order they entered), on every database.
SEED_ORDER = (F("seed").asc(nulls_last=True), "id")


def _participants(round_: Round) -> list[int]:
    """Checked-in entries if anyone checked in, else every active entry (seed order)."""
    present = list(
        CheckIn.objects.filter(round=round_, entry__status=EntryStatus.ACTIVE).values_list(
            "entry_id", flat=True
        )
    )
    active = list(
        round_.competition.entries.filter(status=EntryStatus.ACTIVE)
        .order_by(*SEED_ORDER)
        .values_list("pk", flat=True)
    )
    if present:
        chosen = set(present)
        return [e for e in active if e in chosen]
    return active


def _played_rounds(competition: Competition) -> list[Round]:
    return list(competition.rounds.exclude(status=RoundStatus.DRAFT).order_by("number"))


def _round_as_schedule(round_: Round) -> scheduling.Round:
    tables = [
        tuple(s.entry_id for s in table.seats.order_by("position"))
        for table in round_.tables.order_by("number")
    ]
    return scheduling.Round(tuple(tables), tuple(round_.byes.values_list("entry_id", flat=True)))


def _byes_so_far(competition: Competition) -> dict[int, int]:
    counts: dict[int, int] = defaultdict(int)
    for entry_id in (
        Bye.objects.filter(round__competition=competition)
        .exclude(round__status=RoundStatus.DRAFT)
        .values_list("entry_id", flat=True)
    ):
        counts[entry_id] += 1
    return dict(counts)


CLUB_NIGHT_METHODS = ("rotation", "standing")
#: How a Swiss round 1 is drawn: "drawn" (top half against bottom half by the club's rating,
#: at random without one) or "entered" (in the order the entries were made, as ranked).
SWISS_FIRST_METHODS = ("drawn", "entered")


def _methods(format_: str) -> tuple[str, ...]:
    return {Format.CLUB_NIGHT: CLUB_NIGHT_METHODS, Format.SWISS: SWISS_FIRST_METHODS}.get(
        format_, ()
    )


def generate_round(
    *,
    round_: Round,
    by: Actor,
    seed: int | None = None,
    method: str | None = None,
    objective: str | None = None,
) -> Round:
    """Draw the tables of a draft round by the competition's format (drafts can be drawn again
    as often as wanted). Rotation and round robin plan all draft rounds together; Swiss, club
    nights and knockout rounds draw from the results so far. A club night is drawn by
    ``method``: "rotation" (fewest repeated meetings) or "standing" (players of similar standing
    together); by default the way it was drawn last time, else rotation. A Swiss round 1
    (nothing published before it) is drawn by ``method`` "drawn" (top half against bottom half
    by the club's rating, at random where entrants have none: ``scheduling.first_round``) or
    "entered" (in the order entered); by default as last time, else "drawn". Later Swiss rounds
    pair by score whatever ``method`` says. The round keeps how it was drawn (``Round.method``:
    "rating", "random", "entered", "swiss"). A rotation's
    ``objective`` for unavoidable repeats ("spread" or "fewest", ``RepeatObjective``) is kept
    on the competition for its later draws; by default the competition's."""
    competition = round_.competition
    require_manager(by, competition.club)
    if method is not None and method not in _methods(competition.format):
        raise violation("method", "choice", choices=_methods(competition.format), value=method)
    if objective is not None and objective not in RepeatObjective.values:
        raise violation("objective", "choice", choices=RepeatObjective.values, value=objective)
    seed = random.SystemRandom().randrange(1, 10**6) if seed is None else seed
    # Everything the draw reads (status, who is present, the results so far) is read under the
    # lock: another organizer's draw, check-in or publish waits for this one.
    with locked_round(round_, RoundStatus.DRAFT, "published"):
        participants = _participants(round_)
        sizes, _ideal, _sitting_out = competition.table_policy(round_.ruleset)
        if len(participants) < min(sizes):
            raise violation("entries", "range", min=min(sizes), max=10_000, value=len(participants))
        changed = {}
        if objective is not None and objective != competition.repeat_objective:
            changed = {"objective": objective, "objective_before": competition.repeat_objective}
            competition.repeat_objective = objective
            competition.save(update_fields=["repeat_objective"])
        history = selectors.meetings(competition, before=round_.number)
        history = _with_avoidances(competition, history)
        with scheduler_refusals():
            _draw(competition, round_, participants, history, seed, method, by)
        record_event(
            competition,
            by,
            "generate_round",
            round_=round_,
            number=round_.number,
            seed=seed,
            **changed,
        )
    round_.refresh_from_db()
    return round_


def _with_avoidances(competition: Competition, history: dict) -> dict:
    """``history`` plus the pairs an app asks the draw to keep apart (``DRAW_AVOIDANCES``)."""
    merged = Counter(history)
    for hook in DRAW_AVOIDANCES:
        merged.update(hook(competition))
    return dict(merged)


def _draw(competition, round_, participants, history, seed, method, by) -> None:
    """Seat the participants of the locked draft ``round_`` by the competition's format."""
    sizes, ideal, sitting_out = competition.table_policy(round_.ruleset)
    if competition.format in (Format.ROTATION, Format.ROUND_ROBIN):
        _plan_drafts(competition, round_, participants, sizes, ideal, sitting_out, seed, by)
    elif competition.bracket_round(round_.number):
        draw_bracket_round(competition, round_, participants, seed)
    else:
        started = time.perf_counter()
        standings = [
            row["entry"]
            for row in selectors.standings_of(competition)["tables"][0]["rows"]
            if row["entry"] in set(participants)
        ]
        if competition.format == Format.SWISS:
            drawn, method = _swiss(round_, participants, standings, history, seed, method)
        else:
            method = method or ("standing" if round_.method == "standing" else "rotation")
            drawn = scheduling.club_night(
                participants,
                sizes=sizes,
                ideal=ideal,
                method=method,
                history=history,
                standings=standings,
                seed=seed,
                byes=_byes_so_far(competition),
                sitting_out=sitting_out,
            )
        # Measured on the meetings played only: the pairs an app asks to keep apart (team-mates
        # at mixed tables) weigh in the draw, but are not repeats (the panel counts them apart).
        played = selectors.meetings(competition, before=round_.number)
        metrics = scheduling.measure([drawn], participants, history=played, sitting_out=sitting_out)
        # The draw's own time (measuring is not drawing).
        metrics = metrics_dict(metrics) | {"seconds": round(time.perf_counter() - started, 3)}
        store_tables(round_, drawn.tables, drawn.byes, metrics, method, seed)


def _swiss(round_, participants, standings, history, seed, method) -> tuple[Any, str]:
    """A Swiss round's tables and how they were drawn: round 1 by rating or at random (or in the
    order entered, when asked), later rounds by score."""
    competition = round_.competition
    sizes, ideal, _sitting_out = competition.table_policy(round_.ruleset)
    first = not selectors.played_before(round_)
    method = method or ("entered" if round_.method == "entered" else "drawn")
    if first and method == "drawn":
        ratings = selectors.entry_ratings(competition, participants, round_.ruleset)
        drawn = scheduling.first_round(
            participants, sizes=sizes, ideal=ideal, ratings=ratings, seed=seed
        )
        if history:  # pairs kept apart (``DRAW_AVOIDANCES``): that order, seated apart
            order = [e for table in drawn.tables for e in table] + list(drawn.byes)
            drawn = scheduling.swiss_round(
                order, sizes=sizes, ideal=ideal, history=history, seed=seed
            )
        return drawn, "rating" if ratings else "random"
    drawn = scheduling.swiss_round(
        standings or participants,
        sizes=sizes,
        ideal=ideal,
        history=history,
        seed=seed,
        byes=_byes_so_far(competition),
    )
    return drawn, "entered" if first else "swiss"


def _plan_drafts(competition, round_, participants, sizes, ideal, sitting_out, seed, by) -> None:
    """Rotation / round robin: keep the played rounds, plan every draft round at once (the
    pairs an app keeps apart, ``DRAW_AVOIDANCES``, count as earlier meetings)."""
    played_rounds = _played_rounds(competition)
    drafts = list(competition.rounds.filter(status=RoundStatus.DRAFT).order_by("number"))
    if competition.format == Format.ROUND_ROBIN:
        entrants = list(competition.entries.order_by(*SEED_ORDER).values_list("pk", flat=True))
        schedule = scheduling.round_robin(entrants, double=competition.double_round)
        all_rounds = list(schedule.rounds)
        planned = competition.planned_rounds or len(all_rounds)
        while len(drafts) + len(played_rounds) < min(planned, len(all_rounds)):
            drafts.append(_new_round(competition, round_.ruleset))
        active = set(participants)
        for index, draft in enumerate(drafts):
            position = len(played_rounds) + index
            if position >= len(all_rounds):
                break
            drawn = all_rounds[position]
            tables = [t for t in drawn.tables if all(e in active for e in t)]
            byes = list(drawn.byes) + [
                e for t in drawn.tables if not all(x in active for x in t) for e in t if e in active
            ]
            metrics = scheduling.measure([scheduling.Round(tuple(tables), tuple(byes))], active)
            store_tables(draft, tables, byes, metrics_dict(metrics), "round_robin", seed)
        return
    total = max(competition.planned_rounds or 0, len(played_rounds) + len(drafts))
    while len(played_rounds) + len(drafts) < total:
        drafts.append(_new_round(competition, round_.ruleset))
    objective = competition.repeat_objective
    schedule = scheduling.rotation(
        participants,
        sizes=sizes,
        ideal=ideal,
        rounds=len(played_rounds) + len(drafts),
        seed=seed,
        played=[_round_as_schedule(r) for r in played_rounds],
        sitting_out=sitting_out,
        objective=objective,
        history=_with_avoidances(competition, {}),
    )
    scheduling.verify_schedule(
        schedule, sizes=sizes, played=len(played_rounds), sitting_out=sitting_out
    )
    upcoming = schedule.rounds[len(played_rounds) :]
    bounds = repeat_bounds(
        scheduling.table_sizes(len(participants), sizes, ideal), len(schedule.rounds)
    )
    metrics = metrics_dict(schedule.metrics) | {
        "method": schedule.method,
        "objective": objective,
        "bounds": {"fewest": bounds.fewest, "spread": bounds.spread},
    }
    for draft, drawn in zip(drafts, upcoming, strict=True):
        store_tables(draft, drawn.tables, drawn.byes, metrics, "rotation", seed)


def next_slot(
    competition: Competition, last: Round | None
) -> tuple[dt.date | None, dt.time | None]:
    """When a round added after ``last`` is expected: a league meets again a week later at the
    same time; a tournament's next round starts when the last one is expected to end (the
    next morning at the same time if that runs past midnight)."""
    if last is None or last.date is None:
        return None, None
    if competition.kind == Kind.LEAGUE:
        return last.date + dt.timedelta(days=7), last.start_time
    if last.start_time is None:
        return last.date, None
    start = dt.datetime.combine(last.date, last.start_time)
    end = start + dt.timedelta(minutes=last.duration_minutes)
    if end.date() != last.date:
        return last.date + dt.timedelta(days=1), last.start_time
    return end.date(), end.time()


def _new_round(competition: Competition, ruleset: str) -> Round:
    last = competition.rounds.order_by("-number").first()
    date, start_time = next_slot(competition, last)
    return Round.objects.create(
        competition=competition,
        number=(last.number if last else 0) + 1,
        ruleset=ruleset,
        date=date,
        start_time=start_time,
        duration_minutes=last.duration_minutes if last else 90,
    )


def swap_in_round(*, round_: Round, a: int, b: int, by: Actor) -> Round:
    """Swap two entries in a draft round (seats, tables, or a seat and a bye); the quality
    figures are measured again."""
    competition = round_.competition
    require_manager(by, competition.club)
    with locked_round(round_, RoundStatus.DRAFT, "published"):
        current = _seating(round_, a, b)
        edited, metrics = _swapped(round_, current, a, b)
        before = round_.metrics or {}
        store_tables(round_, edited.tables, edited.byes, metrics, round_.method, round_.seed)
        record_event(
            competition,
            by,
            "swap",
            round_=round_,
            a=a,
            b=b,
            repeated_before=before.get("repeated_pairs"),
            repeated_after=metrics["repeated_pairs"],
        )
    return round_


def _seating(round_: Round, a: int, b: int) -> scheduling.Round:
    """The round as drawn, ``a`` and ``b`` both in it (seated or with a bye)."""
    current = _round_as_schedule(round_)
    everyone = set(current.players)
    for field_, entry in (("a", a), ("b", b)):
        if entry not in everyone:
            raise violation(field_, "not_found", value=entry)
    return current


def _swapped(
    round_: Round, current: scheduling.Round, a: int, b: int
) -> tuple[scheduling.Round, dict[str, Any]]:
    """The round with ``a`` and ``b`` swapped, and its quality figures measured again: over
    every drawn round when the draft rounds were planned together (rotation), else over this
    round against the rounds played before. No draw time: a swap is not a draw."""
    history = selectors.meetings(round_.competition, before=round_.number)
    edited = scheduling.swap(current, a, b, history=history)
    together = round_.method == "rotation"
    return edited, measured_again(round_, edited, list(current.players), together=together)


def measured_again(
    round_: Round, edited: scheduling.Round, everyone: list[int], *, together: bool
) -> dict[str, Any]:
    """The quality figures of ``round_`` seated as ``edited`` (a swap, a move): over every
    drawn round when they were planned ``together`` (rotation), else against the rounds
    played before; the draw's bounds and objective kept, no draw time."""
    competition = round_.competition
    history = selectors.meetings(competition, before=round_.number)
    _, _, sitting_out = competition.table_policy(round_.ruleset)
    if together:
        drawn = selectors.drawn_tables(competition)
        rounds = [
            edited if number == round_.number else scheduling.Round(tuple(tables), ())
            for number, tables in drawn.items()
        ]
        players = sorted({p for r in rounds for p in r.players} | set(everyone))
        measured = scheduling.measure(rounds, players, sitting_out=sitting_out)
    else:
        measured = scheduling.measure([edited], everyone, history=history, sitting_out=sitting_out)
    kept = {k: v for k, v in (round_.metrics or {}).items() if k in ("bounds", "objective")}
    figures = metrics_dict(measured)
    del figures["seconds"]
    return figures | kept


def swap_preview(*, round_: Round, a: int, b: int) -> dict[str, Any]:
    """What swapping ``a`` and ``b`` in the draft ``round_`` would do, nothing written: the
    quality figures ``before`` and ``after``, and the round's tables after (``tables``)."""
    current = _seating(round_, a, b)
    if round_.status != RoundStatus.DRAFT:
        raise violation("round", "not_allowed", reason="published")
    edited, metrics = _swapped(round_, current, a, b)
    return {"before": round_.metrics or {}, "after": metrics, "tables": edited.tables}


def record_draw_refusal(*, round_: Round, by: Actor, refusal: RuleViolation) -> Round:
    """Keep why a background draw of ``round_`` asked by ``by`` was refused: on the round
    (``Round.draw_problem``: the problems, when, who asked), which the round page and the API
    show until a later draw succeeds, and in the competition's events (``draw_refused``). A
    round published meanwhile keeps no notice (its tables are fixed); the event still tells."""
    problems = [
        {"field": p.field, "code": p.code, "params": json.loads(json.dumps(p.params, default=str))}
        for p in refusal.problems
    ]
    with transaction.atomic():
        competition = lock(round_)
        at = timezone.now()
        if round_.status == RoundStatus.DRAFT:
            round_.draw_problem = {
                "at": at.isoformat(),
                "by": by.user.pk if by.user is not None else None,
                "by_name": _name(by),
                "problems": problems,
            }
            round_.save(update_fields=["draw_problem"])
        record_event(
            competition,
            by,
            "draw_refused",
            round_=round_,
            number=round_.number,
            problems=problems,
        )
    return round_


def _name(by: Actor) -> str:
    user = by.user
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()
