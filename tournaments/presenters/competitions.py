"""A competition's calendar and names as its pages show them: the club's time zone, a round's
times and schedule row, the games' names, and names sorted as a reader expects."""

from __future__ import annotations

import datetime as dt
import unicodedata
import zoneinfo

from django.conf import settings

from scoring.labels import game_name
from scoring.models import Club
from scoring.rules import RULESETS
from tournaments.models import Competition, Round


def club_zone(club: Club) -> zoneinfo.ZoneInfo:
    """The club's time zone; the site's when the club names one this server does not know."""
    try:
        return zoneinfo.ZoneInfo(club.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def round_times(round_: Round, zone: zoneinfo.ZoneInfo) -> tuple[dt.datetime, dt.datetime] | None:
    """Start and end of a dated and timed round, as aware datetimes in the club's zone."""
    if round_.date is None or round_.start_time is None:
        return None
    start = dt.datetime.combine(round_.date, round_.start_time, tzinfo=zone)
    end = (start.astimezone(dt.UTC) + dt.timedelta(minutes=round_.duration_minutes)).astimezone(
        zone
    )
    return start, end


def game_names(competition: Competition) -> list[str]:
    """The names of the games a competition plays, in its order."""
    return [game_name(key) for key in competition.rulesets if key in RULESETS]


def schedule_row(round_: Round, zone) -> dict:
    """A round's date and wall-clock start and end in the club's zone (plain times, so that
    templates show them as they are, whatever the visitor's zone)."""
    times = round_times(round_, zone)
    return {
        "round": round_,
        "game": game_name(round_.ruleset),
        "date": round_.date,
        "start": times[0].time() if times else None,
        "end": times[1].time() if times else None,
        "next_day": bool(times) and times[1].date() != times[0].date(),
    }


def alphabetical(name: str) -> tuple[str, str]:
    """A sort key for names as a reader expects them: case and accents aside ("Élodie" with
    the E's), then as written."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return plain.casefold(), name
