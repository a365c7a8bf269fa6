"""Spectators poll the public pages: the competition page, a round's page and the calendar feed
answer ``If-None-Match`` with 304 while what they show is unchanged, in a fixed, small number
of queries, and with 200 as soon as a round is published, a hand changes the standings or a
table, the language or the viewer changes."""

import datetime as dt

import pytest
from django.test import Client

from scoring import services as scoring
from scoring.services import Actor
from tournaments import services
from tournaments.models import Competition

pytestmark = pytest.mark.django_db

SIX = ["Anna", "Bruno", "Carla", "Dario", "Elio", "Fabio"]
PAGE = "/p/uno/coppa/"
ROUND = "/p/uno/coppa/rounds/1/"
CALENDAR = "/p/uno/coppa/calendar.ics"


def competition_with_a_published_round(club, olga) -> Competition:
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club,
        by=by,
        name="Coppa",
        rulesets=["terziglio"],
        options={"terziglio": {"target_score": 2}},
    )
    for name in SIX:
        services.add_entry(competition=competition, player=name, by=by)
    round_ = services.add_round(
        competition=competition, by=by, date=dt.date(2026, 3, 6), start_time=dt.time(21, 0)
    )
    services.generate_round(round_=round_, by=by, seed=9)
    services.publish_round(round_=round_, by=by)
    return competition


def a_hand(competition, olga) -> None:
    game = competition.rounds.get(number=1).tables.get(number=1).game
    scoring.record_hand(
        game=game,
        document={
            "dealer": 0,
            "outcome": "played",
            "soloist": 1,
            "contract": "chiamo",
            "soloist_points": 7,
        },
        by=Actor.for_user(olga),
    )


def revalidate(client, url, etag):
    return client.get(url, HTTP_IF_NONE_MATCH=etag)


@pytest.fixture
def coppa(club, olga, players):
    return competition_with_a_published_round(club, olga)


@pytest.mark.parametrize("url", [PAGE, ROUND, CALENDAR])
def test_a_public_page_answers_304_to_its_own_etag_and_asks_to_be_revalidated(coppa, url):
    client = Client()
    first = client.get(url)
    assert first.status_code == 200 and first.has_header("ETag")
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    again = revalidate(client, url, first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]


@pytest.mark.parametrize(
    ("url", "queries"),
    [
        # the competition and its club, then the rounds with the snapshot's version
        (PAGE, 2),
        # the competition and its club, then the round with its tables' and byes' fingerprint
        (ROUND, 2),
        # the competition and its club, the rounds, then the dated team matches
        (CALENDAR, 3),
    ],
)
def test_a_spectators_304_takes_a_fixed_number_of_queries(
    coppa, url, queries, django_assert_num_queries
):
    client = Client()
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(queries):
        assert revalidate(client, url, etag).status_code == 304


def test_a_signed_in_members_304_adds_only_the_session_user_and_role(
    coppa, olga, django_assert_num_queries
):
    client = Client()
    client.force_login(olga)
    etag = client.get(PAGE)["ETag"]
    with django_assert_num_queries(2 + 3):  # + session, user, role
        assert revalidate(client, PAGE, etag).status_code == 304


def test_the_competition_page_changes_when_a_round_is_published(coppa, olga):
    client = Client()
    etag = client.get(PAGE)["ETag"]
    by = Actor.for_user(olga)
    second = services.add_round(competition=coppa, by=by)
    after_add = revalidate(client, PAGE, etag)
    assert after_add.status_code == 200 and "Round 2" in after_add.content.decode()
    services.generate_round(round_=second, by=by, seed=3)
    assert revalidate(client, PAGE, after_add["ETag"]).status_code == 304  # still a draft
    services.publish_round(round_=second, by=by)
    published = revalidate(client, PAGE, after_add["ETag"])
    assert published.status_code == 200
    assert 'href="/p/uno/coppa/rounds/2/"' in published.content.decode()


def test_the_competition_page_changes_when_a_hand_changes_the_standings(
    coppa, olga, django_capture_on_commit_callbacks
):
    client = Client()
    etag = client.get(PAGE)["ETag"]
    with django_capture_on_commit_callbacks(execute=True):
        a_hand(coppa, olga)
    changed = revalidate(client, PAGE, etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_the_round_page_changes_when_a_hand_is_entered_at_one_of_its_tables(coppa, olga):
    client = Client()
    etag = client.get(ROUND)["ETag"]
    a_hand(coppa, olga)
    changed = revalidate(client, ROUND, etag)
    assert changed.status_code == 200
    assert "1 hand" in changed.content.decode()


def test_the_calendar_changes_when_a_round_moves(coppa, olga):
    client = Client()
    etag = client.get(CALENDAR)["ETag"]
    services.update_round(
        round_=coppa.rounds.get(number=1), by=Actor.for_user(olga), start_time=dt.time(20, 30)
    )
    moved = revalidate(client, CALENDAR, etag)
    assert moved.status_code == 200
    assert "DTSTART:20260306T193000Z" in moved.content.decode()  # 20:30 in Rome


@pytest.mark.parametrize("url", [PAGE, ROUND, CALENDAR])
def test_another_language_gets_the_page_again(coppa, url):
    client = Client()
    etag = client.get(url)["ETag"]
    client.cookies["django_language"] = "it"
    italian = revalidate(client, url, etag)
    assert italian.status_code == 200 and italian["ETag"] != etag


def test_a_page_fetched_anonymously_is_sent_again_to_a_signed_in_member(coppa, olga):
    client = Client()
    anonymous = client.get(PAGE)
    assert "Organizer page" not in anonymous.content.decode()
    client.force_login(olga)
    member = revalidate(client, PAGE, anonymous["ETag"])
    assert member.status_code == 200 and "Organizer page" in member.content.decode()


def test_two_members_never_share_an_etag(coppa, olga, oscar):
    etags = set()
    for user in (olga, oscar):
        client = Client()
        client.force_login(user)
        etags.add(client.get(PAGE)["ETag"])
    assert len(etags) == 2


def test_a_draft_round_stays_404_for_the_public_whatever_etag_it_sends(coppa, olga):
    by = Actor.for_user(olga)
    services.add_round(competition=coppa, by=by)
    manager = Client()
    manager.force_login(olga)
    etag = manager.get("/p/uno/coppa/rounds/2/")["ETag"]
    assert Client().get("/p/uno/coppa/rounds/2/", HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_a_competition_made_private_is_404_for_the_public_whatever_etag_it_sends(coppa):
    client = Client()
    etag = client.get(PAGE)["ETag"]
    Competition.objects.filter(pk=coppa.pk).update(public=False)
    assert revalidate(client, PAGE, etag).status_code == 404
