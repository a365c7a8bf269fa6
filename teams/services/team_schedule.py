"""The dates of a competition between teams: an organizer dates a whole round of matches
("giornata 3, Tuesday 14 at 21:00") or one match of it (``docs/team-standings.md``).

A match's ``date`` and ``start_time`` are the host club's wall-clock time, as a round's are; the
calendar feed turns them into UTC with the club's time zone. A match whose result is confirmed
was played: its date is history and no longer changes. Dating a round leaves its played matches
as they are and dates the others; a round where every match was played is refused.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction

from scoring.services import Actor, violation
from teams.models import TeamMatch, TeamRules
from tournaments.models import Competition
from tournaments.services._common import lock, record_event, require_manager


def _check_when(competition: Competition, date: Any, start_time: Any) -> None:
    """``date`` (a date or None: not dated) within the competition's first and last day when
    they are set; ``start_time`` (a time or None) only with a date."""
    if date is not None and (not isinstance(date, dt.date) or isinstance(date, dt.datetime)):
        raise violation("date", "type", expected="date")
    if start_time is not None and not isinstance(start_time, dt.time):
        raise violation("start_time", "type", expected="time")
    if date is None:
        if start_time is not None:
            raise violation("start_time", "inconsistent", reason="time_without_date")
        return
    if competition.start_date is not None and date < competition.start_date:
        raise violation(
            "date",
            "range",
            reason="before_competition",
            start=competition.start_date.isoformat(),
            value=date.isoformat(),
        )
    if competition.end_date is not None and date > competition.end_date:
        raise violation(
            "date",
            "range",
            reason="after_competition",
            end=competition.end_date.isoformat(),
            value=date.isoformat(),
        )


def _matches(competition: Competition, round_number: Any, match: Any) -> list[TeamMatch]:
    """Under the competition's lock: the matches to date, as read now (one match when
    ``match`` is given, else every match of ``round_number`` not played yet)."""
    if match is not None:
        pk = match.pk if isinstance(match, TeamMatch) else match
        if not isinstance(pk, int) or isinstance(pk, bool):
            raise violation("match", "type", expected="integer")
        found = TeamMatch.objects.filter(competition=competition, pk=pk).first()
        if found is None or round_number not in (None, found.round_number):
            raise violation("match", "not_found", reason="team_match_elsewhere", value=pk)
        if found.confirmed_at is not None:
            raise violation("match", "not_allowed", reason="match_played")
        return [found]
    if not isinstance(round_number, int) or isinstance(round_number, bool):
        raise violation("round_number", "type", expected="integer")
    matches = list(
        TeamMatch.objects.filter(competition=competition, round_number=round_number).order_by(
            "number"
        )
    )
    if not matches:
        raise violation("round_number", "not_found", reason="no_team_round", value=round_number)
    waiting = [m for m in matches if m.confirmed_at is None]
    if not waiting:
        raise violation("round_number", "not_allowed", reason="team_round_played")
    return waiting


def schedule_team_matches(
    *,
    competition: Competition,
    by: Actor,
    round_number: int | None,
    date: dt.date | None,
    start_time: dt.time | None = None,
    match: TeamMatch | int | None = None,
) -> list[TeamMatch]:
    """Date the matches of round ``round_number`` still to play (or only ``match``, of that
    round when ``round_number`` is given): on ``date`` at ``start_time`` (None: the time is not
    known yet), the host club's wall-clock time. ``date=None`` takes the date away.

    Refused by name, with nothing stored: a round with no match (``round_number``) or whose
    every match was played, a match of another competition or round, or already played
    (``match``), a date before the competition's first day or after its last (``date``), a
    time without a date (``start_time``). Returns the matches dated."""
    require_manager(by, competition.club)
    with transaction.atomic():
        lock(competition)
        if not TeamRules.objects.filter(competition=competition).exists():
            raise violation("competition", "not_allowed", reason="not_teams")
        _check_when(competition, date, start_time)
        matches = _matches(competition, round_number, match)
        for m in matches:
            m.date, m.start_time = date, start_time
        TeamMatch.objects.bulk_update(matches, ["date", "start_time"])
        record_event(
            competition,
            by,
            "schedule_team_matches",
            round_number=matches[0].round_number,
            matches=[m.pk for m in matches],
            date=date.isoformat() if date else None,
            start_time=start_time.strftime("%H:%M") if start_time else None,
        )
    return matches
