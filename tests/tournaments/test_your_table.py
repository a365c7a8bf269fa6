"""Your table on your phone (issue 37 point 5): the moment a round seating a player with an account
is published or changed, their own stream (My games) says where, with whom, and whether they deal
first; the page has the words for it in its language."""

from __future__ import annotations

import pytest
from django.core import mail

from registration import services as registration_services
from scoring import services as scoring
from scoring.services import Actor
from tests.clients import login
from tests.registration.test_registration import ANON, open_for, token_in
from tests.tournaments.helpers import enter, make_competition
from tournaments import services
from tournaments.models import TableSeat

pytestmark = pytest.mark.django_db(transaction=True)


def next_of(stream, kind: str) -> dict:
    while True:
        event = stream.next()
        if event.get("event") == kind:
            return event


def test_a_published_round_tells_the_player_their_table_the_others_and_who_deals_first(
    club, olga, oscar, streams
):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, name="Coppa")
    oscars = scoring.add_player(club=club, display_name="Oscar", by=by, user=oscar)
    mine = services.add_entry(competition=competition, player=oscars, by=by)
    enter(competition, olga, 5)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    own = streams("/me/events/", client=login(oscar))
    assert own.next()["event"] == "hello"
    services.publish_round(round_=round_, by=by)
    heard = next_of(own, "table")["data"]
    seat = TableSeat.objects.select_related("table").get(entry=mine)
    others = [
        s.entry.name
        for s in TableSeat.objects.filter(table=seat.table).order_by("position")
        if s.entry_id != mine.pk
    ]
    assert (heard["round"], heard["table"]) == (1, seat.table.number)
    assert heard["with"] == others and len(others) == 2
    first = min(seat.table.seats.values_list("position", flat=True))
    assert heard["first"] is (seat.position == first)


def test_a_changed_round_tells_the_player_again_where_they_now_sit(club, olga, oscar, streams):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, name="Coppa")
    oscars = scoring.add_player(club=club, display_name="Oscar", by=by, user=oscar)
    mine = services.add_entry(competition=competition, player=oscars, by=by)
    others = enter(competition, olga, 5)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    own = streams("/me/events/", client=login(oscar))
    assert own.next()["event"] == "hello"
    elsewhere = next(
        e
        for e in others
        if TableSeat.objects.get(entry=e).table_id != TableSeat.objects.get(entry=mine).table_id
    )
    services.swap_published(round_=round_, by=by, a=mine.pk, b=elsewhere.pk)
    heard = next_of(own, "table")["data"]
    seat = TableSeat.objects.select_related("table").get(entry=mine)
    assert heard["table"] == seat.table.number
    assert heard["first"] is (seat.position == 0)


def test_my_games_has_the_words_of_the_notice_in_the_players_language(oscar):
    page = login(oscar).get("/me/games/", headers={"Accept-Language": "fr"}).content.decode()
    assert 'data-with="avec %(names)s"' in page
    assert 'data-first="vous donnez en premier"' in page


def test_a_player_without_an_account_hears_it_on_their_registration_links_page(club, olga, streams):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, name="Coppa")
    open_for(competition, olga, capacity=8)
    mail.outbox.clear()
    registration = registration_services.register(
        competition=competition, by=ANON, name="Ugo", email="u@x.org"
    )
    registration_services.confirm_registration(token=token_in(mail.outbox[-1]), by=ANON)
    manage = token_in(mail.outbox[-1])
    registration.refresh_from_db()
    assert registration.entry_id is not None
    enter(competition, olga, 5)
    page = login(olga).get(f"/r/{manage}/").content.decode()
    assert f'data-stream="/r/{manage}/events/"' in page and "my_games.js" in page
    assert streams("/r/not-a-token/events/").status == 404
    own = streams(f"/r/{manage}/events/")
    assert own.next()["event"] == "hello"
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    heard = next_of(own, "table")["data"]
    seat = TableSeat.objects.select_related("table").get(entry_id=registration.entry_id)
    assert (heard["round"], heard["table"]) == (1, seat.table.number)
    assert len(heard["with"]) == seat.table.seats.count() - 1
