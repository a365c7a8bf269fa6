"""What a results picture shows (``tournaments.pictures``), read as plain rows: the standings
after a closed round (recomputed from the games of that round and the ones before, as the
standings themselves are) or as they stand now (the snapshot), and the prizes once final."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

from django.conf import settings

from tournaments import standings as pure
from tournaments.models import Competition, Entry, RoundStatus
from tournaments.selectors.prizes import awarded
from tournaments.selectors.standings import adjustments_of, as_json_number, results_of


def standings_after(competition: Competition, number: int) -> list[dict[str, Any]]:
    """The overall standings' rows (``rank``, ``ranked``, ``entry``, ``name``, ``points``) as
    they stood once round ``number`` was played: the games of rounds 1 to ``number``, the
    adjustments of those rounds and the ones of no round. Ranked by points and tie-breaks (a
    knockout's bracket ranks only the final standings)."""
    results = [r for r in results_of(competition) if r.group <= number]
    adjustments = [a for a in adjustments_of(competition) if a.group <= number]
    entrants = {r.entrant for r in results} | {a.entrant for a in adjustments}
    placement = {int(k): tuple(v) for k, v in (competition.placement_points or {}).items()}
    computed = pure.compute(
        results,
        scheme=competition.scheme,
        tie_breaks=[
            t for t in (competition.tie_breaks or pure.DEFAULT_TIE_BREAKS) if t in pure.TIE_BREAKS
        ],
        placement_points=placement or None,
        best_of=competition.best_of,
        min_groups=competition.min_rounds,
        adjustments=adjustments,
        entrants=sorted(entrants),
    )
    names = {
        pk: Entry.name_of(player, partner)
        for pk, player, partner in competition.entries.filter(pk__in=entrants).values_list(
            "pk", "player__display_name", "partner__display_name"
        )
    }
    return [
        {
            "rank": row.rank,
            "ranked": row.ranked,
            "entry": row.entrant,
            "name": names.get(row.entrant, "?"),
            "points": as_json_number(row.points),
        }
        for row in computed.rows
    ]


def final_prizes(competition: Competition) -> list[dict[str, Any]]:
    """The prizes won, once the results are final (none before, as on the public page)."""
    return awarded(competition) if competition.finalized_at is not None else []


def played_days(competition: Competition, number: int | None = None) -> tuple[dt.date, dt.date]:
    """The days a results picture stands for, first and last: round ``number``'s own day, or
    those of every closed round; a round's day is its date, else the day it was closed (in the
    club's time zone). With no such round, the competition's own dates, else today."""
    rounds = competition.rounds.filter(status=RoundStatus.CLOSED)
    if number is not None:
        rounds = rounds.filter(number=number)
    try:
        zone = zoneinfo.ZoneInfo(competition.club.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # a zone this server does not know
        zone = zoneinfo.ZoneInfo(settings.TIME_ZONE)
    days = [
        date or closed.astimezone(zone).date()
        for date, closed in rounds.values_list("date", "closed_at")
        if date or closed
    ]
    if days:
        return min(days), max(days)
    first = competition.start_date or competition.end_date or dt.datetime.now(zone).date()
    return first, competition.end_date or first
