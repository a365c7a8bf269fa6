"""What the hand endpoint tells the phone's outbox (``X-Outbox: 1``) when it refuses a hand the
form cannot fix: the API's error shape, with a code that says what the phone lacks, so that the
hand is kept and the page offers the right fix (``static/js/outbox.js``). Pages without the header
answer as before. The status line's sentences are translated."""

import re

import pytest
from django.db.models import Q
from django.test import Client
from django.utils import translation

from scoring import services
from scoring.extensions import GAME_AUDIENCES
from scoring.models import Game, Hand, TableLink
from scoring.services import Actor
from tests.clients import login, with_pin

pytestmark = pytest.mark.django_db

HAND = {
    "dealer": "0",
    "outcome": "played",
    "soloist": "0",
    "contract": "chiamo",
    "entry": "points",
    "soloist_points": "7",
    "sweep": "none",
}
OUTBOX = {"HTTP_X_OUTBOX": "1"}


@pytest.fixture
def make_public(monkeypatch):
    """Makes a game readable by anyone while in progress, as a public competition's table is:
    the game belongs to an app whose audience is everyone (``GAME_AUDIENCES``)."""
    monkeypatch.setitem(GAME_AUDIENCES, "everyone", Q)

    def make(game):
        Game.objects.filter(pk=game.pk).update(context="everyone")

    return make


def error(response) -> dict:
    (only,) = response.json()["errors"]
    return only


def test_a_phone_whose_table_session_ended_is_told_to_come_back_in_and_nothing_is_stored(
    terziglio,
):
    phone = with_pin(terziglio)
    phone.session.flush()  # the table session expires on the server
    response = phone.post(f"/g/{terziglio.pk}/hands/", HAND | {"idempotency_key": "k1"}, **OUTBOX)
    assert response.status_code == 404  # what a page says to a stranger about a private game
    assert error(response)["code"] == "not_authenticated"
    assert "enter the table PIN" in error(response)["message"]
    assert Hand.objects.count() == 0


def test_a_stranger_gets_the_same_answer_for_a_private_game_and_for_no_game(terziglio):
    private = Client().post(f"/g/{terziglio.pk}/hands/", HAND, **OUTBOX)
    missing = Client().post(f"/g/{terziglio.pk + 1000}/hands/", HAND, **OUTBOX)
    assert (private.status_code, private.json()) == (missing.status_code, missing.json())
    assert error(private)["code"] == "not_authenticated"


def test_a_stranger_at_a_public_game_is_forbidden_and_told_to_come_in(terziglio, make_public):
    make_public(terziglio)
    response = Client().post(f"/g/{terziglio.pk}/hands/", HAND, **OUTBOX)
    assert (response.status_code, error(response)["code"]) == (403, "not_authenticated")


def test_a_table_session_of_another_game_is_told_to_come_in_to_this_one(club, players, olga):
    by = Actor.for_user(olga)
    first = services.start_game(club=club, ruleset="terziglio", players=players[:3], by=by)
    other = services.start_game(club=club, ruleset="terziglio", players=players[1:], by=by)
    response = with_pin(first).post(f"/g/{other.pk}/hands/", HAND, **OUTBOX)
    assert (response.status_code, error(response)["code"]) == (404, "not_authenticated")
    assert Hand.objects.count() == 0


def test_a_signed_in_stranger_is_told_the_game_is_not_to_be_found(bea, terziglio):
    response = login(bea).post(f"/g/{terziglio.pk}/hands/", HAND, **OUTBOX)
    assert response.status_code == 404
    assert error(response) == {
        "hand": None,
        "field": None,
        "code": "not_found",
        "message": "This game is gone, or you cannot see it.",
    }


def test_a_signed_in_reader_of_a_public_game_may_not_enter_hands(bea, terziglio, make_public):
    make_public(terziglio)
    response = login(bea).post(f"/g/{terziglio.pk}/hands/", HAND, **OUTBOX)
    assert (response.status_code, error(response)["code"]) == (403, "permission_denied")
    assert Hand.objects.count() == 0


def test_a_key_sent_again_with_other_values_is_a_422_for_the_outbox(olga, terziglio):
    phone = login(olga)
    first = phone.post(f"/g/{terziglio.pk}/hands/", HAND | {"idempotency_key": "k"}, **OUTBOX)
    assert first.status_code == 201
    other = HAND | {"soloist_points": "8", "idempotency_key": "k"}
    response = phone.post(f"/g/{terziglio.pk}/hands/", other, **OUTBOX)
    assert response.status_code == 422
    assert (error(response)["field"], error(response)["code"]) == ("idempotency_key", "reused")
    assert list(Hand.objects.values_list("document__soloist_points", flat=True)) == [7]


def test_without_the_outbox_header_the_pages_answer_as_before(olga, bea, terziglio, make_public):
    assert Client().post(f"/g/{terziglio.pk}/hands/", HAND).status_code == 404
    assert login(bea).post(f"/g/{terziglio.pk}/hands/", HAND).status_code == 404
    make_public(terziglio)
    assert login(bea).post(f"/g/{terziglio.pk}/hands/", HAND).status_code == 403
    phone = login(olga)
    phone.post(f"/g/{terziglio.pk}/hands/", HAND | {"idempotency_key": "k"})
    again = phone.post(
        f"/g/{terziglio.pk}/hands/", HAND | {"soloist_points": "8"} | {"idempotency_key": "k"}
    )
    assert again.status_code == 400
    assert "already sent with different values" in again.content.decode()


def test_the_form_of_a_phone_let_in_by_the_table_link_leads_back_to_it(olga, terziglio):
    link = TableLink.objects.get(game=terziglio)
    at_table = with_pin(terziglio).get(f"/g/{terziglio.pk}/").content.decode()
    assert f'data-table-link="/t/{link.token}/"' in at_table
    signed_in = login(olga).get(f"/g/{terziglio.pk}/").content.decode()
    assert "data-table-link" not in signed_in and link.token not in signed_in


@pytest.mark.parametrize("language", ["fr", "it"])
def test_every_sentence_of_the_outbox_status_is_translated(olga, terziglio, language):
    """Each translated data attribute of #outbox-status reads differently from the English one."""

    def status_words(lang):
        with translation.override(lang):
            html = login(olga).get(f"/g/{terziglio.pk}/", HTTP_ACCEPT_LANGUAGE=lang)
        tag = re.search(r'<div id="outbox-status"[^>]*>', html.content.decode(), re.S).group(0)
        return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', tag))

    english, translated = status_words("en"), status_words(language)
    assert len(english) >= 30
    untranslated = [
        name for name, text in english.items() if name != "login-url" and translated[name] == text
    ]
    assert untranslated == []


def test_a_hand_for_a_game_of_a_closed_round_is_refused_with_409_and_the_reason(terziglio, olga):
    services.lock_games(
        games=[terziglio],
        by=Actor.for_user(olga),
        reason="round_closed",
        context={"round": 3, "competition": "Spring league"},
    )
    phone = with_pin(terziglio)
    response = phone.post(f"/g/{terziglio.pk}/hands/", HAND | {"idempotency_key": "k9"}, **OUTBOX)
    assert response.status_code == 409
    assert error(response)["code"] == "locked"
    assert "Spring league" in error(response)["message"]
    assert "reopen" in error(response)["message"]
    assert Hand.objects.count() == 0
