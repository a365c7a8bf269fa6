"""Files a competition gives away: the iCalendar feed of its rounds (and the apps' dated events:
a palio's team matches, ``CALENDAR_ENTRIES``), and the
standings as CSV (every cell that could start a spreadsheet formula is quoted: ``csv_cell``).

Both are public pages (``public_or_404``). Round and team match times are the club's
wall-clock times turned into UTC for the calendar.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition

from scoring.labels import game_name
from scoring.links import site_url
from scoring.views.access import fingerprint
from tournaments import selectors
from tournaments.extensions import CALENDAR_ENTRIES
from tournaments.presenters import (
    club_zone,
    format_figure,
    round_times,
    standings_columns,
)
from tournaments.views.access import public_or_404
from tournaments.views.public import competition_fields, rounds_fields, rounds_of


@dataclass(frozen=True)
class CalendarEntry:
    """A dated event an app adds to a competition's calendar (``CALENDAR_ENTRIES``): ``key``
    makes its UID (``segnapunti-<key>@<host>``), ``times`` its start and end (aware), or
    ``None`` for a whole day."""

    key: str
    date: dt.date
    times: tuple[dt.datetime, dt.datetime] | None
    summary: str
    description: str
    location: str
    url: str


def calendar_entries(request, competition) -> list[CalendarEntry]:
    """The apps' dated events of the competition, cached on the request so that the ETag
    function and the feed share them."""
    cache = request.__dict__.setdefault("_calendar_entries", {})
    if competition.pk not in cache:
        cache[competition.pk] = [
            entry for hook in CALENDAR_ENTRIES for entry in hook(request, competition)
        ]
    return cache[competition.pk]


def _calendar_etag(request, club_slug: str, slug: str) -> str | None:
    """What the feed holds: the rounds and the apps' dated events, the competition and club,
    the language and the site's address (two queries after the competition, shared with the
    feed itself); calendar apps poll it with If-None-Match."""
    try:
        competition, _role = public_or_404(request, club_slug, slug)
    except Http404:
        return None
    digest = fingerprint(
        competition_fields(competition),
        rounds_fields(rounds_of(request, competition)),
        calendar_entries(request, competition),
        get_language(),
        site_url(request, "/"),
    )
    return f"calendar-{competition.pk}-{digest}"


def ics_escape(text: str) -> str:
    """TEXT value escaping of RFC 5545 (3.3.11)."""
    return (
        str(text)
        .replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\r", "\\n")
        .replace("\n", "\\n")
    )


def ics_fold(line: str) -> str:
    """Lines longer than 75 octets are folded: CRLF and a space (RFC 5545 3.1), never inside
    a UTF-8 character."""
    parts, current, limit = [], b"", 75
    for char in line:
        encoded = char.encode("utf-8")
        if len(current) + len(encoded) > limit:
            parts.append(current.decode("utf-8"))
            current, limit = b"", 74
        current += encoded
    parts.append(current.decode("utf-8"))
    return "\r\n ".join(parts)


def _utc(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def _event(
    *,
    uid: str,
    stamp: str,
    date: dt.date,
    times: tuple[dt.datetime, dt.datetime] | None,
    summary: str,
    description: str,
    location: str,
    url: str,
) -> list[str]:
    """One VEVENT: a whole day when there is no start time, else its UTC start and end."""
    if times is None:
        when = [
            f"DTSTART;VALUE=DATE:{date:%Y%m%d}",
            f"DTEND;VALUE=DATE:{date + dt.timedelta(days=1):%Y%m%d}",
        ]
    else:
        when = [f"DTSTART:{_utc(times[0])}", f"DTEND:{_utc(times[1])}"]
    return [
        "BEGIN:VEVENT",
        f"UID:{uid}",
        f"DTSTAMP:{stamp}",
        *when,
        f"SUMMARY:{ics_escape(summary)}",
        f"DESCRIPTION:{ics_escape(description)}",
        f"LOCATION:{ics_escape(location)}",
        f"URL:{url}",
        "STATUS:CONFIRMED",
        "END:VEVENT",
    ]


@cache_control(private=True, no_cache=True)
@condition(etag_func=_calendar_etag)
def calendar_ics(request, club_slug: str, slug: str):
    """An iCalendar feed: one VEVENT per dated round (times in UTC, computed from the club's
    wall-clock date, start time and duration), each with the link of its public page on the
    address the feed was read on (``SITE_URL`` when set); then one per event the apps add
    (``CALENDAR_ENTRIES``: a palio's dated team matches)."""
    competition, _role = public_or_404(request, club_slug, slug)
    club = competition.club
    zone = club_zone(club)
    # A round's UID stays the same whatever address the feed is read on (a calendar app would
    # otherwise see new events); the links in it are on that address (``scoring.links``).
    host = urlsplit(settings.SITE_URL).hostname or "segnapunti"
    stamp = _utc(timezone.now())
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Segnapunti//Competitions//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{ics_escape(competition.name)}",
        f"X-WR-TIMEZONE:{club.time_zone}",
    ]
    for round_ in [r for r in rounds_of(request, competition) if r.date is not None]:
        game = game_name(round_.ruleset)
        url = site_url(
            request, reverse("public-round", args=[club.slug, competition.slug, round_.number])
        )
        lines += _event(
            uid=f"segnapunti-round-{round_.pk}@{host}",
            stamp=stamp,
            date=round_.date,
            times=round_times(round_, zone),
            summary=f"{competition.name} · {round_.label}",  # "Night 3" in a league
            description=f"{game}. {url}",
            location=club.name,
            url=url,
        )
    for entry in calendar_entries(request, competition):
        lines += _event(
            uid=f"segnapunti-{entry.key}@{host}",
            stamp=stamp,
            date=entry.date,
            times=entry.times,
            summary=entry.summary,
            description=entry.description,
            location=entry.location,
            url=entry.url,
        )
    lines.append("END:VCALENDAR")
    body = "".join(ics_fold(line) + "\r\n" for line in lines)
    response = HttpResponse(body.encode("utf-8"), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{competition.slug}.ics"'
    return response


#: What a spreadsheet would run as a formula (OWASP "CSV injection"): a cell starting with one
#: of these characters, unless it is a plain number.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:[.,][0-9]+)?")


def csv_cell(value: Any) -> Any:
    """``value`` made safe for a spreadsheet: text that could start a formula gets a leading
    single quote, which spreadsheets show as text; numbers (``-12``, ``0,5``) stay numbers."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    if PLAIN_NUMBER.fullmatch(value):
        return value
    return "'" + value


def write_row(writer: Any, cells: list[Any]) -> None:
    """One CSV row, every cell through :func:`csv_cell`."""
    writer.writerow([csv_cell(cell) for cell in cells])


def decimal_comma(asked: str | None) -> bool:
    """Whether the figures are written 1,5: as asked (``comma`` or ``point``), otherwise as
    the reader's language writes them (Italian and French: a comma, which their spreadsheets
    need beside the semicolons; English: a point)."""
    if asked in ("comma", "point"):
        return asked == "comma"
    return formats.get_format("DECIMAL_SEPARATOR") == ","


def standings_csv(request, club_slug: str, slug: str):
    """The standings as a spreadsheet: semicolons, a header row; ``?bom=1`` starts the file
    with a UTF-8 BOM; the figures follow the reader's language (1,5 in Italian and French,
    1.5 in English) unless ``?decimal=comma`` or ``?decimal=point`` says otherwise;
    ``?table=<game>`` picks a game's table of a mixed league."""
    competition, _role = public_or_404(request, club_slug, slug)
    data = selectors.standings_of(competition)
    wanted = request.GET.get("table", "overall")
    table = next((t for t in data["tables"] if t["key"] == wanted), data["tables"][0])
    comma = decimal_comma(request.GET.get("decimal"))
    columns = standings_columns(table)
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    write_row(
        writer,
        [
            _("Rank"),
            _("Name"),
            _("Points"),
            *[label for _key, label in columns],
            _("Games"),
            _("Rounds"),
            _("Status"),
        ],
    )
    for row in table["rows"]:
        if row["withdrawn"]:
            state = _("withdrawn")
        elif not row["ranked"]:
            state = _("not ranked")
        else:
            state = ""
        write_row(
            writer,
            [
                row["rank"] if row["ranked"] and row["rank"] is not None else "",
                row["name"],
                format_figure(row["points"], comma=comma),
                *[format_figure(row["values"].get(key), comma=comma) for key, _label in columns],
                row["games"],
                row["rounds"],
                state,
            ],
        )
    text = ("\ufeff" if request.GET.get("bom") == "1" else "") + buffer.getvalue()
    response = HttpResponse(text.encode("utf-8"), content_type="text/csv; charset=utf-8")
    suffix = "" if table["key"] == "overall" else f"-{table['key']}"
    response["Content-Disposition"] = (
        f'attachment; filename="{competition.slug}{suffix}-standings.csv"'
    )
    return response
