"""What a results picture of a competition says, in its club's language: the club, the
competition, which standings (after a closed round, or final / as they stand), their top, and
the prizes won once the results are final, and the day (or first and last days) of the event:
its rounds played, not the day the picture is drawn."""

from __future__ import annotations

from django.utils import formats, translation
from django.utils.translation import gettext

from tournaments.models import Competition
from tournaments.pictures.layout import Content, Line, Prize
from tournaments.selectors.pictures import final_prizes, played_days, standings_after
from tournaments.selectors.standings import snapshot_of

#: The most rows any shape shows.
TOP = 10


def content_of(
    competition: Competition, number: int | None, data: dict | None = None, *, dated: bool = True
) -> Content:
    """The picture of the standings after round ``number``, or of the standings now (final
    when the results are declared final) when ``number`` is None: their snapshot's ``data``
    when the caller has it already, else read. Its footer names the event's days, read unless
    not ``dated`` (the text alternative has no footer: the public page reads no more)."""
    with translation.override(competition.club.language):
        if number is None:
            if data is None:
                snapshot = snapshot_of(competition)
                data = snapshot.data if snapshot else {}
            rows = data["tables"][0]["rows"] if data.get("tables") else []
            final = competition.finalized_at is not None
            title = gettext("Final standings") if final else gettext("Standings")
            prizes = final_prizes(competition)
        else:
            rows = standings_after(competition, number)
            title = gettext("Standings after %(round)s") % {
                "round": competition.round_label(number)
            }
            prizes = []
        return Content(
            club=competition.club.name,
            competition=competition.name,
            title=title,
            points_label=gettext("points"),
            lines=tuple(_line(row) for row in rows if row.get("ranked", True))[:TOP],
            prizes_label=gettext("Prizes"),
            prizes=tuple(
                Prize(place=a["place"], name=a["name"], prize=str(a["prize"])) for a in prizes
            ),
            footer=f"Segnapunti · {_days(*played_days(competition, number))}"
            if dated
            else "Segnapunti",
        )


def _days(first, last) -> str:
    """The event's day, or its first and last days: "3 – 17 novembre 2026"."""
    if first == last:
        return formats.date_format(last, "j F Y")
    start = "j" if (first.year, first.month) == (last.year, last.month) else "j F"
    if first.year != last.year:
        start = "j F Y"
    return f"{formats.date_format(first, start)} – {formats.date_format(last, 'j F Y')}"


def _line(row: dict) -> Line:
    rank = "" if row.get("rank") is None else str(row["rank"])
    return Line(
        rank=rank, name=row["name"], points=formats.number_format(row["points"], use_l10n=True)
    )
