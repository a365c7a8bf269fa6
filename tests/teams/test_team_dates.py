"""The dates of the matches between teams: an organizer dates a round ("giornata 3, Tuesday 13
at 21:00") or one match, through the service, the API and the pages; every refusal names its
field with nothing stored; the public team standings list the matches to come and the
calendar feed has one event per dated match."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from scoring import services as scoring
from scoring.rules import RuleViolation
from scoring.services import Actor, NotAllowed
from teams.models import TeamMatch
from teams.services import team_draw, team_schedule, teams
from tests.clients import api_as, field_error, login
from tests.tournaments.helpers import briscola_won_by, codes, make_competition, play
from tournaments.models import CompetitionEvent

pytestmark = pytest.mark.django_db

TUESDAY = dt.date(2026, 1, 13)
NINE_PM = dt.time(21, 0)


def palio(club, user, name="Palio", **fields):
    """Four districts, pairs at two boards, a round robin drawn: 3 rounds of 2 matches."""
    by = Actor.for_user(user)
    competition = make_competition(
        club, user, name=name, rulesets=["briscola"], format="round_robin", **fields
    )
    teams.set_team_rules(competition=competition, by=by, boards=2)
    for district in ("Borgo", "Castello", "Duomo", "Porta"):
        roster = [scoring.new_player(club, f"{district} {name} {i}").pk for i in range(4)]
        teams.add_team(competition=competition, name=district, players=roster, by=by)
    team_draw.draw_team_round(competition=competition, by=by)
    return competition


def play_and_confirm(match, user):
    """Both lineups set, the home side wins both boards, the organizer confirms 2–0."""
    by = Actor.for_user(user)
    for side, team in (("home", match.home), ("away", match.away)):
        ids = list(team.roster.order_by("pk").values_list("player_id", flat=True))
        teams.set_lineup(match=match, side=side, lineup={1: ids[:2], 2: ids[2:4]}, by=by)
    for board in match.boards.select_related("game"):
        play(board.game, briscola_won_by(0, 4, 2), user)
    teams.confirm_match_result(match=match, home_score=2, away_score=0, by=by)


def words(html: str) -> str:
    """The page's text as a reader sees it: tags out, white space as single spaces."""
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def dates(competition):
    return list(
        TeamMatch.objects.filter(competition=competition)
        .order_by("round_number", "number")
        .values_list("date", "start_time")
    )


def events(competition):
    return CompetitionEvent.objects.filter(competition=competition, action="schedule_team_matches")


def schedule(competition, user, **kwargs):
    kwargs.setdefault("round_number", None)
    kwargs.setdefault("date", TUESDAY)
    return team_schedule.schedule_team_matches(
        competition=competition, by=Actor.for_user(user), **kwargs
    )


# -- the service ------------------------------------------------------------------------------


def test_an_organizer_dates_a_round_then_moves_one_match(club, olga):
    competition = palio(club, olga)
    dated = schedule(competition, olga, round_number=2, start_time=NINE_PM)
    assert [m.round_number for m in dated] == [2, 2]
    assert dates(competition) == [(None, None)] * 2 + [(TUESDAY, NINE_PM)] * 2 + [(None, None)] * 2
    event = events(competition).get()
    assert event.data["round_number"] == 2
    assert event.data["date"] == "2026-01-13" and event.data["start_time"] == "21:00"
    # One match of the round is put off to Thursday, time not known yet.
    moved = competition.team_matches.get(round_number=2, number=2)
    schedule(competition, olga, match=moved, date=dt.date(2026, 1, 15))
    moved.refresh_from_db()
    assert (moved.date, moved.start_time) == (dt.date(2026, 1, 15), None)
    # ``date=None`` takes the date away.
    schedule(competition, olga, match=moved.pk, date=None)
    moved.refresh_from_db()
    assert moved.date is None
    assert events(competition).count() == 3


def test_dating_a_round_leaves_its_played_match_as_it_was(club, olga):
    competition = palio(club, olga)
    first, second = competition.team_matches.filter(round_number=1).order_by("number")
    schedule(competition, olga, round_number=1, start_time=NINE_PM)
    play_and_confirm(first, olga)
    dated = schedule(competition, olga, round_number=1, date=dt.date(2026, 1, 20))
    assert [m.pk for m in dated] == [second.pk]
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.date == TUESDAY and second.date == dt.date(2026, 1, 20)


def test_refusals_name_their_field_and_store_nothing(club, olga, oscar):
    competition = palio(club, olga, start_date=dt.date(2026, 1, 1), end_date=dt.date(2026, 6, 30))
    other = palio(club, olga, name="Palio bis")
    played, waiting = competition.team_matches.filter(round_number=1).order_by("number")
    play_and_confirm(played, olga)
    before = dates(competition)
    stranger_match = other.team_matches.first()
    cases = [
        ({"round_number": 9}, {("round_number", "not_found")}, "no match in round 9"),
        ({"match": stranger_match}, {("match", "not_found")}, "not one of this competition"),
        ({"match": played}, {("match", "not_allowed")}, "has been played"),
        (
            {"round_number": 2, "date": dt.date(2025, 12, 31)},
            {("date", "range")},
            "starts on 2026-01-01",
        ),
        (
            {"round_number": 2, "date": dt.date(2026, 7, 1)},
            {("date", "range")},
            "ends on 2026-06-30",
        ),
        (
            {"round_number": 2, "date": None, "start_time": NINE_PM},
            {("start_time", "inconsistent")},
            "needs a date",
        ),
        ({"round_number": 2, "date": "2026-01-13"}, {("date", "type")}, "YYYY-MM-DD"),
        ({"match": waiting, "round_number": 2}, {("match", "not_found")}, "not of this round"),
    ]
    for kwargs, expected, words in cases:
        with pytest.raises(RuleViolation) as refused:
            schedule(competition, oscar, **kwargs)
        assert codes(refused.value) == expected, kwargs
        assert words in _text(refused.value), kwargs
    assert dates(competition) == before
    assert not events(competition).exists()


def test_a_round_whose_every_match_was_played_is_refused(club, olga):
    competition = palio(club, olga)
    for match in competition.team_matches.filter(round_number=1):
        play_and_confirm(match, olga)
    with pytest.raises(RuleViolation) as refused:
        schedule(competition, olga, round_number=1)
    assert codes(refused.value) == {("round_number", "not_allowed")}
    assert not events(competition).exists()


def test_only_an_organizer_dates_matches(club, olga, sara):
    competition = palio(club, olga)
    with pytest.raises(NotAllowed):
        schedule(competition, sara, round_number=1)
    assert dates(competition) == [(None, None)] * 6


def _text(violation: RuleViolation) -> str:
    from scoring.messages import message

    return " ".join(message(p) for p in violation.problems)


# -- the API ----------------------------------------------------------------------------------


def test_the_api_dates_a_round_and_a_match(club, olga, sara):
    competition = palio(club, olga, start_date=dt.date(2026, 1, 1))
    base = f"/api/v1/competitions/{competition.pk}"
    api = api_as(olga)
    response = api.put(
        f"{base}/team-rounds/1/schedule/", {"date": "2026-01-13", "start_time": "21:00"}, "json"
    )
    assert response.status_code == 200, response.content
    assert [(m["round"], m["date"], m["start_time"]) for m in response.json()] == [
        (1, "2026-01-13", "21:00"),
        (1, "2026-01-13", "21:00"),
    ]
    match = competition.team_matches.get(round_number=1, number=2)
    url = f"{base}/team-matches/{match.pk}/schedule/"
    response = api.put(url, {"date": "2026-01-15", "start_time": None}, format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["date"], response.json()["start_time"]) == ("2026-01-15", None)
    assert api.get(f"{base}/team-matches/{match.pk}/").json()["date"] == "2026-01-15"

    # 400 naming the field, nothing stored.
    for path, body, field in (
        (url, {"date": "2025-12-31"}, ("date", "range")),
        (url, {"date": "13/01/2026"}, ("date", "type")),
        (url, {"start_time": "21:00"}, ("date", "required")),
        (url, {"date": "2026-01-20", "start_time": "9pm"}, ("start_time", "type")),
        (f"{base}/team-rounds/7/schedule/", {"date": "2026-01-20"}, ("round_number", "not_found")),
    ):
        response = api.put(path, body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert {(e["field"], e["code"]) for e in response.json()["errors"]} == {field}
    match.refresh_from_db()
    assert (match.date, match.start_time) == (dt.date(2026, 1, 15), None)

    # A scorer of the club, and somebody anonymous, may not.
    assert api_as(sara).put(url, {"date": "2026-01-20"}, format="json").status_code == 403
    assert api_as(None).put(url, {"date": "2026-01-20"}, format="json").status_code in {401, 403}
    match.refresh_from_db()
    assert match.date == dt.date(2026, 1, 15)


# -- the pages --------------------------------------------------------------------------------


def test_the_teams_page_dates_a_round_and_shows_the_dates(club, olga):
    competition = palio(club, olga, start_date=dt.date(2026, 1, 1))
    page = login(olga)
    url = f"/c/{club.slug}/k/{competition.slug}/teams/"
    html = page.get(url).content.decode()
    assert 'name="round1-date"' in html and 'type="date"' in html
    assert "date to be set" in html
    refused = page.post(
        url,
        {"action": "schedule", "round": "2", "round2-date": "2025-12-24", "round2-start_time": ""},
    )
    assert refused.status_code == 200
    assert "starts on 2026-01-01" in field_error(refused.content.decode(), "round2-date")
    unreadable = page.post(url, {"action": "schedule", "round": "2", "round2-date": "soon"})
    assert field_error(unreadable.content.decode(), "round2-date")
    tampered = page.post(url, {"action": "schedule", "round": "x", "round0-date": "2026-01-13"})
    assert "There is no match in round 0." in tampered.content.decode()
    assert dates(competition) == [(None, None)] * 6
    response = page.post(
        url,
        {
            "action": "schedule",
            "round": "2",
            "round2-date": "2026-01-13",
            "round2-start_time": "21:00",
        },
    )
    assert response.status_code == 302
    assert dates(competition)[2:4] == [(TUESDAY, NINE_PM)] * 2
    html = page.get(url).content.decode()
    assert "Tue 13 Jan, 21:00 · Circolo Uno" in words(html)
    assert 'datetime="2026-01-13T21:00"' in html


def test_the_match_page_dates_one_match(club, olga, sara):
    competition = palio(club, olga)
    match = competition.team_matches.get(round_number=3, number=1)
    url = _match_url(club, competition, match)
    page = login(olga)
    response = page.post(url, {"action": "schedule", "when-date": "", "when-start_time": "20:30"})
    assert response.status_code == 200
    assert field_error(response.content.decode(), "when-date")
    response = page.post(
        url, {"action": "schedule", "when-date": "2026-01-15", "when-start_time": "20:30"}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.date, match.start_time) == (dt.date(2026, 1, 15), dt.time(20, 30))
    assert "Thu 15 Jan, 20:30" in words(page.get(url).content.decode())


def _match_url(club, competition, match) -> str:
    from django.urls import reverse

    return reverse("competition-team-match", args=[club.slug, competition.slug, match.pk])


def test_the_public_team_standings_list_the_matches_to_come(club, olga):
    competition = palio(club, olga)
    schedule(competition, olga, round_number=2, start_time=NINE_PM)
    schedule(competition, olga, round_number=1, date=dt.date(2026, 1, 6), start_time=NINE_PM)
    played = competition.team_matches.get(round_number=1, number=1)
    play_and_confirm(played, olga)
    html = Client().get(f"/p/{club.slug}/{competition.slug}/team-standings/").content.decode()
    assert "Matches to come" in html
    listed = [int(pk) for pk in re.findall(r'data-fixture="(\d+)"', html)]
    waiting = competition.team_matches.exclude(pk=played.pk)
    by_round = {m.pk: m.round_number for m in waiting}
    assert played.pk not in listed and set(listed) == set(by_round)
    assert [by_round[pk] for pk in listed] == [1, 2, 2, 3, 3]  # dated first, in date order
    assert "Tue 6 Jan, 21:00 · Circolo Uno" in words(html)


# -- the calendar -----------------------------------------------------------------------------


def unfold(body: str) -> list[str]:
    return re.sub(r"\r\n[ \t]", "", body).split("\r\n")


def test_the_calendar_has_one_event_per_dated_team_match(club, olga):
    competition = palio(club, olga)
    match = competition.team_matches.get(round_number=1, number=1)
    schedule(competition, olga, match=match, start_time=NINE_PM)  # 21:00 in Rome, winter
    url = f"/p/{club.slug}/{competition.slug}/calendar.ics"
    response = Client().get(url)
    assert response.status_code == 200
    lines = unfold(response.content.decode())
    assert lines.count("BEGIN:VEVENT") == 1
    assert f"UID:segnapunti-team-match-{match.pk}@" in "\n".join(lines)
    assert "DTSTART:20260113T200000Z" in lines
    assert "DTEND:20260113T220000Z" in lines  # TEAM_MATCH_MINUTES later
    assert f"SUMMARY:{match.home.name} – {match.away.name}" in lines
    assert "LOCATION:Circolo Uno" in lines
    # A match dated since is in the feed: the ETag a calendar app holds is stale.
    etag = response["ETag"]
    schedule(competition, olga, round_number=2)
    again = Client().get(url, headers={"if-none-match": etag})
    assert again.status_code == 200
    lines = unfold(again.content.decode())
    assert lines.count("BEGIN:VEVENT") == 3
    assert lines.count("DTSTART;VALUE=DATE:20260113") == 2  # a day, no time yet


def test_played_matches_are_listed_under_their_own_heading_not_under_matches_to_come(club, olga):
    competition = palio(club, olga)
    confirmed = competition.team_matches.get(round_number=1, number=1)
    play_and_confirm(confirmed, olga)
    # Played, its result not confirmed yet: every board's game finished.
    unconfirmed = competition.team_matches.get(round_number=1, number=2)
    by = Actor.for_user(olga)
    for side, team in (("home", unconfirmed.home), ("away", unconfirmed.away)):
        ids = list(team.roster.order_by("pk").values_list("player_id", flat=True))
        teams.set_lineup(match=unconfirmed, side=side, lineup={1: ids[:2], 2: ids[2:4]}, by=by)
    for board in unconfirmed.boards.select_related("game"):
        play(board.game, briscola_won_by(1, 4, 2), olga)
    html = Client().get(f"/p/{club.slug}/{competition.slug}/team-standings/").content.decode()
    to_come = html.split("Matches to come", 1)[1].split("</section>", 1)[0]
    played = html.split("Matches played", 1)[1].split("</section>", 1)[0]
    listed = {int(pk) for pk in re.findall(r'data-fixture="(\d+)"', to_come)}
    assert listed == set(
        competition.team_matches.filter(round_number__gt=1).values_list("pk", flat=True)
    )
    assert [int(pk) for pk in re.findall(r'data-played="(\d+)"', played)] == [
        confirmed.pk,
        unconfirmed.pk,
    ]
    text = words(played)
    assert f"{confirmed.home.name} 2 – 0 {confirmed.away.name} Round 1" in text
    assert f"{unconfirmed.home.name} 0 – 2 {unconfirmed.away.name} Round 1 · result not" in text
