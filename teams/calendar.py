"""A palio's dated team matches in its competition's ``calendar.ics``
(``tournaments.extensions.CALENDAR_ENTRIES``)."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.links import site_url
from teams.models import TeamMatch
from tournaments.presenters import club_zone
from tournaments.views.exports import CalendarEntry

#: How long a team match lasts in the calendar: its boards are played side by side, and a
#: palio's evening of two or three Briscola games at each board takes about two hours. Team
#: matches have a date and a start time, no duration of their own.
TEAM_MATCH_MINUTES = 120


def team_match_times(match: TeamMatch, zone) -> tuple[dt.datetime, dt.datetime] | None:
    """Start and end of a dated and timed team match, aware, in the club's zone (as a round's,
    ``round_times``, with ``TEAM_MATCH_MINUTES`` for its duration)."""
    if match.date is None or match.start_time is None:
        return None
    start = dt.datetime.combine(match.date, match.start_time, tzinfo=zone)
    end = start.astimezone(dt.UTC) + dt.timedelta(minutes=TEAM_MATCH_MINUTES)
    return start, end.astimezone(zone)


def team_match_entries(request, competition) -> list[CalendarEntry]:
    """One entry per dated team match ("Home – Away" at the venue club, linking the team
    standings), in date order (one query)."""
    matches = list(
        TeamMatch.objects.filter(competition=competition, date__isnull=False)
        .select_related("home", "away", "venue")
        .order_by("date", "start_time", "round_number", "number")
    )
    if not matches:
        return []
    club = competition.club
    zone = club_zone(club)
    url = site_url(request, reverse("public-team-standings", args=[club.slug, competition.slug]))
    return [
        CalendarEntry(
            key=f"team-match-{match.pk}",
            date=match.date,
            times=team_match_times(match, zone),
            summary=f"{match.home.name} – {match.away.name}",
            description=f"{competition.name} · {_('Round %(n)s') % {'n': match.round_number}}. "
            f"{url}",
            location=match.venue.name,
            url=url,
        )
        for match in matches
    ]
