"""A competition's live streams: spectators get the standings table itself, rendered once for
all of them, within one event per burst; members get what names the change and fetch it; a
private competition has no public stream, and one made private closes its spectators' streams;
the desk is its organizers'; a player hears where a round seats them."""

from __future__ import annotations

import queue
import threading
import time

import pytest
from django.db.models import F
from django.test import Client

from circuits import services as circuits
from scoring import services as scoring
from scoring.services import Actor
from tests.builders import by
from tests.clients import login
from tests.live import CLOSED, Stream
from tests.tournaments.helpers import enter, make_competition, play, terziglio_won_by
from tournaments import live, services
from tournaments.models import Competition, StandingsSnapshot
from tournaments.selectors import standings as standings_selectors

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_burst_wait(settings):
    settings.LIVE_COALESCE_MS = 0


@pytest.fixture
def night(club, olga, players):
    """Six Terziglio players at two published tables of three (round 1)."""
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, name="Coppa", options={"terziglio": {}})
    enter(competition, olga, 6)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    return competition


URL = "/p/uno/coppa/events/"


def next_of(stream: Stream, kind: str) -> dict:
    """The next event of ``kind`` (others on the way skipped)."""
    while (event := stream.next()) is not CLOSED:
        if event["event"] == kind:
            return event
    raise AssertionError(f"the stream ended before a {kind} event")


def test_a_spectator_gets_the_standings_table_itself_at_once_and_after_a_finished_game(
    night, olga, streams
):
    spectator = streams(URL)
    assert spectator.status == 200
    hello = spectator.next()
    italian = streams(URL, headers={"Accept-Language": ""})  # no choice: the club's language
    assert "Punti" in italian.next()["data"]["html"]
    assert hello["event"] == "hello"
    assert hello["data"]["id"] == night.pk
    assert 'id="standings"' in hello["data"]["html"]
    # The same table the polled fragment shows.
    polled = Client().get("/p/uno/coppa/standings/", headers={"HX-Request": "true"})
    assert polled.content.decode() == hello["data"]["html"]
    game = night.rounds.get(number=1).tables.get(number=1).game
    play(game, terziglio_won_by(1, 3), olga)
    table = next_of(spectator, "table")
    assert table["data"] == {
        "id": night.pk,
        "round": 1,
        "table": 1,
        "game": game.pk,
        "finished": True,
    }
    standings = next_of(spectator, "standings")
    assert standings["data"]["version"] > hello["data"]["version"]
    assert standings["data"]["html"] != hello["data"]["html"]


def test_a_member_hears_the_version_and_fetches_the_table_through_the_page(night, olga, streams):
    member = streams(URL, client=login(olga))
    hello = member.next()
    assert set(hello["data"]) == {"id", "version"}
    game = night.rounds.get(number=1).tables.get(number=1).game
    play(game, terziglio_won_by(1, 3), olga)
    standings = next_of(member, "standings")
    assert set(standings["data"]) == {"id", "version"}
    assert standings["data"]["version"] > hello["data"]["version"]


def test_a_private_competition_has_no_stream_but_for_its_clubs_members(
    night, olga, bea, other_club, streams
):
    Competition.objects.filter(pk=night.pk).update(public=False)
    assert streams(URL).status == 404
    assert streams(URL, client=login(bea)).status == 404
    assert streams(f"/api/v1/competitions/{night.pk}/events/").status == 404
    assert streams("/api/v1/competitions/999999/events/").status == 404
    assert streams(URL, client=login(olga)).status == 200


def test_a_competition_made_private_closes_its_spectators_streams_not_its_members(
    night, olga, streams
):
    spectator = streams(URL)
    member = streams(URL, client=login(olga))
    spectator.next(), member.next()
    services.update_competition(competition=night, by=Actor.for_user(olga), public=False)
    assert next_of(spectator, "gone")["data"] == {"id": night.pk}
    assert spectator.next() is CLOSED
    change = next_of(member, "competition")
    assert change["data"]["public"] is False
    assert change["data"]["action"] == "update_competition"
    services.update_competition(competition=night, by=Actor.for_user(olga), public=True)
    assert next_of(member, "competition")["data"]["public"] is True


def test_a_burst_of_new_standings_is_rendered_at_most_twice_and_ends_on_the_latest(
    settings, night, streams
):
    """The first change after a quiet spell is sent at once; the others within
    LIVE_COALESCE_MS share one render of the latest version, sent when the window ends."""
    settings.LIVE_COALESCE_MS = 1500
    spectator = streams(URL)
    first = spectator.next()["data"]["version"]
    time.sleep(1.6)  # a quiet spell since the opening's render
    for _ in range(3):  # three new versions in a row, as tables finish together
        StandingsSnapshot.objects.filter(competition=night).update(version=F("version") + 1)
        version = StandingsSnapshot.objects.get(competition=night).version
        live.announce_standings(night.pk, version)
    events = [spectator.next(timeout=5)]
    while events[-1]["data"]["version"] < first + 3:
        events.append(spectator.next(timeout=5))
    assert {e["event"] for e in events} == {"standings"}
    assert len(events) <= 2, [e["data"]["version"] for e in events]
    with pytest.raises(queue.Empty):
        spectator.next(timeout=2)


def test_the_desk_stream_is_its_organizers(night, olga, sara, streams):
    desk = "/c/uno/k/coppa/desk/events/"
    assert streams(desk).status == 403  # a public competition: 403, as the desk page
    assert streams(desk, client=login(sara)).status == 403  # a scorer
    organizer = streams(desk, client=login(olga))
    assert organizer.next()["event"] == "hello"
    services.add_entry(competition=night, player="Zeno", by=Actor.for_user(olga))
    change = organizer.next()
    assert (change["event"], change["data"]["action"]) == ("competition", "add_entry")
    Competition.objects.filter(pk=night.pk).update(public=False)
    assert streams(desk).status == 404


def test_a_player_hears_where_a_published_round_seats_them(club, olga, oscar, streams):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, name="Coppa")
    oscars = scoring.add_player(club=club, display_name="Oscar", by=by, user=oscar)
    services.add_entry(competition=competition, player=oscars, by=by)
    enter(competition, olga, 5)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    assert streams("/me/events/").status == 404
    own = streams("/me/events/", client=login(oscar))
    assert own.next()["event"] == "hello"
    services.publish_round(round_=round_, by=by)
    seated = next_of(own, "table")["data"]
    table = round_.tables.get(seats__entry__player__user=oscar)
    assert seated | {"with": [], "first": None} == {
        "competition": "Coppa",
        "round": 1,
        "table": table.number,
        "url": "/p/uno/coppa/rounds/1/",
        "with": [],
        "first": None,
    }


def test_a_circuit_hears_when_one_of_its_competitions_standings_change(
    club, olga, bea, night, streams
):
    circuit = circuits.create_circuit(club=club, by=by(olga), name="Circuito")
    circuits.add_competition(circuit=circuit, by=by(olga), competition=night)
    hidden = circuits.create_circuit(club=club, by=by(olga), name="Interno", public=False)
    assert streams(f"/circuits/uno/{hidden.slug}/events/").status == 404
    assert streams(f"/circuits/uno/{hidden.slug}/events/", client=login(bea)).status == 404
    spectator = streams(f"/circuits/uno/{circuit.slug}/events/")
    assert spectator.next()["data"] == {"id": circuit.pk}
    game = night.rounds.get(number=1).tables.get(number=1).game
    play(game, terziglio_won_by(1, 3), olga)
    event = next_of(spectator, "standings")
    assert event["data"]["id"] == circuit.pk
    assert event["data"]["competition"] == night.pk


def test_the_round_page_hears_of_a_hand_waiting_to_be_accepted(club, olga, players, streams):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, name="Coppa", hands_must_be_accepted=True)
    enter(competition, olga, 3)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    organizer = streams(URL, client=login(olga))
    organizer.next()
    game = round_.tables.get(number=1).game
    scoring.record_hand(
        game=game,
        document={"dealer": 0, "outcome": "played", "soloist": 1, "contract": "chiamo",
                  "soloist_points": 5},
        by=by,
    )  # fmt: skip
    table = next_of(organizer, "table")["data"]
    assert (table["table"], table["finished"]) == (1, False)


def test_spectators_get_the_points_before_who_can_still_win_is_worked_out(
    club, olga, streams, monkeypatch
):
    """After a finished game the standings are stored twice: the points at once (the outlook as
    it was), then the outlook, the slow part. While the outlook is still being worked out the
    spectators already have the new points."""
    by = Actor.for_user(olga)
    league = make_competition(club, olga, name="Coppa", kind="league", planned_rounds=3)
    enter(league, olga, 6)
    round_ = services.add_round(competition=league, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    spectator = streams(URL)
    first = spectator.next()["data"]["version"]
    working, done = threading.Event(), threading.Event()
    real = standings_selectors.add_outlook

    def slow_outlook(*args):
        working.set()
        assert done.wait(10), "the test never let the outlook finish"
        return real(*args)

    monkeypatch.setattr(standings_selectors, "add_outlook", slow_outlook)
    game = round_.tables.get(number=1).game
    playing = threading.Thread(target=play, args=(game, terziglio_won_by(1, 3), olga))
    playing.start()
    try:
        # Heard while the outlook cannot have finished (it waits for ``done``).
        points = next_of(spectator, "standings")["data"]
        assert playing.is_alive()
        assert points["version"] > first
    finally:
        done.set()
        playing.join(10)
    assert working.is_set()  # the outlook was worked out after all
    stored = StandingsSnapshot.objects.get(competition=league)
    assert stored.data == standings_selectors.standings_of(league)  # the whole, in the end
