"""A game's live stream: every screen of the table hears of a hand the moment it is stored, and
only those who may read the game hear of it.

Events leave after COMMIT (a rolled-back hand says nothing); a screen that reconnects with the
last id it saw gets what it missed, or ``reload`` when that is too old, and a ``Last-Event-ID``
that is not one of ours is simply none; one address cannot hold hundreds of streams; a stream
ends with the login, the token or the table link that opened it, and at its session's end.
"""

from __future__ import annotations

import queue
import time
import warnings

import pytest
from django.db import transaction
from django.test import Client
from rest_framework.authtoken.models import Token

from scoring import services
from scoring.live.bus import reset_bus
from scoring.models import Game, TableLink
from scoring.services import Actor
from tests.clients import login
from tests.live import CLOSED, Stream

pytestmark = pytest.mark.django_db(transaction=True)

HAND = {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "chiamo", "soloist_points": 5}
OTHER = {"dealer": 1, "outcome": "played", "soloist": 2, "contract": "chiamo", "soloist_points": 4}


def hand(game, user, document=HAND):
    """A hand dealt by the seat whose turn it is (the document's other fields as given)."""
    game = Game.objects.get(pk=game.pk)
    dealer = 0 if game.last_dealer is None else (game.last_dealer + 1) % game.n
    document = {**document, "dealer": dealer}
    return services.record_hand(game=game, document=document, by=Actor.for_user(user))


def nothing_more(stream: Stream, seconds: float = 0.4) -> bool:
    try:
        stream.next(timeout=seconds)
    except queue.Empty:
        return True
    return False


def test_a_stored_hand_reaches_the_stream_of_its_game_with_the_new_version(
    terziglio, olga, streams
):
    stream = streams(f"/g/{terziglio.pk}/events/", client=login(olga))
    assert stream.status == 200
    assert stream.response["Content-Type"].startswith("text/event-stream")
    assert stream.response["X-Accel-Buffering"] == "no"
    hello = stream.next()
    assert hello["event"] == "hello"
    assert hello["data"] == {"id": terziglio.pk, "version": 1, "status": "in_progress"}
    hand(terziglio, olga)
    event = stream.next()
    assert event["event"] == "game"
    assert event["data"] == {
        "id": terziglio.pk,
        "version": 2,
        "status": "in_progress",
        "change": "hand",
    }
    assert event["id"] > hello["id"]


def test_a_correction_and_a_removal_are_announced_too(terziglio, olga, streams):
    hand(terziglio, olga)
    stream = streams(f"/api/v1/games/{terziglio.pk}/events/", client=login(olga))
    assert stream.next()["data"]["version"] == 2
    services.correct_hands(
        game=terziglio, changes={1: {**HAND, "soloist_points": 6}}, by=Actor.for_user(olga)
    )
    assert stream.next()["data"]["change"] == "correction"
    services.remove_hand(game=terziglio, number=1, by=Actor.for_user(olga), reason="wrong table")
    removal = stream.next()["data"]
    assert (removal["change"], removal["version"]) == ("removal", 4)


def test_a_rolled_back_hand_announces_nothing(terziglio, olga, streams):
    stream = streams(f"/g/{terziglio.pk}/events/", client=login(olga))
    stream.next()  # hello

    class Oops(Exception):
        pass

    with pytest.raises(Oops), transaction.atomic():
        hand(terziglio, olga)
        raise Oops
    assert nothing_more(stream)
    hand(terziglio, olga)
    # The first event heard is the stored hand's, at version 2: the rolled-back one said nothing.
    assert stream.next()["data"]["version"] == 2


def test_a_game_the_reader_may_not_read_has_no_stream(terziglio, other_club, bea, streams):
    # Circolo Uno's results are not public: a visitor and another club's owner are told 404.
    assert streams(f"/g/{terziglio.pk}/events/").status == 404
    assert streams(f"/g/{terziglio.pk}/events/", client=login(bea)).status == 404
    assert streams("/g/999999/events/").status == 404
    assert streams("/api/v1/games/999999/events/").status == 404


def test_a_table_link_session_reads_its_own_games_stream_and_no_other(
    club, players, olga, terziglio, streams
):
    other = services.start_game(
        club=club, ruleset="terziglio", players=players[1:], by=Actor.for_user(olga)
    )
    link = TableLink.objects.get(game=terziglio)
    table = Client()
    assert table.post(f"/t/{link.token}/", {"pin": link.pin}).status_code == 302
    own = streams(f"/g/{terziglio.pk}/events/", client=table)
    assert own.status == 200 and own.next()["event"] == "hello"
    assert streams(f"/g/{other.pk}/events/", client=table).status == 404
    hand(terziglio, olga)
    assert own.next()["data"]["change"] == "hand"


def test_a_renewed_table_link_ends_the_streams_it_opened_but_not_a_members(
    olga, terziglio, streams
):
    link = TableLink.objects.get(game=terziglio)
    table = Client()
    table.post(f"/t/{link.token}/", {"pin": link.pin})
    by_link = streams(f"/g/{terziglio.pk}/events/", client=table)
    member = streams(f"/g/{terziglio.pk}/events/", client=login(olga))
    by_link.next(), member.next()
    services.rotate_table_link(game=terziglio, by=Actor.for_user(olga))
    assert by_link.next() is CLOSED
    hand(terziglio, olga)
    assert member.next()["event"] == "game"
    # Opened again with the old link's session: refused like the page.
    assert streams(f"/g/{terziglio.pk}/events/", client=table).status == 404


def test_a_stream_reopened_with_its_last_event_id_gets_what_it_missed(terziglio, olga, streams):
    client = login(olga)
    first = streams(f"/g/{terziglio.pk}/events/", client=client)
    seen = first.next()["id"]
    first.close()
    hand(terziglio, olga)
    hand(terziglio, olga, OTHER)
    again = streams(f"/g/{terziglio.pk}/events/", client=client, headers={"Last-Event-ID": seen})
    missed = [again.next(), again.next()]
    assert [e["event"] for e in missed] == ["game", "game"]
    assert [e["data"]["version"] for e in missed] == [2, 3]
    assert nothing_more(again)
    # ``?last=`` does the same for a client that cannot set the header.
    by_query = streams(f"/g/{terziglio.pk}/events/?last={missed[0]['id']}", client=client)
    assert by_query.next()["data"]["version"] == 3
    # Up to date: nothing to replay, and the next hand arrives once.
    current = streams(
        f"/g/{terziglio.pk}/events/", client=client, headers={"Last-Event-ID": missed[1]["id"]}
    )
    assert nothing_more(current)
    hand(terziglio, olga)
    assert current.next()["data"]["version"] == 4
    assert nothing_more(current)


@pytest.mark.parametrize(
    "garbage",
    ["zzz", "12", "1-2-3", "-1-0", "9" * 40 + "-1", "1796169236297-0 ; drop", "0x1-0"],
)
def test_a_last_event_id_that_is_not_ours_is_none_and_gets_the_whole_state(
    terziglio, olga, streams, garbage
):
    hand(terziglio, olga)
    stream = streams(
        f"/g/{terziglio.pk}/events/", client=login(olga), headers={"Last-Event-ID": garbage}
    )
    assert stream.status == 200
    first = stream.next()
    assert first["event"] == "hello"
    assert first["data"] == {"id": terziglio.pk, "version": 2, "status": "in_progress"}


def test_digits_of_another_script_in_last_are_not_an_id(terziglio, olga, streams):
    stream = streams(f"/g/{terziglio.pk}/events/?last=１２-３", client=login(olga))
    assert stream.status == 200 and stream.next()["event"] == "hello"


def test_a_screen_that_missed_more_than_is_kept_is_told_to_reload(
    settings, terziglio, olga, streams
):
    settings.LIVE_HISTORY = 10
    reset_bus()
    client = login(olga)
    first = streams(f"/g/{terziglio.pk}/events/", client=client)
    seen = first.next()["id"]
    first.close()
    game = terziglio
    for _ in range(6):  # twelve events: the first two are no longer kept
        hand(game, olga)
        game = services.remove_hand(game=game, number=1, by=Actor.for_user(olga), reason="x")
    again = streams(f"/g/{terziglio.pk}/events/", client=client, headers={"Last-Event-ID": seen})
    reload = again.next()
    assert reload["event"] == "reload"
    assert reload["data"]["version"] == 13
    assert nothing_more(again)


def test_after_a_restart_a_screen_that_saw_events_of_the_old_process_is_told_to_reload(
    terziglio, olga, streams
):
    """make run: the bus lives in the process; what was published while it was down (hands
    sent through the outbox meanwhile, say) is nowhere to replay."""
    client = login(olga)
    first = streams(f"/g/{terziglio.pk}/events/", client=client)
    first.next()
    hand(terziglio, olga)
    seen = first.next()["id"]
    first.close()
    time.sleep(0.01)
    reset_bus()  # the server restarted
    hand(terziglio, olga, OTHER)  # the new process has a history of this channel
    again = streams(f"/g/{terziglio.pk}/events/", client=client, headers={"Last-Event-ID": seen})
    reload = again.next()
    assert (reload["event"], reload["data"]["version"]) == ("reload", 3)


def test_one_address_cannot_hold_hundreds_of_streams(settings, terziglio, olga, streams):
    settings.LIVE_STREAMS_PER_CLIENT = 3
    client = login(olga)
    url = f"/g/{terziglio.pk}/events/"
    held = [streams(url, client=client) for _ in range(3)]
    assert [s.status for s in held] == [200, 200, 200]
    refused = streams(url, client=client)
    assert refused.status == 429
    assert refused.response["Retry-After"] == "10"
    assert "3 live streams" in refused.json()["errors"][0]["message"]
    # Another address (as the proxy in front says) is not concerned; a closed stream gives its
    # place back.
    assert streams(url, client=client, headers={"X-Forwarded-For": "10.0.0.9"}).status == 200
    held[0].close()
    deadline = time.monotonic() + 3
    while streams(url, client=client).status != 200:
        assert time.monotonic() < deadline, "the closed stream never gave its place back"
        time.sleep(0.05)


def test_a_logout_ends_the_streams_of_its_session(terziglio, olga, streams):
    client = login(olga)
    stream = streams(f"/g/{terziglio.pk}/events/", client=client)
    stream.next()
    client.post("/logout/")
    end = stream.next()
    assert (end["event"], end["data"]) == ("end", {"reason": "logout"})
    assert stream.next() is CLOSED


def test_a_token_opens_the_api_stream_and_its_revocation_ends_it(terziglio, olga, streams):
    token = Token.objects.create(user=olga)
    url = f"/api/v1/games/{terziglio.pk}/events/"
    stream = streams(url, headers={"Authorization": f"Token {token.key}"})
    assert stream.status == 200 and stream.next()["event"] == "hello"
    assert streams(url, headers={"Authorization": "Token nope"}).status == 401
    assert streams(url, headers={"Authorization": "Basic b2xnYTp4"}).status == 401
    token.delete()
    assert stream.next()["data"] == {"reason": "token"}
    assert stream.next() is CLOSED


def test_an_idle_stream_sends_heartbeats_and_ends_with_its_session(
    settings, terziglio, olga, streams
):
    settings.LIVE_HEARTBEAT_SECONDS = 1
    client = login(olga)
    session = client.session
    session.set_expiry(2)
    session.save()
    stream = streams(f"/g/{terziglio.pk}/events/", client=client)
    assert stream.next()["event"] == "hello"
    assert stream.next(timeout=3, heartbeats=True) == {"comment": "heartbeat"}
    started = time.monotonic()
    while (event := stream.next(timeout=4, heartbeats=True)) is not CLOSED:
        assert event == {"comment": "heartbeat"}
    assert time.monotonic() - started < 4


def test_a_deactivated_account_ends_its_streams(terziglio, olga, streams):
    stream = streams(f"/g/{terziglio.pk}/events/", client=login(olga))
    stream.next()
    olga.is_active = False
    olga.save()
    assert stream.next()["data"] == {"reason": "account"}
    assert stream.next() is CLOSED


def test_a_server_that_cannot_hold_a_stream_answers_its_first_event_and_ends(terziglio, olga):
    """Under WSGI (a stream route sent to gunicorn by mistake, runserver) the answer would be
    collected whole for ever: it is the state, a longer retry, and the end."""
    response = login(olga).get(f"/g/{terziglio.pk}/events/")
    assert response.status_code == 200
    with warnings.catch_warnings():  # Django says a WSGI server collects an async answer
        warnings.simplefilter("ignore")
        body = b"".join(response).decode()
    assert body.startswith("retry: 5000\n\n")
    assert body.count("event: ") == 1 and "event: hello" in body
