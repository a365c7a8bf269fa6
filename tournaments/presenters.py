"""View-model code of the competition pages: rows and figures turned into what templates show.

Times of a round in the club's zone, schedule rows, standings tables with localized figures,
the quality figures of a draw with their notes, a table's seats and scores, and the answer to
"where do I sit?". No writes and no request here: the views in ``tournaments.views`` load the
rows and hand them over.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
import zoneinfo
from decimal import Decimal
from fractions import Fraction

from django.conf import settings
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.labels import game_name
from scoring.models import Club, GameStatus
from scoring.rules import RULESETS
from tournaments import standings as pure
from tournaments.labels import SCHEME_LABELS, TIE_BREAK_LABELS, bracket_round_label
from tournaments.models import Competition, Entry, Round, RoundStatus, Table, TableSeat
from tournaments.scheduling.double_elimination import (
    DOUBLE,
    GRAND_FINAL,
    LOSERS,
    RESET,
    WINNERS,
    bracket_ranking,
    reset_needed,
    section_rounds,
)
from tournaments.scheduling.knockout import ENTRANT, WINNER, occupant


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


def format_figure(value, *, comma: bool | None = None) -> str:
    """A standings figure: localized for a page, ``comma``/point for a CSV file."""
    if value is None or value == "":
        return ""
    if comma is None:
        return formats.number_format(value, use_l10n=True)
    text = format(Decimal(str(value)).normalize(), "f") if isinstance(value, float) else str(value)
    return text.replace(".", ",") if comma else text


def standings_columns(table: dict) -> list[tuple[str, str]]:
    """A standings table's tie-break columns as (key, label): the points have their own column."""
    columns = [(key, str(TIE_BREAK_LABELS.get(key, label))) for key, label in table["columns"]]
    return [c for c in columns if c[0] != "points"]


def standings_tables(data: dict) -> list[dict]:
    """The snapshot's tables ready for a template: tie-break columns (the points have their own
    column), ranked rows then unranked ones, figures formatted."""
    tables = []
    for table in data.get("tables", []):
        columns = standings_columns(table)
        rows = [
            row
            | {
                "points_text": format_figure(row["points"]),
                "cells": [format_figure(row["values"].get(key)) for key, _label in columns],
                "nights": [
                    {
                        "number": number,
                        "points": points,
                        "text": format_figure(points),
                        "counted": counted,
                    }
                    for number, points, counted in row.get("nights", ())
                ],
            }
            for row in table["rows"]
        ]
        tables.append(
            {
                "key": table["key"],
                "title": table["title"],
                "columns": columns,
                "ranked": [r for r in rows if r["ranked"]],
                "unranked": [r for r in rows if not r["ranked"]],
            }
        )
    return tables


def table_done(table: Table) -> bool:
    return table.forfeited or (
        table.game is not None and table.game.status != GameStatus.IN_PROGRESS
    )


METRICS = (
    ("byes_per_player", gettext_lazy("Byes per player"), "range"),
    ("first_dealer", gettext_lazy("First dealer per player"), "range"),
    ("sit_outs", gettext_lazy("Sitting out per player"), "range"),
    ("lower_bound", gettext_lazy("Rounds possible without a repeat"), "one"),
    ("seconds", gettext_lazy("Time to draw"), "seconds"),
)


def _metric_notes() -> dict[str, str]:
    return {
        "byes_per_player": _("Rounds a player sits out entirely: fewest – most."),
        "first_dealer": _("Times a player deals first (seat 1): fewest – most."),
        "sit_outs": _(
            "Times a player is the dealer who sits out at a larger table: fewest – most."
        ),
        "lower_bound": _("The most rounds this many players can play without meeting twice."),
        "seconds": _("How long the draw took."),
    }


def metrics_rows(metrics: dict) -> list[dict]:
    """The figures of a draw other than its repeats, with a short explanation each. The draw
    time only when the figures come from a draw (a swap measures, it does not draw)."""
    notes = _metric_notes()
    rows = []
    for key, label, kind in METRICS:
        if key not in metrics:
            continue
        value = metrics[key]
        if kind == "range":
            low, high = [*value, 0, 0][:2]
            text = str(low) if low == high else f"{low}–{high}"
        elif kind == "seconds":
            text = _("%(s)s s") % {"s": formats.number_format(value, use_l10n=True)}
        else:
            text = str(value)
        rows.append({"key": key, "label": label, "value": text, "note": notes[key]})
    return rows


def alphabetical(name: str) -> tuple[str, str]:
    """A sort key for names as a reader expects them: case and accents aside ("Élodie" with
    the E's), then as written."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return plain.casefold(), name


def pair_name(names: dict[int, str], a: int, b: int) -> str:
    """Two entries named together, alphabetically: "Anna and Bruno"."""
    first, second = sorted((names.get(a, "?"), names.get(b, "?")), key=alphabetical)
    return _("%(a)s and %(b)s") % {"a": first, "b": second}


def _pairs(tables) -> list[tuple[int, int]]:
    return [
        (min(x, y), max(x, y))
        for table in tables
        for i, x in enumerate(table)
        for y in table[i + 1 :]
    ]


def repeats_of(drawn: dict[int, list[tuple[int, ...]]], number: int) -> dict:
    """Who repeats, from every round's tables (``selectors.drawn_tables``): ``this_round`` maps
    how often a pair met in earlier rounds to the pairs of round ``number`` that meet again;
    ``plan`` maps a number of meetings (2 or more) to the pairs that meet that often over all
    the rounds."""
    met: dict[tuple[int, int], int] = {}
    this_round: dict[int, list[tuple[int, int]]] = {}
    for n, tables in sorted(drawn.items()):
        pairs = _pairs(tables)
        if n == number:
            for key in pairs:
                if met.get(key):
                    this_round.setdefault(met[key], []).append(key)
        for key in pairs:
            met[key] = met.get(key, 0) + 1
    plan: dict[int, list[tuple[int, int]]] = {}
    for key, count in met.items():
        if count > 1:
            plan.setdefault(count, []).append(key)
    return {"this_round": this_round, "plan": plan}


def _named_groups(groups: dict[int, list[tuple[int, int]]], names, heading) -> list[dict]:
    return [
        {
            "count": count,
            "heading": heading(count),
            "pairs": sorted((pair_name(names, a, b) for a, b in groups[count]), key=alphabetical),
        }
        for count in sorted(groups, reverse=True)
    ]


def draw_quality(
    metrics: dict, drawn: dict[int, list[tuple[int, ...]]], number: int, names: dict[int, str]
) -> dict | None:
    """The quality of a draw in words: a headline (no repeat, or how many), the floors under
    the unavoidable repeats when the draw knows them, the pairs of this round who met before
    (grouped by how often), over a planned rotation the pairs who meet more than once, and the
    other figures (``metrics_rows``)."""
    if not metrics:
        return None
    repeated = metrics.get("repeated_pairs", 0)
    most = metrics.get("max_meetings", 0)
    if repeated:
        headline = ngettext(
            "%(count)s repeated meeting: two players sit together again.",
            "%(count)s repeated meetings: players sit together again.",
            repeated,
        ) % {"count": repeated}
        if most > 1:
            headline += " " + ngettext(
                "No pair meets more than once.",
                "No pair meets more than %(count)s times.",
                most,
            ) % {"count": most}
    else:
        headline = _("Nobody meets anybody twice.")
    bounds = metrics.get("bounds") or {}
    floor = ""
    if bounds:
        if bounds["fewest"]:
            floor = ngettext(
                "At least %(count)s repeated meeting is unavoidable;",
                "At least %(count)s repeated meetings are unavoidable;",
                bounds["fewest"],
            ) % {"count": bounds["fewest"]}
            floor += " " + ngettext(
                "no pair needs to meet more than once.",
                "no pair needs to meet more than %(count)s times.",
                bounds["spread"],
            ) % {"count": bounds["spread"]}
        else:
            floor = _("Nothing rules out a draw without any repeat for these rounds.")
    repeats = repeats_of(drawn, number)
    return {
        "good": not repeated,
        "headline": headline,
        "floor": floor,
        "objective": metrics.get("objective"),
        "this_round": _named_groups(
            repeats["this_round"],
            names,
            lambda c: ngettext("Met once before", "Met %(count)s times before", c) % {"count": c},
        ),
        "plan": _named_groups(
            repeats["plan"],
            names,
            lambda c: ngettext("Meet once", "Meet %(count)s times", c) % {"count": c},
        ),
        "rows": metrics_rows(metrics),
    }


def swap_effect(preview: dict) -> dict:
    """A swap's preview in words: repeated meetings and the most meetings of a pair, before and
    after."""
    before, after = preview["before"], preview["after"]
    return {
        "rows": [
            {
                "label": _("Repeated meetings"),
                "before": before.get("repeated_pairs", 0),
                "after": after["repeated_pairs"],
            },
            {
                "label": _("Most meetings of two players"),
                "before": before.get("max_meetings", 0),
                "after": after["max_meetings"],
            },
        ],
        "better": after["repeated_pairs"] < before.get("repeated_pairs", 0),
        "worse": after["repeated_pairs"] > before.get("repeated_pairs", 0),
    }


def timer_of(round_: Round, now: dt.datetime) -> dict:
    """The round timer at ``now``: ``state`` "idle" (not started: the round's expected
    duration), "running", "paused" or "over"; ``left`` and ``full`` in seconds; ``text`` as
    the screen shows it (h:mm:ss or mm:ss)."""
    full = round_.duration_minutes * 60
    left = round_.timer_left(now)
    if left == 0 and (round_.timer_started_at or round_.timer_remaining is not None):
        state = "over"
    elif round_.timer_started_at is not None:
        state = "running"
    elif round_.timer_remaining is not None:
        state = "paused"
    else:
        state = "idle"
    return {"state": state, "left": left, "full": full, "text": clock_text(left)}


def clock_text(seconds: int) -> str:
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def public_table(table: Table) -> dict:
    game = table.game
    seats = []
    if game is not None:
        place = {}
        if game.hand_count:
            place = {p.seat: p.place for p in game.rules.ranking(game.state())}
        seats = [
            {
                "name": s.player.display_name,
                "total": game.totals[s.index] if s.index < len(game.totals) else None,
                "place": place.get(s.index) if game.status == GameStatus.FINISHED else None,
            }
            for s in game.seats.all()
        ]
    else:
        seats = [{"name": s.entry.name, "total": None, "place": None} for s in table.seats.all()]
    return {"table": table, "game": game, "seats": seats}


def where_answer(competition: Competition, entry: Entry, zone) -> dict:
    playing = (
        competition.rounds.filter(status=RoundStatus.PUBLISHED)
        .filter(tables__seats__entry=entry)
        .order_by("number")
        .first()
    )
    if playing is None:
        playing = (
            competition.rounds.filter(status=RoundStatus.PUBLISHED, byes__entry=entry)
            .order_by("number")
            .first()
        )
    upcoming = competition.rounds.filter(status=RoundStatus.DRAFT).order_by("number").first()
    answer = {"entry": entry, "round": None, "next": None}
    if upcoming is not None:
        answer["next"] = schedule_row(upcoming, zone)
    if playing is None:
        return answer
    answer["round"] = schedule_row(playing, zone)
    seat = (
        TableSeat.objects.filter(table__round=playing, entry=entry)
        .select_related("table__game")
        .first()
    )
    if seat is None:
        answer["bye"] = True
        return answer
    table = seat.table
    others = [
        s.entry
        for s in table.seats.select_related("entry__player", "entry__partner").order_by("position")
    ]
    n_entries = len(others)
    if competition.pairs:
        seats = [seat.position + 1, seat.position + 1 + n_entries]
    else:
        seats = [seat.position + 1]
    answer |= {
        "table": table,
        "seats": seats,
        "deals_first": seat.position == 0,
        "with": [e for e in others if e.pk != entry.pk],
        "game": table.game,
    }
    return answer


def bracket_view(competition: Competition, drawn, rounds: list[Round]) -> dict:
    """The bracket page's columns: each round by its name, its matches with both sides (name,
    seed, who won), a side not known yet as "Winner of match 3"; the third-place match; the
    byes; and the ranking the bracket gives so far. ``drawn`` is ``selectors.bracket_of``."""
    bracket, outcomes = drawn
    rounds = [r for r in rounds if r.number >= (competition.knockout_from or 1)]
    entries = {e.pk: e for e in competition.entries.select_related("player", "partner")}
    seed_of = {entrant: i for i, entrant in enumerate(bracket.entrants, start=1)}
    total = len(bracket.rounds)

    def side(slot, match_number):
        entrant = occupant(slot, outcomes)
        result = outcomes.get(match_number)
        if entrant is None:
            pending = (
                _("Winner of match %(number)s")
                if slot.kind == WINNER
                else _("Loser of match %(number)s")
            )
            return {"name": pending % {"number": slot.ref}, "known": False}
        entry = entries.get(entrant)
        return {
            "name": entry.name if entry else "?",
            "seed": seed_of.get(entrant),
            "known": True,
            "won": result is not None and result[0] == entrant,
            "lost": result is not None and result[1] == entrant,
            "entered": slot.kind == ENTRANT,
        }

    def match(m, label=None):
        home, away = side(m.home, m.number), side(m.away, m.number)
        stage = rounds[m.round - 1] if m.round <= len(rounds) else None
        return {
            "number": m.number,
            "label": label,
            "home": home,
            "away": away,
            "sides": (home, away),
            "played": m.number in outcomes,
            "round": stage if stage is not None and stage.status != RoundStatus.DRAFT else None,
        }

    columns = []
    sections = _double_sections(bracket, outcomes, match) if bracket.kind == DOUBLE else []
    for index, matches in enumerate([] if sections else bracket.rounds):
        round_ = rounds[index] if index < len(rounds) else None
        columns.append(
            {
                "label": bracket_round_label(index, total),
                "round": round_,
                "public": round_ is not None and round_.status != RoundStatus.DRAFT,
                "matches": [match(m) for m in matches],
            }
        )
    third = None
    if bracket.third_place is not None:
        third = match(bracket.third_place, _("Third-place match"))
        columns[-1]["matches"].append(third)
    placings = [
        {
            "place": p.place,
            "decided": p.decided,
            "name": entries[p.entrant].name if p.entrant in entries else "?",
            "seed": seed_of[p.entrant],
        }
        for p in bracket_ranking(bracket, outcomes)
    ]
    return {
        "double": bracket.kind == DOUBLE,
        "sections": sections,
        "columns": columns,
        "third": third,
        "byes": [
            {"name": entries[e].name if e in entries else "?", "seed": seed_of[e]}
            for e in bracket.byes
        ],
        "ranking": placings,
        "finished": all(p["decided"] for p in placings),
    }


def _double_sections(bracket, outcomes, match) -> list[dict]:
    """A double elimination's winners' bracket, losers' bracket and grand final, each as columns
    of matches by its own rounds ("Winners round 1" … "Losers final", "Grand final (reset)")."""
    totals = section_rounds(bracket)
    by_number = {m.number: m for stage in bracket.rounds for m in stage}

    def label(section: str, r: int) -> str:
        if section == WINNERS:
            return (
                _("Winners final") if r == totals[section] else _("Winners round %(n)s") % {"n": r}
            )
        if section == LOSERS:
            return _("Losers final") if r == totals[section] else _("Losers round %(n)s") % {"n": r}
        return _("Grand final") if section == GRAND_FINAL else _("Grand final (reset)")

    titles = {
        WINNERS: _("Winners' bracket"),
        LOSERS: _("Losers' bracket"),
        GRAND_FINAL: _("Grand final"),
    }
    not_needed = reset_needed(bracket, outcomes) is False
    sections: dict[str, dict] = {}
    for number, section, r in bracket.labels:
        key = RESET if section == RESET else section
        home = sections.setdefault(
            GRAND_FINAL if key == RESET else key,
            {"key": GRAND_FINAL if key == RESET else key, "columns": {}},
        )
        column = home["columns"].setdefault(
            (section, r), {"label": label(section, r), "matches": [], "not_needed": False}
        )
        if section == RESET and not_needed:
            column["not_needed"] = True  # shown as a note, without its two would-be sides
        else:
            column["matches"].append(match(by_number[number]))
    for key in (WINNERS, LOSERS):
        # Byes can leave a losers' round without a match: the rounds shown count from 1.
        columns = list(sections.get(key, {}).get("columns", {}).values())
        for position, column in enumerate(columns, start=1):
            column["label"] = label(key, totals[key] if position == len(columns) else position)
    return [
        {"key": key, "title": titles[key], "columns": list(sections[key]["columns"].values())}
        for key in (WINNERS, LOSERS, GRAND_FINAL)
        if key in sections
    ]


TIE_BREAK_HELP = {
    "points": gettext_lazy("The points again: separates nobody already tied on points."),
    "game_score": gettext_lazy("The sum of the games' own scores (lowest-wins games inverted)."),
    "wins": gettext_lazy("The number of games won (first place, shared ones included)."),
    "head_to_head": gettext_lazy(
        "The points earned in the games where the tied players sat together."
    ),
    "opponents_strength": gettext_lazy(
        "The sum of the points of every opponent met, once per meeting."
    ),
    "hands_won": gettext_lazy("The number of hands won (Briscola)."),
    "card_points": gettext_lazy("The sum of card points taken (Briscola)."),
    "games_played": gettext_lazy("The number of games played: more ranks higher."),
}


def points_by_table_size(competition: Competition) -> list[dict]:
    """The points of each place at each table size, under the competition's scheme (placement
    schemes only; an empty list for the others)."""
    if competition.scheme == "fair_placement":
        rows = {size: pure.fair_row(size) for size in pure.DEFAULT_PLACEMENT_POINTS}
    elif competition.scheme == "placement":
        overrides = {int(k): v for k, v in (competition.placement_points or {}).items()}
        rows = {
            size: tuple(Fraction(str(p)) for p in points)
            for size, points in ({**pure.DEFAULT_PLACEMENT_POINTS, **overrides}).items()
        }
    else:
        return []

    def shown(value: Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 2)

    return [
        {"size": size, "points": [format_figure(shown(p)) for p in rows[size]]}
        for size in sorted(rows)
    ]


def standings_explained(competition: Competition, data: dict) -> dict:
    """What the "how these standings are computed" page shows, with this competition's own
    numbers: the scheme and its points per table size, best-N and attendance, the tie-breaks
    in order, and the leader's line worked out night by night."""
    tables = standings_tables(data)
    overall = tables[0] if tables else None
    example = None
    if overall and overall["ranked"]:
        leader = overall["ranked"][0]
        nights_sum = sum(n["points"] for n in leader["nights"] if n["counted"])
        example = leader | {
            "counted": [n for n in leader["nights"] if n["counted"]],
            "dropped": [n for n in leader["nights"] if not n["counted"]],
            "adjusted": round(float(leader["points"]) - float(nights_sum), 2) != 0,
        }
    return {
        "scheme_label": SCHEME_LABELS.get(competition.scheme, competition.scheme),
        "sizes": points_by_table_size(competition),
        "tie_breaks": [
            {"label": label, "help": TIE_BREAK_HELP.get(key, "")}
            for key, label in (overall["columns"] if overall else [])
        ],
        "example": example,
        "bracket": bool(data.get("bracket")),
    }
