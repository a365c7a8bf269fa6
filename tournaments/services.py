"""Every write of a competition goes through one of these functions (one door per write).

They check that the actor organises the club (owner or organizer), call the pure scheduling and
standings code, write the rows in one transaction and append a ``CompetitionEvent``. Games are
created through ``scoring.services.start_game``; side effects (e-mails, standings snapshots) are
Celery tasks enqueued after commit.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import slugify

from scoring import services as scoring
from scoring.models import Club, GameStatus, Player
from scoring.rules import RULESETS, RuleViolation
from scoring.rules.base import Problems
from scoring.services import MANAGERS, Actor, authorize_club
from tournaments import scheduling, selectors
from tournaments import standings as pure
from tournaments.models import (
    Adjustment,
    Bye,
    CheckIn,
    Competition,
    CompetitionEvent,
    Entry,
    EntryStatus,
    Format,
    Kind,
    Round,
    RoundStatus,
    Table,
    TableSeat,
)

#: ``Game.context`` of the games played at a competition's tables.
GAME_CONTEXT = "competition"
NAME_MAX = 120
SEED_MAX = 32_767  # Entry.seed is a PositiveSmallIntegerField
#: Entries in seed order, unseeded ones last (in the order they entered), on every database.
SEED_ORDER = (F("seed").asc(nulls_last=True), "id")


def _event(
    competition: Competition,
    by: Actor,
    action: str,
    *,
    round_: Round | None = None,
    reason: str = "",
    **data: Any,
) -> None:
    CompetitionEvent.objects.create(
        competition=competition,
        round=round_,
        action=action,
        actor=by.user,
        reason=reason,
        data=data,
    )


def _manager(by: Actor, club: Club) -> None:
    authorize_club(by, club, MANAGERS)


def violation(field: str, code: str, **params: Any) -> RuleViolation:
    problems = Problems()
    problems.add(field, code, **params)
    return RuleViolation(problems.items)


# ---------------------------------------------------------------------------------------------
# Tables: which sizes a round may use


def table_policy(competition: Competition, ruleset: str) -> tuple[tuple[int, ...], int, int]:
    """Allowed table sizes (in competitors), the preferred one, and the table size from which
    the dealer sits out (0: never). Two-sided formats always seat two competitors."""
    rules = RULESETS[ruleset]
    sitting_out = min(rules.dealer_sits_out_with) if rules.dealer_sits_out_with else 0
    if competition.two_sided or competition.pairs:
        return (2,), 2, 0
    sizes = tuple(range(rules.min_seats, rules.max_seats + 1))
    ideal = competition.table_size if competition.table_size in sizes else rules.ideal_seats
    return sizes, ideal, sitting_out


def game_sizes(competition: Competition, ruleset: str) -> tuple[int, ...]:
    """How many players a game of ``ruleset`` may have in this competition."""
    if competition.pairs:
        return (4,)
    sizes, _ideal, _sitting_out = table_policy(competition, ruleset)
    return sizes


# ---------------------------------------------------------------------------------------------
# Competitions and entries


def create_competition(
    *,
    club: Club,
    by: Actor,
    name: str,
    rulesets: Sequence[str],
    kind: str = Kind.TOURNAMENT,
    format: str = Format.ROTATION,
    options: Mapping[str, Any] | None = None,
    slug: str = "",
    table_size: int | None = None,
    planned_rounds: int | None = None,
    double_round: bool = False,
    third_place: bool = False,
    scheme: str = "placement",
    placement_points: Mapping[str, Sequence[Any]] | None = None,
    tie_breaks: Sequence[str] | None = None,
    best_of: int | None = None,
    min_rounds: int = 0,
    start_date: dt.date | None = None,
    end_date: dt.date | None = None,
    public: bool = True,
    notify_entrants: bool = False,
    description: str = "",
) -> Competition:
    """A new league or tournament. Raises RuleViolation naming every bad field."""
    _manager(by, club)
    problems = Problems()
    name = " ".join(str(name or "").split())
    if not name:
        problems.add("name", "required")
    elif len(name) > NAME_MAX:
        problems.add("name", "range", min=1, max=NAME_MAX, value=len(name))
    slug = slugify(slug or name)[:60]
    if name and not slug:
        problems.add("slug", "required")
    elif slug and Competition.objects.filter(club=club, slug=slug).exists():
        problems.add("slug", "duplicate", value=slug)
    if kind not in Kind.values:
        problems.add("kind", "choice", choices=tuple(Kind.values), value=kind)
    if format not in Format.values:
        problems.add("format", "choice", choices=tuple(Format.values), value=format)
    rulesets = list(rulesets or [])
    if not rulesets:
        problems.add("rulesets", "required")
    for index, key in enumerate(rulesets):
        if key not in RULESETS:
            problems.add(f"rulesets[{index}]", "choice", choices=tuple(RULESETS), value=key)
    if len(set(rulesets)) != len(rulesets):
        problems.add("rulesets", "duplicate", value=", ".join(rulesets))
    if len(rulesets) > 1 and kind != Kind.LEAGUE:
        problems.add("rulesets", "inconsistent", reason="mixed_needs_league")
    if options is not None and not isinstance(options, Mapping):
        problems.add("options", "type", expected="object")
        options = {}
    options = {k: v for k, v in (options or {}).items() if v}
    for key, value in options.items():
        if key not in rulesets:
            problems.add(f"options.{key}", "unknown_key")
        elif not isinstance(value, Mapping):
            problems.add(f"options.{key}", "type", expected="object")
    two_sided = format in (Format.ROUND_ROBIN, Format.KNOCKOUT)
    if two_sided and rulesets != ["briscola"]:
        problems.add("format", "inconsistent", reason="two_sided_needs_briscola")
    if scheme not in pure.SCHEMES:
        problems.add("scheme", "choice", choices=tuple(pure.SCHEMES), value=scheme)
    tie_breaks = list(
        tie_breaks if tie_breaks is not None else ("points", "wins", "opponents_strength")
    )
    for index, key in enumerate(tie_breaks):
        if key not in pure.TIE_BREAKS:
            problems.add(
                f"tie_breaks[{index}]", "choice", choices=tuple(pure.TIE_BREAKS), value=key
            )
    if len(set(tie_breaks)) != len(tie_breaks):
        problems.add("tie_breaks", "duplicate", value=", ".join(tie_breaks))
    for field_, value, lo, hi in (
        ("table_size", table_size, 2, 8),
        ("planned_rounds", planned_rounds, 1, 60),
        ("best_of", best_of, 1, 100),
        ("min_rounds", min_rounds, 0, 100),
    ):
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi
        ):
            problems.add(field_, "range", min=lo, max=hi, value=value)
    if start_date and end_date and end_date < start_date:
        problems.add("end_date", "inconsistent", reason="ends_before_it_starts")
    points_table = None
    if placement_points:
        points_table = {}
        for size, points in placement_points.items():
            try:
                size_ = int(size)
                values = [float(p) for p in points]
            except (TypeError, ValueError):
                problems.add(f"placement_points.{size}", "type", expected="list")
                continue
            if not 2 <= size_ <= 8 or len(values) != size_:
                problems.add(
                    f"placement_points.{size}", "length", expected=size_, value=len(values)
                )
                continue
            points_table[str(size_)] = [int(v) if v.is_integer() else v for v in values]
    if problems:
        raise RuleViolation(problems.items)
    draft = Competition(
        club=club,
        kind=kind,
        format=format,
        rulesets=rulesets,
        options={},
        table_size=table_size,
    )
    # House rules are checked at every number of players a game of the competition may have.
    draft.options = options
    for key in rulesets:
        if not isinstance(options.get(key) or {}, Mapping):
            continue
        for n in game_sizes(draft, key):
            try:
                RULESETS[key].resolve_options(options.get(key) or {}, n)
            except RuleViolation as error:
                for p in error.problems:
                    path = p.field.replace("options", f"options.{key}", 1)
                    problems.add(path, p.code, **dict(p.params))
                break
    if problems:
        raise RuleViolation(problems.items)
    with transaction.atomic():
        competition = Competition.objects.create(
            club=club,
            name=name,
            slug=slug,
            kind=kind,
            rulesets=rulesets,
            options={k: dict(v) for k, v in options.items()},
            format=format,
            table_size=table_size,
            planned_rounds=planned_rounds,
            double_round=double_round,
            third_place=third_place,
            scheme=scheme,
            placement_points=points_table,
            tie_breaks=tie_breaks,
            best_of=best_of,
            min_rounds=min_rounds or 0,
            start_date=start_date,
            end_date=end_date,
            public=public,
            notify_entrants=notify_entrants,
            description=description,
            created_by=by.user,
        )
        _event(competition, by, "create_competition", name=name)
    return competition


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
        return existing or scoring._create_player(club, name)
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
    _manager(by, competition.club)
    if competition.pairs and partner is None:
        raise violation("partner", "required")
    if not competition.pairs and partner is not None:
        raise violation("partner", "not_allowed", reason="not_pairs")
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 1 <= seed <= SEED_MAX
    ):
        raise violation("seed", "range", min=1, max=SEED_MAX, value=seed)
    with transaction.atomic():
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
        _event(competition, by, "add_entry", entry=entry.pk, name=entry.name, late=late)
        _recompute_standings_later(competition)
    return entry


def _recompute_standings_later(competition: Competition) -> None:
    """Refresh the standings snapshot once the change commits (entries, forfeits and
    adjustments all show in the standings)."""
    from tournaments.tasks import recompute_standings

    recompute_standings.delay_on_commit(competition.pk)


def withdraw_entry(*, entry: Entry, by: Actor, reason: str = "") -> Entry:
    """The entry is no longer seated in rounds to come; its results stay. Draft rounds are
    drawn again without it."""
    competition = entry.competition
    _manager(by, competition.club)
    if entry.status == EntryStatus.WITHDRAWN:
        raise violation("entry", "not_allowed", reason="withdrawn")
    reason = " ".join(str(reason or "").split())
    # One transaction: if a draft round cannot be drawn again without the entry, the refusal
    # leaves the entry as it was.
    with transaction.atomic():
        entry.status = EntryStatus.WITHDRAWN
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["status", "withdrawn_at"])
        CheckIn.objects.filter(entry=entry, round__status=RoundStatus.DRAFT).delete()
        _event(competition, by, "withdraw_entry", entry=entry.pk, name=entry.name, reason=reason)
        drafts = [
            r
            for r in competition.rounds.filter(status=RoundStatus.DRAFT).order_by("number")
            if _seated(r, entry)
        ]
        done: set[int] = set()
        for round_ in drafts:
            if round_.pk in done:
                continue
            # Rotation and round robin plan every draft at once: drawing one draws them all.
            generate_round(round_=round_, by=by, seed=round_.seed or None)
            if competition.format in (Format.ROTATION, Format.ROUND_ROBIN):
                done.update(r.pk for r in drafts)
        _recompute_standings_later(competition)
    return entry


def _seated(round_: Round, entry: Entry) -> bool:
    return (
        TableSeat.objects.filter(table__round=round_, entry=entry).exists()
        or Bye.objects.filter(round=round_, entry=entry).exists()
    )


# ---------------------------------------------------------------------------------------------
# Rounds


def add_round(
    *,
    competition: Competition,
    by: Actor,
    ruleset: str | None = None,
    date: dt.date | None = None,
    start_time: dt.time | None = None,
    duration_minutes: int = 90,
) -> Round:
    _manager(by, competition.club)
    ruleset = ruleset or competition.rulesets[0]
    if ruleset not in competition.rulesets:
        raise violation("ruleset", "choice", choices=tuple(competition.rulesets), value=ruleset)
    if not isinstance(duration_minutes, int) or not 10 <= duration_minutes <= 1440:
        raise violation("duration_minutes", "range", min=10, max=1440, value=duration_minutes)
    with transaction.atomic():
        last = competition.rounds.order_by("-number").values_list("number", flat=True).first() or 0
        round_ = Round.objects.create(
            competition=competition,
            number=last + 1,
            ruleset=ruleset,
            date=date,
            start_time=start_time,
            duration_minutes=duration_minutes,
        )
        _event(competition, by, "add_round", round_=round_, number=round_.number)
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
    _manager(by, competition.club)
    if ruleset is not KEEP and ruleset is not None and ruleset != round_.ruleset:
        if round_.status != RoundStatus.DRAFT:
            raise violation("ruleset", "not_allowed", reason="published")
        if ruleset not in competition.rulesets:
            raise violation("ruleset", "choice", choices=tuple(competition.rulesets), value=ruleset)
        round_.ruleset = ruleset
    if duration_minutes is not KEEP and duration_minutes is not None:
        if (
            not isinstance(duration_minutes, int)
            or isinstance(duration_minutes, bool)
            or not 10 <= duration_minutes <= 1440
        ):
            raise violation("duration_minutes", "range", min=10, max=1440, value=duration_minutes)
        round_.duration_minutes = duration_minutes
    if date is not KEEP:
        if date is not None and not isinstance(date, dt.date):
            raise violation("date", "type", expected="date")
        round_.date = date
    if start_time is not KEEP:
        if start_time is not None and not isinstance(start_time, dt.time):
            raise violation("start_time", "type", expected="time")
        round_.start_time = start_time
    with transaction.atomic():
        round_.save()
        _event(competition, by, "update_round", round_=round_, number=round_.number)
    return round_


def set_check_ins(*, round_: Round, entries: Iterable[Entry | int], by: Actor) -> list[int]:
    """Who is present for this round or club night (only they are seated)."""
    competition = round_.competition
    _manager(by, competition.club)
    if round_.status != RoundStatus.DRAFT:
        raise violation("round", "not_allowed", reason="published")
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
    valid = set(
        competition.entries.filter(pk__in=ids, status=EntryStatus.ACTIVE).values_list(
            "pk", flat=True
        )
    )
    unknown = ids - valid
    if unknown:
        raise violation("entries", "not_found", value=", ".join(map(str, sorted(unknown))))
    with transaction.atomic():
        CheckIn.objects.filter(round=round_).exclude(entry_id__in=valid).delete()
        existing = set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))
        CheckIn.objects.bulk_create(CheckIn(round=round_, entry_id=e) for e in valid - existing)
        _event(competition, by, "check_in", round_=round_, present=sorted(valid))
    return sorted(valid)


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


def _store_tables(
    round_: Round,
    tables: Sequence[Sequence[int]],
    byes: Sequence[int],
    metrics: dict[str, Any],
    method: str,
    seed: int,
) -> None:
    Table.objects.filter(round=round_).delete()
    Bye.objects.filter(round=round_).delete()
    for number, seats in enumerate(tables, start=1):
        table = Table.objects.create(round=round_, number=number)
        TableSeat.objects.bulk_create(
            TableSeat(table=table, position=i, entry_id=e) for i, e in enumerate(seats)
        )
    Bye.objects.bulk_create(Bye(round=round_, entry_id=e) for e in byes)
    round_.metrics = metrics
    round_.method = method
    round_.seed = seed
    round_.save(update_fields=["metrics", "method", "seed"])


def metrics_dict(metrics: scheduling.Metrics) -> dict[str, Any]:
    return {
        "repeated_pairs": metrics.repeated_pairs,
        "max_meetings": metrics.max_meetings,
        "byes_per_player": list(metrics.byes_per_player),
        "first_dealer": list(metrics.first_dealer),
        "sit_outs": list(metrics.sit_outs),
        "lower_bound": metrics.lower_bound,
        "perfect": metrics.perfect,
        "seconds": round(metrics.seconds, 3),
    }


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


def generate_round(
    *, round_: Round, by: Actor, seed: int | None = None, method: str | None = None
) -> Round:
    """Draw the tables of a draft round by the competition's format (drafts can be drawn again
    as often as wanted). Rotation and round robin plan all draft rounds together; Swiss, club
    nights and knockout rounds draw from the results so far. A club night is drawn by
    ``method``: "rotation" (fewest repeated meetings) or "standing" (players of similar standing
    together); by default the way it was drawn last time, else rotation."""
    competition = round_.competition
    _manager(by, competition.club)
    if round_.status != RoundStatus.DRAFT:
        raise violation("round", "not_allowed", reason="published")
    if method is not None and (
        competition.format != Format.CLUB_NIGHT or method not in CLUB_NIGHT_METHODS
    ):
        choices = CLUB_NIGHT_METHODS if competition.format == Format.CLUB_NIGHT else ()
        raise violation("method", "choice", choices=choices, value=method)
    seed = random.SystemRandom().randrange(1, 10**6) if seed is None else seed
    participants = _participants(round_)
    sizes, ideal, sitting_out = table_policy(competition, round_.ruleset)
    if len(participants) < min(sizes):
        raise violation("entries", "range", min=min(sizes), max=10_000, value=len(participants))
    history = selectors.meetings(competition, before=round_.number)
    with transaction.atomic():
        if competition.format in (Format.ROTATION, Format.ROUND_ROBIN):
            _plan_drafts(competition, round_, participants, sizes, ideal, sitting_out, seed, by)
        elif competition.format == Format.KNOCKOUT:
            _knockout_round(competition, round_, participants, seed)
        else:
            standings = [
                row["entry"]
                for row in selectors.standings_of(competition)["tables"][0]["rows"]
                if row["entry"] in set(participants)
            ]
            if competition.format == Format.SWISS:
                drawn = scheduling.swiss_round(
                    standings or participants,
                    sizes=sizes,
                    ideal=ideal,
                    history=history,
                    seed=seed,
                    byes=_byes_so_far(competition),
                )
                method = "swiss"
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
            metrics = scheduling.measure(
                [drawn], participants, history=history, sitting_out=sitting_out
            )
            _store_tables(round_, drawn.tables, drawn.byes, metrics_dict(metrics), method, seed)
        _event(competition, by, "generate_round", round_=round_, number=round_.number, seed=seed)
    round_.refresh_from_db()
    return round_


def _plan_drafts(competition, round_, participants, sizes, ideal, sitting_out, seed, by) -> None:
    """Rotation / round robin: keep the played rounds, plan every draft round at once."""
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
            _store_tables(draft, tables, byes, metrics_dict(metrics), "round_robin", seed)
        return
    total = max(competition.planned_rounds or 0, len(played_rounds) + len(drafts))
    while len(played_rounds) + len(drafts) < total:
        drafts.append(_new_round(competition, round_.ruleset))
    schedule = scheduling.rotation(
        participants,
        sizes=sizes,
        ideal=ideal,
        rounds=len(played_rounds) + len(drafts),
        seed=seed,
        played=[_round_as_schedule(r) for r in played_rounds],
        sitting_out=sitting_out,
    )
    upcoming = schedule.rounds[len(played_rounds) :]
    metrics = metrics_dict(schedule.metrics) | {"method": schedule.method}
    for draft, drawn in zip(drafts, upcoming, strict=True):
        _store_tables(draft, drawn.tables, drawn.byes, metrics, "rotation", seed)


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


def _knockout_round(
    competition: Competition, round_: Round, participants: list[int], seed: int
) -> None:
    """Round 1 draws the bracket by seed; later rounds seat the winners of the round before."""
    first = competition.rounds.order_by("number").first()
    if round_.pk == first.pk:
        if competition.third_place and len(participants) < 4:
            raise violation("entries", "range", min=4, max=10_000, value=len(participants))
        bracket = scheduling.knockout(participants, third_place=competition.third_place)
        round_.bracket = _bracket_dict(bracket)
        round_.save(update_fields=["bracket"])
    else:
        round_.bracket = first.bracket
    bracket = first.bracket if round_.pk != first.pk else round_.bracket
    index = list(competition.rounds.order_by("number").values_list("pk", flat=True)).index(
        round_.pk
    )
    if index >= len(bracket["rounds"]):
        raise violation("round", "not_allowed", reason="bracket_complete")
    outcome = _match_outcomes(competition)
    tables, matches = [], []
    specs = list(bracket["rounds"][index])
    if index == len(bracket["rounds"]) - 1 and bracket.get("third_place"):
        specs.append(bracket["third_place"])
    for match in specs:
        home, away = _slot(match["home"], outcome), _slot(match["away"], outcome)
        if home is None or away is None:
            raise violation("round", "not_allowed", reason="previous_round_open")
        tables.append((home, away))
        matches.append(match["number"])
    # The seeds with a bye in the bracket sit out its first round.
    byes = list(bracket.get("byes") or ()) if index == 0 else []
    metrics = metrics_dict(
        scheduling.measure(
            [scheduling.Round(tuple(tables), tuple(byes))],
            [e for t in tables for e in t] + byes,
        )
    )
    _store_tables(round_, tables, byes, metrics | {"matches": matches}, "knockout", seed)


def _bracket_dict(bracket: scheduling.Bracket) -> dict[str, Any]:
    def match(m):
        return {
            "number": m.number,
            "home": [m.home.kind, m.home.ref],
            "away": [m.away.kind, m.away.ref],
        }

    return {
        "entrants": list(bracket.entrants),
        "rounds": [[match(m) for m in r] for r in bracket.rounds],
        "third_place": match(bracket.third_place) if bracket.third_place else None,
        "byes": list(bracket.byes),
    }


def _forfeit_winner(table: Table, seats: Sequence[int]) -> int | None:
    """The entry that goes through a forfeited knockout match: the one the organizer gave
    more points to (see ``forfeit_table``)."""
    given = dict.fromkeys(seats, Decimal(0))
    for entry_id, points in Adjustment.objects.filter(
        round_id=table.round_id, entry_id__in=seats
    ).values_list("entry_id", "points"):
        given[entry_id] += points
    best = max(given.values())
    leaders = [e for e, p in given.items() if p == best]
    return leaders[0] if len(leaders) == 1 else None


def _match_outcomes(competition: Competition) -> dict[int, tuple[int, int]]:
    """Knockout: (winner, loser) of every match played or forfeited, by match number."""
    outcome: dict[int, tuple[int, int]] = {}
    for round_ in competition.rounds.exclude(status=RoundStatus.DRAFT):
        numbers = round_.metrics.get("matches", [])
        for table in round_.tables.select_related("game").order_by("number"):
            if table.number - 1 >= len(numbers):
                continue
            seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
            if table.forfeited:
                winner = _forfeit_winner(table, seats)
                if winner is not None:
                    loser = next(e for e in seats if e != winner)
                    outcome[numbers[table.number - 1]] = (winner, loser)
                continue
            game = table.game
            if game is None or game.status != GameStatus.FINISHED:
                continue
            winner_side = next(p.seat for p in game.rules.ranking(game.state()) if p.place == 1) % 2
            winner = seats[winner_side]
            outcome[numbers[table.number - 1]] = (winner, seats[1 - winner_side])
    return outcome


def _slot(slot: list, outcome: dict[int, tuple[int, int]]) -> int | None:
    kind, ref = slot
    if kind == "entrant":
        return ref
    result = outcome.get(ref)
    if result is None:
        return None
    return result[0] if kind == "winner" else result[1]


def swap_in_round(*, round_: Round, a: int, b: int, by: Actor) -> Round:
    """Swap two entries in a draft round (seats, tables, or a seat and a bye); the quality
    figures are measured again."""
    competition = round_.competition
    _manager(by, competition.club)
    if round_.status != RoundStatus.DRAFT:
        raise violation("round", "not_allowed", reason="published")
    current = _round_as_schedule(round_)
    everyone = set(current.players)
    for field_, entry in (("a", a), ("b", b)):
        if entry not in everyone:
            raise violation(field_, "not_found", value=entry)
    history = selectors.meetings(competition, before=round_.number)
    _, _, sitting_out = table_policy(competition, round_.ruleset)
    edited = scheduling.swap(current, a, b, history=history)
    metrics = scheduling.measure([edited], list(everyone), history=history, sitting_out=sitting_out)
    with transaction.atomic():
        _store_tables(
            round_, edited.tables, edited.byes, metrics_dict(metrics), round_.method, round_.seed
        )
        _event(competition, by, "swap", round_=round_, a=a, b=b)
    return round_


def publish_round(*, round_: Round, by: Actor) -> Round:
    """Create the game of every table (the game page and its table link) and make the round
    public; entrants are e-mailed after commit if the competition says so."""
    competition = round_.competition
    _manager(by, competition.club)
    if round_.status != RoundStatus.DRAFT:
        raise violation("round", "not_allowed", reason="published")
    tables = list(
        round_.tables.prefetch_related("seats__entry__player", "seats__entry__partner").order_by(
            "number"
        )
    )
    if not tables:
        raise violation("round", "required", reason="no_tables")
    with transaction.atomic():
        for table in tables:
            entries = [s.entry for s in sorted(table.seats.all(), key=lambda s: s.position)]
            if competition.pairs:
                players = [
                    entries[0].player,
                    entries[1].player,
                    entries[0].partner,
                    entries[1].partner,
                ]
            else:
                players = [e.player for e in entries]
            game = scoring.start_game(
                club=competition.club,
                ruleset=round_.ruleset,
                players=players,
                options=competition.options.get(round_.ruleset) or {},
                title=f"{competition.name} · R{round_.number} · T{table.number}",
                public_live=competition.public,
                context=GAME_CONTEXT,
                by=Actor.system(via="page") if by.user is None else by,
            )
            table.game = game
            table.save(update_fields=["game"])
        round_.status = RoundStatus.PUBLISHED
        round_.published_at = timezone.now()
        round_.save(update_fields=["status", "published_at"])
        _event(
            competition,
            by,
            "publish_round",
            round_=round_,
            number=round_.number,
            tables=len(tables),
        )
        if competition.notify_entrants:
            from tournaments.tasks import announce_round

            announce_round.delay_on_commit(round_.pk)
    return round_


def close_round(*, round_: Round, by: Actor) -> Round:
    """Close a round once every table's game is finished or the table was forfeited."""
    competition = round_.competition
    _manager(by, competition.club)
    if round_.status != RoundStatus.PUBLISHED:
        raise violation("round", "not_allowed", reason="not_published")
    open_tables = [
        t.number
        for t in round_.tables.select_related("game")
        if not t.forfeited and (t.game is None or t.game.status != GameStatus.FINISHED)
    ]
    if open_tables:
        raise violation("round", "unfinished", tables=tuple(open_tables))
    with transaction.atomic():
        round_.status = RoundStatus.CLOSED
        round_.closed_at = timezone.now()
        round_.save(update_fields=["status", "closed_at"])
        _event(competition, by, "close_round", round_=round_, number=round_.number)
    return round_


def _decimal(value: Any, field_: str) -> Decimal:
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise violation(field_, "type", expected="integer") from None
    if not number.is_finite() or abs(number) > 10_000:
        raise violation(field_, "range", min=-10_000, max=10_000, value=str(value))
    return number


def forfeit_table(
    *, table: Table, by: Actor, reason: str, points: Mapping[int, Any] | None = None
) -> Table:
    """The organizer settles a table that cannot finish: its game is abandoned (its hands stay
    readable), and each entry may be given points instead, with the reason (audited)."""
    round_ = table.round
    competition = round_.competition
    _manager(by, competition.club)
    if not isinstance(reason, str) or not reason.strip():
        raise violation("reason", "required")
    if round_.status != RoundStatus.PUBLISHED:
        raise violation("round", "not_allowed", reason="not_published")
    if table.forfeited:
        raise violation("table", "not_allowed", reason="forfeited")
    if table.game is not None and table.game.status == GameStatus.FINISHED:
        raise violation("table", "not_allowed", reason="finished")
    if points is not None and not isinstance(points, Mapping):
        raise violation("points", "type", expected="object")
    seated = set(table.seats.values_list("entry_id", flat=True))
    given: dict[int, Decimal] = {}
    for key, value in (points or {}).items():
        if isinstance(key, int) and not isinstance(key, bool):
            entry_id = key
        elif isinstance(key, str) and key.strip().isdigit():
            entry_id = int(key)
        else:
            raise violation(f"points.{key}", "type", expected="integer")
        if entry_id not in seated:
            raise violation(f"points.{key}", "not_found", value=key)
        given[entry_id] = _decimal(value, f"points.{key}")
    if competition.format == Format.KNOCKOUT:
        # Somebody must go through: the entry given more points wins the match.
        totals = sorted((given.get(e, Decimal(0)) for e in seated), reverse=True)
        if len(totals) < 2 or totals[0] == totals[1]:
            raise violation("points", "required", reason="knockout_winner")
    with transaction.atomic():
        if table.game is not None and table.game.status == GameStatus.IN_PROGRESS:
            scoring.abandon_game(game=table.game, by=by, reason=reason)
        table.forfeited = True
        table.forfeit_reason = reason.strip()
        table.save(update_fields=["forfeited", "forfeit_reason"])
        for entry_id, value in given.items():
            Adjustment.objects.create(
                competition=competition,
                round=round_,
                entry_id=entry_id,
                points=value,
                reason=reason.strip(),
                by=by.user,
            )
        _event(
            competition,
            by,
            "forfeit_table",
            round_=round_,
            reason=reason.strip(),
            table=table.number,
            points={str(k): str(v) for k, v in given.items()},
        )
    _recompute_standings_later(competition)
    return table


def adjust(
    *,
    competition: Competition,
    entry: Entry,
    points: Any,
    reason: str,
    by: Actor,
    round_: Round | None = None,
) -> Adjustment:
    _manager(by, competition.club)
    if not isinstance(reason, str) or not reason.strip():
        raise violation("reason", "required")
    if entry.competition_id != competition.pk:
        raise violation("entry", "not_found", value=entry.pk)
    value = _decimal(points, "points")
    with transaction.atomic():
        adjustment = Adjustment.objects.create(
            competition=competition,
            round=round_,
            entry=entry,
            points=value,
            reason=reason.strip(),
            by=by.user,
        )
        _event(
            competition,
            by,
            "adjust",
            round_=round_,
            entry=entry.pk,
            points=str(value),
            reason=reason.strip(),
        )
    _recompute_standings_later(competition)
    return adjustment


def store_standings(*, competition: Competition) -> dict[str, Any]:
    """Recompute the standings from the games and keep them in the snapshot (a cache)."""
    from tournaments.models import StandingsSnapshot

    data = selectors.standings_of(competition)
    with transaction.atomic():
        snapshot, created = StandingsSnapshot.objects.select_for_update().get_or_create(
            competition=competition, defaults={"data": data}
        )
        if not created and snapshot.data != data:
            snapshot.data = data
            snapshot.version += 1
            snapshot.computed_at = timezone.now()
            snapshot.save(update_fields=["data", "version", "computed_at"])
    return data


def competitions_of_game(game_id: int) -> list[int]:
    return list(
        Competition.objects.filter(rounds__tables__game_id=game_id)
        .values_list("pk", flat=True)
        .distinct()
    )
