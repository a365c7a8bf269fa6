"""Calling the director from a table (``services.calls``, ``views.calls``, ``api.calls``): who may
call, who answers, one open call per table, the table's phones and the organizer's screens."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from scoring.rules import RuleViolation
from scoring.services import Actor, NotAllowed
from tests.builders import join
from tests.clients import api_as, login
from tests.tournaments.helpers import codes, published_night
from tournaments import services
from tournaments.models import CompetitionEvent, DirectorCall, Table
from tournaments.services import calls as call_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club, olga):
    return published_night(club, olga, 7, slug="notte")


@pytest.fixture
def table(night):
    return Table.objects.select_related("round__competition__club", "game").get(
        round=night, number=1
    )


def phone(game, address="10.1.1.1") -> Client:
    client = Client(REMOTE_ADDR=address)
    link = game.table_link
    assert client.post(f"/t/{link.token}/", {"pin": link.pin}).status_code == 302
    return client


def table_actor(table) -> Actor:
    return Actor.for_table(table.game_id)


def test_a_table_phone_calls_and_the_director_acknowledges_then_resolves(table, olga):
    call = services.call_director(
        table=table, by=table_actor(table), reason="rules", text="  Who leads?  "
    )
    assert (call.state, call.reason, call.text, call.caller) == ("open", "rules", "Who leads?", "")
    call = services.acknowledge_call(call=call, by=Actor.for_user(olga))
    assert call.state == "coming" and call.acknowledged_by == olga
    call = services.resolve_call(call=call, by=Actor.for_user(olga))
    assert call.state == "resolved" and call.resolved_by == olga
    actions = list(
        CompetitionEvent.objects.filter(action__startswith="director_call").values_list(
            "action", "data__table", "actor"
        )
    )
    assert actions == [
        ("director_call", 1, None),
        ("director_call_acknowledge", 1, olga.pk),
        ("director_call_resolve", 1, olga.pk),
    ]
    event = CompetitionEvent.objects.get(action="director_call")
    assert event.reason == "Who leads?" and event.data["call_reason"] == "rules"


def test_one_open_call_per_table_and_a_new_call_only_after_it_is_resolved_or_repeated_late(
    table, olga, monkeypatch
):
    by = table_actor(table)
    first = services.call_director(table=table, by=by, reason="dispute")
    with pytest.raises(RuleViolation) as refused:
        services.call_director(table=table, by=by, reason="other", text="hurry")
    assert codes(refused.value) == {("call", "not_allowed")}
    assert DirectorCall.objects.count() == 1
    # After REPEAT_MINUTES without an answer the same call rings again, unanswered anew.
    services.acknowledge_call(call=first, by=Actor.for_user(olga))
    DirectorCall.objects.filter(pk=first.pk).update(
        called_at=timezone.now() - dt.timedelta(minutes=call_services.REPEAT_MINUTES + 1)
    )
    again = services.call_director(table=table, by=by, reason="other", text="still waiting")
    assert (again.pk, again.times, again.state, again.reason) == (first.pk, 2, "open", "other")
    services.resolve_call(call=again, by=Actor.for_user(olga))
    fresh = services.call_director(table=table, by=by, reason="leaving")
    assert fresh.pk != first.pk and fresh.times == 1


def test_the_database_refuses_a_second_open_call_for_a_table(table):
    DirectorCall.objects.create(table=table, reason="rules", caller="")
    with pytest.raises(IntegrityError), transaction.atomic():
        DirectorCall.objects.create(table=table, reason="dispute", caller="")


def test_a_bad_reason_or_too_long_a_text_is_refused_naming_the_field(table):
    by = table_actor(table)
    with pytest.raises(RuleViolation) as refused:
        services.call_director(table=table, by=by, reason="coffee")
    assert codes(refused.value) == {("reason", "choice")}
    with pytest.raises(RuleViolation) as refused:
        services.call_director(table=table, by=by, reason="other", text="x" * 201)
    assert codes(refused.value) == {("text", "too_long")}
    assert not DirectorCall.objects.exists()


def test_who_may_call_the_table_phones_its_players_and_the_clubs_scorers(
    table, night, django_user_model, sara, bea
):
    other_table = Table.objects.get(round=night, number=2)
    # Another table's link may not call for this one; nor may someone outside the club.
    with pytest.raises(NotAllowed):
        services.call_director(table=table, by=Actor.for_table(other_table.game_id), reason="rules")
    with pytest.raises(NotAllowed):
        services.call_director(table=table, by=Actor.for_user(bea), reason="rules")
    # A player seated at the table, with an account.
    seat = table.seats.select_related("entry__player").first()
    player_user = django_user_model.objects.create_user("seated", password="pw")
    player = seat.entry.player
    player.user = player_user
    player.save(update_fields=["user"])
    call = services.call_director(table=table, by=Actor.for_user(player_user), reason="leaving")
    assert call.caller == player.display_name and call.called_by == player_user
    services.resolve_call(call=call, by=Actor.system())
    # A scorer of the club.
    call = services.call_director(table=table, by=Actor.for_user(sara), reason="rules")
    assert call.caller == "Sara"


def test_only_the_clubs_organizers_answer_a_call(table, sara, oscar):
    call = services.call_director(table=table, by=table_actor(table), reason="rules")
    with pytest.raises(NotAllowed):
        services.acknowledge_call(call=call, by=Actor.for_user(sara))
    with pytest.raises(NotAllowed):
        services.resolve_call(call=call, by=table_actor(table))
    assert services.acknowledge_call(call=call, by=Actor.for_user(oscar)).state == "coming"


def test_a_closed_or_unpublished_round_takes_no_call(table, olga):
    services.unpublish_round(round_=table.round, by=Actor.for_user(olga), reason="oops")
    table.round.refresh_from_db()
    with pytest.raises(RuleViolation) as refused:
        services.call_director(table=table, by=table_actor(table), reason="rules")
    assert codes(refused.value) == {("round", "not_allowed")}


@pytest.mark.django_db(transaction=True)
def test_a_call_is_heard_on_the_games_stream_and_on_the_desks(table, olga, streams):
    phone_client = phone(table.game)
    game_stream = streams(f"/g/{table.game_id}/events/", client=phone_client)
    assert game_stream.next()["event"] == "hello"
    desk = streams("/c/uno/k/notte/desk/events/", client=login(olga))
    assert desk.next()["event"] == "hello"
    services.call_director(table=table, by=table_actor(table), reason="dispute")
    heard = game_stream.next()
    assert heard["event"] == "call" and heard["data"]["state"] == "open"
    at_desk = desk.next()
    assert at_desk["event"] == "competition" and at_desk["data"]["action"] == "director_call"


# -- the pages ---------------------------------------------------------------------------------


def test_the_table_phone_calls_from_its_game_page_and_reads_that_the_director_is_coming(
    table, olga
):
    client = phone(table.game)
    page = client.get(f"/g/{table.game_id}/").content.decode()
    assert "Call the director" in page and 'id="table-clock"' in page
    answer = client.post(f"/g/{table.game_id}/director/", {"reason": "rules", "text": "trumps?"})
    assert answer.status_code == 302
    call = DirectorCall.objects.get()
    assert call.state == "open"
    panel = client.get(f"/g/{table.game_id}/director/").content.decode()
    assert "The director has been called." in panel and "trumps?" in panel
    organizer = login(olga)
    round_page = organizer.get("/c/uno/k/notte/rounds/1/").content.decode()
    assert "Calls from the tables" in round_page and "Called from the table’s phone" in round_page
    desk = organizer.get("/c/uno/k/notte/desk/").content.decode()
    assert "trumps?" in desk
    answer = organizer.post(
        f"/c/uno/k/notte/calls/{call.pk}/",
        {"action": "acknowledge", "next": "/c/uno/k/notte/rounds/1/"},
    )
    assert answer.status_code == 302 and answer["Location"] == "/c/uno/k/notte/rounds/1/"
    assert "The director is coming." in client.get(f"/g/{table.game_id}/director/").content.decode()
    organizer.post(f"/c/uno/k/notte/calls/{call.pk}/", {"action": "resolve"})
    panel = client.get(f"/g/{table.game_id}/director/").content.decode()
    assert "The director has dealt with your call." in panel and "Call the director" in panel
    assert "No table is calling" in organizer.get("/c/uno/k/notte/calls/").content.decode()


def test_a_bad_reason_on_the_page_is_shown_next_to_the_field(table):
    client = phone(table.game)
    answer = client.post(
        f"/g/{table.game_id}/director/", {"reason": "coffee"}, headers={"HX-Request": "true"}
    )
    assert answer.status_code == 400
    assert 'class="choices  has-error"' in answer.content.decode()
    assert not DirectorCall.objects.exists()


def test_a_spectator_may_not_call_and_sees_no_button(table, night, olga):
    night.competition.public = True
    night.competition.save(update_fields=["public"])
    spectator = Client()
    page = spectator.get(f"/g/{table.game_id}/").content.decode()
    assert "Call the director" not in page
    answer = spectator.post(f"/g/{table.game_id}/director/", {"reason": "rules"})
    assert answer.status_code == 403
    assert not DirectorCall.objects.exists()


def test_a_member_reads_the_calls_but_may_not_answer_them(table, club, django_user_model):
    member = django_user_model.objects.create_user("mimi", password="pw")
    join(club, member, "member")
    call = services.call_director(table=table, by=table_actor(table), reason="rules")
    client = login(member)
    panel = client.get("/c/uno/k/notte/calls/").content.decode()
    assert "Table 1" in panel and "I’m coming" not in panel
    assert client.post(f"/c/uno/k/notte/calls/{call.pk}/", {"action": "resolve"}).status_code == 403
    assert DirectorCall.objects.get().state == "open"


def test_a_table_phone_that_keeps_calling_is_made_to_wait(table, olga):
    client = phone(table.game)
    url = f"/g/{table.game_id}/director/"
    for _ in range(call_services.CALL_BACKOFF.free):
        client.post(url, {"reason": "rules"}, headers={"HX-Request": "true"})
    answer = client.post(url, {"reason": "rules"}, headers={"HX-Request": "true"})
    assert answer.status_code == 400
    assert "Too many calls from this table" in answer.content.decode()


def test_the_game_page_of_a_casual_game_has_no_table_section(terziglio, olga):
    page = login(olga).get(f"/g/{terziglio.pk}/").content.decode()
    assert "table-clock" not in page and "Call the director" not in page


# -- the API -----------------------------------------------------------------------------------


def test_the_api_calls_and_answers_and_names_a_bad_reason(table, olga, sara):
    scorer = api_as(sara)
    url = f"/api/v1/games/{table.game_id}/director-call/"
    bad = scorer.post(url, {"reason": "lunch"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "reason"
    made = scorer.post(url, {"reason": "dispute", "text": "a revoke"}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["table"], body["state"], body["reason"], body["caller"]) == (
        1,
        "open",
        "dispute",
        "Sara",
    )
    assert scorer.post(url, {"reason": "dispute"}, format="json").status_code == 400
    competition_id = table.round.competition_id
    listed = api_as(olga).get(f"/api/v1/competitions/{competition_id}/calls/").json()
    assert [c["id"] for c in listed["calls"]] == [body["id"]]
    answer_url = f"/api/v1/competitions/{competition_id}/calls/{body['id']}/"
    assert scorer.post(answer_url, {"action": "resolve"}, format="json").status_code == 403
    bad = api_as(olga).post(answer_url, {"action": "dance"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "action"
    done = api_as(olga).post(answer_url, {"action": "acknowledge"}, format="json")
    assert done.status_code == 200 and done.json()["state"] == "coming"
    assert scorer.get(url).json()["state"] == "coming"
    done = api_as(olga).post(answer_url, {"action": "resolve"}, format="json")
    assert done.json()["state"] == "resolved"


def test_the_api_refuses_a_caller_who_is_not_at_the_table(table, bea):
    url = f"/api/v1/games/{table.game_id}/director-call/"
    # A spectator of a public competition reads the game but may not call its director.
    assert api_as(bea).post(url, {"reason": "rules"}, format="json").status_code == 403
    competition = table.round.competition
    competition.public = False
    competition.save(update_fields=["public"])
    assert api_as(bea).post(url, {"reason": "rules"}, format="json").status_code == 404
    assert api_as(None).post(url, {"reason": "rules"}, format="json").status_code in (401, 403, 404)
    assert not DirectorCall.objects.exists()
