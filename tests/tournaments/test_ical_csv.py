"""The calendar feed and the spreadsheet export of a competition, checked byte for byte."""

import datetime as dt
import re

import pytest
from django.test import Client

from scoring import services as scoring
from scoring.services import Actor
from tournaments import services

pytestmark = pytest.mark.django_db

BOM = b"\xef\xbb\xbf"


def unfold(body: str) -> list[str]:
    """The content lines of an iCalendar text (folded lines joined again)."""
    return re.sub(r"\r\n[ \t]", "", body).split("\r\n")


@pytest.fixture
def calendar(club, olga):
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club, by=by, name="Coppa, bella; sì", rulesets=["terziglio"]
    )
    rounds = [
        (dt.date(2025, 3, 1), dt.time(21, 0), 90),  # CET, UTC+1
        (dt.date(2025, 7, 3), dt.time(20, 30), 150),  # CEST, UTC+2
        (dt.date(2025, 3, 30), dt.time(1, 30), 120),  # the night the clocks go forward
        (dt.date(2025, 4, 5), None, 90),  # a day, no time yet
        (None, None, 90),  # not scheduled: no event
    ]
    for date, start, minutes in rounds:
        services.add_round(
            competition=competition, by=by, date=date, start_time=start, duration_minutes=minutes
        )
    return competition


def test_the_calendar_has_one_event_per_dated_round(calendar):
    response = Client().get("/p/uno/coppa-bella-si/calendar.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    raw = response.content
    assert raw.startswith(b"BEGIN:VCALENDAR\r\n") and raw.endswith(b"END:VCALENDAR\r\n")
    assert re.search(rb"(?<!\r)\n", raw) is None  # every line ends with CRLF
    assert all(len(line) <= 75 for line in raw.split(b"\r\n"))
    lines = unfold(raw.decode("utf-8"))
    assert lines[:5] == [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Segnapunti//Competitions//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
    ]
    assert "X-WR-CALNAME:Coppa\\, bella\\; sì" in lines
    assert lines.count("BEGIN:VEVENT") == lines.count("END:VEVENT") == 4
    starts = [line for line in lines if line.startswith("DTSTART")]
    ends = [line for line in lines if line.startswith("DTEND")]
    assert starts == [
        "DTSTART:20250301T200000Z",  # 21:00 in Rome in winter
        "DTSTART:20250703T183000Z",  # 20:30 in Rome in summer
        "DTSTART:20250330T003000Z",  # 01:30, still winter time
        "DTSTART;VALUE=DATE:20250405",
    ]
    assert ends == [
        "DTEND:20250301T213000Z",
        "DTEND:20250703T210000Z",
        "DTEND:20250330T023000Z",  # two hours later: 04:30 summer time in Rome
        "DTEND;VALUE=DATE:20250406",
    ]
    summaries = [line for line in lines if line.startswith("SUMMARY:")]
    assert summaries[0] == "SUMMARY:Coppa\\, bella\\; sì · Round 1"
    stamps = [line for line in lines if line.startswith("DTSTAMP:")]
    assert len(stamps) == 4 and all(re.fullmatch(r"DTSTAMP:\d{8}T\d{6}Z", s) for s in stamps)
    uids = [line for line in lines if line.startswith("UID:")]
    assert len(set(uids)) == 4
    again = unfold(Client().get("/p/uno/coppa-bella-si/calendar.ics").content.decode())
    assert [line for line in again if line.startswith("UID:")] == uids  # stable


def test_times_are_the_clubs_wall_clock(calendar, club):
    club.time_zone = "America/New_York"
    club.save()
    lines = unfold(Client().get("/p/uno/coppa-bella-si/calendar.ics").content.decode())
    assert "DTSTART:20250302T020000Z" in lines  # 21:00 in New York, UTC-5 in March
    assert "X-WR-TIMEZONE:America/New_York" in lines


def test_long_lines_are_folded_without_splitting_a_character(club, olga):
    by = Actor.for_user(olga)
    name = "Torneo di primavera del Circolo Uno — tavoli da tre e da quattro, più è meglio"
    competition = services.create_competition(
        club=club, by=by, name=name, slug="lunga", rulesets=["terziglio"]
    )
    services.add_round(competition=competition, by=by, date=dt.date(2025, 3, 1))
    raw = Client().get("/p/uno/lunga/calendar.ics").content
    physical = raw.split(b"\r\n")
    assert all(len(line) <= 75 for line in physical)
    assert any(line.startswith(b" ") for line in physical)  # something was folded
    for line in physical:
        line.decode("utf-8")  # each physical line is whole UTF-8
    summary = next(line for line in unfold(raw.decode()) if line.startswith("SUMMARY:"))
    assert summary == "SUMMARY:" + name.replace(",", "\\,") + " · Round 1"


# -- the spreadsheet ----------------------------------------------------------------------------


@pytest.fixture
def played(club, olga, players):
    """Anna, Bruno, Carla and Dario at one table of four, one hand played: the dealer (seat 0)
    sits out, seat 1 makes a chiamo (+2), seats 2 and 3 pay 1 each. With the target at 2 the
    game is over: seat 1 first (3 points), the idle dealer second (2), seats 2 and 3 share the
    3rd and 4th places ((1 + 0) / 2 = 0.5 each). A late entry, "Rossi; Mario", has no game."""
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club,
        by=by,
        name="Coppa",
        rulesets=["terziglio"],
        scheme="placement",
        table_size=4,
        options={"terziglio": {"target_score": 2}},
    )
    for player in players:
        services.add_entry(competition=competition, player=player, by=by)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    game = round_.tables.get().game
    scoring.record_hand(
        game=game,
        document={
            "dealer": 0,
            "outcome": "played",
            "soloist": 1,
            "contract": "chiamo",
            "soloist_points": 7,
        },
        by=by,
    )
    services.add_entry(competition=competition, player="Rossi; Mario", by=by)
    seats = list(game.seats.order_by("index").values_list("player__display_name", flat=True))
    third = sorted(seats[2:], key=lambda n: competition.entries.get(player__display_name=n).pk)
    return competition, seats, third


HEADER = "Rank;Name;Points;Wins;Opponents' strength;Games;Rounds;Status"


def test_the_csv_export(played):
    _competition, seats, third = played
    response = Client().get("/p/uno/coppa/standings.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="coppa-standings.csv"'
    assert not response.content.startswith(BOM)
    # Opponents' strength, the mean of the table's three opponents: seat 1 met 2 + 0.5 + 0.5 = 3
    # (1), the dealer 3 + 0.5 + 0.5 = 4 (1.33), seats 2 and 3 met 3 + 2 + 0.5 = 5.5 (1.83); tied
    # on everything, they share the 3rd rank.
    assert response.content.decode("utf-8") == (
        f"{HEADER}\r\n"
        f"1;{seats[1]};3;1;1;1;1;\r\n"
        f"2;{seats[0]};2;0;1.33;1;1;\r\n"
        f"3;{third[0]};0.5;0;1.83;1;1;\r\n"
        f"3;{third[1]};0.5;0;1.83;1;1;\r\n"
        '5;"Rossi; Mario";0;0;0;0;0;\r\n'
    )


def test_the_csv_for_french_and_italian_spreadsheets(played, olga):
    competition, _seats, third = played
    entry = competition.entries.get(player__display_name=third[1])
    services.withdraw_entry(entry=entry, by=Actor.for_user(olga), reason="flu")
    response = Client().get("/p/uno/coppa/standings.csv?bom=1&decimal=comma")
    assert response.content.startswith(BOM + HEADER.encode() + b"\r\n")
    lines = response.content[len(BOM) :].decode("utf-8").split("\r\n")
    assert lines[3] == f"3;{third[0]};0,5;0;1,83;1;1;"
    assert lines[4] == f"3;{third[1]};0,5;0;1,83;1;1;withdrawn"
    assert lines[-1] == ""  # the last row ends with CRLF too


@pytest.mark.parametrize(
    ("language", "header"),
    [
        ("it", "Posizione;Nome;Punti"),
        ("fr", "Rang;Nom;Points"),
    ],
)
def test_the_csv_follows_the_readers_decimal_separator(played, language, header):
    _competition, _seats, third = played
    response = Client().get("/p/uno/coppa/standings.csv", HTTP_ACCEPT_LANGUAGE=language)
    lines = response.content.decode("utf-8").split("\r\n")
    assert lines[0].startswith(header.split(";")[0])
    assert lines[3] == f"3;{third[0]};0,5;0;1,83;1;1;"  # not 0.5 beside the semicolons
    asked = Client().get("/p/uno/coppa/standings.csv?decimal=point", HTTP_ACCEPT_LANGUAGE=language)
    assert asked.content.decode("utf-8").split("\r\n")[3] == f"3;{third[0]};0.5;0;1.83;1;1;"
    english = Client().get("/p/uno/coppa/standings.csv", HTTP_ACCEPT_LANGUAGE="en")
    assert english.content.decode("utf-8").split("\r\n")[3] == f"3;{third[0]};0.5;0;1.83;1;1;"


def test_a_mixed_league_exports_each_games_table(club, olga, players):
    by = Actor.for_user(olga)
    league = services.create_competition(
        club=club, by=by, name="Lega", kind="league", rulesets=["terziglio", "turkish"]
    )
    services.add_entry(competition=league, player=players[0], by=by)
    response = Client().get("/p/uno/lega/standings.csv?table=turkish")
    assert response["Content-Disposition"] == 'attachment; filename="lega-turkish-standings.csv"'
    assert response.content.decode().split("\r\n")[0] == HEADER
    page = Client().get("/p/uno/lega/").content.decode()
    assert 'data-table="overall"' in page and 'data-table="turkish"' in page
    assert "<h3>Turkish</h3>" in page and "<h3>Overall</h3>" in page
